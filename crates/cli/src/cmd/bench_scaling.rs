//! `cactus bench scaling`: the kernel's context switch, MTSS stack request and return, and
//! semaphore hand-off in simulated cycles at 4, 16, 64 and 256 tasks (issue #14 part 4;
//! docs/results/scaling.md).

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::profile_arg::resolve_profile;
use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Result};
use cactus_bench::scaling::report::Scaling;
use cactus_bench::scaling::{self, ScalingOptions};
use clap::Args;
use std::process::ExitCode;

/// Options of `cactus bench scaling`.
#[derive(Args, Debug)]
pub struct ScalingArgs {
    /// Size class: `small` takes 20 samples per operation and task count, `full` 100.
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Task counts, one point each (at least 4, at most 256).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',', default_values_t = scaling::TASK_COUNTS)]
    pub tasks: Vec<usize>,
    /// Machine profile: a built-in name (`mcu`, `ideal`) or the path of a TOML profile file.
    #[arg(long, value_name = "NAME|FILE", default_value = "mcu")]
    pub profile: String,
    /// Where and how the sweep runs (a point is one task count: a build and a run).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs the benchmark; exit code 0 if every task count was measured, 1 otherwise (the files
/// are written either way).
pub fn main(args: ScalingArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    if let Some(&n) = args
        .tasks
        .iter()
        .find(|&&n| !(scaling::workload::ROLES..=256).contains(&n))
    {
        bail!(
            "--tasks: {n} is out of range ({}..=256: the measuring roles need {} tasks)",
            scaling::workload::ROLES,
            scaling::workload::ROLES
        );
    }
    let root = cactus_firmware::checkout::find_checkout("cactus bench scaling")?;
    let options = ScalingOptions {
        root,
        tasks: args.tasks.clone(),
        samples: match args.size {
            BenchSize::Small => scaling::SAMPLES_SMALL,
            BenchSize::Full => scaling::SAMPLES_FULL,
        },
        reserves: toolchain_reserves()?,
        profile: resolve_profile(&args.profile)?,
        out_dir: None,
    };
    let params = scaling::params(&options);
    finish::<Scaling>(scaling::points(&options), params, &args.sweep)
}
