//! Running an ELF in-process on cactus-sim and capturing what a difftest compares.

use cactus_sim::{LoadError, Machine, MachineConfig, Profile, RunOutcome};
use std::panic::{self, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// How a simulator run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimEnding {
    /// Through the test finisher or `tohost`, with this code (0 = pass).
    Exited(u32),
    /// Any other outcome (fault, cycle limit, oracle stop...), with its report.
    Stopped(String),
}

/// What a simulator run produced.
#[derive(Clone, Debug)]
pub struct SimRun {
    /// Every byte written to the UART.
    pub uart: Vec<u8>,
    /// How the run ended.
    pub ending: SimEnding,
    /// Guest instructions retired.
    pub instructions: u64,
    /// Wall-clock time spent in `Machine::run` (loading excluded).
    pub wall: Duration,
}

/// Loads `elf` into a fresh machine with `profile` and runs it to an outcome, stopping after
/// `max_cycles` simulated cycles. Errors only if the ELF cannot be loaded.
pub fn run_on_sim(elf: &[u8], profile: Profile, max_cycles: u64) -> Result<SimRun, LoadError> {
    run_on_sim_with_input(elf, profile, max_cycles, Vec::new())
}

/// [`run_on_sim`] with `uart_input` fed to the UART at the default input rate
/// ([`MachineConfig::uart_input_rate`]).
pub fn run_on_sim_with_input(
    elf: &[u8],
    profile: Profile,
    max_cycles: u64,
    uart_input: Vec<u8>,
) -> Result<SimRun, LoadError> {
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(max_cycles);
    config.uart_input = uart_input;
    let mut machine = Machine::new(config);
    machine.load_elf(elf)?;
    let start = Instant::now();
    // A simulator panic is a simulator bug; it is reported as this run's ending (with the
    // UART output so far) so that one bad case does not end a whole batch of difftests.
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| machine.run_to_end()));
    let wall = start.elapsed();
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".into());
            return Ok(SimRun {
                uart: machine.take_uart_output(),
                ending: SimEnding::Stopped(format!(
                    "cactus-sim panicked (a simulator bug): {message}"
                )),
                instructions: 0,
                wall,
            });
        }
    };
    let ending = match outcome {
        RunOutcome::Exited { code } => SimEnding::Exited(code),
        RunOutcome::Fault(report) | RunOutcome::CycleLimit(report) => {
            SimEnding::Stopped(report.to_string())
        }
        RunOutcome::OracleViolation(report) => SimEnding::Stopped(report.to_string()),
        RunOutcome::Breakpoint { pc } => SimEnding::Stopped(format!("breakpoint at {pc:#010x}")),
    };
    Ok(SimRun {
        uart: machine.take_uart_output(),
        ending,
        instructions: machine.stats().instructions,
        wall,
    })
}

/// Loads `elf` (called `name` in errors) into a fresh machine with `config` and runs it to its
/// first outcome other than a breakpoint (none are set). Returns the machine, for its
/// statistics and UART output, with the outcome; errors only if the ELF cannot be loaded.
pub fn run_elf(
    elf: &[u8],
    name: &str,
    config: MachineConfig,
) -> Result<(Machine, RunOutcome), String> {
    let mut machine = Machine::new(config);
    machine.load_elf(elf).map_err(|e| format!("{name}: {e}"))?;
    let outcome = machine.run_to_end();
    Ok((machine, outcome))
}
