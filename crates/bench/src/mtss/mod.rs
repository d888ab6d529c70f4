//! `cactus bench mtss mso`: the MTSS paper's Maximum Satisfiable Overflow (section 10,
//! Figure 9) on our MTSS workloads.
//!
//! For each task of each workload, every other task at its manifest budget, [`search`] finds
//! by bisection the smallest budget (a multiple of 16, at least 128) at which the workload,
//! built with `stack = "mtss"` and `checks = "mtss"`, still completes correctly on cactus-sim:
//! exit code 0 through its own checksum checks and no ownership-oracle violation (the oracle
//! stops the run on the first one). MSO is then `(budget - smallest) / budget` of the task's
//! manifest budget, and `(high water - smallest) / high water` of its stack high water measured
//! by the run the budgets were derived from (the paper's baseline: its maximum observed stack).
//!
//! Guarantees: every number comes from a build and a run made here or recorded in a resumed
//! JSON by an earlier run of the same search; a task whose search cannot finish (its full
//! budget fails, or the workload cannot be built or run) is a failure with its reason, never a
//! missing row; probes that contradict monotonicity are kept in [`TaskMso::non_monotone`].

mod loans;
mod plan;
pub mod prs;
mod run;
pub mod search;
mod store;
mod sweep_tables;
pub mod sweeps;
mod table;
pub mod wcet;

pub use loans::{loan_stats, LoanStats};
pub use plan::{plan, search_row, WorkloadPlan};
pub use run::{baseline, Baseline, ProbeSetup, RunDone, Variant};
pub use search::Probe;
pub use store::{load, save_atomic};
pub use sweep_tables::{pages_markdown, prs_markdown, wcet_markdown};
pub use table::{averages, markdown, summary, Averages, PAPER_AVERAGE};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Tasks that are the workloads' harness (input feeder, checksum coordinator), not programs:
/// reported apart and left out of every average.
pub const HARNESS_TASKS: [&str; 2] = ["feeder", "coordinator"];

/// One task's search.
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

fn percent_below(base: u32, value: u32) -> f64 {
    (f64::from(base) - f64::from(value)) * 100.0 / f64::from(base)
}

/// The whole experiment (also the JSON file).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MsoReport {
    /// MTSS page size of the kernel build, bytes.
    pub page_bytes: u32,
    /// Tasks in manifest order, tasks in each manifest's order.
    pub tasks: Vec<TaskMso>,
}

/// Errors that stop the whole experiment (per-task trouble is recorded in its row instead).
#[derive(Debug, thiserror::Error)]
pub enum MsoError {
    /// A manifest cannot be read.
    #[error("{0}")]
    Manifest(String),
    /// The worker pool could not start.
    #[error("cannot start the worker pool: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A resume file is not the experiment's results.
    #[error("{path}: not results of this experiment: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
}

/// What [`run`] needs.
#[derive(Clone, Debug)]
pub struct MsoOptions {
    /// Workload manifests.
    pub manifests: Vec<PathBuf>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the probe build directories (`build/firmware` of the tree when None).
    pub out_root: Option<PathBuf>,
    /// Parallel searches.
    pub workers: usize,
    /// Rewritten (atomically) after each task's search.
    pub json: Option<PathBuf>,
    /// Probes of an earlier run: complete tasks are kept as they are, the probes of the
    /// others are not made again.
    pub resume: Option<MsoReport>,
    /// MTSS page size of the builds in bytes (None: the kernel's default).
    pub page: Option<u32>,
}

/// Progress of [`run`], reported from any thread.
#[derive(Clone, Debug)]
pub enum Progress<'a> {
    /// A probe was made (not answered from the resume file).
    Probe {
        /// The task searched.
        task: &'a str,
        /// Its workload.
        workload: &'a str,
        /// The probe.
        probe: &'a Probe,
    },
    /// A task's search ended (also for tasks taken whole from the resume file).
    TaskDone(&'a TaskMso),
}

/// Cycle limit of a probe: this many times the baseline run's cycles...
pub const CYCLE_FACTOR: u64 = 8;
/// ... but never less than this.
pub const MIN_CYCLE_LIMIT: u64 = 200_000_000;

/// Runs every search: per workload the baseline run and the full-budget probe, then one
/// bisection per task, `workers` at a time. Returns the report in manifest order.
pub fn run(
    options: &MsoOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<MsoReport, MsoError> {
    use rayon::prelude::*;
    let manifests: Vec<cactus_firmware::Manifest> = options
        .manifests
        .iter()
        .map(|p| cactus_firmware::Manifest::load(p).map_err(|e| MsoError::Manifest(e.to_string())))
        .collect::<Result<_, _>>()?;
    let plans: Vec<WorkloadPlan> = manifests
        .iter()
        .zip(&options.manifests)
        .map(|(m, p)| WorkloadPlan {
            manifest: p.display().to_string(),
            workload: m.name.clone(),
            tasks: m.tasks.iter().map(|t| (t.name.clone(), t.stack)).collect(),
        })
        .collect();
    let (tasks, todo) = plan(&plans, options.resume.as_ref());
    let report = MsoReport {
        page_bytes: options
            .page
            .unwrap_or(cactus_firmware::StackStrategy::MTSS_PAGE),
        tasks,
    };
    for t in report.tasks.iter().filter(|t| t.complete) {
        progress(Progress::TaskDone(t));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.workers.max(1))
        .build()?;
    // Per workload with work left: baseline run and the probe at the manifest budgets.
    let needed: Vec<usize> = {
        let mut n: Vec<usize> = todo.iter().map(|&(mi, _, _)| mi).collect();
        n.dedup();
        n
    };
    let bases: BTreeMap<usize, Result<(ProbeSetup, Baseline, Probe), String>> =
        pool.install(|| {
            needed
                .par_iter()
                .map(|&mi| (mi, prepare(options, mi, &report, progress)))
                .collect()
        });
    let shared = Mutex::new(report);
    let saved: Mutex<Result<(), MsoError>> = Mutex::new(Ok(()));
    pool.install(|| {
        todo.par_iter().for_each(|&(mi, ti, ri)| {
            let start = lock(&shared).tasks[ri].clone();
            let row = search_task(start, ti, &bases[&mi], progress);
            progress(Progress::TaskDone(&row));
            let mut report = lock(&shared);
            report.tasks[ri] = row;
            if let Some(path) = &options.json {
                if let Err(e) = save_atomic(path, &*report) {
                    *lock(&saved) = Err(e);
                }
            }
        })
    });
    saved.into_inner().unwrap_or_else(|p| p.into_inner())?;
    Ok(shared.into_inner().unwrap_or_else(|p| p.into_inner()))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The baseline run, the probe setup and the full-budget probe of manifest `mi` (answered
/// from a resumed probe of any of its tasks when there is one).
fn prepare(
    options: &MsoOptions,
    mi: usize,
    report: &MsoReport,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<(ProbeSetup, Baseline, Probe), String> {
    let path = &options.manifests[mi];
    let base = baseline(path)?;
    let max_cycles = (base.cycles * CYCLE_FACTOR).max(MIN_CYCLE_LIMIT);
    let setup = ProbeSetup::new(
        path,
        &options.reserves,
        options.out_root.clone(),
        max_cycles,
        options.page,
    )?;
    let shown = path.display().to_string();
    let known = report
        .tasks
        .iter()
        .filter(|t| t.manifest == shown)
        .find_map(|t| t.probes.iter().find(|p| p.budget == t.budget).cloned());
    let full = match known {
        Some(p) => p,
        None => {
            // Task 0 at its own budget: the manifest unchanged.
            let budget = setup.manifest.tasks.first().map(|t| t.stack).unwrap_or(0);
            let p = setup.probe(0, budget);
            progress(Progress::Probe {
                task: "(all at budget)",
                workload: &setup.manifest.name,
                probe: &p,
            });
            p
        }
    };
    Ok((setup, base, full))
}

/// One task's bisection on the real machine, starting from `row`.
fn search_task(
    mut row: TaskMso,
    ti: usize,
    base: &Result<(ProbeSetup, Baseline, Probe), String>,
    progress: &(dyn Fn(Progress) + Sync),
) -> TaskMso {
    let (setup, baseline, full) = match base {
        Ok(b) => b,
        Err(e) => {
            row.error = Some(e.clone());
            return row;
        }
    };
    row.high_water = baseline.high_water.get(ti).copied().flatten();
    let (task, workload) = (row.task.clone(), row.workload.clone());
    let mut row = search_row(row, full, &mut |budget| {
        let p = setup.probe(ti, budget);
        progress(Progress::Probe {
            task: &task,
            workload: &workload,
            probe: &p,
        });
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

/// The manifest paths of the six MTSS workloads at `size` (`small` or `full`) below `root`.
pub fn mtss_manifests(root: &Path, size: &str) -> Result<Vec<PathBuf>, String> {
    let suffix = match size {
        "full" => "",
        "small" => "-small",
        other => return Err(format!("unknown size `{other}` (expected small or full)")),
    };
    Ok(MTSS_WORKLOADS
        .iter()
        .map(|w| root.join(format!("workloads/mtss/{w}{suffix}.toml")))
        .collect())
}

/// The MTSS paper's six multi-tasking workloads (Table I), in its order.
pub const MTSS_WORKLOADS: [&str; 6] = [
    "automotive",
    "security",
    "telecomm",
    "network",
    "mediabench",
    "ptrdist",
];

#[cfg(test)]
mod tests;
