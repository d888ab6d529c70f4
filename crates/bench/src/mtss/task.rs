//! One task's MSO search as a row: its probes, the smallest passing budget and what MSO that
//! gives against the budget and the measured high water; [`search_row`], the bisection that
//! completes a row from its known probes.

use super::search::{candidates, Probe};
use super::{LoanStats, HARNESS_TASKS};
use cactus_sweep::search::{contradictions, smallest_passing, Outcome};
use cactus_sweep::Row;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One task's search (a row of the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskMso {
    /// Firmware name of the workload.
    pub workload: String,
    /// Manifest path as given.
    pub manifest: String,
    /// Task name.
    pub task: String,
    /// A harness task ([`HARNESS_TASKS`]).
    pub harness: bool,
    /// Manifest budget in bytes.
    pub budget: u32,
    /// Measured stack high water in bytes (baseline run), if reported.
    pub high_water: Option<u32>,
    /// Every probe, in the order made (resumed ones first).
    pub probes: Vec<Probe>,
    /// The smallest passing budget found, if the search finished with one.
    pub smallest: Option<u32>,
    /// Failing budgets above a passing one (contradictions of monotonicity).
    pub non_monotone: Vec<u32>,
    /// Why the search could not finish or failed.
    pub error: Option<String>,
    /// Loan statistics of a recorded run at the smallest passing budget (when it is below the
    /// manifest budget): what sharing the task's stack took.
    #[serde(default)]
    pub loans: Option<LoanStats>,
    /// The search is over (found a smallest budget, or its full budget fails); a resumed run
    /// does not search it again.
    pub complete: bool,
}

impl TaskMso {
    /// A row before any probe.
    pub fn start(workload: &str, manifest: &str, task: &str, budget: u32) -> TaskMso {
        TaskMso {
            workload: workload.to_string(),
            manifest: manifest.to_string(),
            task: task.to_string(),
            harness: HARNESS_TASKS.contains(&task),
            budget,
            high_water: None,
            probes: Vec::new(),
            smallest: None,
            non_monotone: Vec::new(),
            error: None,
            loans: None,
            complete: false,
        }
    }

    /// MSO against the manifest budget, in percent.
    pub fn mso_budget(&self) -> Option<f64> {
        self.smallest.map(|s| percent_below(self.budget, s))
    }

    /// MSO against the measured high water, in percent (negative when even the smallest
    /// passing budget exceeds the high water: the checks claim a frame's whole size before
    /// writing it, the high water counts only written bytes).
    pub fn mso_high_water(&self) -> Option<f64> {
        match (self.high_water, self.smallest) {
            (Some(h), Some(s)) if h > 0 => Some(percent_below(h, s)),
            _ => None,
        }
    }

    /// The search finished with a smallest passing budget and no error.
    pub fn passed(&self) -> bool {
        self.complete && self.smallest.is_some() && self.error.is_none()
    }
}

impl Row for TaskMso {
    fn complete(&self) -> bool {
        self.complete
    }
    fn passed(&self) -> bool {
        TaskMso::passed(self)
    }
}

fn percent_below(base: u32, value: u32) -> f64 {
    (f64::from(base) - f64::from(value)) * 100.0 / f64::from(base)
}

/// Completes `row` by bisection: budgets already in `row.probes` (resumed) and the manifest
/// budget (`full`, the workload's shared probe) are not probed again; every new probe is
/// appended to `row.probes`.
pub fn search_row(mut row: TaskMso, full: &Probe, probe: &mut dyn FnMut(u32) -> Probe) -> TaskMso {
    let mut known: BTreeMap<u32, Probe> =
        row.probes.iter().map(|p| (p.budget, p.clone())).collect();
    let full = Probe {
        budget: row.budget,
        ..full.clone()
    };
    if let std::collections::btree_map::Entry::Vacant(e) = known.entry(row.budget) {
        e.insert(full.clone());
        row.probes.insert(0, full);
    }
    let outcome = smallest_passing(&candidates(row.budget), &mut |budget| {
        if let Some(p) = known.get(&budget) {
            return p.passed;
        }
        let p = probe(budget);
        known.insert(budget, p.clone());
        row.probes.push(p.clone());
        p.passed
    });
    match outcome {
        Outcome::Smallest(s) => row.smallest = Some(s),
        Outcome::TopFails => {
            let why = known[&row.budget].reason.clone().unwrap_or_default();
            row.error = Some(format!("fails at its full budget: {why}"));
        }
    }
    row.non_monotone = contradictions(row.probes.iter().map(|p| (p.budget, p.passed)));
    row.complete = true;
    row
}

/// The key of a task's point: manifest, task and budget (a changed budget is a new point).
pub fn task_key(manifest: &str, task: &str, budget: u32) -> String {
    format!("{manifest}#{task}@{budget}")
}
