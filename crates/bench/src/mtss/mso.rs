//! `cactus bench mtss mso`: the MTSS paper's Maximum Satisfiable Overflow (section 10,
//! Figure 9). For each task of each workload, every other task at its manifest budget, a
//! bisection finds the smallest budget (a multiple of 16, at least 128) at which the workload,
//! built with `stack = "mtss"` and `checks = "mtss"`, still completes correctly on cactus-sim:
//! exit code 0 through its own checksum checks and no ownership-oracle violation (the oracle
//! stops the run on the first one). MSO is `(budget - smallest) / budget` of the manifest
//! budget, and `(high water - smallest) / high water` of the task's stack high water measured
//! by the run the budgets were derived from (the paper's baseline: its maximum observed stack).
//!
//! Each task's search is one point of the sweep; probes that contradict monotonicity are kept
//! in [`TaskMso::non_monotone`].

use super::run::Variant;
use super::search::{candidates, Probe};
use super::shared::Shared;
use super::table::{averages, markdown};
use super::{page_bytes, LoanStats, CYCLE_FACTOR, HARNESS_TASKS};
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::search::{contradictions, smallest_passing, Outcome};
use cactus_sweep::{Meta, Point, Progress, Row, Summary, SweepReport};
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

/// The MSO experiment.
pub struct Mso;

impl Evaluation for Mso {
    const NAME: &'static str = "mtss mso";
    const UNIT: &'static str = "tasks";
    type Row = TaskMso;

    fn render(rows: &[TaskMso], meta: &Meta) -> SweepReport {
        let page = meta.params["page"].as_u64().unwrap_or(0);
        let all = averages(rows);
        let avg = all.last();
        let mut summary = Summary::new("mtss-mso");
        summary
            .pct("mso_budget", avg.and_then(|a| a.budget))
            .pct("mso_high_water", avg.and_then(|a| a.high_water));
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: markdown(rows),
            reading: READING.to_string(),
            note: format!(" (MTSS page {page} bytes)"),
            passed,
            failed,
            summary,
        }
    }
}

/// The store's parameters of an MSO sweep at `page`.
pub fn params(page: Option<u32>) -> serde_json::Value {
    serde_json::json!({ "page": page_bytes(page) })
}

/// The key of a task's point: manifest, task and budget (a changed budget is a new point).
pub fn task_key(manifest: &str, task: &str, budget: u32) -> String {
    format!("{manifest}#{task}@{budget}")
}

/// One point per task of every manifest of `shared`, at `page`. A manifest that cannot be
/// read is an error naming it.
pub fn points<'s>(
    shared: &'s Shared<'_>,
    page: Option<u32>,
) -> Result<Vec<Point<'s, TaskMso>>, String> {
    let mut points = Vec::new();
    for path in &shared.options().manifests {
        let m = cactus_firmware::Manifest::load(path).map_err(|e| e.to_string())?;
        let manifest = path.display().to_string();
        for (ti, t) in m.tasks.iter().enumerate() {
            let start = TaskMso::start(&m.name, &manifest, &t.name, t.stack);
            let key = task_key(&manifest, &t.name, t.stack);
            let label = format!("{} {}", m.name, t.name);
            points.push(Point::new(
                key,
                label,
                move |resumed, progress: &Progress| {
                    search_task(
                        resumed.unwrap_or_else(|| start.clone()),
                        ti,
                        shared,
                        page,
                        progress,
                    )
                },
            ));
        }
    }
    Ok(points)
}

/// One task's bisection on the real machine, starting from `row`, then (when it found a
/// budget below the manifest's) a recorded run there for the loan statistics.
pub fn search_task(
    mut row: TaskMso,
    ti: usize,
    shared: &Shared<'_>,
    page: Option<u32>,
    progress: &Progress,
) -> TaskMso {
    let prepared = match shared.prepare(&row.manifest, page, CYCLE_FACTOR) {
        Ok(p) => p,
        Err(e) => {
            row.error = Some(e);
            return row;
        }
    };
    let setup = &prepared.setup;
    row.high_water = prepared.base.high_water.get(ti).copied().flatten();
    let known_full = row.probes.iter().find(|p| p.budget == row.budget).cloned();
    let full = match known_full {
        Some(p) => p,
        None => shared
            .full_probe(&row.manifest, page, setup)
            .as_ref()
            .clone(),
    };
    let (task, workload) = (row.task.clone(), row.workload.clone());
    let mut row = search_row(row, &full, &mut |budget| {
        let p = setup.probe(ti, budget);
        progress.message(format!(
            "{workload} {task} {} B {}",
            p.budget,
            if p.passed { "pass" } else { "fail" }
        ));
        p
    });
    if let Some(smallest) = row.smallest.filter(|&s| s < row.budget) {
        let mut budgets = setup.budgets();
        budgets[ti] = smallest;
        let v = Variant {
            budgets,
            worst_case: false,
            loans: true,
        };
        match setup.run_variant(&v) {
            Ok(done) => row.loans = done.loans,
            Err(e) => row.error = Some(format!("the recorded run at {smallest} B failed: {e}")),
        }
    }
    row
}

/// What the tables measure and how it differs from the paper (no figures here: they are in
/// the generated tables below it).
pub const READING: &str = "How to read these tables. For each task, every other task at its \
manifest budget, the smallest stack budget (a multiple of 16 bytes, at least the manifest \
minimum of 128) at which the workload still completes correctly was found by bisection: built \
with `stack = \"mtss\"` and `checks = \"mtss\"` (K for application code pinned to the \
unmodified manifest's 10 % of its smallest budget), run on cactus-sim (`mcu` profile) with the \
ownership oracle stopping the run on the first violation; correct means exit code 0 through \
the workload's own checksum checks and no violation. *MSO of budget* = (budget - smallest) / \
budget, where our budgets are the measured high water x 1.1 (the paper's safety factor), \
rounded up to 16, plus a 16-byte guard and 384 bytes of check margin. *MSO of high water* = \
(high water - smallest) / high water, against the high water measured by the manifest's own \
run (the paper's baseline is the maximum observed stack); it is negative when the checks need \
more than the high water (a check claims a frame's whole size before it is written) or the \
high water is below the 128-byte floor. The \
`feeder` and `coordinator` tasks are the workloads' harness: listed apart, left out of every \
average; a failed search is left out too. The overall average is the mean of the workload \
averages. The paper prints Figure 9 as a bar chart without numbers: beside ours are only the \
values its text states (average 54 %, security's blowfish 0 % and rijndael 100 %). The paper's \
programs are MiBench and friends on ARM with their own inputs; ours are our implementations \
(docs/results/workloads.md), so per-task values are not expected to match.";
