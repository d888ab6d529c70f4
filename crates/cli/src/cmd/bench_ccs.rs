//! `cactus bench ccs`: compiler-driven context switching (docs/ccs.md, docs/results/ccs.md),
//! a few lines over `cactus_bench::ccs`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use anyhow::{bail, Context, Result};
use cactus_bench::ccs::{points, Ccs, CcsOptions, Part, Size};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus bench ccs`.
#[derive(Args, Debug)]
pub struct CcsArgs {
    /// Size class: `small` analyses the A4 and B4 task sets, runs the poison test (ccs-sw,
    /// ccs-hw and rmcs) on both with 8 jitter seeds, mutates the two ranges of A4 its runs preempt
    /// most per mode and runs A4's ccs-hw build under budgets of 30, 120 and 1000 cycles;
    /// `full` analyses the unrolled builds too, runs every `-small` manifest of workloads/ccs
    /// and workloads/mtss with 32 seeds, mutates three ranges each of A4, B4 and telecomm per
    /// mode and sweeps six budgets on A4 and B4. The rmcs part analyses the register pages of
    /// the task sets A2-A4 and B2-B4 (`small`: scalar-only; `full`: with unrolling too) and
    /// runs each set's rmcs build with pools of 25, 50 and 75 % (spilled pages).
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// The parts to run, comma-separated: analysis, poison, mutation, budget, rmcs.
    #[arg(
        long,
        value_name = "PARTS",
        default_value = "analysis,poison,mutation,budget,rmcs"
    )]
    pub parts: String,
    /// Parent directory of the builds (default: build/firmware in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs.
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench ccs`; exit code 0 if every point passed, 1 otherwise.
pub fn main(args: CcsArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let mut parts = Vec::new();
    for p in args.parts.split(',') {
        match Part::parse(p) {
            Some(part) => parts.push(part),
            None => bail!(
                "--parts: unknown part `{p}` (known: {})",
                Part::ALL.map(|p| p.name()).join(", ")
            ),
        }
    }
    let root = cactus_firmware::find_root(Path::new("."))
        .context("cactus bench ccs runs inside the Cactus tree")?;
    let base = if root == std::env::current_dir()? {
        PathBuf::new()
    } else {
        root
    };
    let options = CcsOptions {
        root: base,
        size: Size::from(args.size),
        build_dir: args.build_dir.clone(),
    };
    let points = points(&options, &parts);
    let params = serde_json::json!({ "size": options.size.name(), "parts": args.parts });
    finish::<Ccs>(points, params, &args.sweep)
}
