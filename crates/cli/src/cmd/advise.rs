//! `cactus advise [MANIFEST]`: the smallest stack RAM the firmware runs correctly in, per stack
//! strategy, beside its measured high water and static bound (docs/advise.md), a few lines
//! over `cactus_bench::advise` on the sweep engine.

use crate::cmd::build::manifest_or_default;
use crate::cmd::outputs::{check_output_dirs, finish_then, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use crate::cmd::stack_report::task_bounds;
use anyhow::{bail, Context, Result};
use cactus_bench::advise::{
    self, default_heaps, plot_svg, Advise, AdviseOptions, Candidate, Reference, Seeds,
    DEFAULT_SEEDS,
};
use cactus_firmware::StackStrategy;
use cactus_sim::TimerJitter;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus advise`.
#[derive(Args, Debug)]
pub struct AdviseArgs {
    /// The firmware's manifest [default: cactus.toml in the current directory].
    pub manifest: Option<PathBuf>,
    /// The stack strategies to search, comma-separated (`static`, `mtss`, `mtss+split`).
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        default_value = "static,mtss,mtss+split"
    )]
    pub stack: Vec<String>,
    /// The stacklet heaps `mtss+split` is tried with, bytes, comma-separated (one row each)
    /// [default: an eighth and a quarter of the manifest's budgets, in whole MTSS pages].
    #[arg(long, value_name = "BYTES", value_delimiter = ',')]
    pub stacklet_pool: Option<Vec<u32>>,
    /// Runs per probe: seed 0 with timer interrupts on time, the others each late by a
    /// seeded number of cycles (`cactus run --timer-jitter SEED` repeats one).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SEEDS,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub seeds: u32,
    /// The largest timer-interrupt delay of seeds 1.., cycles.
    #[arg(long, value_name = "CYCLES", default_value_t = TimerJitter::DEFAULT_MAX_CYCLES)]
    pub jitter: u64,
    /// Stop at the largest uniform shrink of every budget; do not lower each task's on its
    /// own (fewer probes, a coarser answer).
    #[arg(long)]
    pub no_refine: bool,
    /// MTSS page size for `mtss` and `mtss+split`, bytes [default: the kernel's, 128].
    #[arg(long, value_name = "BYTES")]
    pub mtss_page: Option<u32>,
    /// Skip the static bound (`cactus stack-report`) under the table.
    #[arg(long)]
    pub no_bound: bool,
    /// Also draw the answers as an SVG bar chart to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Parent directory of the probe builds [default: the project's build/firmware].
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// Where and how the search runs (a point is one strategy's whole search).
    #[command(flatten)]
    pub sweep: SweepArgs,
}

/// The strategies `cactus advise` can search.
const SEARCHABLE: [StackStrategy; 3] = [
    StackStrategy::Static,
    StackStrategy::Mtss,
    StackStrategy::MtssSplit,
];

/// Runs `cactus advise`; exit code 0 if every strategy found an answer, 1 otherwise (the
/// files are written either way); bad input is an `Err`.
pub fn main(args: AdviseArgs) -> Result<ExitCode> {
    args.sweep.outputs()?;
    check_output_dirs(args.plot.iter())?;
    let manifest = manifest_or_default(args.manifest.as_deref())?;
    if let Some(0) = args.mtss_page {
        bail!("--mtss-page: a page of 0 bytes");
    }
    if args
        .stacklet_pool
        .as_deref()
        .is_some_and(|h| h.contains(&0))
    {
        bail!("--stacklet-pool: a heap of 0 bytes");
    }
    // Strategies are checked before the reference run, heaps after (they may come from it).
    let stacks = strategies(&args.stack)?;
    let reserves = toolchain_reserves()?;
    let mut reference = Reference::measure(&manifest, &reserves, args.build_dir.clone())
        .map_err(|e| anyhow::anyhow!(e))?;
    let heaps = match args.stacklet_pool {
        Some(h) => h,
        None => default_heaps(
            reference.budgets.iter().sum(),
            args.mtss_page.unwrap_or(StackStrategy::MTSS_PAGE),
        ),
    };
    let candidates = candidates(&stacks, &heaps);
    if !args.no_bound {
        match task_bounds(&manifest) {
            Ok(b) => reference.static_bound = b,
            Err(e) => eprintln!("cactus: advise: no static bound ({e:#})"),
        }
    }
    let options = AdviseOptions {
        manifest,
        candidates,
        seeds: Seeds {
            count: args.seeds,
            jitter_cycles: args.jitter,
        },
        refine: !args.no_refine,
        page: args.mtss_page,
        reserves,
        out_root: args.build_dir.clone(),
    };
    let points = advise::points(&options, &reference);
    let params = advise::params(&options, &reference);
    finish_then::<Advise>(points, params, &args.sweep, |rows| {
        let Some(path) = &args.plot else {
            return Ok(());
        };
        let svg = plot_svg(rows, &reference).map_err(|e| anyhow::anyhow!("--plot: {e}"))?;
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
    })
}

/// The strategies of `--stack LIST`; errs on one it cannot search, or none.
fn strategies(stacks: &[String]) -> Result<Vec<StackStrategy>> {
    let mut out = Vec::new();
    for name in stacks {
        let stack =
            StackStrategy::parse(name.trim()).map_err(|e| anyhow::anyhow!("--stack: {e}"))?;
        if !SEARCHABLE.contains(&stack) {
            let names: Vec<&str> = SEARCHABLE.iter().map(|s| s.name()).collect();
            bail!(
                "--stack {name}: advise searches {} (a `{name}` firmware's stack memory is its heap, not its budgets)",
                names.join(", ")
            );
        }
        out.push(stack);
    }
    if out.is_empty() {
        bail!("--stack: no strategy given");
    }
    Ok(out)
}

/// The points: each strategy once, `mtss+split` once per heap of `heaps`.
fn candidates(stacks: &[StackStrategy], heaps: &[u32]) -> Vec<Candidate> {
    stacks
        .iter()
        .flat_map(|&stack| match stack {
            StackStrategy::MtssSplit => heaps
                .iter()
                .map(|&h| Candidate {
                    stack,
                    heap: Some(h),
                })
                .collect::<Vec<_>>(),
            _ => vec![Candidate { stack, heap: None }],
        })
        .collect()
}
