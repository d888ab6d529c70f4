//! `cactus bench mtss capriccio`: MTSS against a Capriccio-style linked-chunk scheme on the
//! six MTSS workloads (MTSS paper, section 10, Table IV).

use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use anyhow::Result;
use cactus_bench::capriccio::{self, Capriccio, CapriccioOptions};
use cactus_bench::mtss::MTSS_WORKLOADS;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench mtss capriccio`.
#[derive(Args, Debug)]
pub struct CapriccioArgs {
    /// Size class of the MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub size: String,
    /// Parent directory of the builds (default: build/capriccio in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs (a point is one workload's four builds and runs).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench mtss capriccio`.
pub fn main(args: CapriccioArgs) -> Result<ExitCode> {
    let (root, paths) = crate::cmd::bench_mtss::resolve_manifests(&[], &args.size, None)?;
    let options = CapriccioOptions {
        manifests: MTSS_WORKLOADS
            .iter()
            .map(|w| w.to_string())
            .zip(paths)
            .collect(),
        reserves: toolchain_reserves()?,
        build_dir: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/capriccio")),
        ),
    };
    finish::<Capriccio>(
        capriccio::points(&options),
        capriccio::params(),
        &args.sweep,
    )
}
