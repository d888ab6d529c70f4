//! The task-control paths of `cactus bench kernel`, measured on `bench/kernel/notify_bench.c`:
//! the wake-ups of a blocked or suspended higher-priority task by a direct-to-task
//! notification, a resume and (for comparison) a semaphore give, each from the `call` in the
//! low task to the high task's first instruction after its own call returns.

use crate::kernel::events::{PathCost, Spread};
use crate::kernel::KernelBenchError;
use cactus_sim::{Event, EventKind};
use serde::{Deserialize, Serialize};

/// The task-control benchmark firmware.
pub const NOTIFY_ELF: &str = "build/bench/kernel/notify_bench.elf";

/// Marker ids of bench/kernel/notify_bench.c (keep in sync); a switch marker id is
/// `KIND | task << 1 | (0 before the call, 1 after it returns)`.
mod ids {
    pub const CAL_FIRST: u32 = 0x100;
    pub const CAL_SECOND: u32 = 0x101;
    pub const NOTIFY: u32 = 0x200;
    pub const RESUME: u32 = 0x210;
    pub const GIVE: u32 = 0x220;
    pub const DONE: u32 = 0x2FF;
}

/// The measured kinds, in [`TaskControlCosts`] order.
const KINDS: [u32; 3] = [ids::NOTIFY, ids::RESUME, ids::GIVE];

/// The three wake paths, worst sample first in every goal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskControlCosts {
    /// `cactus_notify` (increment) to the woken task's return from `cactus_notify_take`.
    pub notify: PathCost,
    /// `cactus_task_resume` to the resumed task's return from `cactus_task_suspend`.
    pub resume: PathCost,
    /// `cactus_sem_give` to the woken task's return from `cactus_sem_take` (the hand-off a
    /// notification must beat).
    pub give: PathCost,
    /// (cycles, instructions) of the two marker stores around a measured call.
    pub marker_cost: (u64, u64),
}

/// Pairs the firmware's markers: a sample is a CALL marker of one kind and task directly
/// followed by the BACK marker of the same kind from another task, with no trap between them
/// (an interrupt inside would be counted), minus the calibrated marker stores. The calibration
/// pair must come first and the firmware must have reported its end.
pub fn task_control_costs(events: &[Event]) -> Result<TaskControlCosts, KernelBenchError> {
    let mut cal: Option<(u64, u64)> = None;
    let mut samples: [Vec<(u64, u64)>; 3] = Default::default();
    let mut last: Option<(&Event, u32)> = None;
    let mut trapped = false;
    let mut done = false;
    for event in events {
        let id = match event.kind {
            EventKind::Trap { .. } => {
                trapped = true;
                continue;
            }
            EventKind::Marker { id, .. } => id,
            _ => continue,
        };
        done |= id == ids::DONE;
        if let Some((prev, prev_id)) = last {
            let span = (
                event.cycle.saturating_sub(prev.cycle),
                event.instret.saturating_sub(prev.instret),
            );
            if prev_id == ids::CAL_FIRST && id == ids::CAL_SECOND {
                cal.get_or_insert(span);
            }
            let kind = id & !0xF;
            if let Some(slot) = KINDS.iter().position(|&k| k == kind) {
                let pair = id & 1 == 1 && prev_id & !0xF == kind && prev_id & 1 == 0;
                if pair && !trapped && prev_id >> 1 != id >> 1 {
                    let (c, i) = cal.ok_or_else(|| {
                        KernelBenchError::Events(
                            "notify_bench: a switch marker before the calibration pair".into(),
                        )
                    })?;
                    samples[slot].push((span.0.saturating_sub(c), span.1.saturating_sub(i)));
                }
            }
        }
        last = Some((event, id));
        trapped = false;
    }
    if !done {
        return Err(KernelBenchError::Events(format!(
            "notify_bench: no end marker {:#x}",
            ids::DONE
        )));
    }
    let marker_cost = cal.ok_or_else(|| {
        KernelBenchError::Events("notify_bench: no calibration pair (ids 0x100, 0x101)".into())
    })?;
    let cost = |s: &[(u64, u64)], name: &str| {
        let cycles: Vec<u64> = s.iter().map(|p| p.0).collect();
        let instructions: Vec<u64> = s.iter().map(|p| p.1).collect();
        match (Spread::of(&instructions), Spread::of(&cycles)) {
            (Some(instructions), Some(cycles)) => Ok(PathCost {
                samples: s.len(),
                instructions,
                cycles,
            }),
            _ => Err(KernelBenchError::Events(format!(
                "notify_bench: no {name} samples"
            ))),
        }
    };
    Ok(TaskControlCosts {
        notify: cost(&samples[0], "notify")?,
        resume: cost(&samples[1], "resume")?,
        give: cost(&samples[2], "give")?,
        marker_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(cycle: u64, instret: u64, id: u32) -> Event {
        Event {
            cycle,
            instret,
            pc: 0x8000_0000,
            kind: EventKind::Marker { id, value: 0 },
        }
    }

    const WAIT: u32 = 0x230;
    const fn call(kind: u32, task: u32) -> u32 {
        kind | task << 1
    }
    const fn back(kind: u32, task: u32) -> u32 {
        kind | task << 1 | 1
    }

    fn run() -> Vec<Event> {
        vec![
            marker(10, 5, ids::CAL_FIRST),
            marker(12, 7, ids::CAL_SECOND), // 2 cycles, 2 instructions per pair
            marker(100, 50, call(WAIT, 0)), // the high task blocks
            marker(300, 150, back(WAIT, 1)), // the low task returns: not measured
            marker(400, 200, call(ids::NOTIFY, 1)),
            marker(502, 262, back(ids::NOTIFY, 0)), // sample: 100 cycles, 60 instructions
            marker(600, 300, call(WAIT, 0)),
            marker(700, 350, back(WAIT, 1)),
            marker(800, 400, call(ids::NOTIFY, 1)),
            Event {
                kind: EventKind::Trap {
                    cause: 0x8000_0007,
                    tval: 0,
                },
                ..marker(850, 420, 0)
            },
            marker(990, 480, back(ids::NOTIFY, 0)), // a tick inside: dropped
            marker(1000, 500, call(ids::RESUME, 1)),
            marker(1122, 572, back(ids::RESUME, 0)), // sample: 120, 70
            marker(1200, 600, call(ids::GIVE, 1)),
            marker(1200, 600, back(ids::GIVE, 1)), // same task (no switch): not a sample
            marker(1300, 650, call(ids::GIVE, 1)),
            marker(1452, 742, back(ids::GIVE, 0)), // sample: 150, 90
            marker(2000, 900, ids::DONE),
        ]
    }

    #[test]
    fn pairs_of_a_low_call_and_a_high_return_are_samples() {
        let c = task_control_costs(&run()).unwrap();
        assert_eq!(c.marker_cost, (2, 2));
        assert_eq!(c.notify.samples, 1);
        assert_eq!((c.notify.cycles.max, c.notify.instructions.max), (100, 60));
        assert_eq!((c.resume.cycles.max, c.resume.instructions.max), (120, 70));
        assert_eq!(c.give.samples, 1);
        assert_eq!((c.give.cycles.max, c.give.instructions.max), (150, 90));
    }

    #[test]
    fn a_run_without_its_end_calibration_or_samples_is_an_error() {
        let events = run();
        let err = task_control_costs(&events[..events.len() - 1]).unwrap_err();
        assert!(err.to_string().contains("end marker"), "{err}");
        let err = task_control_costs(&events[2..]).unwrap_err();
        assert!(err.to_string().contains("calibration"), "{err}");
        let mut no_resume = events.clone();
        no_resume.retain(
            |e| !matches!(e.kind, EventKind::Marker { id, .. } if id & !0xF == ids::RESUME),
        );
        let err = task_control_costs(&no_resume).unwrap_err();
        assert!(err.to_string().contains("no resume samples"), "{err}");
    }
}
