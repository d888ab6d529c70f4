//! `cactus advise MANIFEST`: the stack RAM a firmware needs under each stack strategy.
//!
//! For each strategy (one sweep point each; `mtss+split` once per stacklet heap), the
//! smallest stack budgets with which the firmware still runs correctly: every budget shrunk
//! by the largest uniform percentage that passes (the PRS search of `cactus bench mtss prs`,
//! `cactus_sweep::search::largest_passing`), then each task's budget lowered on its own, the
//! largest first, as far as it still passes (`smallest_passing` over whole 16-byte steps, or
//! whole pages for the paged strategies). A probe passes when the build runs to exit code 0
//! with no ownership-oracle violation at every seed: seed 0 with timer interrupts on time,
//! seeds 1.. with each timer interrupt delayed by a seeded amount (`TimerJitter`), so the
//! firmware is preempted at other instructions with other frames on its stacks.
//!
//! Guarantees: every figure comes from a build and runs made by [`points`] (or recorded in a
//! resumed store of the same experiment); a strategy whose firmware fails even at the
//! manifest's budgets is a failed row naming the seed and the reason, never a missing one;
//! the stack bytes of a row are the strategy's own accounting of its budgets
//! (`StackStrategy::region_bytes`, plus the stacklet heap for `mtss+split`).

mod probe;
mod report;
mod search;

pub use probe::{AdviceProbe, Seeds};
pub use report::{plot_svg, Advise};
pub use search::{advise, StrategyAdvice};

use crate::mtss::{baseline, ProbeSetup, CYCLE_FACTOR, MIN_CYCLE_LIMIT};
use cactus_firmware::{Manifest, StackStrategy};
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Seeds a probe runs by default (seed 0 on time, then three with late timer interrupts).
pub const DEFAULT_SEEDS: u32 = 4;

/// The stacklet heaps `mtss+split` is tried with by default: an eighth and a quarter of the
/// manifest's budgets (`budgets_total` bytes), each in whole pages of `page` bytes and at
/// least one page.
pub fn default_heaps(budgets_total: u32, page: u32) -> Vec<u32> {
    let mut heaps: Vec<u32> = [8, 4]
        .iter()
        .map(|d| StackStrategy::heap_bytes((budgets_total / d).max(1), page))
        .collect();
    heaps.dedup();
    heaps
}

/// One strategy to advise on: a stack strategy and, for `mtss+split`, its stacklet heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The strategy.
    pub stack: StackStrategy,
    /// The `mtss+split` stacklet heap requested, bytes (None for the other strategies).
    pub heap: Option<u32>,
}

impl Candidate {
    /// The point's key and label: `mtss`, or `mtss+split heap 1024`.
    pub fn key(&self) -> String {
        match self.heap {
            Some(h) => format!("{} heap {h}", self.stack.name()),
            None => self.stack.name().to_string(),
        }
    }
}

/// What the firmware does as written: the reference every row is measured against.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// The manifest's path as given.
    pub manifest: String,
    /// Its strategy as written.
    pub stack: String,
    /// Task names, in manifest order.
    pub tasks: Vec<String>,
    /// The manifest's budgets, by task.
    pub budgets: Vec<u32>,
    /// Each task's measured stack high water in the run as written (None: not reported).
    pub high_water: Vec<Option<u32>>,
    /// Simulated cycles of that run.
    pub cycles: u64,
    /// Each task's static worst-case depth from `cactus stack-report` (None: unbounded, or
    /// the analysis was not made).
    #[serde(default)]
    pub static_bound: Vec<Option<u32>>,
}

impl Reference {
    /// Builds and runs the manifest at `path` as written (its strategy, budgets and checks):
    /// once as `cactus workloads stacks` does, for each task's high water, and once as a
    /// probe (seed 0) for the cycles every row is compared with. Errors if it cannot be
    /// loaded, built or run to a correct end.
    pub fn measure(
        path: &std::path::Path,
        reserves: &cactus_cc::Reserves,
        out_root: Option<PathBuf>,
    ) -> Result<Reference, String> {
        let m = Manifest::load(path).map_err(|e| e.to_string())?;
        let base = baseline(path)?;
        let max = (base.cycles * CYCLE_FACTOR).max(MIN_CYCLE_LIMIT);
        let setup = ProbeSetup::with_stack(path, m.kernel.stack, reserves, out_root, max, None)?;
        let budgets = setup.budgets();
        let seed0 = Seeds {
            count: 1,
            jitter_cycles: 0,
        };
        let probe = probe::run_probe(&setup, &budgets, &seed0);
        let cycles = probe.cycles.ok_or_else(|| {
            format!(
                "{}: the firmware as written fails: {}",
                path.display(),
                probe.reason.unwrap_or_default()
            )
        })?;
        Ok(Reference {
            manifest: path.display().to_string(),
            stack: m.kernel.stack.name().to_string(),
            tasks: m.tasks.iter().map(|t| t.name.clone()).collect(),
            budgets,
            high_water: base.high_water.into_iter().take(m.tasks.len()).collect(),
            cycles,
            static_bound: Vec::new(),
        })
    }

    /// The summed high water, when every task's was measured.
    pub fn high_water_total(&self) -> Option<u32> {
        self.high_water.iter().copied().sum()
    }

    /// The summed static bound, when every task is bounded.
    pub fn static_bound_total(&self) -> Option<u32> {
        if self.static_bound.is_empty() {
            return None;
        }
        self.static_bound.iter().copied().sum()
    }
}

/// What an advice sweep needs.
#[derive(Clone, Debug)]
pub struct AdviseOptions {
    /// The firmware's manifest.
    pub manifest: PathBuf,
    /// The strategies to search, in the order of the table.
    pub candidates: Vec<Candidate>,
    /// How each probe runs.
    pub seeds: Seeds,
    /// Lower each task's budget on its own after the uniform shrink.
    pub refine: bool,
    /// MTSS page size for the paged strategies (None: the kernel's default).
    pub page: Option<u32>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the probe builds (None: `build/firmware` beside the manifest's tree).
    pub out_root: Option<PathBuf>,
}

/// The store's parameters: everything besides the points that decides the rows.
pub fn params(options: &AdviseOptions, reference: &Reference) -> serde_json::Value {
    serde_json::json!({
        "reference": reference,
        "seeds": options.seeds.count,
        "jitter_cycles": options.seeds.jitter_cycles,
        "refine": options.refine,
        "page": options.page,
    })
}

/// One point per candidate of `options`, each a whole search against `reference`.
pub fn points<'o>(
    options: &'o AdviseOptions,
    reference: &'o Reference,
) -> Vec<Point<'o, StrategyAdvice>> {
    options
        .candidates
        .iter()
        .map(|&c| {
            let key = c.key();
            Point::new(
                key.clone(),
                key.clone(),
                move |resumed, progress: &Progress| {
                    let start = resumed.unwrap_or_else(|| StrategyAdvice::start(c));
                    if start.complete {
                        return start;
                    }
                    match setup(options, reference, c) {
                        Ok(s) => advise(start, &s, options, &|line| {
                            progress.message(format!("{key}: {line}"))
                        }),
                        Err(e) => start.failed(e),
                    }
                },
            )
        })
        .collect()
}

/// The probe setup of candidate `c`: the manifest under its strategy, with a cycle limit of
/// [`CYCLE_FACTOR`] reference runs (at least [`MIN_CYCLE_LIMIT`]).
fn setup(
    options: &AdviseOptions,
    reference: &Reference,
    c: Candidate,
) -> Result<ProbeSetup, String> {
    let max = (reference.cycles * CYCLE_FACTOR).max(MIN_CYCLE_LIMIT);
    let stack = match c.stack {
        StackStrategy::MtssSplit => StackStrategy::Mtss,
        s => s,
    };
    let s = ProbeSetup::with_stack(
        &options.manifest,
        stack,
        &options.reserves,
        options.out_root.clone(),
        max,
        options.page,
    )?;
    match (c.stack, c.heap) {
        (StackStrategy::MtssSplit, heap) => {
            s.into_hybrid(heap.unwrap_or(StackStrategy::STACKLET_POOL))
        }
        _ => Ok(s),
    }
}

#[cfg(test)]
mod tests;
