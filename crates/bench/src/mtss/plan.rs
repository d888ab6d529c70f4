//! Planning a run from the manifests and a resumed report, and one task's bisection with
//! its known probes: the part of the experiment that needs no machine (host-tested).

use super::search::{self, Probe};
use super::{MsoReport, TaskMso, HARNESS_TASKS};
use std::collections::BTreeMap;

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
    let outcome = search::smallest_passing(row.budget, &mut |budget| {
        if let Some(p) = known.get(&budget) {
            return p.passed;
        }
        let p = probe(budget);
        known.insert(budget, p.clone());
        row.probes.push(p.clone());
        p.passed
    });
    match outcome {
        search::Outcome::Smallest(s) => row.smallest = Some(s),
        search::Outcome::FullBudgetFails => {
            let why = known[&row.budget].reason.clone().unwrap_or_default();
            row.error = Some(format!("fails at its full budget: {why}"));
        }
    }
    row.non_monotone = search::contradictions(&row.probes);
    row.complete = true;
    row
}

/// One workload as [`plan`] sees it.
#[derive(Clone, Debug)]
pub struct WorkloadPlan {
    /// Manifest path as given (the resume key, with the task name).
    pub manifest: String,
    /// Firmware name.
    pub workload: String,
    /// (task name, manifest budget) in manifest order.
    pub tasks: Vec<(String, u32)>,
}

/// The report's rows before any probe, and the searches left to make as (workload index,
/// task index, row index). A resumed row that is complete and has the same budget is kept
/// whole; a resumed incomplete row with the same budget gives its probes; a row whose budget
/// changed since is started afresh.
pub fn plan(
    workloads: &[WorkloadPlan],
    resume: Option<&MsoReport>,
) -> (Vec<TaskMso>, Vec<(usize, usize, usize)>) {
    let resumed = resumed_tasks(resume);
    let mut rows = Vec::new();
    let mut todo = Vec::new();
    for (wi, w) in workloads.iter().enumerate() {
        for (ti, (name, budget)) in w.tasks.iter().enumerate() {
            let old = resumed
                .get(&(w.manifest.clone(), name.clone()))
                .filter(|r| r.budget == *budget);
            let row = match old {
                Some(r) if r.complete => r.clone(),
                _ => {
                    todo.push((wi, ti, rows.len()));
                    TaskMso {
                        workload: w.workload.clone(),
                        manifest: w.manifest.clone(),
                        task: name.clone(),
                        harness: HARNESS_TASKS.contains(&name.as_str()),
                        budget: *budget,
                        high_water: None,
                        probes: old.map(|r| r.probes.clone()).unwrap_or_default(),
                        smallest: None,
                        non_monotone: Vec::new(),
                        error: None,
                        loans: None,
                        complete: false,
                    }
                }
            };
            rows.push(row);
        }
    }
    (rows, todo)
}

/// The resumed rows by (manifest, task).
fn resumed_tasks(resume: Option<&MsoReport>) -> BTreeMap<(String, String), TaskMso> {
    resume
        .map(|r| {
            r.tasks
                .iter()
                .map(|t| ((t.manifest.clone(), t.task.clone()), t.clone()))
                .collect()
        })
        .unwrap_or_default()
}
