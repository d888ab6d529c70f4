//! Running many seeds in parallel.

use crate::fuzz::case::{run_case, CaseOutcome, CaseStatus, FuzzOptions};
use crate::fuzz::error::FuzzError;
use crate::fuzz::multitask::{groups, run_group, GroupOutcome};
use std::time::{Duration, Instant};

/// The totals of a batch.
#[derive(Clone, Debug)]
pub struct BatchSummary {
    /// Every case, by seed.
    pub outcomes: Vec<CaseOutcome>,
    /// Cases that passed.
    pub passed: u64,
    /// Cases with findings.
    pub failed: u64,
    /// Cases that could not be judged (never counted as passed).
    pub skipped: u64,
    /// Cases (passed or failed) with baseline disagreements.
    pub baseline: u64,
    /// Simulator runs in total (every build once, and again with a tight stack).
    pub runs: u64,
    /// Wall-clock time of the batch.
    pub wall: Duration,
}

/// Runs seeds `first`, `first + 1`, ... (`count` of them) on `jobs` threads, calling
/// `on_case` as each case ends (from worker threads, in any order).
pub fn run_batch(
    first: u64,
    count: u64,
    jobs: usize,
    options: &FuzzOptions,
    on_case: &(dyn Fn(&CaseOutcome) + Sync),
) -> Result<BatchSummary, FuzzError> {
    let start = Instant::now();
    let seeds: Vec<u64> = (0..count).map(|i| first.wrapping_add(i)).collect();
    let mut outcomes = cactus_sweep::par_map(&seeds, jobs, |&seed| {
        let outcome = run_case(seed, options)?;
        on_case(&outcome);
        Ok(outcome)
    })
    .map_err(|e| FuzzError::Pool(e.to_string()))?
    .into_iter()
    .collect::<Result<Vec<_>, FuzzError>>()?;
    outcomes.sort_by_key(|o| o.seed);
    let count_if = |f: &dyn Fn(&CaseOutcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    Ok(BatchSummary {
        passed: count_if(&|o| o.status == CaseStatus::Passed) as u64,
        failed: count_if(&|o| o.status == CaseStatus::Failed) as u64,
        skipped: count_if(&|o| matches!(o.status, CaseStatus::Skipped(_))) as u64,
        baseline: count_if(&|o| !o.baseline.is_empty()) as u64,
        runs: outcomes.iter().map(|o| u64::from(o.runs)).sum(),
        wall: start.elapsed(),
        outcomes,
    })
}

/// Runs the multi-task mode over a finished batch: its passed programs in groups of `tasks`
/// ([`groups`]), each group as one firmware per variant, on `jobs` threads, calling
/// `on_group` as each group ends. The Cactus tree (kernel sources) is found from the current
/// directory.
pub fn run_multitask(
    outcomes: &[CaseOutcome],
    tasks: usize,
    jobs: usize,
    options: &FuzzOptions,
    on_group: &(dyn Fn(&GroupOutcome) + Sync),
) -> Result<Vec<GroupOutcome>, FuzzError> {
    let root = cactus_firmware::find_root(std::path::Path::new(".")).map_err(|e| {
        FuzzError::Usage(format!("multi-task mode needs the Cactus source tree: {e}"))
    })?;
    let list = groups(outcomes, tasks);
    cactus_sweep::par_map(&list, jobs, |members| {
        let outcome = run_group(members, options, &root)?;
        on_group(&outcome);
        Ok(outcome)
    })
    .map_err(|e| FuzzError::Pool(e.to_string()))?
    .into_iter()
    .collect()
}
