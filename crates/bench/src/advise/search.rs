//! The search of one strategy: the uniform shrink, then each task on its own.

use super::probe::{run_probe, AdviceProbe};
use super::{AdviseOptions, Candidate, Reference};
use crate::mtss::prs::MAX_SHRINK;
use crate::mtss::ProbeSetup;
use cactus_firmware::{shrink_budget, StackStrategy};
use cactus_sweep::search::{ladder, largest_passing, smallest_passing, Outcome};
use cactus_sweep::Row;
use serde::{Deserialize, Serialize};

/// The smallest budget a manifest accepts, bytes.
const MIN_BUDGET: u32 = 128;

/// One strategy's answer (a row of the table and of the JSON store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StrategyAdvice {
    /// The strategy (`static`, `mtss`, `mtss+split`).
    pub strategy: String,
    /// The point's key (`mtss+split heap 1024`).
    pub key: String,
    /// The stacklet heap the strategy takes besides the budgets, bytes (0 without one).
    pub heap_bytes: u32,
    /// The MTSS page of the build, bytes (paged strategies only).
    #[serde(default)]
    pub page_bytes: Option<u32>,
    /// Every probe, in the order made (resumed ones first).
    pub probes: Vec<AdviceProbe>,
    /// The largest uniform shrink that passed, percent.
    pub shrink: Option<u32>,
    /// The smallest passing budgets found, by task index.
    pub budgets: Option<Vec<u32>>,
    /// The stack RAM at those budgets: the strategy's pool bytes for them plus the heap.
    pub stack_bytes: Option<u32>,
    /// Simulated cycles of the seed-0 run at those budgets.
    pub cycles: Option<u64>,
    /// Why the search could not finish.
    pub error: Option<String>,
    /// The search is over.
    pub complete: bool,
}

impl Row for StrategyAdvice {
    fn complete(&self) -> bool {
        self.complete
    }
    fn passed(&self) -> bool {
        self.error.is_none()
    }
}

impl StrategyAdvice {
    /// A row before any probe.
    pub fn start(c: Candidate) -> StrategyAdvice {
        StrategyAdvice {
            strategy: c.stack.name().to_string(),
            key: c.key(),
            heap_bytes: 0,
            page_bytes: None,
            probes: Vec::new(),
            shrink: None,
            budgets: None,
            stack_bytes: None,
            cycles: None,
            error: None,
            complete: false,
        }
    }

    /// The row ended by `error`.
    pub fn failed(self, error: String) -> StrategyAdvice {
        StrategyAdvice {
            error: Some(error),
            complete: true,
            ..self
        }
    }

    /// The cycle overhead at the answer against the reference run, percent.
    pub fn overhead_pct(&self, reference: &Reference) -> Option<f64> {
        let c = self.cycles? as f64;
        let r = reference.cycles as f64;
        (r > 0.0).then(|| (c - r) * 100.0 / r)
    }
}

/// The pool bytes `budgets` take under `stack` with pages of `page` bytes.
pub fn stack_bytes(stack: StackStrategy, budgets: &[u32], page: u32) -> u32 {
    budgets.iter().map(|&b| stack.region_bytes(b, page)).sum()
}

/// Completes `row` for `setup`'s build (probes already in `row` are not made again), calling
/// `progress` with a short line after each new probe.
pub fn advise(
    mut row: StrategyAdvice,
    setup: &ProbeSetup,
    options: &AdviseOptions,
    progress: &(dyn Fn(String) + Sync),
) -> StrategyAdvice {
    let stack = setup.manifest.kernel.stack;
    let page = setup.page();
    row.page_bytes = stack.has_pages().then_some(page);
    row.heap_bytes = match stack {
        StackStrategy::MtssSplit => {
            StackStrategy::heap_bytes(setup.manifest.kernel.stacklet_pool_bytes(), page)
        }
        _ => 0,
    };
    let full = setup.budgets();
    let mut probe = |budgets: &[u32]| -> bool {
        if let Some(p) = row.probes.iter().find(|p| p.budgets == budgets) {
            return p.passed;
        }
        let p = run_probe(setup, budgets, &options.seeds);
        progress(format!(
            "{} B {}",
            stack_bytes(stack, budgets, page) + row.heap_bytes,
            if p.passed { "pass" } else { "fail" }
        ));
        row.probes.push(p.clone());
        p.passed
    };
    let shrunk = |pct: u32| -> Vec<u32> { full.iter().map(|&b| shrink_budget(b, pct)).collect() };
    let Some(pct) = largest_passing(MAX_SHRINK, &mut |p| probe(&shrunk(p))) else {
        let first = row.probes.iter().find(|p| p.budgets == full);
        let why = first.map(describe_failure).unwrap_or_default();
        return row.failed(format!("fails at the manifest's budgets: {why}"));
    };
    let mut budgets = shrunk(pct);
    if options.refine {
        let step = if stack.has_pages() { page } else { 16 };
        let mut order: Vec<usize> = (0..budgets.len()).collect();
        order.sort_by_key(|&t| std::cmp::Reverse(budgets[t]));
        for t in order {
            let steps = ladder(MIN_BUDGET.min(budgets[t]), budgets[t], step);
            let mut with = |b: u32| {
                let mut v = budgets.clone();
                v[t] = b;
                probe(&v)
            };
            match smallest_passing(&steps, &mut with) {
                Outcome::Smallest(b) => budgets[t] = b,
                Outcome::TopFails => {
                    return row.failed(format!(
                        "not repeatable: the budgets {budgets:?} passed once and failed later"
                    ))
                }
            }
        }
    }
    row.cycles = row
        .probes
        .iter()
        .find(|p| p.budgets == budgets)
        .and_then(|p| p.cycles);
    row.shrink = Some(pct);
    row.stack_bytes = Some(stack_bytes(stack, &budgets, page) + row.heap_bytes);
    row.budgets = Some(budgets);
    row.complete = true;
    row
}

/// A failed probe's seed and reason in one line.
pub fn describe_failure(p: &AdviceProbe) -> String {
    let reason = p.reason.clone().unwrap_or_default();
    match p.failed_seed {
        Some(0) => format!("seed 0 (timer on time): {reason}"),
        Some(s) => format!("seed {s} (late timer interrupts): {reason}"),
        None => reason,
    }
}
