//! One seed: both variants loaded into fresh cactus-sim machines (`mcu` profile, ownership
//! oracle stopping the run on its first violation, a cycle limit), the seed written into the
//! seed word, run to their end and judged.

use super::firmware::{StressFirmware, Variant};
use super::judge::{judge, Observed};
use super::SeedResult;
use cactus_sim::{Machine, MachineConfig, OracleMode, Profile, RunOutcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

/// One run's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Exit code through the finisher; None when the run ended otherwise.
    pub exit_code: Option<u32>,
    /// `exit N`, or the first line of the simulator's report.
    pub ending: String,
    /// Simulated cycles.
    pub cycles: u64,
    /// Instructions retired.
    pub instructions: u64,
    /// Ownership-oracle violations.
    pub violations: u64,
    /// `OVERFLOW` trace events over all tasks: frames moved into other tasks' pages (in a
    /// passing run every overflow is a move; a refused request ends it through `halt`).
    pub moved_frames: u64,
    /// [`RunSummary::moved_frames`] by task name (tasks that moved none left out).
    pub moved_by_task: BTreeMap<String, u64>,
    /// Bytes lent over all tasks (`REGION_LEND` events; counted once per loan).
    pub lent_bytes: u64,
    /// Bytes borrowed over all tasks.
    pub borrowed_bytes: u64,
}

/// Runs `seed` on both variants of `fw` and judges it. Never panics on guest behaviour: a
/// load error, fault, hang or simulator panic is a failed run with its reason.
pub fn run_seed(fw: &StressFirmware, seed: u32, max_cycles: u64) -> SeedResult {
    let (ref_obs, reference) = run_variant(&fw.reference, seed, max_cycles);
    let (mtss_obs, mtss) = run_variant(&fw.mtss, seed, max_cycles);
    let problems = judge(&ref_obs, &mtss_obs);
    let passed = problems.is_empty();
    let outputs = (!passed).then(|| {
        (
            String::from_utf8_lossy(&ref_obs.uart).into_owned(),
            String::from_utf8_lossy(&mtss_obs.uart).into_owned(),
        )
    });
    SeedResult {
        seed,
        passed,
        problems,
        reference,
        mtss,
        outputs,
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(300).collect()
}

/// Loads `v`, writes `seed` at its seed word and runs it.
pub fn run_variant(v: &Variant, seed: u32, max_cycles: u64) -> (Observed, RunSummary) {
    let failed = |why: String| {
        let obs = Observed {
            uart: Vec::new(),
            exit_code: None,
            ending: why.clone(),
            violations: 0,
        };
        let summary = RunSummary {
            ending: why,
            ..RunSummary::default()
        };
        (obs, summary)
    };
    let Some(profile) = Profile::builtin("mcu") else {
        return failed("no built-in profile `mcu`".into());
    };
    let mut config = MachineConfig::new(profile);
    config.oracle = OracleMode::Stop;
    config.max_cycles = Some(max_cycles);
    let mut machine = Machine::new(config);
    if let Err(e) = machine.load_elf(&v.elf) {
        return failed(format!("cannot load {}: {e}", v.path.display()));
    }
    if let Err(e) = machine.write_debug(v.seed_addr, &seed.to_le_bytes()) {
        return failed(format!("cannot write the seed: {e}"));
    }
    // A simulator panic is a simulator bug: this run's ending, not the end of the batch.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| machine.run_to_end()));
    let (exit_code, ending) = match outcome {
        Ok(RunOutcome::Exited { code }) => (Some(code), format!("exit {code}")),
        Ok(RunOutcome::Fault(r)) | Ok(RunOutcome::CycleLimit(r)) => {
            (None, first_line(&r.to_string()))
        }
        Ok(RunOutcome::OracleViolation(r)) => (None, first_line(&r.to_string())),
        Ok(RunOutcome::Breakpoint { pc }) => (None, format!("breakpoint at {pc:#010x}")),
        Err(_) => (None, "cactus-sim panicked (a simulator bug)".into()),
    };
    let stats = machine.stats();
    let summary = RunSummary {
        exit_code,
        ending: ending.clone(),
        cycles: stats.cycles,
        instructions: stats.instructions,
        violations: stats.oracle_violations,
        moved_frames: stats.tasks.iter().map(|t| t.overflows).sum(),
        moved_by_task: stats
            .tasks
            .iter()
            .filter(|t| t.overflows > 0)
            .map(|t| (t.name.clone(), t.overflows))
            .collect(),
        lent_bytes: stats.tasks.iter().map(|t| t.lent_bytes).sum(),
        borrowed_bytes: stats.tasks.iter().map(|t| t.borrowed_bytes).sum(),
    };
    let obs = Observed {
        uart: machine.take_uart_output(),
        exit_code,
        ending,
        violations: stats.oracle_violations,
    };
    (obs, summary)
}
