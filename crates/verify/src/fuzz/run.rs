//! Running one fuzz build on cactus-sim: the configuration block is patched after loading so
//! the runtime reports its stack to the ownership oracle and uses the requested stack size.

use crate::difftest::difftest_profile;
use crate::fuzz::error::FuzzError;
use crate::fuzz::runtime::{CONFIG_ADDR, CONFIG_MAGIC, FLAG_TRACE};
use crate::sim_run::SimEnding;
use cactus_sim::{Machine, MachineConfig, RunOutcome};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

/// How to run a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunSetup {
    /// Bytes of stack the program may use below the top (0 = the whole 64 KiB); the rest,
    /// below the check limit, belongs to nobody, so the oracle flags any store there.
    pub stack: u32,
    /// Simulated-cycle limit.
    pub max_cycles: u64,
}

/// What a run produced: everything the harness compares, and the measurements it uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzRun {
    /// Every byte written to the UART.
    pub uart: Vec<u8>,
    /// How the run ended.
    pub ending: SimEnding,
    /// Simulated cycles.
    pub cycles: u64,
    /// Ownership-oracle violations (stores below the check limit).
    pub violations: u64,
    /// The first violation, if any, as the simulator describes it.
    pub first_violation: Option<String>,
    /// The stack's high water in bytes as the runtime measured it at exit (0 if it did not
    /// exit normally).
    pub stack_hwm: u32,
}

impl FuzzRun {
    /// True if the run hit the cycle limit.
    pub fn timed_out(&self) -> bool {
        matches!(&self.ending, SimEnding::Stopped(text) if text.starts_with("cycle limit"))
    }

    /// A one-line description of the ending ("exit 0", "exit 91", "stopped: ...").
    pub fn ending_text(&self) -> String {
        match &self.ending {
            SimEnding::Exited(code) => format!("exit {code}"),
            SimEnding::Stopped(text) => {
                format!("stopped: {}", text.lines().next().unwrap_or_default())
            }
        }
    }
}

/// Runs the ELF at `path` under `setup`. Errors only if the file cannot be read or is not a
/// fuzz build (no configuration block); guest misbehaviour is reported in the [`FuzzRun`].
pub fn run_elf(path: &Path, setup: RunSetup) -> Result<FuzzRun, FuzzError> {
    simulate(path, setup.max_cycles, |machine| {
        let mut magic = [0u8; 4];
        machine
            .read_debug(CONFIG_ADDR, &mut magic)
            .map_err(|e| format!("no configuration block: {e}"))?;
        if u32::from_le_bytes(magic) != CONFIG_MAGIC {
            return Err(format!(
                "no fuzz configuration block at {CONFIG_ADDR:#010x}"
            ));
        }
        let mut patch = FLAG_TRACE.to_le_bytes().to_vec();
        patch.extend_from_slice(&setup.stack.to_le_bytes());
        machine
            .write_debug(CONFIG_ADDR + 4, &patch)
            .map_err(|e| format!("cannot patch the configuration block: {e}"))
    })
}

/// Loads the ELF at `path`, lets `prepare` adjust the machine, and runs it to an outcome
/// within `max_cycles`. Errors only if the file cannot be read or loaded or `prepare` refuses
/// it; the stack high water is task 0's (from the trace device).
pub fn simulate(
    path: &Path,
    max_cycles: u64,
    prepare: impl FnOnce(&mut Machine) -> Result<(), String>,
) -> Result<FuzzRun, FuzzError> {
    let bytes = std::fs::read(path).map_err(crate::fuzz::error::io_at(path))?;
    let bad = |reason: String| FuzzError::BadCase {
        path: path.into(),
        reason,
    };
    let mut config = MachineConfig::new(difftest_profile());
    config.max_cycles = Some(max_cycles);
    let mut machine = Machine::new(config);
    machine
        .load_elf(&bytes)
        .map_err(|e| bad(format!("cactus-sim cannot load it: {e}")))?;
    prepare(&mut machine).map_err(bad)?;
    // A simulator panic is a simulator bug: it becomes this run's ending so that one case
    // cannot end a whole batch.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| machine.run_to_end()));
    let ending = match outcome {
        Ok(RunOutcome::Exited { code }) => SimEnding::Exited(code),
        Ok(RunOutcome::Fault(r) | RunOutcome::CycleLimit(r)) => SimEnding::Stopped(r.to_string()),
        Ok(RunOutcome::OracleViolation(r)) => SimEnding::Stopped(r.to_string()),
        Ok(RunOutcome::Breakpoint { pc }) => SimEnding::Stopped(format!("breakpoint at {pc:#x}")),
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            SimEnding::Stopped(format!("cactus-sim panicked (a simulator bug): {message}"))
        }
    };
    let stats = machine.stats();
    Ok(FuzzRun {
        uart: machine.take_uart_output(),
        ending,
        cycles: stats.cycles,
        violations: stats.oracle_violations,
        first_violation: stats.violations.first().map(|v| v.to_string()),
        stack_hwm: stats
            .tasks
            .iter()
            .find(|t| t.id == 0)
            .map_or(0, |t| t.stack_hwm),
    })
}
