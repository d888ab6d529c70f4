//! `cactus bench mtss`: the MTSS paper's evaluation (section 10) on the six MTSS workloads:
//! `mso` (Figure 9), `pages` (Figure 10), `prs` (Figure 11), `wcet` (Figures 12/13) and
//! `capriccio` (Table IV). Each is a few lines over `cactus_bench::mtss` and
//! `cactus_bench::capriccio`.

use crate::cmd::outputs::{finish, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use anyhow::{anyhow, bail, Result};
use cactus_bench::capriccio::{self, Capriccio, CapriccioOptions};
use cactus_bench::mtss::{
    self, mso::Mso, pages::Pages, prs_report::Prs, wcet_report::Wcet, MtssOptions, Shared,
    MTSS_WORKLOADS,
};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench mtss`.
#[derive(Args, Debug)]
pub struct MtssArgs {
    /// Which experiment.
    #[command(subcommand)]
    pub experiment: MtssExperiment,
}

/// The `mtss` experiments.
#[derive(Subcommand, Debug)]
pub enum MtssExperiment {
    /// Maximum Satisfiable Overflow per task (MTSS Figure 9): for each task, the smallest
    /// stack budget (bisection over multiples of 16) at which its workload still passes under
    /// `stack = "mtss"`, every other task at its budget.
    Mso(MtssSweepArgs),
    /// MTSS against a Capriccio-style linked-chunk scheme (MTSS Table IV): run-time increase
    /// over the unmodified build and stack memory of each, per workload.
    Capriccio(CapriccioArgs),
    /// Proportional Reduction Satisfiability per workload (MTSS Figure 11): the largest
    /// shrink of every program task's budget at once that still passes, by bisection, and the
    /// loan statistics (holes, multi-page frames) of a run there.
    Prs(PrsArgs),
    /// The worst-case overhead estimate (MTSS Figures 12 and 13): every task at 128 bytes,
    /// moved frames into an artificial region, every move scanning everything; per workload
    /// and `--pages`.
    Wcet(MtssSweepArgs),
    /// MSO against the page size (MTSS Figure 10; default: network, pages 32..512).
    Pages(MtssSweepArgs),
}

/// Options every MTSS sweep takes.
#[derive(Args, Debug)]
pub struct MtssSweepArgs {
    /// Workload manifests (default: the six MTSS workloads at the chosen size; `pages`: the
    /// network workload).
    pub manifests: Vec<PathBuf>,
    /// Size class of the default MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub size: String,
    /// MTSS page sizes in bytes, comma-separated (powers of two in 32..1024).
    #[arg(long, value_name = "B,B,...", value_delimiter = ',')]
    pub pages: Vec<u32>,
    /// Parent directory of the builds (default: build/mso in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the sweep runs.
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// Options of `cactus bench mtss prs`.
#[derive(Args, Debug)]
pub struct PrsArgs {
    /// The strategy probed: `mtss` (checks `mtss`) or `mtss+split` (checks `split`, with a
    /// stacklet heap carved out of the stack pool and counted in every saving).
    #[arg(long, value_name = "STRATEGY", default_value = "mtss")]
    pub stack: String,
    /// `mtss+split` only: the stacklet heaps tried, bytes, comma-separated (default
    /// 1024,2048,4096,12288,20480,36864); each workload's row is the one of least budgets
    /// plus heap.
    #[arg(long, value_name = "B,B,...", value_delimiter = ',')]
    pub stacklet_pool: Vec<u32>,
    /// What every MTSS sweep takes.
    #[command(flatten)]
    pub common: MtssSweepArgs,
}

/// Runs `cactus bench mtss`.
pub fn main(args: MtssArgs) -> Result<ExitCode> {
    match args.experiment {
        MtssExperiment::Mso(a) => {
            let o = options(&a, None, true)?;
            let shared = Shared::new(&o);
            let points = mtss::mso::points(&shared, o.page()).map_err(|e| anyhow!(e))?;
            finish::<Mso>(points, mtss::mso::params(o.page()), &a.sweep)
        }
        MtssExperiment::Prs(p) => {
            let mut o = options(&p.common, None, true)?;
            o.hybrid = match p.stack.as_str() {
                "mtss" if p.stacklet_pool.is_empty() => Vec::new(),
                "mtss" => bail!("--stacklet-pool: only with --stack mtss+split"),
                "mtss+split" if p.stacklet_pool.is_empty() => mtss::prs::HYBRID_HEAPS.to_vec(),
                "mtss+split" => p.stacklet_pool.clone(),
                other => bail!("--stack: {other}: the PRS sweep takes mtss or mtss+split"),
            };
            if let Some(b) = o.hybrid.iter().find(|b| !(256..=524_288).contains(*b)) {
                bail!("--stacklet-pool: {b} is out of range (256..=524288)");
            }
            let shared = Shared::new(&o);
            finish::<Prs>(
                mtss::prs::points(&shared),
                mtss::prs::params(o.page(), &o.hybrid),
                &p.common.sweep,
            )
        }
        MtssExperiment::Wcet(a) => {
            let o = options(&a, None, false)?;
            let shared = Shared::new(&o);
            let params = mtss::wcet::params(&o.pages);
            finish::<Wcet>(mtss::wcet::points(&shared), params, &a.sweep)
        }
        MtssExperiment::Pages(mut a) => {
            if a.pages.is_empty() {
                a.pages = mtss::pages::DEFAULT_PAGES.to_vec();
            }
            let o = options(&a, Some("network"), false)?;
            let shared = Shared::new(&o);
            let points = mtss::pages::points(&shared).map_err(|e| anyhow!(e))?;
            finish::<Pages>(points, mtss::pages::params(&o.pages), &a.sweep)
        }
        MtssExperiment::Capriccio(a) => capriccio_main(a),
    }
}

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

/// Runs `cactus bench mtss capriccio`: one point per workload, its four builds and runs.
fn capriccio_main(args: CapriccioArgs) -> Result<ExitCode> {
    let (root, paths) = resolve_manifests(&[], &args.size, None)?;
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

/// The experiment's options: the manifests (given or the default ones), the reserves, the
/// build directory and the checked `--pages` (at most one when `one_page`).
fn options(a: &MtssSweepArgs, default_one: Option<&str>, one_page: bool) -> Result<MtssOptions> {
    for &p in &a.pages {
        if !(32..=1024).contains(&p) || !p.is_power_of_two() {
            bail!("--pages: {p} is not a power of two in 32..1024");
        }
    }
    if one_page && a.pages.len() > 1 {
        bail!("--pages: this experiment takes one page size (`cactus bench mtss pages` sweeps several)");
    }
    let (root, manifests) = resolve_manifests(&a.manifests, &a.size, default_one)?;
    Ok(MtssOptions {
        manifests,
        reserves: toolchain_reserves()?,
        out_root: Some(
            a.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/mso")),
        ),
        pages: a.pages.clone(),
        hybrid: Vec::new(),
    })
}

/// The tree root and `given` (each checked to exist), or when `given` is empty the six MTSS
/// workloads at `size` in the paper's order (only `default_one` when given), relative to the
/// current directory when it is the tree root (readable JSON keys).
pub(crate) fn resolve_manifests(
    given: &[PathBuf],
    size: &str,
    default_one: Option<&str>,
) -> Result<(PathBuf, Vec<PathBuf>)> {
    let root = cactus_firmware::checkout::find_checkout("cactus bench mtss")?;
    let list = if given.is_empty() {
        let base = if root == std::env::current_dir()? {
            PathBuf::new()
        } else {
            root.clone()
        };
        let all = mtss::mtss_manifests(&base, size).map_err(|e| anyhow!("--size: {e}"))?;
        match default_one {
            Some(w) => all
                .into_iter()
                .filter(|m| {
                    m.file_stem()
                        .is_some_and(|s| s.to_string_lossy().trim_end_matches("-small") == w)
                })
                .collect(),
            None => all,
        }
    } else {
        given.to_vec()
    };
    for m in &list {
        if !m.is_file() {
            bail!("{}: no such manifest", m.display());
        }
    }
    Ok((root, list))
}
