//! `cactus stress`: randomized stress tests. `mtss` runs a seeded stress workload
//! (default `workloads/mtss-stress/stress.toml`) many times with ample static stacks and with
//! shrunk, shared `mtss` stacks, and requires identical output and no oracle violation
//! (docs/mtss.md, "Randomized stress").

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Context, Result};
use cactus_verify::stress::StressReport;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `cactus stress`.
#[derive(Args, Debug)]
pub struct StressArgs {
    /// Which stress test.
    #[command(subcommand)]
    pub kind: StressKind,
}

/// The stress tests.
#[derive(Subcommand, Debug)]
pub enum StressKind {
    /// Seeded random recursion in several preempted tasks, `static` with ample stacks against
    /// `mtss` with shrunk ones: every seed must exit 0 in both, with identical UART output and
    /// no ownership-oracle violation; last line "N passed, M failed".
    Mtss(MtssStressArgs),
}

/// Options of `cactus stress mtss`.
#[derive(Args, Debug)]
pub struct MtssStressArgs {
    /// The stress workload's manifest (default: workloads/mtss-stress/stress.toml).
    pub manifest: Option<PathBuf>,
    /// Seeds to run.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub runs: u32,
    /// The first seed (then S+1, S+2, ...).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u32,
    /// Parallel runs.
    #[arg(long, value_name = "J", default_value_t = 2)]
    pub jobs: usize,
    /// Shrink every task's budget in the `mtss` build by PCT percent (rounded down to 16
    /// bytes, at least 128).
    #[arg(long, value_name = "PCT", default_value_t = cactus_verify::stress::DEFAULT_SHRINK)]
    pub shrink: u32,
    /// Cycle limit of each run.
    #[arg(long, value_name = "N", default_value_t = cactus_verify::stress::DEFAULT_MAX_CYCLES)]
    pub max_cycles: u64,
    /// Write every run's results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE (docs/results/mtss-stress.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// Runs `cactus stress`.
pub fn main(args: StressArgs) -> Result<ExitCode> {
    match args.kind {
        StressKind::Mtss(a) => mtss(a),
    }
}

fn mtss(args: MtssStressArgs) -> Result<ExitCode> {
    let started = Instant::now();
    if args.runs == 0 {
        bail!("--runs: at least one run");
    }
    crate::cmd::outputs::check_output_dirs(args.markdown.iter().chain(&args.json))?;
    let manifest = match &args.manifest {
        Some(m) => m.clone(),
        None => {
            let root = cactus_firmware::find_root(Path::new("."))
                .context("without a MANIFEST, cactus stress mtss runs inside the Cactus tree")?;
            let shown = Path::new(cactus_verify::stress::DEFAULT_MANIFEST);
            if root == std::env::current_dir()? {
                shown.to_path_buf()
            } else {
                root.join(shown)
            }
        }
    };
    if !manifest.is_file() {
        bail!("{}: no such manifest", manifest.display());
    }
    let checks = cactus_firmware::CheckOptions {
        reserves: toolchain_reserves()?,
        ..Default::default()
    };
    eprintln!("cactus: building {} (static and mtss)", manifest.display());
    let fw = cactus_verify::stress::build_pair(&manifest, args.shrink, &checks, None)?;
    let bar = crate::cmd::outputs::progress_bar(u64::from(args.runs), "seeds")?;
    let failed = std::sync::atomic::AtomicUsize::new(0);
    let progress = |r: &cactus_verify::stress::SeedResult| {
        if !r.passed {
            let n = failed.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} failed"));
        }
        bar.inc(1);
    };
    let results = cactus_verify::stress::run_seeds(
        &fw,
        args.seed,
        args.runs,
        args.jobs,
        args.max_cycles,
        &progress,
    )?;
    bar.finish_and_clear();
    let shown = manifest.display().to_string();
    let report = StressReport {
        manifest: shown.clone(),
        workload: fw.workload.clone(),
        shrink_percent: args.shrink,
        page_bytes: fw.page_bytes,
        max_cycles: args.max_cycles,
        budgets: fw.budgets.clone(),
        results,
    };
    for f in report.failures() {
        println!("FAIL seed {}: {}", f.seed, f.problems.join("; "));
        println!(
            "  replay: {}",
            cactus_verify::stress::replay_command(&shown, args.shrink, f.seed)
        );
    }
    let s = cactus_verify::stress::summary(&report);
    println!(
        "{} seeds from {}: mtss moved frames in {} runs ({} frames, {} bytes lent), {} oracle \
         violations",
        s.runs, args.seed, s.runs_with_moves, s.moved_frames, s.lent_bytes, s.violations
    );
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        let command = crate::cmd::outputs::command_line();
        let text = format!(
            "<!-- generated by `{command}`; do not edit by hand -->\n\n\
             Generated by `{command}` in {:.0} s.\n\n{READING}\n\n{}",
            started.elapsed().as_secs_f64(),
            cactus_verify::stress::markdown(&report)
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("{} passed, {} failed", s.passed, s.runs - s.passed);
    Ok(if s.passed == s.runs {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What the report shows (the figures are in the generated tables below it).
const READING: &str = "How to read this report. The stress workload's worker tasks run \
recursion chains whose depths, frame sizes (16 to 600-byte arrays, twelve-argument calls with \
stack arguments) and busy-work, yields and sleeps all come from one seed, under a 100 kHz tick \
with one-tick round-robin slices, so preemption lands at different instructions in every run. \
Each seed runs twice on cactus-sim (`mcu` profile): the reference build (`stack = \"static\"`, \
no checks, the manifest's ample budgets) and the `mtss` build (`checks = \"mtss\"`, every \
budget shrunk), with the ownership oracle stopping a run at its first violation. A seed passes \
when both exit 0, neither has an oracle violation and both print exactly the same UART output \
(every worker's checksum, recomputed by the coordinator). *Frames moved* counts the `mtss` \
run's stack requests served by moving a frame into another task's pages; *bytes lent* sums \
the loans (`REGION_LEND` events).";
