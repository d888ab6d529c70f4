//! The task-control paths of `cactus bench kernel`, measured on `bench/kernel/notify_bench.c`:
//! the wake-ups of a blocked or suspended higher-priority task by a direct-to-task
//! notification, a resume and (for comparison) a semaphore give, each from the `call` in the
//! low task to the high task's first instruction after its own call returns.

use crate::kernel::events::PathCost;
use crate::kernel::markers::marked_samples;
use crate::kernel::KernelBenchError;
use cactus_sim::Event;
use serde::{Deserialize, Serialize};

/// The task-control benchmark firmware.
pub const NOTIFY_ELF: &str = "build/bench/kernel/notify_bench.elf";
/// The same firmware linked with the FreeRTOS-equal configuration's library
/// ([`crate::kernel::LEAN_LIBRARY`]).
pub const NOTIFY_LEAN_ELF: &str = "build/bench/kernel/notify_bench-lean.elf";

/// Marker ids of bench/kernel/notify_bench.c (keep in sync); a switch marker id is
/// `KIND | task << 1 | (0 before the call, 1 after it returns)`.
mod ids {
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
    let m = marked_samples::<3>(events, "notify_bench", ids::DONE, |prev, id| {
        let kind = id & !0xF;
        let slot = KINDS.iter().position(|&k| k == kind)?;
        let back_after_call = id & 1 == 1 && prev & !0xF == kind && prev & 1 == 0;
        let other_task = prev >> 1 != id >> 1;
        (back_after_call && other_task).then_some(slot)
    })?;
    let [notify, resume, give] = &m.samples;
    Ok(TaskControlCosts {
        notify: PathCost::from_samples(notify, "notify")?,
        resume: PathCost::from_samples(resume, "resume")?,
        give: PathCost::from_samples(give, "give")?,
        marker_cost: m.marker_cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::markers::test_events::{back, call, marker};
    use crate::kernel::markers::{CAL_FIRST, CAL_SECOND};
    use cactus_sim::EventKind;

    const WAIT: u32 = 0x230;
    fn run() -> Vec<Event> {
        vec![
            marker(10, 5, CAL_FIRST),
            marker(12, 7, CAL_SECOND), // 2 cycles, 2 instructions per pair
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
        assert!(err.to_string().contains("no done marker"), "{err}");
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
