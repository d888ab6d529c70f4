//! `cactus stress mtss`: randomized stress of the `mtss` stack strategy (docs/mtss.md,
//! "Randomized stress").
//!
//! A stress workload (by default `workloads/mtss-stress/stress.toml`) is built twice, once:
//! the reference with `stack = "static"`, no checks and the manifest's ample budgets, and the
//! tight variant with `stack = "mtss"`, `checks = "mtss"` and every budget shrunk by a
//! percentage ([`firmware`]). Then, for each of N consecutive seeds, both ELFs run on a fresh
//! cactus-sim machine (`mcu` profile, ownership oracle stopping the run on its first
//! violation, a cycle limit) with the seed written into the firmware's `stress_seed` word
//! after loading ([`run`]). A seed passes when both runs exit 0, the `mtss` run has no oracle
//! violation and the two UART outputs are byte for byte identical ([`judge`]). Every run's
//! cycles, moved frames and bytes lent/borrowed are kept so the report ([`report`]) shows
//! that the tight runs really shared stacks.
//!
//! Guarantees: every number in a [`StressReport`] comes from a run made by [`run_seeds`]; a
//! seed that cannot be judged (a run that faults, hangs or is stopped by the oracle) is a
//! failure with its reasons, never a missing row; seeds are judged independently, so the
//! result of a seed does not depend on `--jobs` or on the other seeds.

pub mod firmware;
pub mod judge;
pub mod report;
pub mod run;

pub use firmware::{build_pair, seed_address, StressFirmware, TaskBudget, SEED_SYMBOL};
pub use judge::{judge, Observed};
pub use report::{markdown, summary, Summary};
pub use run::{run_seed, RunSummary};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The default stress workload, relative to the Cactus tree.
pub const DEFAULT_MANIFEST: &str = "workloads/mtss-stress/stress.toml";
/// The default shrink of the `mtss` variant's budgets, in percent.
pub const DEFAULT_SHRINK: u32 = 45;
/// The default cycle limit of one run (a run that reaches it fails).
pub const DEFAULT_MAX_CYCLES: u64 = 200_000_000;

/// One seed's verdict and both runs' figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedResult {
    /// The seed written into `stress_seed`.
    pub seed: u32,
    /// Both runs exited 0, no oracle violation, identical UART output.
    pub passed: bool,
    /// Why it failed (empty when it passed).
    pub problems: Vec<String>,
    /// The static run with ample stacks.
    pub reference: RunSummary,
    /// The `mtss` run with shrunk stacks.
    pub mtss: RunSummary,
    /// Both UART outputs (reference, mtss), kept only for failed seeds.
    pub outputs: Option<(String, String)>,
}

/// A whole stress run (also the JSON file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StressReport {
    /// The manifest as given.
    pub manifest: String,
    /// Firmware name.
    pub workload: String,
    /// Shrink of the `mtss` budgets, percent.
    pub shrink_percent: u32,
    /// MTSS page size of the `mtss` build, bytes.
    pub page_bytes: u32,
    /// Cycle limit of each run.
    pub max_cycles: u64,
    /// Budgets of the two builds, by task (reference, mtss).
    pub budgets: Vec<TaskBudget>,
    /// One row per seed, in seed order.
    pub results: Vec<SeedResult>,
}

impl StressReport {
    /// Seeds that failed.
    pub fn failures(&self) -> impl Iterator<Item = &SeedResult> {
        self.results.iter().filter(|r| !r.passed)
    }
}

/// Errors that stop the whole stress run before any seed is judged.
#[derive(Debug, thiserror::Error)]
pub enum StressError {
    /// The manifest cannot be read or the overrides do not apply.
    #[error("{0}")]
    Manifest(String),
    /// A variant cannot be built.
    #[error("building the {variant} variant: {message}")]
    Build {
        /// `reference` or `mtss`.
        variant: &'static str,
        /// The build error.
        message: String,
    },
    /// The built ELF has no usable seed word.
    #[error("{path}: {problem}")]
    Seed {
        /// The ELF.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The worker pool could not start.
    #[error("cannot start the worker pool: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
}

/// Runs seeds `first, first + 1, ...` (`runs` of them, wrapping at 2^32) on both variants of
/// `fw`, `jobs` at a time, calling `progress` after each seed (from any thread). Returns the
/// results in seed order.
pub fn run_seeds(
    fw: &StressFirmware,
    first: u32,
    runs: u32,
    jobs: usize,
    max_cycles: u64,
    progress: &(dyn Fn(&SeedResult) + Sync),
) -> Result<Vec<SeedResult>, StressError> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()?;
    Ok(pool.install(|| {
        (0..runs)
            .into_par_iter()
            .map(|i| {
                let r = run_seed(fw, first.wrapping_add(i), max_cycles);
                progress(&r);
                r
            })
            .collect()
    }))
}

/// The command that replays one seed of a stress run.
pub fn replay_command(manifest: &str, shrink: u32, seed: u32) -> String {
    let mut cmd = format!("cactus stress mtss --runs 1 --seed {seed}");
    if shrink != DEFAULT_SHRINK {
        cmd.push_str(&format!(" --shrink {shrink}"));
    }
    if manifest != DEFAULT_MANIFEST {
        cmd.push_str(&format!(" {manifest}"));
    }
    cmd
}

#[cfg(test)]
mod tests;
