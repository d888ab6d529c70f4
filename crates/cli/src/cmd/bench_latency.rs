//! `cactus bench latency`: worst-case timer interrupt latency (issue #16), from the cycle
//! the interrupt became pending to the first handler instruction and to the woken task,
//! with the masked regions that delayed it named (docs/results/latency.md).

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::profile_arg::resolve_profile;
use anyhow::{anyhow, bail, Result};
use cactus_bench::latency::report::Latency;
use cactus_bench::latency::{self, LatencyOptions, Size};
use clap::Args;
use std::process::ExitCode;

/// Options of `cactus bench latency`.
#[derive(Args, Debug)]
pub struct LatencyArgs {
    /// Size class: `small` samples 4 runs of 600 wake-ups (2,400 interrupts; seconds), `full`
    /// 64 runs of 5,000 (320,000 interrupts).
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Base seed: run i runs the firmware with a seed derived from it and i (same seed,
    /// same figures).
    #[arg(long, value_name = "N", default_value_t = latency::DEFAULT_SEED)]
    pub seed: u64,
    /// Runs (seeds), instead of the size's (1..=10000).
    #[arg(long, value_name = "N")]
    pub runs: Option<u32>,
    /// Wake-ups per run, instead of the size's (1..=1000000).
    #[arg(long, value_name = "N")]
    pub ticks: Option<u32>,
    /// Machine profile: a built-in name (`mcu`, `ideal`) or the path of a TOML profile file.
    #[arg(long, value_name = "NAME|FILE", default_value = "mcu")]
    pub profile: String,
    /// Where and how the sweep runs (a point is one run of the firmware).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Builds the firmware (cached), then runs the sweep; exit code 0 if every run was
/// measured, 1 otherwise (the files are written either way).
pub fn main(args: LatencyArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let base = match args.size {
        BenchSize::Small => latency::SMALL,
        BenchSize::Full => latency::FULL,
    };
    let size = Size {
        runs: args.runs.unwrap_or(base.runs),
        ticks: args.ticks.unwrap_or(base.ticks),
    };
    if !(1..=10_000).contains(&size.runs) {
        bail!("--runs: {} is out of range (1..=10000)", size.runs);
    }
    if !(1..=1_000_000).contains(&size.ticks) {
        bail!("--ticks: {} is out of range (1..=1000000)", size.ticks);
    }
    let profile = resolve_profile(&args.profile)?;
    let root = cactus_firmware::checkout::find_checkout("cactus bench latency")?;
    let elf =
        latency::build(&root, None).map_err(|e| anyhow!("building {}: {e}", latency::MANIFEST))?;
    let options = LatencyOptions {
        elf,
        size,
        seed: args.seed,
        profile,
    };
    let params = latency::params(&options);
    finish::<Latency>(latency::points(&options), params, &args.sweep)
}
