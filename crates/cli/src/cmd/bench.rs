//! `cactus bench`: benchmarks. `sim-speed` measures cactus-sim against QEMU in the same run;
//! `kernel` measures the Cactus kernel's context switches and footprint on cactus-sim;
//! `workloads` runs the workload suites (full inputs by default) on cactus-sim.

use crate::cmd::profile_arg::resolve_profile;
use crate::cmd::workloads::{run_all, selected, workloads_dir, SizeArg};
use anyhow::{Context, Result};
use cactus_bench::kernel::{run_kernel_bench, KernelBenchOptions};
use cactus_bench::sim_speed::{run_sim_speed, SpeedOptions};
use cactus_bench::workloads::bench::BenchRow;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `cactus bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which benchmark.
    #[command(subcommand)]
    pub bench: Bench,
}

/// The benchmarks.
#[derive(Subcommand, Debug)]
pub enum Bench {
    /// cactus-sim's MIPS against QEMU's on build/bench/sim-speed/ (target: ratio >= 0.2).
    SimSpeed(SimSpeedArgs),
    /// Kernel context-switch cost (yield, blocking, timer preemption) and footprint on
    /// cactus-sim, beside the goals and the FreeRTOS anchor (docs/results/kernel.md).
    Kernel(KernelArgs),
    /// Build and run every workload manifest (full inputs by default) on cactus-sim: one row
    /// per manifest with instructions, cycles, energy, switches, stack budget against high
    /// water and CoreMark-like iterations per million cycles; last line "N passed, M failed".
    Workloads(WorkloadsArgs),
    /// Cost of `cactus cc`'s stack checks on the multi-task workloads: run time, code size
    /// and energy without and with the rolling optimization, each rule's share and the K
    /// sweep (MTSS Table II, Figures 7 and 8; docs/results/mtss.md).
    Checks(crate::cmd::bench_checks::ChecksArgs),
    /// Experiments on the `mtss` stack strategy: `mso`, the Maximum Satisfiable Overflow per
    /// task (MTSS Figure 9).
    Mtss(crate::cmd::bench_mtss::MtssArgs),
}

/// Options of `cactus bench workloads`.
#[derive(Args, Debug)]
pub struct WorkloadsArgs {
    /// Which size class to run.
    #[arg(long, value_enum, default_value_t = SizeArg::Full)]
    pub size: SizeArg,
    /// Only this suite (mtss, coremark-like, ccs, malardalen-like, crazyflie-like, demo).
    #[arg(long, value_name = "SUITE")]
    pub filter: Option<String>,
    /// Write the report as Markdown to FILE (docs/results/workloads.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the rows as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Parallel runs.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// The workloads directory (default: workloads/ of the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Options of `cactus bench kernel`.
#[derive(Args, Debug)]
pub struct KernelArgs {
    /// Repository root (holds kernel/, bench/kernel/ and build/).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,
    /// Use the ELFs already in build/ instead of running `make -C kernel bench` first.
    #[arg(long)]
    pub no_build: bool,
    /// Machine profile: a built-in name (`mcu`, `ideal`) or the path of a TOML profile file.
    #[arg(long, value_name = "NAME|FILE", default_value = "mcu")]
    pub profile: String,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE (docs/results/kernel.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// Options of `cactus bench sim-speed`.
#[derive(Args, Debug)]
pub struct SimSpeedArgs {
    /// Use the quick `NAME-small.elf` variants.
    #[arg(long)]
    pub small: bool,
    /// Directory holding the benchmark ELFs.
    #[arg(long, value_name = "DIR", default_value = "build/bench/sim-speed")]
    pub dir: PathBuf,
    /// Runs per machine and program (the fastest counts).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeats: usize,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as a Markdown table to FILE (docs/results/simulator.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// Runs `cactus bench`. Exit code 0 if every program meets the target, 1 otherwise.
pub fn main(args: BenchArgs) -> Result<ExitCode> {
    match args.bench {
        Bench::SimSpeed(a) => sim_speed(a),
        Bench::Kernel(a) => kernel(a),
        Bench::Workloads(a) => workloads(a),
        Bench::Checks(a) => crate::cmd::bench_checks::main(a),
        Bench::Mtss(a) => crate::cmd::bench_mtss::main(a),
    }
}

/// Exit code 0 if every goal passes, 1 if any is missed (the report is written either way).
fn kernel(args: KernelArgs) -> Result<ExitCode> {
    let options = KernelBenchOptions {
        root: args.root.clone(),
        build: !args.no_build,
        profile: resolve_profile(&args.profile)?,
    };
    let report = run_kernel_bench(&options)?;
    print!("{}", report.table());
    if let Some(path) = &args.json {
        let text = report.json().context("serialising the report")?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        std::fs::write(path, report.markdown(&crate::cmd::outputs::command_line()))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(if report.all_pass() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn sim_speed(args: SimSpeedArgs) -> Result<ExitCode> {
    let options = SpeedOptions {
        dir: args.dir.clone(),
        small: args.small,
        repeats: args.repeats,
        timeout: Duration::from_secs(300),
    };
    let report = run_sim_speed(&options, &|what| eprintln!("measuring {what}..."))?;
    println!("{}", report.table());
    let command = crate::cmd::outputs::command_line();
    if let Some(path) = &args.json {
        let text = report.json().context("serialising the report")?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        std::fs::write(path, report.markdown(&command))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let all_pass = report.rows.iter().all(|r| r.pass);
    Ok(if all_pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Exit code 0 if every run exited with 0, 1 otherwise (the files are written either way).
fn workloads(args: WorkloadsArgs) -> Result<ExitCode> {
    // Check the output directories before the runs, so a typo fails fast.
    crate::cmd::outputs::check_output_dirs(args.markdown.iter().chain(&args.json))?;
    let dir = workloads_dir(args.dir)?;
    let entries = selected(&dir, args.filter.as_deref(), args.size.class())?;
    let runs = run_all(&dir, &entries, args.jobs)?;
    let rows: Vec<BenchRow> = runs.iter().map(BenchRow::of).collect();
    let table = cactus_bench::workloads::bench::markdown(&rows);
    let summary = cactus_bench::workloads::bench::summary(&rows);
    print!("{table}");
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "rows": rows }))?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        let text = cactus_bench::workloads::bench::report(
            &crate::cmd::outputs::command_line(),
            &args.size.name(),
            &rows,
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("{summary}");
    Ok(if rows.iter().all(|r| r.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
