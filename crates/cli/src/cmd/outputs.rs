//! What every sweep command shares: its output options (`--jobs`, `--json`, `--markdown`,
//! `--report`, `--resume`, `--shard`), refusing output paths whose directory does not exist
//! before any work is done, and [`finish`], which runs the sweep on the engine, prints its
//! tables and ends with the one-line summary.

use anyhow::{bail, Result};
use cactus_sweep::{Evaluation, Outputs, Point, Shard};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options every sweep takes.
#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// Points (builds and runs, searches) made at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Write the results (the resumable store) as JSON to FILE, rewritten after each point.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the report as an HTML page to FILE: the tables, each with a bar chart per figures
    /// column (the paper's figures in their own colour), one self-contained file.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Resume from the JSON of an earlier run of the same experiment: its finished points
    /// are kept (a missing file starts afresh).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Run only slice I of N of the points (round robin); `cactus bench merge` joins the
    /// slices' JSON files into the same tables a single run gives.
    #[arg(long, value_name = "I/N", default_value = "1/1")]
    pub shard: String,
}

impl SweepArgs {
    /// The engine's outputs; errs on a bad `--shard` or an output directory that does not
    /// exist.
    pub fn outputs(&self) -> Result<Outputs> {
        check_output_dirs(self.markdown.iter().chain(&self.json).chain(&self.report))?;
        let shard: Shard = self.shard.parse()?;
        Ok(Outputs {
            jobs: self.jobs,
            shard,
            json: self.json.clone(),
            markdown: self.markdown.clone(),
            resume: self.resume.clone(),
        })
    }
}

/// Errs, naming the path and the missing directory, if any of `paths` lies in a directory
/// that does not exist (a path with no directory part is in the current one).
pub fn check_output_dirs<'a>(paths: impl IntoIterator<Item = &'a PathBuf>) -> Result<()> {
    for path in paths {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(parent) = parent.filter(|p| !p.is_dir()) {
            bail!(
                "cannot write {}: no directory {}",
                path.display(),
                parent.display()
            );
        }
    }
    Ok(())
}

/// Runs `points` of `E` as `args` say, prints the tables and then the summary line
/// (`name: key=value ... passed=N failed=M`) last. Exit code 0 when every point of the run
/// passed, 1 otherwise (the files are written either way).
pub fn finish<E: Evaluation>(
    points: Vec<Point<'_, E::Row>>,
    params: serde_json::Value,
    args: &SweepArgs,
) -> Result<ExitCode> {
    finish_then::<E>(points, params, args, |_| Ok(()))
}

/// [`finish`], calling `then` with the rows (the whole store's) before anything is printed,
/// e.g. to write a plot of them; its error is the command's.
pub fn finish_then<E: Evaluation>(
    points: Vec<Point<'_, E::Row>>,
    params: serde_json::Value,
    args: &SweepArgs,
    then: impl FnOnce(&[E::Row]) -> Result<()>,
) -> Result<ExitCode> {
    let outputs = args.outputs()?;
    let done = cactus_sweep::execute::<E>(points, params, &outputs)?;
    let rows: Vec<E::Row> = done.store.rows().into_iter().cloned().collect();
    then(&rows)?;
    if let Some(path) = &args.report {
        write_page(
            path,
            &done.report.markdown(&done.store.meta),
            &done.store.meta.command,
        )?;
    }
    print!("{}", done.report.tables);
    println!("{}", done.report.summary_line());
    Ok(if done.report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes the HTML page of the Markdown report `markdown` (titled `title`) to `path`
/// atomically and says where it is.
pub fn write_page(path: &std::path::Path, markdown: &str, title: &str) -> Result<()> {
    let page = crate::html::sweep::render(markdown, title);
    crate::report::write_atomically(path, |out| Ok(out.write_all(page.as_bytes())?))?;
    eprintln!("cactus: report: {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_output_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let ok = dir.path().join("out.md");
        let bad = dir.path().join("nowhere/out.json");
        assert!(check_output_dirs([&ok, &PathBuf::from("plain.md")]).is_ok());
        let err = check_output_dirs([&ok, &bad]).unwrap_err().to_string();
        assert!(
            err.contains("nowhere/out.json") && err.contains("no directory"),
            "{err}"
        );
    }
}
