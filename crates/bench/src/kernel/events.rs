//! The event analysis of `cactus bench kernel` (see [`crate::kernel`] for what is
//! measured): pairs the benchmark firmware's MARKER events and the simulator's trap events into
//! switch costs, and reads the values the firmware reports about itself.

use crate::kernel::KernelBenchError;
use cactus_sim::{Event, EventKind};
use serde::{Deserialize, Serialize};

/// Marker ids of bench/kernel/ids.h (keep in sync).
mod ids {
    pub use crate::kernel::markers::{CAL_FIRST, CAL_SECOND};
    pub const YIELD: u32 = 0x110;
    pub const BLOCK: u32 = 0x120;
    pub const TIMER: u32 = 0x130;
    pub const TICK_CYCLES: u32 = 0x140;
    pub const TICK_INSNS: u32 = 0x141;
    pub const SPIN_CYCLES: u32 = 0x142;
    pub const SPIN_INSNS: u32 = 0x143;
    pub const TCB_SIZE: u32 = 0x1F0;
    pub const CTX_SIZE: u32 = 0x1F1;
    pub const MAX_TASKS: u32 = 0x1F2;
    pub const STACK_YIELD: u32 = 0x1F3;
    pub const STACK_SPIN: u32 = 0x1F4;
    pub const DONE: u32 = 0x1FF;
}

/// mcause of the machine timer interrupt.
const MCAUSE_TIMER: u32 = 0x8000_0007;

/// min / avg / max of one quantity over the samples.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Smallest sample.
    pub min: u64,
    /// Mean.
    pub avg: f64,
    /// Largest sample.
    pub max: u64,
}

impl Spread {
    /// The spread of `values`; None when empty.
    pub fn of(values: &[u64]) -> Option<Spread> {
        let min = *values.iter().min()?;
        let max = *values.iter().max()?;
        let avg = values.iter().sum::<u64>() as f64 / values.len() as f64;
        Some(Spread { min, avg, max })
    }
}

/// One switch path's measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathCost {
    /// Switches measured.
    pub samples: usize,
    /// Instructions retired on the path.
    pub instructions: Spread,
    /// Simulated cycles on the path.
    pub cycles: Spread,
}

impl PathCost {
    /// The spreads of `samples` ((cycles, instructions) each); an error naming `what` if there
    /// is none.
    pub fn from_samples(samples: &[(u64, u64)], what: &str) -> Result<PathCost, KernelBenchError> {
        let cycles: Vec<u64> = samples.iter().map(|s| s.0).collect();
        let instructions: Vec<u64> = samples.iter().map(|s| s.1).collect();
        match (Spread::of(&instructions), Spread::of(&cycles)) {
            (Some(instructions), Some(cycles)) => Ok(PathCost {
                samples: samples.len(),
                instructions,
                cycles,
            }),
            _ => Err(KernelBenchError::Events(format!("no {what} samples"))),
        }
    }
}

/// The three switch paths and the calibration they were corrected by, and the tick that
/// switches no task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SwitchCosts {
    /// Task-to-task `cactus_yield`.
    pub yield_switch: PathCost,
    /// Blocking `cactus_sem_take` to a task woken from its own take.
    pub blocking: PathCost,
    /// Timer trap to the first instruction of the woken task.
    pub timer: PathCost,
    /// (cycles, instructions) of the two marker stores around a measured call.
    pub marker_cost: (u64, u64),
    /// A timer interrupt that switches no task: from the first instruction at mtvec to the
    /// interrupted task's next instruction (the spinner alone at its level).
    pub tick: PathCost,
}

/// Values the firmware reports about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirmwareFacts {
    /// `sizeof(struct k_tcb)`: the per-task kernel RAM.
    pub tcb_bytes: u32,
    /// `sizeof(struct port_context)` (part of the TCB).
    pub context_bytes: u32,
    /// `CACTUS_MAX_TASKS` (TCB slots, statically allocated).
    pub max_tasks: u32,
    /// Stack high-water bytes of a task after 101 yields (its own frames only).
    pub yield_task_stack_used: u32,
    /// Stack high-water bytes of a task preempted by every timer interrupt.
    pub preempted_task_stack_used: u32,
}

/// `to - from - overhead`, never below 0 (stamps come from one run, so they only grow).
fn span(from: u64, to: u64, overhead: u64) -> u64 {
    to.saturating_sub(from).saturating_sub(overhead)
}

/// The measured paths, in [`SwitchCosts`] order.
const PATHS: [u32; 3] = [ids::YIELD, ids::BLOCK, ids::TIMER];

/// The sample the BACK marker `id` (at `event`) closes, if any: (path index, (cycles,
/// instructions)). `prev` is the marker before it, `traps` the traps between them, `cal` what a
/// pair of marker stores costs.
fn close(
    (prev, prev_id): (&Event, u32),
    (event, id): (&Event, u32),
    traps: &[&Event],
    cal: (u64, u64),
) -> Option<(usize, (u64, u64))> {
    let kind = id & !0xF;
    let slot = PATHS.iter().position(|&k| k == kind)?;
    if id & 1 == 0 || prev_id & !0xF != kind || prev_id & 1 != 0 {
        return None;
    }
    if kind == ids::TIMER {
        let [trap] = traps else { return None };
        if !matches!(trap.kind, EventKind::Trap { cause, .. } if cause == MCAUSE_TIMER) {
            return None;
        }
        // One marker store (the ARG0 write) is inside the measured span.
        let cycles = span(trap.cycle, event.cycle, cal.0 / 2);
        return Some((slot, (cycles, span(trap.instret, event.instret, cal.1 / 2))));
    }
    // A switch between two different tasks with no interrupt inside.
    if !traps.is_empty() || prev_id >> 1 == id >> 1 {
        return None;
    }
    let cycles = span(prev.cycle, event.cycle, cal.0);
    Some((slot, (cycles, span(prev.instret, event.instret, cal.1))))
}

/// Pairs the events of one benchmark run into switch costs: a yield or blocking sample is a
/// CALL marker of one task directly followed by the BACK marker of another with no trap between
/// them; a timer sample is a CALL and BACK of the sleeper with exactly one timer trap between,
/// measured from the trap. The calibration pair must come before every sample. Tick samples
/// come from [`tick_samples`], `trap_entry` being the profile's hardware trap-entry cycles.
pub fn switch_costs(events: &[Event], trap_entry: u64) -> Result<SwitchCosts, KernelBenchError> {
    let mut marker_cost = None;
    let mut samples: [Vec<(u64, u64)>; 3] = Default::default();
    let mut last_marker: Option<(&Event, u32)> = None;
    let mut traps: Vec<&Event> = Vec::new();
    for event in events {
        match event.kind {
            EventKind::Trap { .. } => traps.push(event),
            EventKind::Marker { id, .. } => {
                if let Some((prev, prev_id)) = last_marker {
                    if id == ids::CAL_SECOND && prev_id == ids::CAL_FIRST {
                        marker_cost.get_or_insert((
                            span(prev.cycle, event.cycle, 0),
                            span(prev.instret, event.instret, 0),
                        ));
                    }
                    match marker_cost {
                        Some(cal) => {
                            if let Some((slot, sample)) =
                                close((prev, prev_id), (event, id), &traps, cal)
                            {
                                samples[slot].push(sample);
                            }
                        }
                        None if PATHS.contains(&(id & !0xF)) => {
                            return Err(KernelBenchError::Events(
                                "a switch marker before the calibration pair".into(),
                            ))
                        }
                        None => {}
                    }
                }
                last_marker = Some((event, id));
                traps.clear();
            }
            _ => {}
        }
    }
    let marker_cost = marker_cost
        .ok_or_else(|| KernelBenchError::Events("no calibration pair (ids 0x100, 0x101)".into()))?;
    let cost = PathCost::from_samples;
    Ok(SwitchCosts {
        yield_switch: cost(&samples[0], "yield")?,
        blocking: cost(&samples[1], "blocking")?,
        timer: cost(&samples[2], "timer")?,
        marker_cost,
        tick: cost(&tick_samples(events, trap_entry)?, "tick")?,
    })
}

/// The ticks that switched no task, as (cycles, instructions): the spinner reports every loop
/// iteration a tick lengthened (TICK_CYCLES then TICK_INSNS) and, at the end, its shortest
/// iteration (SPIN_CYCLES, SPIN_INSNS). A tick's cost is the lengthened iteration minus the
/// shortest one, less the hardware trap entry (`trap_entry` cycles, no instruction): what
/// remains runs from the first instruction at mtvec to the interrupted task's next one.
pub fn tick_samples(
    events: &[Event],
    trap_entry: u64,
) -> Result<Vec<(u64, u64)>, KernelBenchError> {
    let markers: Vec<(u32, u64)> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Marker { id, value } => Some((id, u64::from(value))),
            _ => None,
        })
        .collect();
    let find = |want: u32| {
        markers
            .iter()
            .find_map(|&(id, v)| (id == want).then_some(v))
            .ok_or_else(|| KernelBenchError::Events(format!("no marker {want:#x}")))
    };
    let (spin_cycles, spin_insns) = (find(ids::SPIN_CYCLES)?, find(ids::SPIN_INSNS)?);
    let overhead = spin_cycles + trap_entry;
    let mut out = Vec::new();
    for pair in markers.windows(2) {
        if let [(ids::TICK_CYCLES, c), (ids::TICK_INSNS, i)] = pair {
            if *c < overhead || *i < spin_insns {
                return Err(KernelBenchError::Events(format!(
                    "a tick sample of {c} cycles / {i} instructions is shorter than the loop \
                     ({spin_cycles} / {spin_insns}) and the trap entry ({trap_entry})"
                )));
            }
            out.push((c - overhead, i - spin_insns));
        }
    }
    Ok(out)
}

/// The values the firmware reported with its self-description markers.
pub fn firmware_facts(events: &[Event]) -> Result<FirmwareFacts, KernelBenchError> {
    let value = |want: u32| {
        events
            .iter()
            .find_map(|e| match e.kind {
                EventKind::Marker { id, value } if id == want => Some(value),
                _ => None,
            })
            .ok_or_else(|| KernelBenchError::Events(format!("no marker {want:#x}")))
    };
    value(ids::DONE)?;
    Ok(FirmwareFacts {
        tcb_bytes: value(ids::TCB_SIZE)?,
        context_bytes: value(ids::CTX_SIZE)?,
        max_tasks: value(ids::MAX_TASKS)?,
        yield_task_stack_used: value(ids::STACK_YIELD)?,
        preempted_task_stack_used: value(ids::STACK_SPIN)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::markers::test_events::{back, call, marker, trap};

    /// A run with every kind of pair, including ones that must not count.
    fn run() -> Vec<Event> {
        vec![
            marker(10, 5, ids::CAL_FIRST),
            marker(10, 7, ids::CAL_SECOND),
            // yield 0 -> 1 (task 1 fresh: its first marker is a call, no sample)
            marker(100, 50, call(ids::YIELD, 0)),
            marker(300, 150, call(ids::YIELD, 1)),
            marker(405, 212, back(ids::YIELD, 0)), // sample: 105 cycles, 60 instructions
            marker(500, 250, call(ids::YIELD, 0)),
            trap(550, 270, MCAUSE_TIMER), // an interrupt inside: no sample
            marker(700, 400, back(ids::YIELD, 1)),
            marker(800, 450, call(ids::YIELD, 1)),
            marker(907, 513, back(ids::YIELD, 0)), // sample: 107, 61
            // blocking: a take that did not block (same task) is not a switch
            marker(1000, 600, call(ids::BLOCK, 3)),
            marker(1010, 610, back(ids::BLOCK, 3)),
            marker(1100, 700, call(ids::BLOCK, 3)),
            marker(1325, 835, back(ids::BLOCK, 2)), // sample: 225, 133
            // timer: one timer trap between the sleeper's call and its return
            marker(2000, 900, call(ids::TIMER, 4)),
            trap(5000, 1000, MCAUSE_TIMER),
            marker(5244, 1145, back(ids::TIMER, 4)), // sample: 244, 144
            marker(6000, 1200, call(ids::TIMER, 4)),
            trap(9000, 1300, 0x8000_0003), // not the timer: no sample
            marker(9300, 1400, back(ids::TIMER, 4)),
            // ticks: iterations of 50 and 52 cycles (30 and 31 instructions) against a
            // shortest one of 8 (6); the trap entry is 4 cycles
            valued(ids::TICK_CYCLES, 50),
            valued(ids::TICK_INSNS, 30),
            valued(ids::TICK_CYCLES, 52),
            valued(ids::TICK_INSNS, 31),
            valued(ids::SPIN_CYCLES, 8),
            valued(ids::SPIN_INSNS, 6),
        ]
    }

    fn valued(id: u32, value: u32) -> Event {
        Event {
            kind: EventKind::Marker { id, value },
            ..marker(10_000, 2_000, 0)
        }
    }

    #[test]
    fn pairs_become_switch_costs() {
        let c = switch_costs(&run(), 4).unwrap();
        assert_eq!(c.marker_cost, (0, 2));
        assert_eq!(c.yield_switch.samples, 2);
        assert_eq!(
            (c.yield_switch.cycles.min, c.yield_switch.cycles.max),
            (105, 107)
        );
        assert_eq!(c.yield_switch.cycles.avg, 106.0);
        assert_eq!(
            (
                c.yield_switch.instructions.min,
                c.yield_switch.instructions.max
            ),
            (60, 61)
        );
        assert_eq!(c.blocking.samples, 1);
        assert_eq!(
            (c.blocking.cycles.max, c.blocking.instructions.max),
            (225, 133)
        );
        assert_eq!(c.timer.samples, 1);
        assert_eq!((c.timer.cycles.max, c.timer.instructions.max), (244, 144));
        assert_eq!(c.tick.samples, 2);
        assert_eq!((c.tick.cycles.min, c.tick.cycles.max), (38, 40));
        assert_eq!((c.tick.instructions.min, c.tick.instructions.max), (24, 25));
    }

    #[test]
    fn a_tick_shorter_than_the_loop_is_an_error() {
        let mut events = run();
        let at = events.len() - 6;
        events[at] = valued(ids::TICK_CYCLES, 11); // less than 8 + 4
        let err = switch_costs(&events, 4).unwrap_err();
        assert!(err.to_string().contains("shorter than the loop"), "{err}");
        let no_spin = &run()[..run().len() - 2];
        assert!(switch_costs(no_spin, 4).is_err());
    }

    #[test]
    fn marker_cost_is_subtracted() {
        let mut events = run();
        events[1] = marker(12, 9, ids::CAL_SECOND); // 2 cycles and 4 instructions per pair
        let c = switch_costs(&events, 4).unwrap();
        assert_eq!(c.marker_cost, (2, 4));
        assert_eq!(c.yield_switch.cycles.min, 103);
        assert_eq!(c.yield_switch.instructions.min, 58);
        assert_eq!((c.timer.cycles.max, c.timer.instructions.max), (243, 143));
    }

    #[test]
    fn missing_calibration_or_samples_is_an_error() {
        let events = run();
        let err = switch_costs(&events[2..], 4).unwrap_err();
        assert!(err.to_string().contains("calibration"), "{err}");
        let no_timer: Vec<Event> = events[..14].to_vec();
        let err = switch_costs(&no_timer, 4).unwrap_err();
        assert!(err.to_string().contains("no timer samples"), "{err}");
    }

    #[test]
    fn facts_need_every_marker() {
        let mut events = vec![marker(0, 0, ids::DONE)];
        assert!(firmware_facts(&events).is_err());
        for (id, v) in [
            (ids::TCB_SIZE, 156),
            (ids::CTX_SIZE, 120),
            (ids::MAX_TASKS, 40),
            (ids::STACK_YIELD, 32),
            (ids::STACK_SPIN, 0),
        ] {
            events.push(Event {
                kind: EventKind::Marker { id, value: v },
                ..marker(0, 0, 0)
            });
        }
        let f = firmware_facts(&events).unwrap();
        assert_eq!((f.tcb_bytes, f.context_bytes, f.max_tasks), (156, 120, 40));
        assert_eq!(
            (f.yield_task_stack_used, f.preempted_task_stack_used),
            (32, 0)
        );
    }
}
