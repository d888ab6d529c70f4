//! `cactus bench mtss prs`: the MTSS paper's Proportional Reduction Satisfiability (section
//! 10, Figure 11): the largest percentage by which every program task's stack budget can be
//! shrunk at once (`cactus_firmware::shrink_budget`) with the workload still completing
//! under `stack = "mtss"`; and, from a recorded run at that point, the paper's "additional
//! statistics" (holes, multi-page frames).
//!
//! Guarantees: each workload's answer comes from builds and runs made here or recorded in a
//! resumed JSON; a workload that fails even unshrunk is a failure with its reason.

use super::occupancy::{self, Occupancy};
use super::run::{ProbeSetup, Variant};
use super::shared::Shared;
use super::{page_bytes, stem, Baseline, LoanStats, CYCLE_FACTOR, HARNESS_TASKS};
use cactus_firmware::shrink_budget;
use cactus_sweep::search::largest_passing;
use cactus_sweep::{Point, Progress, Row};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The largest shrink searched, percent (the `--shrink` limit).
pub const MAX_SHRINK: u32 = 95;

/// The stacklet heaps an `mtss+split` PRS sweep tries by default, bytes: small ones, ones that
/// hold the 8 KB frames (susan, pegwit) and one for pgp's 33 KB frame.
pub const HYBRID_HEAPS: [u32; 6] = [1024, 2048, 4096, 12288, 20480, 36864];

/// The paper's average PRS over its six workloads (section 10: "we can recover 15.7% of the
/// stack space needed").
pub const PAPER_PRS: f64 = 15.7;

/// One build-and-run at one shrink percentage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShrinkProbe {
    /// Percent every program task's budget was shrunk by.
    pub percent: u32,
    /// The workload completed correctly.
    pub passed: bool,
    /// Frames moved by the kernel (passing runs).
    #[serde(default)]
    pub moved_frames: u64,
    /// Why it failed (first line of the outcome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One workload's PRS (also a row of the JSON file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadPrs {
    /// Firmware name.
    pub workload: String,
    /// Manifest path as given (the resume key).
    pub manifest: String,
    /// MTSS page size, bytes.
    pub page_bytes: u32,
    /// The program tasks' manifest budgets, summed (harness tasks are not shrunk).
    pub budget_total: u32,
    /// The program tasks' measured high waters, summed (the baseline run's).
    pub high_water_total: Option<u32>,
    /// Every probe, resumed ones first.
    pub probes: Vec<ShrinkProbe>,
    /// The largest passing shrink, percent.
    pub prs: Option<u32>,
    /// The program tasks' budgets at that shrink, summed.
    pub smallest_total: Option<u32>,
    /// Loan statistics of a recorded run at that shrink.
    pub loans: Option<LoanStats>,
    /// The physical limit of sharing, from the baseline build run instruction by instruction.
    #[serde(default)]
    pub occupancy: Option<Occupancy>,
    /// Why the search could not finish.
    pub error: Option<String>,
    /// The search is over; a resumed run keeps the row as it is.
    pub complete: bool,
    /// The stack strategy probed (`mtss`, or `mtss+split`).
    #[serde(default = "default_stack")]
    pub stack: String,
    /// Stack-pool bytes the strategy takes besides the budgets (the `mtss+split` stacklet
    /// heap; 0 for `mtss`): counted in every saving.
    #[serde(default)]
    pub heap_bytes: u32,
    /// `mtss+split`: the PRS search at each stacklet heap tried (the row is the best one's:
    /// the least budgets plus heap at its PRS point).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heap_trials: Vec<HeapTrial>,
}

/// One `mtss+split` PRS search at one stacklet heap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeapTrial {
    /// The heap's bytes (whole pages).
    pub heap_bytes: u32,
    /// Its PRS, percent.
    pub prs: Option<u32>,
    /// The budgets plus the heap at that PRS.
    pub memory: Option<u32>,
    /// Why the search failed.
    pub error: Option<String>,
    /// Some(p): not a search but one probe at p percent, of the refinement that looks for
    /// the smallest heap between two tried ones at the best PRS ([`refine_heap`]); `prs` is
    /// Some(p) when it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probed_at: Option<u32>,
    /// What stops the next shrink step at this heap: the failing probe's reason at the
    /// smallest failing percentage above the PRS (for a one-probe trial, its own failure);
    /// None at the search's ceiling ([`MAX_SHRINK`]) or without a failing probe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

impl HeapTrial {
    /// The trial of a finished search `done` at `heap_bytes`.
    pub fn of_search(heap_bytes: u32, done: &WorkloadPrs) -> HeapTrial {
        HeapTrial {
            heap_bytes,
            prs: done.prs,
            memory: done.smallest_memory(),
            error: done.error.clone(),
            probed_at: None,
            limit: done.next_step_failure().map(str::to_string),
        }
    }
}

fn default_stack() -> String {
    "mtss".to_string()
}

impl Row for WorkloadPrs {
    fn complete(&self) -> bool {
        self.complete
    }
    fn passed(&self) -> bool {
        self.error.is_none()
    }
}

impl WorkloadPrs {
    /// A row before any probe.
    pub fn start(workload: &str, manifest: &str, page_bytes: u32) -> WorkloadPrs {
        WorkloadPrs {
            workload: workload.to_string(),
            manifest: manifest.to_string(),
            page_bytes,
            budget_total: 0,
            high_water_total: None,
            probes: Vec::new(),
            prs: None,
            smallest_total: None,
            loans: None,
            occupancy: None,
            error: None,
            complete: false,
            stack: default_stack(),
            heap_bytes: 0,
            heap_trials: Vec::new(),
        }
    }

    /// The same row for the strategy `stack` with `heap_bytes` of the pool besides budgets.
    pub fn with_strategy(mut self, stack: &str, heap_bytes: u32) -> WorkloadPrs {
        self.stack = stack.to_string();
        self.heap_bytes = heap_bytes;
        self
    }

    /// Stack memory at the PRS point: the program tasks' budgets plus the heap.
    pub fn smallest_memory(&self) -> Option<u32> {
        self.smallest_total.map(|s| s + self.heap_bytes)
    }

    /// Why the next shrink step failed: the reason of the failing probe at the smallest
    /// percentage above the PRS (None at [`MAX_SHRINK`] or without a failing probe).
    pub fn next_step_failure(&self) -> Option<&str> {
        let prs = self.prs?;
        self.probes
            .iter()
            .filter(|p| !p.passed && p.percent > prs)
            .min_by_key(|p| p.percent)
            .and_then(|p| p.reason.as_deref())
    }

    /// Frames the kernel moved in the passing run at the PRS point.
    pub fn frames_moved(&self) -> Option<u64> {
        self.prs
            .and_then(|p| self.probes.iter().find(|q| q.percent == p))
            .map(|q| q.moved_frames)
    }

    /// The saving against the high water as a share of the most any sharing could save
    /// (both percentages of their static baseline); None without a possible saving.
    pub fn prs_of_possible(&self) -> Option<f64> {
        let possible = self.occupancy.as_ref()?.possible_pct()?;
        (possible > 0.0).then(|| self.prs_of_high_water().map(|p| p * 100.0 / possible))?
    }

    /// The stack bytes saved at the PRS point as a percentage of the summed high water (the
    /// paper's baseline is the maximum observed stack); negative when the smallest budgets
    /// (with the heap, for `mtss+split`) exceed it.
    pub fn prs_of_high_water(&self) -> Option<f64> {
        match (self.high_water_total, self.smallest_memory()) {
            (Some(h), Some(s)) if h > 0 => {
                Some((f64::from(h) - f64::from(s)) * 100.0 / f64::from(h))
            }
            _ => None,
        }
    }

    /// The stack bytes saved at the PRS point as a percentage of the summed budgets (at most
    /// `prs`, less where rounding, the 128-byte floor or the heap kept bytes).
    pub fn prs_of_budget(&self) -> Option<f64> {
        self.smallest_memory().map(|s| {
            (f64::from(self.budget_total) - f64::from(s)) * 100.0 / f64::from(self.budget_total)
        })
    }
}

/// The program tasks' budgets shrunk by `percent`, harness tasks as they are.
pub fn shrunk_budgets(setup: &ProbeSetup, percent: u32) -> Vec<u32> {
    setup
        .manifest
        .tasks
        .iter()
        .map(|t| {
            if HARNESS_TASKS.contains(&t.name.as_str()) {
                t.stack
            } else {
                shrink_budget(t.stack, percent)
            }
        })
        .collect()
}

/// Completes `row` for the workload of `setup` (probes already in `row` are not made again),
/// calling `progress` after each new probe.
pub fn search(
    mut row: WorkloadPrs,
    setup: &ProbeSetup,
    progress: &(dyn Fn(&ShrinkProbe) + Sync),
) -> WorkloadPrs {
    let program = |b: &[u32]| -> u32 {
        setup
            .manifest
            .tasks
            .iter()
            .zip(b)
            .filter(|(t, _)| !HARNESS_TASKS.contains(&t.name.as_str()))
            .map(|(_, b)| *b)
            .sum()
    };
    row.budget_total = program(&setup.budgets());
    let mut probe = |percent: u32| -> bool {
        if let Some(p) = row.probes.iter().find(|p| p.percent == percent) {
            return p.passed;
        }
        let v = Variant {
            budgets: shrunk_budgets(setup, percent),
            worst_case: false,
            loans: false,
        };
        let p = match setup.run_variant(&v) {
            Ok(done) => ShrinkProbe {
                percent,
                passed: true,
                moved_frames: done.moved_frames,
                reason: None,
            },
            Err(reason) => ShrinkProbe {
                percent,
                passed: false,
                moved_frames: 0,
                reason: Some(reason),
            },
        };
        progress(&p);
        row.probes.push(p.clone());
        p.passed
    };
    match largest_passing(MAX_SHRINK, &mut probe) {
        None => {
            let why = row
                .probes
                .iter()
                .find(|p| p.percent == 0)
                .and_then(|p| p.reason.clone())
                .unwrap_or_default();
            row.error = Some(format!("fails unshrunk: {why}"));
        }
        Some(prs) => {
            let budgets = shrunk_budgets(setup, prs);
            row.prs = Some(prs);
            row.smallest_total = Some(program(&budgets));
            match setup.record_loans(budgets, &format!("{prs} %")) {
                Ok(loans) => row.loans = loans,
                Err(e) => row.error = Some(e),
            }
        }
    }
    row.complete = true;
    row
}

/// A fresh row for the workload at `manifest`, with the program tasks' summed high water of
/// its baseline run `base`.
pub fn start_row(manifest: &str, setup: &ProbeSetup, base: &Baseline) -> WorkloadPrs {
    let mut row = WorkloadPrs::start(&setup.manifest.name, manifest, setup.page());
    row.high_water_total = setup
        .manifest
        .tasks
        .iter()
        .zip(&base.high_water)
        .filter(|(t, _)| !HARNESS_TASKS.contains(&t.name.as_str()))
        .map(|(_, h)| *h)
        .sum();
    row
}

/// The store's parameters of a PRS sweep at `page` (and, for `mtss+split`, the stacklet
/// heaps tried).
pub fn params(page: Option<u32>, hybrid: &[u32]) -> serde_json::Value {
    if hybrid.is_empty() {
        serde_json::json!({ "page": page_bytes(page) })
    } else {
        serde_json::json!({ "page": page_bytes(page), "stack": "mtss+split",
                            "stacklet_pool": hybrid })
    }
}

/// The `mtss+split` PRS of `fresh`'s workload: one search per stacklet heap in `heaps`
/// (bytes), each with its own setup; the row of the least budgets plus heap at the PRS point
/// (a search that failed loses to one that did not; the smaller heap wins a tie), with every
/// trial listed.
fn hybrid_search(
    fresh: WorkloadPrs,
    setup: &ProbeSetup,
    heaps: &[u32],
    progress: &(dyn Fn(&ShrinkProbe, u32) + Sync),
) -> WorkloadPrs {
    let mut best: Option<WorkloadPrs> = None;
    let mut trials = Vec::new();
    for &h in heaps {
        let heap = cactus_firmware::StackStrategy::heap_bytes(h, setup.page());
        let start = WorkloadPrs {
            probes: Vec::new(),
            ..fresh.clone()
        }
        .with_strategy("mtss+split", heap);
        let done = match setup.clone().into_hybrid(h) {
            Ok(s) => search(start, &s, &|p| progress(p, heap)),
            Err(e) => WorkloadPrs {
                error: Some(e),
                complete: true,
                ..start
            },
        };
        trials.push(HeapTrial::of_search(heap, &done));
        let better = match &best {
            None => true,
            Some(b) => match (b.error.is_some(), done.error.is_some()) {
                (true, false) => true,
                (false, true) => false,
                _ => {
                    done.smallest_memory().unwrap_or(u32::MAX)
                        < b.smallest_memory().unwrap_or(u32::MAX)
                }
            },
        };
        if better {
            best = Some(done);
        }
    }
    let mut row = match best {
        Some(b) => refine_heap(b, &fresh, setup, &mut trials, progress),
        None => fresh,
    };
    row.heap_trials = trials;
    row
}

/// The heaps tried are coarse: the best row's heap may be far above what its PRS point
/// needs, and at that point the heap is most of the memory counted. Between the largest
/// tried heap below the best one (or one page) and the best one, bisects (whole pages) for
/// the smallest heap at which the best PRS still passes, one probe per heap (each a trial
/// with `probed_at`); when it is smaller, the row is a full search at that heap (whose PRS
/// may only be the same or higher). Nothing changes for a failed best row.
fn refine_heap(
    best: WorkloadPrs,
    fresh: &WorkloadPrs,
    setup: &ProbeSetup,
    trials: &mut Vec<HeapTrial>,
    progress: &(dyn Fn(&ShrinkProbe, u32) + Sync),
) -> WorkloadPrs {
    let (Some(prs), None) = (best.prs, &best.error) else {
        return best;
    };
    let page = setup.page();
    let below = trials
        .iter()
        .filter(|t| t.probed_at.is_none() && t.heap_bytes < best.heap_bytes)
        .map(|t| t.heap_bytes)
        .max()
        .unwrap_or(0);
    // Invariant: `lo` pages fail at prs (or are untried zero), `hi` pages pass.
    let (mut lo, mut hi) = (below / page, best.heap_bytes / page);
    let mut probe_at = |pages: u32| -> bool {
        let heap = pages * page;
        let (passed, reason) = match setup.clone().into_hybrid(heap) {
            Ok(s) => {
                let v = Variant {
                    budgets: shrunk_budgets(&s, prs),
                    worst_case: false,
                    loans: false,
                };
                match s.run_variant(&v) {
                    Ok(_) => (true, None),
                    Err(e) => (false, Some(e)),
                }
            }
            Err(e) => (false, Some(e)),
        };
        progress(
            &ShrinkProbe {
                percent: prs,
                passed,
                moved_frames: 0,
                reason: reason.clone(),
            },
            heap,
        );
        trials.push(HeapTrial {
            heap_bytes: heap,
            prs: passed.then_some(prs),
            memory: None,
            error: None,
            probed_at: Some(prs),
            limit: reason,
        });
        passed
    };
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if probe_at(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    if hi * page >= best.heap_bytes {
        return best;
    }
    let heap = hi * page;
    let start = WorkloadPrs {
        probes: Vec::new(),
        ..fresh.clone()
    }
    .with_strategy("mtss+split", heap);
    let done = match setup.clone().into_hybrid(heap) {
        Ok(s) => search(start, &s, &|p| progress(p, heap)),
        Err(_) => return best,
    };
    trials.push(HeapTrial::of_search(heap, &done));
    match (
        done.error.is_none(),
        done.smallest_memory(),
        best.smallest_memory(),
    ) {
        (true, Some(d), Some(b)) if d < b => done,
        _ => best,
    }
}

/// One point per manifest of `shared`, at its page size (`mtss`, or `mtss+split` at each of
/// its heaps).
pub fn points<'s>(shared: &'s Shared<'_>) -> Vec<Point<'s, WorkloadPrs>> {
    let page = shared.options().page();
    let strategy = shared.options().strategy();
    let heaps = &shared.options().hybrid;
    shared
        .options()
        .manifests
        .iter()
        .map(|m| {
            let manifest = m.display().to_string();
            let name = stem(m);
            let start = WorkloadPrs::start(&name, &manifest, page_bytes(page))
                .with_strategy(strategy.name(), 0);
            Point::new(manifest, name, move |resumed, progress: &Progress| {
                let row = resumed.unwrap_or_else(|| start.clone());
                let prepared = match shared.prepare(&row.manifest, page, CYCLE_FACTOR) {
                    Ok(p) => p,
                    Err(e) => {
                        return WorkloadPrs {
                            error: Some(e),
                            complete: true,
                            ..row
                        }
                    }
                };
                let mut fresh = start_row(&row.manifest, &prepared.setup, &prepared.base)
                    .with_strategy(strategy.name(), 0);
                // An interrupted hybrid search starts over (its probes were of several heaps).
                if heaps.is_empty() {
                    fresh.probes = row.probes;
                }
                let name = fresh.workload.clone();
                progress.message(format!("{name}: occupancy run"));
                let limit = prepared.setup.max_cycles;
                match row
                    .occupancy
                    .map_or_else(|| occupancy::measure(Path::new(&row.manifest), limit), Ok)
                {
                    Ok(o) => fresh.occupancy = Some(o),
                    Err(e) => {
                        return WorkloadPrs {
                            error: Some(e),
                            complete: true,
                            ..fresh
                        }
                    }
                }
                let verdict = |p: &ShrinkProbe| if p.passed { "pass" } else { "fail" };
                if !heaps.is_empty() {
                    return hybrid_search(fresh, &prepared.setup, heaps, &|p, heap| {
                        progress.message(format!(
                            "{name} heap {heap} -{}% {}",
                            p.percent,
                            verdict(p)
                        ))
                    });
                }
                search(fresh, &prepared.setup, &|p| {
                    progress.message(format!("{name} -{}% {}", p.percent, verdict(p)))
                })
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_of_budget_and_high_water() {
        let row = WorkloadPrs {
            workload: "w".into(),
            manifest: "w.toml".into(),
            page_bytes: 128,
            budget_total: 4000,
            high_water_total: Some(3000),
            probes: vec![],
            prs: Some(30),
            smallest_total: Some(2800),
            loans: None,
            occupancy: Some(Occupancy {
                peak_of_sum: 2000,
                sum_of_peaks: 3000,
                instructions: 1,
            }),
            error: None,
            complete: true,
            stack: "mtss".into(),
            heap_bytes: 0,
            heap_trials: vec![],
        };
        assert_eq!(row.prs_of_budget(), Some(30.0));
        assert!((row.prs_of_high_water().unwrap() - 6.666).abs() < 0.01);
        // 6.67 % saved of a possible 33.3 %.
        assert!((row.prs_of_possible().unwrap() - 20.0).abs() < 0.01);
        // mtss+split: its heap counts as stack memory in both savings.
        let hybrid = row.with_strategy("mtss+split", 400);
        assert_eq!(hybrid.smallest_memory(), Some(3200));
        assert_eq!(hybrid.prs_of_budget(), Some(20.0));
        assert!((hybrid.prs_of_high_water().unwrap() + 6.666).abs() < 0.01);
    }
}
