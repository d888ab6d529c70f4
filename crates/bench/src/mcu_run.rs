//! The one way the benches load a workload manifest and run a built firmware on cactus-sim's
//! `mcu` profile, so that every bench judges a run the same way.

use cactus_firmware::{Manifest, Overrides};
use cactus_sim::{Event, EventKind, Machine, MachineConfig, OracleMode, Profile, RunOutcome};
use std::path::Path;

/// Loads the manifest at `path`, with its stack strategy replaced by `stack` when given.
/// Errors are one line naming the file.
pub(crate) fn load_with_stack(path: &Path, stack: Option<&str>) -> Result<Manifest, String> {
    let mut m = Manifest::load(path).map_err(|e| e.to_string())?;
    if let Some(stack) = stack {
        let over = Overrides {
            stack: Some(stack.to_string()),
            ..Overrides::default()
        };
        m.apply(&over).map_err(|e| e.to_string())?;
    }
    Ok(m)
}

/// Runs the ELF file on cactus-sim (`mcu`) for at most `max_cycles`, with the trace device's
/// events recorded and the ownership oracle stopping the run at its first violation. Err only
/// when the file cannot be read or loaded; how the run ended is the [`RunOutcome`].
pub(crate) fn run_mcu(elf_path: &Path, max_cycles: u64) -> Result<(Machine, RunOutcome), String> {
    let elf = std::fs::read(elf_path).map_err(|e| format!("{}: {e}", elf_path.display()))?;
    run_mcu_probed(
        &elf,
        &elf_path.display().to_string(),
        max_cycles,
        Vec::new(),
    )
}

/// [`run_mcu`] on the ELF bytes `elf` (`name` in errors), with call probes at `probes`
/// (`MachineConfig::call_probes`: Call events that cost the guest nothing).
pub(crate) fn run_mcu_probed(
    elf: &[u8],
    name: &str,
    max_cycles: u64,
    probes: Vec<u32>,
) -> Result<(Machine, RunOutcome), String> {
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(max_cycles);
    config.record_events = true;
    config.oracle = OracleMode::Stop;
    config.call_probes = probes;
    cactus_verify::sim_run::run_elf(elf, name, config)
}

/// Ok for a run that exited with code 0; otherwise one line saying how it ended (the exit
/// code, the fault, the cycle limit or the oracle's first violation).
pub(crate) fn exited_cleanly(outcome: RunOutcome) -> Result<(), String> {
    match outcome {
        RunOutcome::Exited { code: 0 } => Ok(()),
        RunOutcome::Exited { code } => Err(format!("exit code {code}")),
        RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => Err(first(&r.to_string())),
        RunOutcome::OracleViolation(r) => Err(first(&r.to_string())),
        RunOutcome::Breakpoint { pc } => Err(format!("breakpoint at {pc:#010x}")),
    }
}

/// The value of the last trace-device marker `id` the run wrote, if any.
pub(crate) fn last_marker(events: &[Event], id: u32) -> Option<u32> {
    events.iter().rev().find_map(|e| match e.kind {
        EventKind::Marker { id: i, value } if i == id => Some(value),
        _ => None,
    })
}

fn first(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(id: u32, value: u32) -> Event {
        Event {
            cycle: 0,
            instret: 0,
            pc: 0,
            kind: EventKind::Marker { id, value },
        }
    }

    #[test]
    fn the_last_marker_of_an_id_wins() {
        let events = [marker(1, 10), marker(2, 20), marker(1, 11)];
        assert_eq!(last_marker(&events, 1), Some(11));
        assert_eq!(last_marker(&events, 2), Some(20));
        assert_eq!(last_marker(&events, 3), None);
    }

    #[test]
    fn only_exit_code_zero_is_clean() {
        assert_eq!(exited_cleanly(RunOutcome::Exited { code: 0 }), Ok(()));
        assert_eq!(
            exited_cleanly(RunOutcome::Exited { code: 3 }),
            Err("exit code 3".to_string())
        );
        assert_eq!(
            exited_cleanly(RunOutcome::Breakpoint { pc: 0x8000_0010 }),
            Err("breakpoint at 0x80000010".to_string())
        );
    }
}
