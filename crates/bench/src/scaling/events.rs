//! The event analysis of `cactus bench scaling`: pairs the firmware's START and END markers
//! (bench/scaling/ids.h) into per-operation cycle costs, minus the marker calibration.

use crate::kernel::events::Spread;
use cactus_sim::{Event, EventKind};
use serde::{Deserialize, Serialize};

/// Marker ids of bench/scaling/ids.h (keep in sync).
mod ids {
    pub const CAL_FIRST: u32 = 0x200;
    pub const CAL_SECOND: u32 = 0x201;
    pub const SWITCH: u32 = 0x210;
    pub const REQ_START: u32 = 0x220;
    pub const REQ_END: u32 = 0x221;
    pub const RET_START: u32 = 0x230;
    pub const RET_END: u32 = 0x231;
    pub const HAND_START: u32 = 0x240;
    pub const HAND_END: u32 = 0x241;
    pub const MOVED: u32 = 0x2F0;
    pub const HELD: u32 = 0x2F1;
    pub const TASKS: u32 = 0x2F2;
    pub const DONE: u32 = 0x2FF;
}

/// The measured operations, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// `cactus_yield` between two tasks of one priority: the call to the other task's first
    /// instruction after its own yield.
    Switch,
    /// A failed entry check under `mtss` to the first statement of the frame in lent pages.
    Request,
    /// The moved frame's last statement to its caller, through the return trampoline.
    Return,
    /// `cactus_sem_give` that wakes a blocked higher-priority task to that task's first
    /// instruction after its `cactus_sem_take`.
    Handoff,
}

impl Op {
    /// Every operation, in table order.
    pub const ALL: [Op; 4] = [Op::Switch, Op::Request, Op::Return, Op::Handoff];

    /// Short name (the summary keys' stem).
    pub fn name(self) -> &'static str {
        match self {
            Op::Switch => "switch",
            Op::Request => "request",
            Op::Return => "return",
            Op::Handoff => "handoff",
        }
    }

    /// The operation that the consecutive markers `start`, `end` measure, if any.
    fn of(start: u32, end: u32) -> Option<Op> {
        match (start, end) {
            (ids::REQ_START, ids::REQ_END) => Some(Op::Request),
            (ids::RET_START, ids::RET_END) => Some(Op::Return),
            (ids::HAND_START, ids::HAND_END) => Some(Op::Handoff),
            // A yield of task a followed by task b's return from its yield, a != b.
            (s, e) if s & !0xF == ids::SWITCH && e & !0xF == ids::SWITCH => {
                (s & 1 == 0 && e & 1 == 1 && s >> 1 != e >> 1).then_some(Op::Switch)
            }
            _ => None,
        }
    }
}

/// One run's costs, by operation (in [`Op::ALL`] order), in simulated cycles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunCosts {
    /// min / avg / max cycles of each operation, with its sample count.
    pub ops: Vec<(Op, usize, Spread)>,
    /// Cycles of a pair of marker stores (subtracted from every sample).
    pub marker_cycles: u64,
    /// Samples dropped because an interrupt fell inside them.
    pub interrupted: usize,
    /// Measured requests whose frame ran outside the requester's stack (all of them, when the
    /// firmware works as designed).
    pub moved: u32,
    /// Extra tasks blocked inside a moved frame.
    pub held: u32,
    /// The firmware's task count.
    pub tasks: u32,
    /// Samples the firmware was built to take per operation.
    pub requested: u32,
}

/// The value of the first marker `want`, or an error naming it.
fn value(events: &[Event], want: u32) -> Result<u32, String> {
    events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::Marker { id, value } if id == want => Some(value),
            _ => None,
        })
        .ok_or_else(|| format!("no marker {want:#x} (did the firmware finish?)"))
}

/// Pairs the events of one run: a sample is a START marker directly followed (no other
/// marker between) by its END marker with no interrupt between them; traps that are part of
/// the operation (the stack check's `ecall`, the trampoline) stay in. The calibration pair
/// must come first. Every operation needs at least one sample.
pub fn run_costs(events: &[Event]) -> Result<RunCosts, String> {
    let mut cal = None;
    let mut samples: [Vec<u64>; 4] = Default::default();
    let mut interrupted = 0;
    let mut last: Option<(&Event, u32)> = None;
    let mut interrupt = false;
    for event in events {
        match event.kind {
            EventKind::Trap { cause, .. } => interrupt |= cause & 0x8000_0000 != 0,
            EventKind::Marker { id, .. } => {
                if let Some((prev, prev_id)) = last {
                    if (prev_id, id) == (ids::CAL_FIRST, ids::CAL_SECOND) {
                        cal.get_or_insert(event.cycle.saturating_sub(prev.cycle));
                    }
                    if let Some(op) = Op::of(prev_id, id) {
                        let Some(cal) = cal else {
                            return Err("a sample before the calibration pair".into());
                        };
                        if interrupt {
                            interrupted += 1;
                        } else {
                            let span = event.cycle.saturating_sub(prev.cycle);
                            samples[op as usize].push(span.saturating_sub(cal));
                        }
                    }
                }
                last = Some((event, id));
                interrupt = false;
            }
            _ => {}
        }
    }
    let marker_cycles = cal.ok_or("no calibration pair (ids 0x200, 0x201)")?;
    let mut ops = Vec::new();
    for op in Op::ALL {
        let s = &samples[op as usize];
        let spread = Spread::of(s).ok_or_else(|| format!("no {} samples", op.name()))?;
        ops.push((op, s.len(), spread));
    }
    Ok(RunCosts {
        ops,
        marker_cycles,
        interrupted,
        moved: value(events, ids::MOVED)?,
        held: value(events, ids::HELD)?,
        tasks: value(events, ids::TASKS)?,
        requested: value(events, ids::DONE)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(cycle: u64, id: u32) -> Event {
        Event {
            cycle,
            instret: 0,
            pc: 0x8000_0000,
            kind: EventKind::Marker { id, value: 1 },
        }
    }

    fn trap(cycle: u64, cause: u32) -> Event {
        Event {
            cycle,
            instret: 0,
            pc: 0x8000_0100,
            kind: EventKind::Trap { cause, tval: 0 },
        }
    }

    fn facts() -> Vec<Event> {
        [ids::MOVED, ids::HELD, ids::TASKS, ids::DONE]
            .iter()
            .map(|&id| marker(9999, id))
            .collect()
    }

    #[test]
    fn pairs_become_costs_minus_calibration() {
        let mut e = vec![
            marker(10, ids::CAL_FIRST),
            marker(12, ids::CAL_SECOND),      // 2 cycles per pair
            marker(100, ids::SWITCH),         // task 0 yields
            marker(150, ids::SWITCH | 2 | 1), // task 1 back: 48
            marker(160, ids::SWITCH | 2),     // task 1 yields
            marker(170, ids::SWITCH | 2 | 1), // task 1 back again: not a switch
            marker(200, ids::REQ_START),
            trap(210, 8),              // the check's ecall stays in
            marker(300, ids::REQ_END), // 98
            marker(400, ids::RET_START),
            trap(410, 0x8000_0007), // a timer interrupt: dropped
            marker(500, ids::RET_END),
            marker(600, ids::RET_START),
            marker(640, ids::RET_END), // 38
            marker(700, ids::HAND_START),
            marker(760, ids::HAND_END), // 58
        ];
        e.extend(facts());
        let c = run_costs(&e).unwrap();
        assert_eq!(c.marker_cycles, 2);
        assert_eq!(c.interrupted, 1);
        let avg: Vec<(Op, usize, f64)> = c.ops.iter().map(|(o, n, s)| (*o, *n, s.avg)).collect();
        assert_eq!(
            avg,
            vec![
                (Op::Switch, 1, 48.0),
                (Op::Request, 1, 98.0),
                (Op::Return, 1, 38.0),
                (Op::Handoff, 1, 58.0)
            ]
        );
        assert_eq!((c.moved, c.held, c.tasks, c.requested), (1, 1, 1, 1));
    }

    #[test]
    fn missing_pieces_are_errors() {
        let mut e = vec![marker(100, ids::REQ_START), marker(110, ids::REQ_END)];
        assert!(run_costs(&e).unwrap_err().contains("calibration"));
        e.insert(0, marker(1, ids::CAL_FIRST));
        e.insert(1, marker(1, ids::CAL_SECOND));
        e.extend(facts());
        assert!(run_costs(&e).unwrap_err().contains("no switch samples"));
    }
}
