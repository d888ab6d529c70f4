//! `cactus fuzz replay DIR`: re-run a saved case, check that a finding reproduces (creduce's
//! interestingness test), or reduce the case with creduce.

use super::exit_code;
use anyhow::{bail, Context, Result};
use cactus_verify::fuzz::case::{run_source, CaseStatus};
use cactus_verify::fuzz::reduce::reduce_case;
use cactus_verify::fuzz::saved::{keep_case, load_options};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus fuzz replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The saved case directory (holds case.json and prog.c).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Run this C file instead of the case's prog.c (creduce's candidates).
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
    /// Succeed only if the replay reports this finding ("<variant>: <kind>"); keeps nothing.
    #[arg(long, value_name = "SIGNATURE")]
    pub expect: Option<String>,
    /// Reduce the case with creduce for --expect (default: its first finding).
    #[arg(long)]
    pub reduce: bool,
    /// Cores creduce may use.
    #[arg(long, value_name = "J", default_value_t = 1)]
    pub jobs: usize,
}

/// Runs `cactus fuzz replay`.
pub fn main(args: ReplayArgs) -> Result<ExitCode> {
    let (file, options) = load_options(&args.dir, args.dir.join("replay"))?;
    let source_path = args
        .source
        .clone()
        .unwrap_or_else(|| args.dir.join("prog.c"));
    let source = std::fs::read_to_string(&source_path)
        .with_context(|| format!("reading {}", source_path.display()))?;
    if args.reduce {
        let signature = match (&args.expect, file.findings.first()) {
            (Some(sig), _) => sig.clone(),
            (None, Some(f)) => f.signature(),
            (None, None) => bail!(
                "{}: the case has no finding to reduce for",
                args.dir.display()
            ),
        };
        let cactus = std::env::current_exe().context("locating the cactus binary")?;
        let reduced = reduce_one(&cactus, &args.dir, &signature, args.jobs)?;
        return Ok(if reduced {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let work = tempfile::tempdir().context("creating a scratch directory")?;
    let outcome = run_source(work.path(), &source, file.seed, &options)?;
    if let Some(signature) = &args.expect {
        let found = outcome.findings.iter().any(|f| &f.signature() == signature);
        println!(
            "{}",
            if found {
                "reproduced"
            } else {
                "not reproduced"
            }
        );
        return Ok(if found {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let kept = args.dir.join("replay");
    keep_case(work.path(), &kept)?;
    let text = std::fs::read_to_string(kept.join("report.txt"))
        .with_context(|| format!("reading {}", kept.join("report.txt").display()))?;
    print!("{text}");
    println!("files: {}", kept.display());
    // A skipped replay (the reference no longer runs cleanly) is not a pass.
    let failed = u64::from(outcome.status != CaseStatus::Passed);
    println!("{} passed, {} failed", 1 - failed, failed);
    Ok(exit_code(failed))
}

/// Reduces the case in `dir` for `signature`; true if creduce produced a reduced file.
pub(super) fn reduce_one(cactus: &Path, dir: &Path, signature: &str, jobs: usize) -> Result<bool> {
    println!("reducing {} for `{signature}` (creduce)...", dir.display());
    match reduce_case(cactus, dir, signature, jobs)? {
        Ok(path) => {
            println!("reduced: {}", path.display());
            Ok(true)
        }
        Err(why) => {
            println!("creduce failed: {}", why.trim());
            Ok(false)
        }
    }
}
