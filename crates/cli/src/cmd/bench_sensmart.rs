//! `cactus bench sensmart`: SenSmart's stack relocation (docs/sensmart.md): the `relocate`
//! strategy's relocation cost against the bytes moved and its context switch beside
//! `static`, a few lines over `cactus_bench::sensmart`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use anyhow::{Context, Result};
use cactus_bench::sensmart::{self, Sensmart, SensmartOptions, Size};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus bench sensmart`.
#[derive(Args, Debug)]
pub struct SensmartArgs {
    /// Size class: `small` and `full` run the same three firmwares (each is short).
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Parent directory of the builds (default: build/sensmart in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one build and run).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench sensmart`; exit code 0 if every point passed, 1 otherwise (the files
/// are written either way).
pub fn main(args: SensmartArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let root = cactus_firmware::find_root(Path::new("."))
        .context("cactus bench sensmart runs inside the Cactus tree")?;
    let size = Size::from(args.size);
    let base = if root == std::env::current_dir()? {
        PathBuf::new()
    } else {
        root.clone()
    };
    let options = SensmartOptions {
        root: base,
        size,
        build_dir: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/sensmart")),
        ),
    };
    finish::<Sensmart>(
        sensmart::points(&options),
        sensmart::params(size),
        &args.sweep,
    )
}
