//! `cactus bench sensmart`: the SenSmart evaluation (docs/sensmart.md,
//! docs/results/sensmart.md), a few lines over `cactus_bench::sensmart`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use anyhow::{bail, Result};
use cactus_bench::sensmart::preempt::{self, PreemptOptions};
use cactus_bench::sensmart::trees::{self, TreeOptions};
use cactus_bench::sensmart::{inflation, isolate};
use cactus_bench::sensmart::{relocate, Part, Sensmart, SensmartOptions, Size};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench sensmart`.
#[derive(Args, Debug)]
pub struct SensmartArgs {
    /// Size class: `small` (under a minute) measures the preempt-traps overhead on six
    /// workloads and the four latency configurations; `full` on every `-small` workload
    /// manifest and the demo, with N = 64 and 1024 as well. The relocate part runs the same
    /// three firmwares at either size.
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// The parts to run, comma-separated: preempt, relocate, isolate (the attack suite and
    /// the isolate pass's cost: on two of the preempt part's workloads at `small`, on the same
    /// workloads as preempt that have static stacks at `full`), trees (the binary-tree
    /// scenario: the most concurrent search tasks under `relocate` against tree size, one
    /// tree size at `small`, four at `full`; and under every stack strategy in one pool),
    /// inflation (Figures 4-5: task code bytes and cycles of the workloads built with no pass,
    /// each pass alone and SenSmart's combination; two workloads at `small`, eight at `full`).
    #[arg(
        long,
        value_name = "PARTS",
        default_value = "preempt,relocate,isolate,trees,inflation"
    )]
    pub parts: String,
    /// Parent directory of the builds (default: build/firmware in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one or two builds and runs).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench sensmart`; exit code 0 if every point passed, 1 otherwise.
pub fn main(args: SensmartArgs) -> Result<ExitCode> {
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
    let root = cactus_firmware::checkout::find_checkout("cactus bench sensmart")?;
    let base = if root == std::env::current_dir()? {
        PathBuf::new()
    } else {
        root.clone()
    };
    let size = Size::from(args.size);
    let options = PreemptOptions {
        root: base,
        size,
        build_dir: args.build_dir.clone(),
    };
    let reloc = SensmartOptions {
        root: options.root.clone(),
        size,
        build_dir: options.build_dir.clone(),
    };
    let tree_options = TreeOptions {
        root: options.root.clone(),
        size,
        build_dir: options.build_dir.clone(),
    };
    let mut points = Vec::new();
    if parts.contains(&Part::Preempt) {
        points.extend(preempt::points(&options));
    }
    if parts.contains(&Part::Relocate) {
        points.extend(relocate::points(&reloc));
    }
    if parts.contains(&Part::Isolate) {
        points.extend(isolate::points(&options));
    }
    if parts.contains(&Part::Trees) {
        points.extend(trees::points(&tree_options));
    }
    if parts.contains(&Part::Inflation) {
        points.extend(inflation::points(&options));
    }
    let params = serde_json::json!({ "size": size.name(), "parts": args.parts });
    finish::<Sensmart>(points, params, &args.sweep)
}
