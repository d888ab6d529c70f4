//! `cactus fuzz`: differential testing of the instrumentation passes with random csmith
//! programs (docs/fuzz.md); `cactus fuzz replay DIR` re-runs a saved case.
//!
//! The last line printed is "N passed, M failed" (skipped programs are counted on the line
//! before it). Exit codes: 0 nothing failed, 1 at least one failure, 2 bad input or a missing
//! tool.

mod replay;

use anyhow::{bail, Context, Result};
use cactus_verify::fuzz::batch::run_multitask;
use cactus_verify::fuzz::case::{CaseOutcome, CaseStatus, FuzzOptions};
use cactus_verify::fuzz::multitask::GroupOutcome;
use cactus_verify::fuzz::variant::{
    isolate_variants, logical_variants, parse_mode, preempt_variants, variants, OptLevel,
};
use cactus_verify::fuzz::{run_batch, BatchSummary};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options of `cactus fuzz`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct FuzzArgs {
    /// Re-run a saved case instead of generating programs.
    #[command(subcommand)]
    pub command: Option<FuzzCommand>,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// `cactus fuzz` subcommands.
#[derive(Subcommand, Debug)]
pub enum FuzzCommand {
    /// Re-run a saved case (a directory under --out) and print its findings.
    Replay(replay::ReplayArgs),
}

/// Options of a batch run.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// How many programs (seeds SEED, SEED+1, ...).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub runs: u64,
    /// csmith seed of the first program.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Programs judged in parallel (default: the number of CPUs).
    #[arg(long, value_name = "J")]
    pub jobs: Option<usize>,
    /// Optimization levels, comma-separated (O0 is always built: it is the reference).
    #[arg(long, value_name = "LEVELS", default_value = "O0,O1,O2,Os")]
    pub opt: String,
    /// Check modes, comma-separated (none, detect, mtss, split).
    #[arg(long, value_name = "MODES", default_value = "none,detect,mtss")]
    pub modes: String,
    /// Also build every level with the stack checks (detect) followed by the preempt-traps
    /// pass with period N (docs/sensmart.md): a small N exercises the kernel entry often.
    #[arg(long, value_name = "N")]
    pub preempt_traps: Option<u32>,
    /// Also build every level with the stack checks (detect) followed by the isolate pass
    /// (docs/sensmart.md "Memory isolation"): every checked store, jump and library write must
    /// pass (the runtime's slow path decides exactly; a refused access traps).
    #[arg(long)]
    pub isolate: bool,
    /// Also build every level with the stack checks (detect) and the logical-stack pass
    /// (docs/sensmart.md "The software variant"): the runtime puts the program's logical stack
    /// at the top of the stack window's aperture, so every stack address that leaves sp is
    /// logical and every access through it is translated.
    #[arg(long)]
    pub logical_stack: bool,
    /// Where failing cases are kept (`seed-N/`; baseline disagreements in `baseline/`).
    #[arg(long, value_name = "DIR", default_value = "build/fuzz")]
    pub out: PathBuf,
    /// Reduce each failing case with creduce (into its `reduce/` directory).
    #[arg(long)]
    pub reduce: bool,
    /// Also run every reference build on QEMU and compare.
    #[arg(long)]
    pub qemu: bool,
    /// Also run the passed programs N at a time as preemptive tasks of one kernel firmware
    /// per variant (tight stacks, seeded time slice); 0 = off.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub multitask: usize,
    /// Skip the tight-stack runs.
    #[arg(long)]
    pub no_tight: bool,
    /// Simulated-cycle limit of a reference run; slower programs are skipped (judged programs
    /// need well under 10^7 cycles; those that need more usually loop for 10^9 and beyond).
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_cycles: u64,
    /// Wall-clock limit of a QEMU run, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    pub qemu_timeout: f64,
}

/// Runs `cactus fuzz`.
pub fn main(args: FuzzArgs) -> Result<ExitCode> {
    match args.command {
        Some(FuzzCommand::Replay(replay_args)) => replay::main(replay_args),
        None => batch(args.batch),
    }
}

fn batch(args: BatchArgs) -> Result<ExitCode> {
    let options = options_from(&args)?;
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let bar = cactus_sweep::Progress::bar(args.runs, "")?;
    let report_case = |case: &CaseOutcome| {
        if case.status == CaseStatus::Failed {
            bar.suspend(|| print_failure(case));
        }
        bar.step();
    };
    let summary = run_batch(args.seed, args.runs, jobs, &options, &report_case)?;
    bar.finish();
    let (mut passed, mut failed) = (summary.passed, summary.failed);
    if args.multitask > 0 {
        let report_group = |group: &GroupOutcome| {
            if !group.findings.is_empty() {
                println!("FAIL  multi-task seeds {:?}:", group.seeds);
                for f in &group.findings {
                    print!("  {f}");
                }
                if let Some(dir) = &group.saved {
                    println!("  saved: {}", dir.display());
                }
            }
        };
        let groups = run_multitask(
            &summary.outcomes,
            args.multitask,
            jobs,
            &options,
            &report_group,
        )?;
        let bad = groups.iter().filter(|g| !g.findings.is_empty()).count() as u64;
        println!(
            "multi-task: {} groups of up to {} programs, {} firmware builds, {} passed, {} failed",
            groups.len(),
            args.multitask,
            groups.iter().map(|g| u64::from(g.builds)).sum::<u64>(),
            groups.len() as u64 - bad,
            bad
        );
        passed += groups.len() as u64 - bad;
        failed += bad;
    }
    if args.reduce {
        let cactus = std::env::current_exe().context("locating the cactus binary")?;
        for case in summary
            .outcomes
            .iter()
            .filter(|c| c.status == CaseStatus::Failed)
        {
            if let (Some(dir), Some(finding)) = (&case.saved, case.findings.first()) {
                replay::reduce_one(&cactus, dir, &finding.signature(), jobs)?;
            }
        }
    }
    print_summary(&summary, &args.out);
    println!("{passed} passed, {failed} failed");
    Ok(exit_code(failed))
}

fn options_from(args: &BatchArgs) -> Result<FuzzOptions> {
    let opts = args
        .opt
        .split(',')
        .map(|o| OptLevel::parse(o).with_context(|| format!("--opt: unknown level `{o}`")))
        .collect::<Result<Vec<_>>>()?;
    let modes = args
        .modes
        .split(',')
        .map(|m| parse_mode(m).with_context(|| format!("--modes: unknown mode `{m}`")))
        .collect::<Result<Vec<_>>>()?;
    if args.multitask == 1 {
        bail!("--multitask needs at least 2 programs per firmware (0 turns it off)");
    }
    if !(args.qemu_timeout > 0.0 && args.qemu_timeout.is_finite()) {
        bail!("--qemu-timeout must be a positive number of seconds");
    }
    let mut all = variants(&opts, &modes);
    if let Some(n) = args.preempt_traps {
        if n == 0 {
            bail!("--preempt-traps: the period N must be at least 1");
        }
        all.extend(preempt_variants(&opts, n));
    }
    if args.isolate {
        all.extend(isolate_variants(&opts));
    }
    if args.logical_stack {
        if args.multitask > 0 {
            bail!("--logical-stack cannot be combined with --multitask (the multitask runtime gives its tasks no displacement)");
        }
        all.extend(logical_variants(&opts));
    }
    Ok(FuzzOptions {
        variants: all,
        max_cycles: args.max_cycles,
        tight: !args.no_tight,
        qemu: args.qemu,
        qemu_timeout: Duration::from_secs_f64(args.qemu_timeout),
        out: args.out.clone(),
    })
}

fn print_failure(case: &CaseOutcome) {
    let seed = case.seed.map_or("program".into(), |s| format!("seed {s}"));
    println!("FAIL  {seed}:");
    for f in &case.findings {
        print!("  {f}");
    }
    if let Some(dir) = &case.saved {
        println!(
            "  saved: {}   replay: cactus fuzz replay {}",
            dir.display(),
            dir.display()
        );
    }
}

fn print_summary(summary: &BatchSummary, out: &Path) {
    let programs = summary.outcomes.len().max(1) as f64;
    println!(
        "{} programs, {} simulator runs in {:.1} s ({:.2} s per program)",
        summary.outcomes.len(),
        summary.runs,
        summary.wall.as_secs_f64(),
        summary.wall.as_secs_f64() / programs
    );
    let mut cycles: Vec<u64> = summary
        .outcomes
        .iter()
        .filter(|o| o.reference_cycles > 0)
        .map(|o| o.reference_cycles)
        .collect();
    cycles.sort_unstable();
    if let (Some(median), Some(max)) = (cycles.get(cycles.len() / 2), cycles.last()) {
        println!("reference run of a judged program: median {median} cycles, largest {max}");
    }
    if summary.baseline > 0 {
        println!(
            "{} baseline disagreements (uninstrumented -O levels differ: not cactus failures; kept in {})",
            summary.baseline,
            out.join("baseline").display()
        );
    }
    let mut reasons: Vec<String> = summary
        .outcomes
        .iter()
        .filter_map(|o| match &o.status {
            CaseStatus::Skipped(why) => Some(why.lines().next().unwrap_or_default().to_string()),
            _ => None,
        })
        .collect();
    reasons.sort();
    reasons.dedup();
    println!(
        "{} skipped{}",
        summary.skipped,
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join("; "))
        }
    );
}

/// 0 if nothing failed, else 1.
fn exit_code(failed: u64) -> ExitCode {
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
