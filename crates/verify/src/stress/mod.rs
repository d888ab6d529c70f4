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
//! Guarantees: every number in a [`StressReport`] comes from a run made by one of [`points`]; a
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

use cactus_sweep::{Evaluation, Meta, Point, Progress, SweepReport};
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
    /// The tight build's stack strategy (`mtss` unless `--stack` chose another).
    #[serde(default = "default_stack")]
    pub stack: String,
    /// The tight build uses the hardware stack bound (`--stack-bound`).
    #[serde(default)]
    pub stack_bound: bool,
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

fn default_stack() -> String {
    "mtss".to_string()
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
}

impl cactus_sweep::Row for SeedResult {
    fn passed(&self) -> bool {
        self.passed
    }
}

/// The randomized MTSS stress, as a sweep of seeds.
pub struct Stress;

impl Evaluation for Stress {
    const NAME: &'static str = "stress mtss";
    const UNIT: &'static str = "seeds";
    type Row = SeedResult;

    fn render(rows: &[SeedResult], meta: &Meta) -> SweepReport {
        let report = StressReport {
            results: rows.to_vec(),
            ..serde_json::from_value(meta.params.clone()).unwrap_or_else(|_| StressReport {
                manifest: String::new(),
                workload: String::new(),
                stack: default_stack(),
                stack_bound: false,
                shrink_percent: 0,
                page_bytes: 0,
                max_cycles: 0,
                budgets: Vec::new(),
                results: Vec::new(),
            })
        };
        let s = summary(&report);
        let mut line = cactus_sweep::Summary::new("stress-mtss");
        line.add("runs", s.runs)
            .add("runs_with_moves", s.runs_with_moves)
            .add("moved_frames", s.moved_frames)
            .add("lent_bytes", s.lent_bytes)
            .add("violations", s.violations);
        SweepReport {
            tables: markdown(&report),
            reading: READING.to_string(),
            note: String::new(),
            passed: s.passed,
            failed: s.runs - s.passed,
            summary: line,
        }
    }
}

/// The store's parameters of a stress run: everything of a [`StressReport`] but its results.
pub fn params(
    fw: &StressFirmware,
    manifest: &str,
    shrink: u32,
    max_cycles: u64,
) -> serde_json::Value {
    serde_json::to_value(StressReport {
        manifest: manifest.to_string(),
        workload: fw.workload.clone(),
        stack: fw.stack.clone(),
        stack_bound: fw.stack_bound,
        shrink_percent: shrink,
        page_bytes: fw.page_bytes,
        max_cycles,
        budgets: fw.budgets.clone(),
        results: Vec::new(),
    })
    .unwrap_or_default()
}

/// One point per seed `first, first + 1, ...` (`runs` of them, wrapping at 2^32), each
/// running both variants of `fw`.
pub fn points(
    fw: &StressFirmware,
    first: u32,
    runs: u32,
    max_cycles: u64,
) -> Vec<Point<'_, SeedResult>> {
    (0..runs)
        .map(|i| {
            let seed = first.wrapping_add(i);
            Point::new(
                format!("seed {seed}"),
                format!("seed {seed}"),
                move |_, _: &Progress| run_seed(fw, seed, max_cycles),
            )
        })
        .collect()
}

/// How to read the stress report (no figures: they are in the generated tables).
pub const READING: &str = "How to read this report. The stress workload's worker tasks run \
recursion chains whose depths, frame sizes (16 to 600-byte arrays, twelve-argument calls with \
stack arguments) and busy-work, yields and sleeps all come from one seed, under a 100 kHz tick \
with one-tick round-robin slices, so preemption lands at different instructions in every run. \
Each seed runs twice on cactus-sim (`mcu` profile): the reference build (`stack = \"static\"`, \
no checks, the manifest's ample budgets) and the `mtss` build (`checks = \"mtss\"`, every \
budget shrunk), with the ownership oracle stopping a run at its first violation. A seed passes \
when both exit 0, neither has an oracle violation and both print exactly the same UART output \
(every worker's checksum, recomputed by the coordinator). *Frames moved* counts the `mtss` \
run's stack requests served by moving a frame into another task's pages; *bytes lent* sums \
the loans (`REGION_LEND` events).";

/// The command that replays one seed of a stress run.
pub fn replay_command(
    manifest: &str,
    stack: &str,
    stack_bound: bool,
    shrink: u32,
    seed: u32,
) -> String {
    let mut cmd = format!("cactus stress mtss --runs 1 --seed {seed}");
    if stack != "mtss" {
        cmd.push_str(&format!(" --stack {stack}"));
    }
    if stack_bound {
        cmd.push_str(" --stack-bound");
    }
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
