//! `cactus bench srp`: the SRP scheduling mode beside per-task stacks on the same workloads
//! (docs/srp.md, docs/results/srp.md), a few lines over `cactus_bench::srp`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use crate::cmd::stack_report::total_bound;
use anyhow::Result;
use cactus_bench::srp::{self, Size, Srp, SrpOptions};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench srp`.
#[derive(Args, Debug)]
pub struct SrpArgs {
    /// Size class: `small` runs the `-small` manifests (under a minute), `full` the full ones.
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Parent directory of the builds (default: build/firmware in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one build and run).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench srp`; exit code 0 if every point passed (a workload refused under SRP
/// counts as passed: the refusal is its finding), 1 otherwise.
pub fn main(args: SrpArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let root = cactus_firmware::checkout::find_checkout("cactus bench srp")?;
    let size = Size::from(args.size);
    let base = if root == std::env::current_dir()? {
        PathBuf::new()
    } else {
        root.clone()
    };
    // The static bounds, before the sweep (the analysis lives in this crate).
    let mut bounds = std::collections::BTreeMap::new();
    for w in srp::workloads(size) {
        for m in w.srp.iter().chain(w.srp.as_ref().map(|_| &w.preemptive)) {
            let bound = match total_bound(&root.join(m)) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("cactus: bench srp: no static bound for {m} ({e:#})");
                    None
                }
            };
            bounds.insert(m.clone(), bound);
        }
    }
    let options = SrpOptions {
        root: base,
        size,
        reserves: toolchain_reserves()?,
        build_dir: args.build_dir.clone(),
        bounds,
    };
    finish::<Srp>(srp::points(&options), srp::params(size), &args.sweep)
}
