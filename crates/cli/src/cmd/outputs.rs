//! What every report-writing command shares: refusing output paths whose directory does not
//! exist before any work is done, the command line for report headers, and the progress bar
//! (drawn only on a terminal).

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

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

/// The command line as typed, with `cactus` as the program name (for report headers).
pub fn command_line() -> String {
    std::iter::once("cactus".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A progress bar of `len` steps counting `unit` (e.g. "seeds"; "" for none) on stderr when
/// it is a terminal, hidden otherwise.
pub fn progress_bar(len: u64, unit: &str) -> Result<ProgressBar> {
    let bar = ProgressBar::new(len);
    if std::io::stderr().is_terminal() {
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}}{unit} {{elapsed}} {{msg}}"
            ))
            .context("progress bar template")?,
        );
    } else {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    }
    Ok(bar)
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
