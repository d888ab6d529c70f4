//! `cactus bench segmented`: the segmented-stack paper's evaluation (Tables 1-3 and the
//! hot-split sweep; docs/results/segmented.md), a few lines over `cactus_bench::segmented`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use anyhow::Result;
use cactus_bench::segmented::{self, Segmented, SegmentedOptions, Size};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench segmented`.
#[derive(Args, Debug)]
pub struct SegmentedArgs {
    /// Size class: `small` runs the `-small` workloads, three first-stacklet sizes with and
    /// without the alleviations and one Crazyflie-like first stacklet; `full` the full
    /// workloads and the whole sweep.
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Parent directory of the builds (default: build/segmented in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// The JSON store of a `cactus bench mtss prs --stack mtss+split` sweep: its mean PRS
    /// against the high water becomes the summary's `hybrid_prs_pct` (otherwise `n/a`).
    #[arg(long, value_name = "STORE")]
    pub hybrid_prs: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one build and run).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench segmented`; exit code 0 if every point passed, 1 otherwise (the files
/// are written either way).
pub fn main(args: SegmentedArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let root = cactus_firmware::checkout::find_checkout("cactus bench segmented")?;
    let size = Size::from(args.size);
    // Paths relative to the tree root when it is the current directory (readable keys).
    let base = if root == std::env::current_dir()? {
        PathBuf::new()
    } else {
        root.clone()
    };
    let hybrid = match &args.hybrid_prs {
        Some(p) => {
            Some(segmented::hybrid_prs(p).map_err(|e| anyhow::anyhow!("--hybrid-prs: {e}"))?)
        }
        None => None,
    };
    let options = SegmentedOptions {
        root: base,
        size,
        reserves: toolchain_reserves()?,
        build_dir: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/segmented")),
        ),
    };
    finish::<Segmented>(
        segmented::points(&options),
        segmented::params(size, hybrid),
        &args.sweep,
    )
}
