//! One fuzz case: a C program built in every variant, run, compared and judged.

use crate::fuzz::csmith::generate;
use crate::fuzz::error::{io_at, FuzzError};
use crate::fuzz::judge::Judge;
use crate::fuzz::runtime::write_sources;
use crate::fuzz::saved::{keep_case, write_case_files};
use crate::fuzz::variant::{OptLevel, Variant};
use crate::fuzz::verdict::Finding;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What every case runs.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// The builds, reference (`O0-none`) first ([`crate::fuzz::variant::variants`]).
    pub variants: Vec<Variant>,
    /// Cycle limit of the reference run; a program that needs more is skipped. Other builds
    /// get four times the reference's cycles plus a million.
    pub max_cycles: u64,
    /// Also run every build with a tight stack ([`crate::fuzz::tight`]).
    pub tight: bool,
    /// Also run the reference on QEMU and compare.
    pub qemu: bool,
    /// Wall-clock limit of a QEMU run.
    pub qemu_timeout: Duration,
    /// Where failing cases are kept (`seed-N/`) and baseline disagreements
    /// (`baseline/seed-N/`).
    pub out: PathBuf,
}

/// The verdict on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseStatus {
    /// Every build behaved like its baseline and the oracle saw nothing wrong.
    Passed,
    /// The program could not be judged (generator failed, reference too slow or faulting).
    Skipped(String),
    /// At least one finding against cactus (the pass, the runtime, the simulator).
    Failed,
}

/// Everything one case found.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// The csmith seed (None for a replayed or reduced source).
    pub seed: Option<u64>,
    /// The verdict.
    pub status: CaseStatus,
    /// Problems of cactus; non-empty exactly when the status is Failed.
    pub findings: Vec<Finding>,
    /// Uninstrumented optimized builds that disagree with the reference: a GCC, csmith or
    /// undefined-behaviour issue, not a cactus failure.
    pub baseline: Vec<Finding>,
    /// Simulator runs (each build once, and again with a tight stack).
    pub runs: u32,
    /// Cycles of the reference run.
    pub reference_cycles: u64,
    /// Where the case's files were kept, if they were.
    pub saved: Option<PathBuf>,
    /// What the multi-task mode needs of a judged program (None if it was skipped).
    pub program: Option<ProgramProfile>,
    /// Wall-clock time of the whole case.
    pub wall: Duration,
}

/// A judged program, as the multi-task mode reuses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramProfile {
    /// The C source.
    pub source: String,
    /// The reference's last output line (`checksum = 1A2B3C4D`): what the program prints
    /// when run without csmith's hash flag.
    pub checksum: String,
    /// Stack high water of the uninstrumented build at each level, in bytes.
    pub hwm: BTreeMap<OptLevel, u32>,
    /// Cycles of the reference run.
    pub cycles: u64,
}

/// Generates the program of `seed` and judges it; keeps the case under `options.out` if it
/// failed or showed a baseline disagreement.
pub fn run_case(seed: u64, options: &FuzzOptions) -> Result<CaseOutcome, FuzzError> {
    let start = Instant::now();
    let source = match generate(seed)? {
        Ok(source) => source,
        Err(reason) => {
            return Ok(CaseOutcome {
                seed: Some(seed),
                status: CaseStatus::Skipped(reason),
                findings: Vec::new(),
                baseline: Vec::new(),
                runs: 0,
                reference_cycles: 0,
                saved: None,
                program: None,
                wall: start.elapsed(),
            })
        }
    };
    let work = tempfile::tempdir().map_err(io_at(&std::env::temp_dir()))?;
    let mut outcome = run_source(work.path(), &source, Some(seed), options)?;
    let target = match (&outcome.status, outcome.baseline.is_empty()) {
        (CaseStatus::Failed, _) => Some(options.out.join(format!("seed-{seed}"))),
        (CaseStatus::Passed, false) => {
            Some(options.out.join("baseline").join(format!("seed-{seed}")))
        }
        _ => None,
    };
    if let Some(target) = target {
        keep_case(work.path(), &target)?;
        outcome.saved = Some(target);
    }
    outcome.wall = start.elapsed();
    Ok(outcome)
}

/// Builds `source` (written to `dir/prog.c`) in every variant inside `dir`, runs and judges
/// everything, and writes `report.txt` and `case.json` there.
pub fn run_source(
    dir: &Path,
    source: &str,
    seed: Option<u64>,
    options: &FuzzOptions,
) -> Result<CaseOutcome, FuzzError> {
    let start = Instant::now();
    let prog = dir.join("prog.c");
    std::fs::write(&prog, source).map_err(io_at(&prog))?;
    write_sources(dir)?;
    let mut case = Judge {
        dir,
        options,
        findings: Vec::new(),
        baseline: Vec::new(),
        runs: 0,
        profile: None,
    };
    let status = case.judge()?;
    let (reference_cycles, status) = match status {
        Ok(cycles) if case.findings.is_empty() => (cycles, CaseStatus::Passed),
        Ok(cycles) => (cycles, CaseStatus::Failed),
        Err(reason) => (0, CaseStatus::Skipped(reason)),
    };
    let outcome = CaseOutcome {
        seed,
        status,
        findings: case.findings,
        baseline: case.baseline,
        runs: case.runs,
        reference_cycles,
        saved: None,
        program: case.profile.map(|(checksum, hwm)| ProgramProfile {
            source: source.to_string(),
            checksum,
            hwm,
            cycles: reference_cycles,
        }),
        wall: start.elapsed(),
    };
    write_case_files(dir, &outcome, options)?;
    Ok(outcome)
}
