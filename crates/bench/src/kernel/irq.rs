//! The interrupt rows of `cactus bench kernel`: `bench/kernel/irq_bench.c` (a plain C handler)
//! and `bench/kernel/irq_direct_bench.c` (a direct handler, docs/interrupts.md "Direct
//! handlers") report, per sample, the cycles from a raised software interrupt to the first
//! instruction of the user's handler (`isr_entry`) and from the handler's semaphore give to the
//! first instruction of the higher-priority task it wakes (`isr_wake`). The firmware computes
//! both from mcycle reads (its own calibration removes the raising `csrr` + `sw`); see
//! docs/interrupts.md "What it costs".

use crate::kernel::events::Spread;
use crate::kernel::report::GoalRow;
use crate::kernel::KernelBenchError;
use cactus_sim::{Event, EventKind};
use serde::{Deserialize, Serialize};

/// The interrupt benchmark firmware (a plain C handler).
pub const IRQ_ELF: &str = "build/bench/kernel/irq_bench.elf";
/// The same benchmark with a direct handler.
pub const IRQ_DIRECT_ELF: &str = "build/bench/kernel/irq_direct_bench.elf";

const ENTRY: u32 = 0x150;
const WAKE: u32 = 0x151;
const CAL: u32 = 0x152;
const DONE: u32 = 0x1FF;

/// Goal of the interrupt issue: pending to the handler's first instruction, cycles.
pub const ISR_ENTRY_GOAL: u64 = 30;
/// Goal: a handler's give to the woken task's first instruction, cycles.
pub const ISR_WAKE_GOAL: u64 = 200;

/// What the interrupt benchmark measured (cycles; every sample after the cold first one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IrqCosts {
    /// Samples of each kind.
    pub samples: usize,
    /// msip raised (store done) -> the user's handler's first instruction.
    pub entry: Spread,
    /// The handler's `cactus_sem_give` -> the woken task's first instruction after its take.
    pub wake: Spread,
    /// Cycles of the `csrr` + `sw` pair the firmware subtracted from each entry sample.
    pub calibration: u64,
}

/// Reads the firmware's markers; an error if a kind is missing or the counts disagree with the
/// samples the firmware announced.
pub fn irq_costs(events: &[Event]) -> Result<IrqCosts, KernelBenchError> {
    let (mut entry, mut wake, mut cal, mut done) = (Vec::new(), Vec::new(), None, None);
    for e in events {
        if let EventKind::Marker { id, value } = e.kind {
            match id {
                ENTRY => entry.push(u64::from(value)),
                WAKE => wake.push(u64::from(value)),
                CAL => cal = Some(u64::from(value)),
                DONE => done = Some(value as usize),
                _ => {}
            }
        }
    }
    let missing = |what: &str| KernelBenchError::Events(format!("irq_bench: no {what} marker"));
    let done = done.ok_or_else(|| missing("DONE"))?;
    let calibration = cal.ok_or_else(|| missing("calibration"))?;
    if entry.len() != done || wake.len() != done {
        return Err(KernelBenchError::Events(format!(
            "irq_bench: {} entry and {} wake samples, {done} announced",
            entry.len(),
            wake.len()
        )));
    }
    Ok(IrqCosts {
        samples: done,
        entry: Spread::of(&entry).ok_or_else(|| missing("entry"))?,
        wake: Spread::of(&wake).ok_or_else(|| missing("wake"))?,
        calibration,
    })
}

/// The interrupt goals, judged on the worst samples: the entry on the direct handler (the
/// handler kind that exists for it; the plain C handler's entry is a row of the table), the
/// wake on the plain C handler (a direct handler's wake is a row of the table).
pub fn goals(c: &IrqCosts, direct: &IrqCosts) -> Vec<GoalRow> {
    vec![
        GoalRow {
            what: "interrupt entry, cycles (pending to the direct handler's first instruction)"
                .into(),
            ours: direct.entry.max,
            limit: ISR_ENTRY_GOAL,
            freertos: "–".into(),
            pass: direct.entry.max <= ISR_ENTRY_GOAL,
        },
        GoalRow {
            what: "handler wakes a task, cycles (its give to the task's first instruction)".into(),
            ours: c.wake.max,
            limit: ISR_WAKE_GOAL,
            freertos: "about 380 (msip to the task)".into(),
            pass: c.wake.max <= ISR_WAKE_GOAL,
        },
    ]
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
    fn samples_become_spreads_and_goals() {
        let ev = [
            marker(CAL, 3),
            marker(ENTRY, 40),
            marker(WAKE, 150),
            marker(ENTRY, 30),
            marker(WAKE, 250),
            marker(DONE, 2),
        ];
        let c = irq_costs(&ev).unwrap();
        assert_eq!((c.samples, c.calibration), (2, 3));
        assert_eq!((c.entry.min, c.entry.max), (30, 40));
        assert_eq!((c.wake.min, c.wake.max), (150, 250));
        let g = goals(&c, &c);
        assert_eq!(g.iter().map(|r| r.pass).collect::<Vec<_>>(), [false, false]);
        let mut direct = c.clone();
        direct.entry.max = 30;
        let g = goals(&c, &direct);
        assert_eq!(g.iter().map(|r| r.pass).collect::<Vec<_>>(), [true, false]);
    }

    #[test]
    fn a_missing_sample_is_an_error() {
        let ev = [marker(CAL, 3), marker(ENTRY, 40), marker(DONE, 1)];
        let err = irq_costs(&ev).unwrap_err().to_string();
        assert!(err.contains("1 entry and 0 wake samples"), "{err}");
    }
}
