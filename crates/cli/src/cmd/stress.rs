//! `cactus stress`: randomized stress tests. `mtss` runs a seeded stress workload
//! (default `workloads/mtss-stress/stress.toml`) many times with ample static stacks and with
//! shrunk, shared `mtss` stacks, and requires identical output and no oracle violation
//! (docs/mtss.md, "Randomized stress").

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Result};
use cactus_verify::stress::{self, Stress};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// The tight build's stack strategy: `mtss` (default), or `segmented`, `mtss+split`,
    /// `chunks` (with their default checks: `split` for `segmented` and `mtss+split`, `mtss`
    /// for `chunks`) or `relocate` (stacks grown by relocation, the manifest's checks kept).
    #[arg(long, value_name = "STRATEGY", default_value = "mtss")]
    pub stack: String,
    /// Build the tight variant for the simulator's hardware stack bound (`kernel.stack_bound`:
    /// the kernel keeps `mstackbound` at the running stack's limit, entry checks it makes have
    /// no instruction).
    #[arg(long)]
    pub stack_bound: bool,
    /// Shrink every task's budget in the `mtss` build by PCT percent (rounded down to 16
    /// bytes, at least 128).
    #[arg(long, value_name = "PCT", default_value_t = stress::DEFAULT_SHRINK)]
    pub shrink: u32,
    /// Cycle limit of each run.
    #[arg(long, value_name = "N", default_value_t = stress::DEFAULT_MAX_CYCLES)]
    pub max_cycles: u64,
    /// Where and how the seeds run (`--jobs`, `--json`, `--markdown` for
    /// docs/results/mtss-stress.md, `--resume`, `--shard`).
    #[command(flatten)]
    pub sweep: crate::cmd::outputs::SweepArgs,
}

/// Runs `cactus stress`.
pub fn main(args: StressArgs) -> Result<ExitCode> {
    match args.kind {
        StressKind::Mtss(a) => mtss(a),
    }
}

fn mtss(args: MtssStressArgs) -> Result<ExitCode> {
    if args.runs == 0 {
        bail!("--runs: at least one run");
    }
    args.sweep.outputs()?;
    let manifest = match &args.manifest {
        Some(m) => m.clone(),
        None => {
            let root =
                cactus_firmware::checkout::find_checkout("cactus stress mtss without a MANIFEST")?;
            let shown = Path::new(stress::DEFAULT_MANIFEST);
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
    let strategy = cactus_firmware::StackStrategy::parse(&args.stack)
        .map_err(|e| anyhow::anyhow!("--stack: {e}"))?;
    // `relocate` moves whole stacks instead of frames: its growths are what is stressed.
    if !strategy.moves_frames() && strategy != cactus_firmware::StackStrategy::Relocate {
        bail!(
            "--stack: {} does not move frames or stacks (the stress needs mtss, chunks, \
             segmented, mtss+split or relocate)",
            strategy.name()
        );
    }
    eprintln!(
        "cactus: building {} (static and {})",
        manifest.display(),
        strategy.name()
    );
    let fw = stress::build_pair(
        &manifest,
        args.shrink,
        &checks,
        None,
        strategy.name(),
        args.stack_bound,
    )?;
    let shown = manifest.display().to_string();
    let points = stress::points(&fw, args.seed, args.runs, args.max_cycles);
    let params = stress::params(&fw, &shown, args.shrink, args.max_cycles);
    let done = cactus_sweep::execute::<Stress>(points, params, &args.sweep.outputs()?)?;
    if let Some(path) = &args.sweep.report {
        let markdown = done.report.markdown(&done.store.meta);
        crate::cmd::outputs::write_page(path, &markdown, &done.store.meta.command)?;
    }
    for f in done.store.rows().into_iter().filter(|r| !r.passed) {
        println!("FAIL seed {}: {}", f.seed, f.problems.join("; "));
        println!(
            "  replay: {}",
            stress::replay_command(
                &shown,
                strategy.name(),
                args.stack_bound,
                args.shrink,
                f.seed
            )
        );
    }
    println!("{}", done.report.summary_line());
    Ok(if done.report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
