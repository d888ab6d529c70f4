//! `cactus bench checks`: the cost of `cactus cc`'s stack checks on the multi-task workloads
//! (MTSS Table II, Figures 7 and 8; docs/results/mtss.md).

use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Context, Result};
use cactus_bench::checks::{self, Checks, ChecksOptions};
use cactus_bench::mtss::MTSS_WORKLOADS;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench checks`.
#[derive(Args, Debug)]
pub struct ChecksArgs {
    /// Workload manifests (default: the six MTSS workloads at the chosen size, then the demo).
    pub manifests: Vec<PathBuf>,
    /// Size class of the default MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "full")]
    pub size: String,
    /// K values (bytes) of the limited-size sweep (Figure 8); `none` for no sweep.
    #[arg(long, value_name = "K,K,...|none", default_value = "32,64,128,256,512")]
    pub k_sweep: String,
    /// Only these variants (names as in the tables: base, unopt, zero, certainty, limited,
    /// opt, opt-k<K>); `base` is always run, every other variant is compared with it.
    #[arg(long, value_name = "NAME,NAME,...", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Where and how the sweep runs (a point is one manifest under one variant).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Runs the benchmark; exit code 0 if every variant of every workload ran and printed what
/// the unchecked build printed, 1 otherwise (the files are written either way).
pub fn main(args: ChecksArgs) -> Result<ExitCode> {
    let manifests = if args.manifests.is_empty() {
        let suffix = match args.size.as_str() {
            "full" => "",
            "small" => "-small",
            other => bail!("--size: unknown size `{other}` (expected small or full)"),
        };
        let mut m: Vec<PathBuf> = MTSS_WORKLOADS
            .iter()
            .map(|w| PathBuf::from(format!("workloads/mtss/{w}{suffix}.toml")))
            .collect();
        m.push(PathBuf::from("workloads/demo/demo.toml"));
        m
    } else {
        args.manifests.clone()
    };
    for m in &manifests {
        if !m.is_file() {
            bail!("{}: no such manifest", m.display());
        }
    }
    let k_sweep: Vec<u32> = if args.k_sweep == "none" {
        Vec::new()
    } else {
        args.k_sweep
            .split(',')
            .map(|k| k.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .with_context(|| {
                format!("--k-sweep: `{}` is not a list of byte counts", args.k_sweep)
            })?
    };
    let mut variants = checks::variants(&k_sweep);
    if !args.variants.is_empty() {
        for name in &args.variants {
            if !variants.iter().any(|v| &v.name == name) {
                bail!("--variants: unknown variant `{name}`");
            }
        }
        variants.retain(|v| v.name == "base" || args.variants.contains(&v.name));
    }
    let options = ChecksOptions {
        manifests,
        variants,
        k_sweep: k_sweep.clone(),
        reserves: toolchain_reserves()?,
        build_dir: None,
    };
    finish::<Checks>(
        checks::points(&options),
        checks::params(&k_sweep),
        &args.sweep,
    )
}
