//! `cactus bench mtss`: the MTSS paper's evaluation (section 10) on our six MTSS workloads,
//! each experiment a sweep on the engine:
//!
//! - [`mso`]: Maximum Satisfiable Overflow per task (Figure 9), one bisection point per task;
//! - [`pages`]: MSO against the MTSS page size (Figure 10), one point per page and task;
//! - [`prs`]: Proportional Reduction Satisfiability per workload (Figure 11) with the loan
//!   statistics, one point per workload;
//! - [`wcet`]: the worst-case overhead estimate (Figures 12/13), one point per workload and page.
//!
//! Guarantees: every number comes from a build and a run made here or recorded in a resumed
//! store by an earlier run of the same experiment; a point that cannot finish (its workload
//! cannot be built or run, or fails at its full budget) is a failed row with its reason, never
//! a missing one. The work shared by a workload's points (its baseline run, the probe at the
//! manifest budgets) is made once per process by the first point that needs it.

mod loans;
pub mod mso;
pub mod occupancy;
pub mod pages;
pub mod prs;
pub mod prs_report;
mod run;
pub mod search;
mod shared;
pub mod stopper;
mod table;
pub mod task;
pub mod wcet;
pub mod wcet_report;

pub use loans::{loan_stats, LoanStats};
pub use run::{baseline, Baseline, ProbeSetup, RunDone, Variant};
pub use search::Probe;
pub use shared::{Prepared, Shared};
pub use table::{averages, Averages, PAPER_AVERAGE};
pub use task::{search_row, TaskMso};

use std::path::{Path, PathBuf};

/// Tasks that are the workloads' harness (input feeder, checksum coordinator), not programs:
/// reported apart and left out of every average.
pub const HARNESS_TASKS: [&str; 2] = ["feeder", "coordinator"];

/// Cycle limit of a probe: this many times the baseline run's cycles...
pub const CYCLE_FACTOR: u64 = 8;
/// ... but never less than this.
pub const MIN_CYCLE_LIMIT: u64 = 200_000_000;

/// What every MTSS experiment needs besides its manifests.
#[derive(Clone, Debug, Default)]
pub struct MtssOptions {
    /// Workload manifests, in the order of the tables.
    pub manifests: Vec<PathBuf>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the probe build directories (`build/firmware` of the tree when None).
    pub out_root: Option<PathBuf>,
    /// MTSS page sizes in bytes (mso, prs: at most one; empty: the kernel's default).
    pub pages: Vec<u32>,
    /// Non-empty: the probes build the `mtss+split` strategy (`checks = "split"`) instead of
    /// `mtss`, once with a stacklet heap of each of these sizes in bytes (prs only).
    pub hybrid: Vec<u32>,
}

impl MtssOptions {
    /// The one page size of an experiment that takes one (None: the kernel's default).
    pub fn page(&self) -> Option<u32> {
        self.pages.first().copied()
    }

    /// The strategy the probes build.
    pub fn strategy(&self) -> cactus_firmware::StackStrategy {
        if self.hybrid.is_empty() {
            cactus_firmware::StackStrategy::Mtss
        } else {
            cactus_firmware::StackStrategy::MtssSplit
        }
    }
}

/// The page size a build with `page` uses, in bytes.
pub fn page_bytes(page: Option<u32>) -> u32 {
    page.unwrap_or(cactus_firmware::StackStrategy::MTSS_PAGE)
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

/// The file stem of a manifest path (`network-small`), for rows made before it was loaded.
pub(crate) fn stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
