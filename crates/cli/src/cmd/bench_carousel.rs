//! `cactus bench carousel`: the Carousel paper's evaluation (docs/carousel.md), a few lines over
//! `cactus_bench::carousel`.

use crate::cmd::bench_size::BenchSize;
use crate::cmd::outputs::{finish, SweepArgs};
use anyhow::Result;
use cactus_bench::carousel::{self, Carousel, CarouselOptions};
use clap::Args;
use std::process::ExitCode;

/// Options of `cactus bench carousel`.
#[derive(Args, Debug)]
pub struct CarouselArgs {
    /// Size class (both run Table IV in full today: a few seconds).
    #[arg(long, value_enum, default_value_t = BenchSize::Full)]
    pub size: BenchSize,
    /// Use the program already built (build/tests/carousel/carousel_ops.elf) instead of
    /// running `make -C tests` for it first.
    #[arg(long)]
    pub no_build: bool,
    /// Where and how the sweep runs.
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs `cactus bench carousel`; exit code 0 if the run and every goal passed, 1 otherwise.
pub fn main(args: CarouselArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    let root = cactus_firmware::checkout::find_checkout("cactus bench carousel")?;
    let options = CarouselOptions {
        root,
        size: args.size.into(),
        build: !args.no_build,
    };
    let prepared = carousel::prepare(&options).map_err(|e| anyhow::anyhow!("{e}"))?;
    eprintln!(
        "cactus: bench carousel: C_i measured, {} task sets drawn (SZ = {} cycles)",
        prepared.sets.len(),
        prepared.sz
    );
    finish::<Carousel>(
        carousel::points(&options, &prepared),
        carousel::params(&options, &prepared),
        &args.sweep,
    )
}
