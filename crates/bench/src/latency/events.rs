//! The event analysis of `cactus bench latency`: pairs every timer interrupt's
//! `TimerPending` event (the cycle MTIP rose and the pc it rose at) with its trap (the first
//! handler instruction) and, when the interrupt woke the waker, with the waker's marker after
//! its `cactus_sleep` returned.

use cactus_sim::{Event, EventKind};

/// Marker ids of bench/latency/ids.h (keep in sync).
pub mod ids {
    /// Calibration: the first of two marker stores back to back.
    pub const CAL_FIRST: u32 = 0x300;
    /// Calibration: the second.
    pub const CAL_SECOND: u32 = 0x301;
    /// Every task runs its loop: samples count from here.
    pub const START: u32 = 0x302;
    /// The waker calls `cactus_sleep(1)`.
    pub const SLEEP: u32 = 0x310;
    /// The waker's second instruction after `cactus_sleep` returned.
    pub const WOKE: u32 = 0x311;
    /// The last event; value: wake-ups requested.
    pub const DONE: u32 = 0x3FF;
}

/// mcause of the machine timer interrupt.
const MCAUSE_TIMER: u32 = 0x8000_0007;

/// One timer interrupt as the events show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawSample {
    /// Cycle MTIP rose.
    pub since: u64,
    /// Cycles from the rise to the first instruction at mtvec.
    pub handler: u64,
    /// Cycles from the rise to the first instruction of the waker after its sleep returned,
    /// when this interrupt woke it.
    pub task: Option<u64>,
    /// pc of the first instruction at or after the rise.
    pub pending_pc: u32,
    /// pc the interrupt was taken at (`mepc`).
    pub taken_pc: u32,
    /// Interrupts were masked at the rise.
    pub masked: bool,
    /// The rise came inside a trap handler.
    pub in_trap: bool,
}

/// What one run's events give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSamples {
    /// Every timer interrupt taken after the START marker, in order.
    pub samples: Vec<RawSample>,
    /// Cycles of one marker store (half the calibration pair), subtracted from the WOKE stamp.
    pub marker_cycles: u64,
    /// Wake-ups the firmware was asked for (DONE's value).
    pub requested: u32,
    /// WOKE markers seen.
    pub wakes: u32,
    /// Wake-ups not paired with exactly one timer interrupt during the sleep (not samples).
    pub unpaired_wakes: u32,
}

/// Pairs one run's events. Errs when the firmware's markers are missing or out of order, or
/// a timer trap has no `TimerPending` event before it (the run was not made with the
/// simulator's timer-pending watch).
pub fn run_samples(events: &[Event]) -> Result<RunSamples, String> {
    let mut cal_first: Option<u64> = None;
    let mut marker_cycles = None;
    let mut started = false;
    let mut pending: Option<(&Event, u64, bool, bool)> = None;
    let mut samples = Vec::new();
    let mut sleeping = false;
    let mut during_sleep: Vec<usize> = Vec::new();
    let (mut wakes, mut unpaired_wakes) = (0, 0);
    let mut requested = None;
    for event in events {
        match event.kind {
            EventKind::TimerPending {
                since,
                masked,
                in_trap,
            } => pending = Some((event, since, masked, in_trap)),
            EventKind::Trap { cause, .. } if cause == MCAUSE_TIMER => {
                let Some((at, since, masked, in_trap)) = pending.take() else {
                    return Err(format!(
                        "timer trap at cycle {} has no TimerPending event before it (run \
                         without the timer-pending watch?)",
                        event.cycle
                    ));
                };
                if !started {
                    continue;
                }
                if sleeping {
                    during_sleep.push(samples.len());
                }
                samples.push(RawSample {
                    since,
                    handler: event.cycle.saturating_sub(since),
                    task: None,
                    pending_pc: at.pc,
                    taken_pc: event.pc,
                    masked,
                    in_trap,
                });
            }
            EventKind::Marker { id, value } => match id {
                ids::CAL_FIRST => cal_first = Some(event.cycle),
                ids::CAL_SECOND => {
                    let first = cal_first.ok_or("calibration: second marker without the first")?;
                    marker_cycles = Some(event.cycle.saturating_sub(first) / 2);
                }
                ids::START => started = true,
                ids::SLEEP => {
                    sleeping = true;
                    during_sleep.clear();
                }
                ids::WOKE if sleeping => {
                    sleeping = false;
                    wakes += 1;
                    let cost = marker_cycles.ok_or("a wake-up before the calibration")?;
                    match during_sleep[..] {
                        [i] => {
                            let s = &mut samples[i];
                            s.task = Some(event.cycle.saturating_sub(cost).saturating_sub(s.since));
                        }
                        _ => unpaired_wakes += 1,
                    }
                }
                ids::DONE => requested = Some(value),
                _ => {}
            },
            _ => {}
        }
    }
    let requested = requested.ok_or("no DONE marker: the firmware did not finish its loop")?;
    if !started {
        return Err("no START marker".into());
    }
    if wakes != requested {
        return Err(format!(
            "{wakes} wake-ups seen, {requested} requested (WOKE markers lost?)"
        ));
    }
    Ok(RunSamples {
        samples,
        marker_cycles: marker_cycles.ok_or("no calibration markers")?,
        requested,
        wakes,
        unpaired_wakes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(cycle: u64, id: u32, value: u32) -> Event {
        Event::at(cycle, 0, EventKind::Marker { id, value })
    }

    fn pending(cycle: u64, pc: u32, since: u64, masked: bool) -> Event {
        Event::at(
            cycle,
            pc,
            EventKind::TimerPending {
                since,
                masked,
                in_trap: false,
            },
        )
    }

    fn trap(cycle: u64, pc: u32) -> Event {
        Event::at(
            cycle,
            pc,
            EventKind::Trap {
                cause: MCAUSE_TIMER,
                tval: 0,
            },
        )
    }

    #[test]
    fn a_wake_up_pairs_the_rise_the_trap_and_the_woken_task() {
        let events = vec![
            marker(10, ids::CAL_FIRST, 0),
            marker(14, ids::CAL_SECOND, 0),
            pending(50, 0x100, 48, true),
            trap(60, 0x104), // before START: not a sample
            marker(70, ids::START, 0),
            marker(80, ids::SLEEP, 0),
            pending(1000, 0x200, 998, true),
            trap(1030, 0x208),
            marker(1200, ids::WOKE, 0),
            marker(1300, ids::DONE, 1),
        ];
        let run = run_samples(&events).unwrap();
        assert_eq!(run.marker_cycles, 2);
        assert_eq!(run.samples.len(), 1);
        let s = run.samples[0];
        assert_eq!(
            (s.since, s.handler, s.task),
            (998, 32, Some(1200 - 2 - 998))
        );
        assert_eq!((s.pending_pc, s.taken_pc, s.masked), (0x200, 0x208, true));
        assert_eq!((run.wakes, run.unpaired_wakes), (1, 0));
    }

    #[test]
    fn a_trap_without_its_rise_or_a_missing_done_is_an_error() {
        let no_watch = vec![marker(1, ids::START, 0), trap(5, 0)];
        assert!(run_samples(&no_watch).unwrap_err().contains("TimerPending"));
        let no_done = vec![marker(1, ids::START, 0)];
        assert!(run_samples(&no_done).unwrap_err().contains("DONE"));
    }

    #[test]
    fn a_sleep_spanning_two_interrupts_is_not_a_task_sample() {
        let events = vec![
            marker(10, ids::CAL_FIRST, 0),
            marker(12, ids::CAL_SECOND, 0),
            marker(20, ids::START, 0),
            marker(30, ids::SLEEP, 0),
            pending(100, 0, 100, false),
            trap(110, 0),
            pending(200, 0, 200, false),
            trap(210, 0),
            marker(300, ids::WOKE, 0),
            marker(400, ids::DONE, 1),
        ];
        let run = run_samples(&events).unwrap();
        assert_eq!(run.samples.len(), 2);
        assert!(run.samples.iter().all(|s| s.task.is_none()));
        assert_eq!(run.unpaired_wakes, 1);
    }
}
