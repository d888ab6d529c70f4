//! `cactus bench`: the evaluations, each a sweep on the engine (`cactus_sweep`) over points
//! from `cactus_bench`; every one takes `--jobs`, `--json`, `--markdown`, `--resume` and
//! `--shard`, prints its tables and ends with one summary line
//! `name: key=value ... passed=N failed=M`. `merge` joins the JSON of shards.

use crate::cmd::outputs::{check_output_dirs, finish, SweepArgs};
use crate::cmd::profile_arg::resolve_profile;
use crate::cmd::workloads::{selected, workloads_dir, SizeArg};
use anyhow::{anyhow, Result};
use cactus_bench::kernel::{Kernel, KernelBenchOptions};
use cactus_bench::sim_speed::{SimSpeed, SpeedOptions};
use cactus_bench::workloads::bench::Workloads;
use cactus_firmware::checkout::{find_checkout, in_checkout};
use cactus_sweep::Store;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};
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
    /// Kernel context-switch cost (yield, blocking, timer preemption), the message and pool
    /// fast paths and footprint on cactus-sim, beside the goals and the FreeRTOS anchor
    /// (docs/results/kernel.md).
    Kernel(KernelArgs),
    /// Worst-case timer interrupt latency on cactus-sim: the timer fired at every phase of
    /// seeded random kernel work, min/median/p99/max from pending to the first handler
    /// instruction and to the woken task, the masked regions that delayed it named
    /// (docs/results/latency.md).
    Latency(crate::cmd::bench_latency::LatencyArgs),
    /// Build and run every workload manifest (full inputs by default) on cactus-sim: one row
    /// per manifest with instructions, cycles, energy, switches, stack budget against high
    /// water and CoreMark-like iterations per million cycles.
    Workloads(WorkloadsArgs),
    /// Cost of `cactus cc`'s stack checks on the multi-task workloads: run time, code size
    /// and energy without and with the rolling optimization, each rule's share and the K
    /// sweep (MTSS Table II, Figures 7 and 8; docs/results/mtss.md).
    Checks(crate::cmd::bench_checks::ChecksArgs),
    /// Experiments on the `mtss` stack strategy (MTSS Figures 9-13, Table IV).
    Mtss(crate::cmd::bench_mtss::MtssArgs),
    /// The kernel's context switch, MTSS stack request and return, and semaphore hand-off
    /// at 4, 16, 64 and 256 tasks, in simulated cycles, and their growth
    /// (docs/results/scaling.md).
    Scaling(crate::cmd::bench_scaling::ScalingArgs),
    /// The segmented-stack paper's evaluation: CoreMark-like throughput and stack memory
    /// (Tables 2 and 3), the overhead per stacklet, run time against the first stacklet
    /// (hot split) and the Crazyflie-like core tasks' stacklets (Table 1;
    /// docs/results/segmented.md).
    Segmented(crate::cmd::bench_segmented::SegmentedArgs),
    /// The SRP scheduling mode (jobs on one shared stack) beside static, MTSS and segmented
    /// per-task stacks on the same workloads: stack RAM, cycles, deadline misses, and why a
    /// workload with blocking tasks cannot use it (docs/srp.md, docs/results/srp.md).
    Srp(crate::cmd::bench_srp::SrpArgs),
    /// The Carousel paper's evaluation on the `carousel-paper` profile: Table IV (the
    /// overhead of a task needing y code and z stack blocks) and its fit against the paper's
    /// 416y + 286z + 455 (docs/carousel.md, docs/results/carousel.md).
    Carousel(crate::cmd::bench_carousel::CarouselArgs),
    /// The SenSmart evaluation: preemption by counted branches (the preempt-traps pass's
    /// overhead on the workloads, preemption latency against timer interrupts, with a task
    /// that masks interrupts) and stack relocation (the `relocate` strategy with the hardware
    /// stack window: a relocation's cycles against the bytes it moves, the fit against the
    /// goal of 300 + 1 per word, the switch beside `static`); docs/sensmart.md,
    /// docs/results/sensmart.md.
    Sensmart(crate::cmd::bench_sensmart::SensmartArgs),
    /// Compiler-driven context switching (paper 002, docs/ccs.md, docs/results/ccs.md): live
    /// registers at switch points and blocks, the poison test of `kernel.switch = "ccs-sw"`,
    /// `"ccs-hw"` and `"rmcs"` under seeded timer jitter with the preemption cycles full
    /// against ccs-sw, ccs-hw and rmcs and ccs-hw's deferrals, the mutation test per mode,
    /// ccs-hw under several deferral budgets, and rmcs's register pages per pool size.
    Ccs(crate::cmd::bench_ccs::CcsArgs),
    /// Join the JSON of the shards of one sweep (`--shard I/N`) into the tables, JSON and
    /// summary a single run gives.
    Merge(MergeArgs),
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
    /// The workloads directory (default: workloads/ of the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one manifest).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Options of `cactus bench kernel`.
#[derive(Args, Debug)]
pub struct KernelArgs {
    /// Repository root (holds kernel/, bench/kernel/ and build/; default: the Cactus
    /// checkout, docs/own-project.md).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Use the ELFs already in build/ instead of running `make -C kernel bench` first.
    #[arg(long)]
    pub no_build: bool,
    /// Machine profile: a built-in name (`mcu`, `ideal`) or the path of a TOML profile file.
    #[arg(long, value_name = "NAME|FILE", default_value = "mcu")]
    pub profile: String,
    /// Size class, accepted like every bench's: the kernel benchmark has one size (its
    /// firmware runs in under a second), so `small` and `full` measure the same.
    #[arg(long, value_enum, default_value_t = SizeArg::Full)]
    pub size: SizeArg,
    /// Where the results go (one point: the benchmark firmware's run; under a second).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Options of `cactus bench sim-speed`.
#[derive(Args, Debug)]
pub struct SimSpeedArgs {
    /// `small`: the quick `NAME-small.elf` variants; `full`: about 10^9 instructions each.
    #[arg(long, value_enum, default_value_t = SizeArg::Full)]
    pub size: SizeArg,
    /// The same as `--size small`.
    #[arg(long, hide = true)]
    pub small: bool,
    /// Directory holding the benchmark ELFs (default: build/bench/sim-speed of the Cactus
    /// checkout).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Runs per machine and program (the fastest counts).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeats: usize,
    /// Where the results go (programs run one at a time whatever `--jobs` says: they are
    /// timed).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Options of `cactus bench merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' JSON files (each written by a `--shard I/N --json FILE` run).
    #[arg(required = true)]
    pub stores: Vec<PathBuf>,
    /// Write the merged results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the merged report as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the merged report as an HTML page with charts to FILE (as `--report` of a sweep).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}

/// Runs `cactus bench`.
pub fn main(args: BenchArgs) -> Result<ExitCode> {
    match args.bench {
        Bench::SimSpeed(a) => sim_speed(a),
        Bench::Kernel(a) => kernel(a),
        Bench::Latency(a) => crate::cmd::bench_latency::main(a),
        Bench::Workloads(a) => workloads(a),
        Bench::Checks(a) => crate::cmd::bench_checks::main(a),
        Bench::Mtss(a) => crate::cmd::bench_mtss::main(a),
        Bench::Scaling(a) => crate::cmd::bench_scaling::main(a),
        Bench::Segmented(a) => crate::cmd::bench_segmented::main(a),
        Bench::Srp(a) => crate::cmd::bench_srp::main(a),
        Bench::Carousel(a) => crate::cmd::bench_carousel::main(a),
        Bench::Sensmart(a) => crate::cmd::bench_sensmart::main(a),
        Bench::Ccs(a) => crate::cmd::bench_ccs::main(a),
        Bench::Merge(a) => merge(a),
    }
}

/// Exit code 0 if every goal passes, 1 if any is missed (the report is written either way).
fn kernel(args: KernelArgs) -> Result<ExitCode> {
    let root = match &args.root {
        Some(r) => r.clone(),
        None => find_checkout("cactus bench kernel")?,
    };
    let options = KernelBenchOptions {
        root,
        build: !args.no_build,
        profile: resolve_profile(&args.profile)?,
    };
    let params = cactus_bench::kernel::params(&options.profile);
    finish::<Kernel>(cactus_bench::kernel::points(&options), params, &args.sweep)
}

/// Exit code 0 if every program meets the target, 1 otherwise.
fn sim_speed(args: SimSpeedArgs) -> Result<ExitCode> {
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => in_checkout(
            &find_checkout("cactus bench sim-speed")?,
            Path::new("build/bench/sim-speed"),
        ),
    };
    let options = SpeedOptions {
        dir,
        small: args.small || matches!(args.size, SizeArg::Small),
        repeats: args.repeats,
        timeout: Duration::from_secs(300),
    };
    let mut sweep = args.sweep.clone();
    sweep.jobs = 1;
    let params = cactus_bench::sim_speed::params(&options);
    finish::<SimSpeed>(cactus_bench::sim_speed::points(&options), params, &sweep)
}

/// Exit code 0 if every run exited with 0, 1 otherwise (the files are written either way).
fn workloads(args: WorkloadsArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let dir = workloads_dir(args.dir, "cactus bench workloads")?;
    let entries = selected(&dir, args.filter.as_deref(), args.size.class())?;
    let points = cactus_bench::workloads::stacks::points(&dir, &entries);
    let params = cactus_bench::workloads::bench::params(&args.size.name());
    finish::<Workloads>(points, params, &args.sweep)
}

/// Joins the stores, writes what was asked, prints the tables and the summary line.
fn merge(args: MergeArgs) -> Result<ExitCode> {
    check_output_dirs(args.markdown.iter().chain(&args.json).chain(&args.report))?;
    let stores = args
        .stores
        .iter()
        .map(|p| Ok((p.clone(), Store::<serde_json::Value>::load(p)?)))
        .collect::<Result<Vec<_>>>()?;
    let merged = cactus_sweep::merge(stores)?;
    let report = cactus_bench::registry::render_store(&merged).map_err(|e| anyhow!(e))?;
    if let Some(path) = &args.json {
        merged.save(path)?;
    }
    if let Some(path) = &args.markdown {
        report.write(&merged.meta, path)?;
    }
    if let Some(path) = &args.report {
        let markdown = report.markdown(&merged.meta);
        crate::cmd::outputs::write_page(path, &markdown, &merged.meta.command)?;
    }
    print!("{}", report.tables);
    println!("{}", report.summary_line());
    Ok(if report.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
