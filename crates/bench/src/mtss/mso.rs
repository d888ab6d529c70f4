//! `cactus bench mtss mso`: the MTSS paper's Maximum Satisfiable Overflow (section 10,
//! Figure 9). For each task of each workload, every other task at its manifest budget, a
//! bisection finds the smallest budget (a multiple of 16, at least 128) at which the workload,
//! built with `stack = "mtss"` and `checks = "mtss"`, still completes correctly on cactus-sim:
//! exit code 0 through its own checksum checks and no ownership-oracle violation (the oracle
//! stops the run on the first one). MSO is `(budget - smallest) / budget` of the manifest
//! budget, and `(high water - smallest) / high water` of the task's stack high water measured
//! by the run the budgets were derived from (the paper's baseline: its maximum observed stack).
//!
//! Each task's search ([`super::task`]) is one point of the sweep; probes that contradict
//! monotonicity are kept in [`TaskMso::non_monotone`].

use super::shared::Shared;
use super::table::{averages, markdown};
use super::task::{search_row, task_key, TaskMso};
use super::{page_bytes, CYCLE_FACTOR};
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::{Meta, Point, Progress, Summary, SweepReport};

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
        let mut summary = Summary::new("mso");
        summary
            .pct("mso_hw_pct", avg.and_then(|a| a.high_water))
            .pct("mso_budget", avg.and_then(|a| a.budget));
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
        match setup.record_loans(budgets, &format!("{smallest} B")) {
            Ok(loans) => row.loans = loans,
            Err(e) => row.error = Some(e),
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
rounded up to 16, plus a 16-byte guard and the task's check margin (`cactus workloads margins`, \
at most 384 bytes). *MSO of high water* = \
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
