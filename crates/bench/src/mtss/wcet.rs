//! `cactus bench mtss wcet`: the MTSS paper's worst-case overhead estimate (section 10,
//! "Real time bounds", Figures 12 and 13) on our workloads.
//!
//! The paper's three steps, on our platform: (1) every program task gets a stack below
//! anything its input needs — we use the smallest budget a manifest accepts (128 bytes), which
//! is below each task's certainly-called chain, so every frame that can overflow does (the
//! harness tasks keep their budgets: they print through `kprintf`, a variadic function whose
//! frame is pinned and cannot move);
//! (2) the moved frames go to an artificial region that cannot run out (the kernel's
//! `kernel.mtss_worst_case` mode: the pool's spare memory); (3) each move runs the
//! allocation's worst case: every task and every page of it is scanned before the frame goes
//! to the artificial region. The overhead is the run's extra simulated cycles over the
//! unmodified workload (`static` stacks, no checks, manifest budgets), beside the common
//! case (`mtss` at the manifest budgets, where nothing moves).

use super::prs::{shrunk_budgets, MAX_SHRINK};
use super::run::{ProbeSetup, Variant};
use super::search::MIN_BUDGET;
use super::shared::Shared;
use super::{page_bytes, stem, Baseline, HARNESS_TASKS};
use cactus_sweep::search::largest_passing;
use cactus_sweep::{Point, Progress, Row};
use serde::{Deserialize, Serialize};

/// The paper's average worst-case overhead over its workloads (section 10: "The average
/// WCET overhead ... is 37.5%").
pub const PAPER_WCET_AVERAGE: f64 = 37.5;

/// One workload at one page size (a row of the JSON file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WcetRow {
    /// Firmware name.
    pub workload: String,
    /// Manifest path as given (with `page_bytes`, the resume key).
    pub manifest: String,
    /// MTSS page size, bytes.
    pub page_bytes: u32,
    /// Cycles of the unmodified workload (`static`, no checks, manifest budgets).
    pub base_cycles: Option<u64>,
    /// Cycles under `mtss` at the manifest budgets (the common case).
    pub common_cycles: Option<u64>,
    /// Frames moved in the common-case run.
    pub common_moved: Option<u64>,
    /// Cycles of the worst-case run.
    pub worst_cycles: Option<u64>,
    /// Frames moved in the worst-case run.
    pub worst_moved: Option<u64>,
    /// When the floor budgets did not complete (a frame that cannot move, such as a
    /// variadic one, did not fit): the largest shrink of every program task's budget at which
    /// the worst-case run completes, found by bisection; None when the floor completed.
    #[serde(default)]
    pub worst_shrink: Option<u32>,
    /// Why a run failed.
    pub error: Option<String>,
    /// All runs were made (or failed); a resumed run keeps the row.
    pub complete: bool,
}

fn over(base: Option<u64>, x: Option<u64>) -> Option<f64> {
    match (base, x) {
        (Some(b), Some(x)) if b > 0 => Some((x as f64 - b as f64) * 100.0 / b as f64),
        _ => None,
    }
}

impl Row for WcetRow {
    fn complete(&self) -> bool {
        self.complete
    }
    fn passed(&self) -> bool {
        self.error.is_none()
    }
}

impl WcetRow {
    /// Worst-case run time over the unmodified run, percent.
    pub fn wcet_overhead(&self) -> Option<f64> {
        over(self.base_cycles, self.worst_cycles)
    }
    /// Common-case run time over the unmodified run, percent.
    pub fn common_overhead(&self) -> Option<f64> {
        over(self.base_cycles, self.common_cycles)
    }
}

/// Every program task's budget at the manifest minimum, the harness tasks' as they are.
pub fn floor_budgets(setup: &ProbeSetup) -> Vec<u32> {
    setup
        .manifest
        .tasks
        .iter()
        .map(|t| {
            if HARNESS_TASKS.contains(&t.name.as_str()) {
                t.stack
            } else {
                t.stack.min(MIN_BUDGET)
            }
        })
        .collect()
}

/// Makes the two `mtss` runs of `row` (its workload at its page size) beside `base`, the
/// unmodified workload's run. Errors land in the row.
pub fn measure(mut row: WcetRow, setup: &ProbeSetup, base: &Baseline) -> WcetRow {
    row.base_cycles = Some(base.cycles);
    let common = setup.run_variant(&Variant {
        budgets: setup.budgets(),
        worst_case: false,
        loans: false,
    });
    match common {
        Ok(d) => {
            row.common_cycles = Some(d.cycles);
            row.common_moved = Some(d.moved_frames);
        }
        Err(e) => row.error = Some(format!("common case: {e}")),
    }
    let run = |budgets: Vec<u32>| {
        setup.run_variant(&Variant {
            budgets,
            worst_case: true,
            loans: false,
        })
    };
    let mut worst = run(floor_budgets(setup));
    if worst.is_err() {
        // The floor is too small for a pinned frame: the smallest proportional budgets that
        // complete instead (every frame that can move still moves more than at the PRS point).
        let mut best = None;
        let found = largest_passing(
            MAX_SHRINK,
            &mut |pct| match run(shrunk_budgets(setup, pct)) {
                Ok(d) => {
                    if best.as_ref().is_none_or(|(p, _)| pct > *p) {
                        best = Some((pct, d));
                    }
                    true
                }
                Err(_) => false,
            },
        );
        if let (Some(pct), Some((at, d))) = (found, best) {
            if pct == at {
                row.worst_shrink = Some(pct);
                worst = Ok(d);
            }
        }
    }
    match worst {
        Ok(d) => {
            row.worst_cycles = Some(d.cycles);
            row.worst_moved = Some(d.moved_frames);
        }
        Err(e) => {
            let prev = row
                .error
                .take()
                .map(|p| format!("{p}; "))
                .unwrap_or_default();
            row.error = Some(format!("{prev}worst case: {e}"));
        }
    }
    row.complete = true;
    row
}

/// A fresh row.
pub fn start_row(manifest: &str, workload: &str, page: u32) -> WcetRow {
    WcetRow {
        workload: workload.to_string(),
        manifest: manifest.to_string(),
        page_bytes: page,
        base_cycles: None,
        common_cycles: None,
        common_moved: None,
        worst_cycles: None,
        worst_moved: None,
        worst_shrink: None,
        error: None,
        complete: false,
    }
}

/// Cycle limit of a worst-case run, in baseline runs (every call may move a frame).
pub const WCET_CYCLE_FACTOR: u64 = 200;

/// The store's parameters of a worst-case sweep over `pages` (empty: the default page).
pub fn params(pages: &[u32]) -> serde_json::Value {
    let pages: Vec<u32> = if pages.is_empty() {
        vec![page_bytes(None)]
    } else {
        pages.to_vec()
    };
    serde_json::json!({ "pages": pages })
}

/// One point per manifest of `shared` and page size (workloads outer, pages inner).
pub fn points<'s>(shared: &'s Shared<'_>) -> Vec<Point<'s, WcetRow>> {
    let o = shared.options();
    let pages: Vec<Option<u32>> = if o.pages.is_empty() {
        vec![None]
    } else {
        o.pages.iter().map(|&p| Some(p)).collect()
    };
    let mut points = Vec::new();
    for m in &o.manifests {
        let manifest = m.display().to_string();
        let workload = stem(m);
        for &page in &pages {
            let bytes = page_bytes(page);
            let start = start_row(&manifest, &workload, bytes);
            let key = format!("{manifest}@{bytes}");
            let label = format!("{workload} {bytes} B");
            points.push(Point::new(key, label, move |resumed, _: &Progress| {
                let row = resumed.unwrap_or_else(|| start.clone());
                match shared.prepare(&row.manifest, Some(row.page_bytes), WCET_CYCLE_FACTOR) {
                    Ok(p) => {
                        let row = WcetRow {
                            workload: p.setup.manifest.name.clone(),
                            ..row
                        };
                        measure(row, &p.setup, &p.base)
                    }
                    Err(e) => WcetRow {
                        error: Some(e),
                        complete: true,
                        ..row
                    },
                }
            }));
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overheads_are_relative_to_the_unmodified_run() {
        let mut row = start_row("w.toml", "w", 128);
        assert_eq!(row.wcet_overhead(), None);
        row.base_cycles = Some(1000);
        row.common_cycles = Some(1010);
        row.worst_cycles = Some(1375);
        assert_eq!(row.common_overhead(), Some(1.0));
        assert_eq!(row.wcet_overhead(), Some(37.5));
    }
}
