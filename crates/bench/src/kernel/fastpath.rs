//! The fast paths of `cactus bench kernel`: kernel calls that switch no task, measured in the
//! pairs an application makes (bench/kernel/fastpath_bench.c):
//! - message pair: `cactus_queue_send` then `cactus_queue_recv` of one 16-byte message, nobody
//!   waiting (issue goal ≤ 200 cycles; FreeRTOS's queue send + receive: 367);
//! - pool pair: `cactus_pool_alloc` then `cactus_pool_free` of one block, the block freed just
//!   before (goal ≤ 40), and once the first use of a block (a never-used one, taken by the
//!   out-of-line part: at most `count` times in a pool's life), reported beside it.
//!
//! A message sample spans from the marker store right before the first call to the marker
//! store that follows the second call: both calls with their argument set-up, their returns,
//! and nothing else. The pool calls are inline (cactus.h): a pool sample is the C code between
//! two marker stores. The calibrated marker stores are subtracted, and a pair with a trap
//! inside (the tick) is dropped.

use crate::kernel::events::{PathCost, Spread};
use crate::kernel::report::GoalRow;
use crate::kernel::KernelBenchError;
use cactus_sim::{Event, EventKind};
use cactus_sweep::table::Table;
use serde::{Deserialize, Serialize};

/// The fast-path benchmark firmware.
pub const FASTPATH_ELF: &str = "build/bench/kernel/fastpath_bench.elf";

/// Marker ids of bench/kernel/fastpath_ids.h and the calibration pair of bench/kernel/ids.h
/// (keep in sync).
mod ids {
    pub const CAL_FIRST: u32 = 0x100;
    pub const CAL_SECOND: u32 = 0x101;
    pub const MSG_BEFORE: u32 = 0x210;
    pub const MSG_AFTER: u32 = 0x211;
    pub const POOL_BEFORE: u32 = 0x220;
    pub const POOL_AFTER: u32 = 0x221;
    pub const POOL_FIRST_BEFORE: u32 = 0x222;
    pub const POOL_FIRST_AFTER: u32 = 0x223;
    pub const DONE: u32 = 0x2FF;
}

/// The goal for a message pair, cycles.
pub const MSG_PAIR_GOAL: u64 = 200;
/// The goal for a pool pair, cycles.
pub const POOL_PAIR_GOAL: u64 = 40;

/// The two fast paths and the calibration they were corrected by.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FastPaths {
    /// Send + receive of one 16-byte message, no switch.
    pub msg_pair: PathCost,
    /// Allocate + free of one pool block (the block freed just before).
    pub pool_pair: PathCost,
    /// The same when the block is used for the first time (a never-used block, taken by the
    /// out-of-line part; at most `count` times in a pool's life): one sample.
    pub pool_first_use: PathCost,
    /// (cycles, instructions) of the two marker stores around a measured pair.
    pub marker_cost: (u64, u64),
}

/// Pairs the events of one fast-path run: a sample is a BEFORE marker directly followed by its
/// AFTER marker with no trap between them. The calibration pair must come before every sample,
/// and the firmware's DONE marker must be there (it checked every pair's result).
pub fn fast_paths(events: &[Event]) -> Result<FastPaths, KernelBenchError> {
    let mut cal: Option<(u64, u64)> = None;
    // (cycles, instructions) of each sample.
    let mut msg: Vec<(u64, u64)> = Vec::new();
    let mut pool: Vec<(u64, u64)> = Vec::new();
    let mut first: Vec<(u64, u64)> = Vec::new();
    let mut last: Option<(&Event, u32)> = None;
    let mut trapped = false;
    let mut done = false;
    for event in events {
        match event.kind {
            EventKind::Trap { .. } => trapped = true,
            EventKind::Marker { id, .. } => {
                if let Some((prev, prev_id)) = last {
                    let cost = (
                        event.cycle.saturating_sub(prev.cycle),
                        event.instret.saturating_sub(prev.instret),
                    );
                    let pair = match (prev_id, id) {
                        (ids::CAL_FIRST, ids::CAL_SECOND) => {
                            cal.get_or_insert(cost);
                            None
                        }
                        (ids::MSG_BEFORE, ids::MSG_AFTER) => Some(&mut msg),
                        (ids::POOL_BEFORE, ids::POOL_AFTER) => Some(&mut pool),
                        (ids::POOL_FIRST_BEFORE, ids::POOL_FIRST_AFTER) => Some(&mut first),
                        _ => None,
                    };
                    if let Some(samples) = pair {
                        let Some((cc, ci)) = cal else {
                            return Err(KernelBenchError::Events(
                                "a fast-path pair before the calibration pair".into(),
                            ));
                        };
                        if !trapped {
                            samples.push((cost.0.saturating_sub(cc), cost.1.saturating_sub(ci)));
                        }
                    }
                }
                done |= id == ids::DONE;
                last = Some((event, id));
                trapped = false;
            }
            _ => {}
        }
    }
    let marker_cost = cal.ok_or_else(|| {
        KernelBenchError::Events("fast paths: no calibration pair (ids 0x100, 0x101)".into())
    })?;
    if !done {
        return Err(KernelBenchError::Events(format!(
            "fast paths: no done marker {:#x}",
            ids::DONE
        )));
    }
    Ok(FastPaths {
        msg_pair: cost(&msg, "message pair")?,
        pool_pair: cost(&pool, "pool pair")?,
        pool_first_use: cost(&first, "pool first-use")?,
        marker_cost,
    })
}

fn cost(samples: &[(u64, u64)], name: &str) -> Result<PathCost, KernelBenchError> {
    let cycles: Vec<u64> = samples.iter().map(|s| s.0).collect();
    let instructions: Vec<u64> = samples.iter().map(|s| s.1).collect();
    match (Spread::of(&instructions), Spread::of(&cycles)) {
        (Some(instructions), Some(cycles)) => Ok(PathCost {
            samples: samples.len(),
            instructions,
            cycles,
        }),
        _ => Err(KernelBenchError::Events(format!("no {name} samples"))),
    }
}

/// The fast-path goals, judged on the worst sample.
pub fn goals(fast: &FastPaths) -> Vec<GoalRow> {
    let row = |what: &str, ours: u64, limit: u64, freertos: &str| GoalRow {
        what: what.into(),
        ours,
        limit,
        freertos: freertos.into(),
        pass: ours <= limit,
    };
    vec![
        row(
            "message pair, cycles (send + receive of 16 bytes, no switch)",
            fast.msg_pair.cycles.max,
            MSG_PAIR_GOAL,
            "367",
        ),
        row(
            "pool pair, cycles (allocate + free of one block)",
            fast.pool_pair.cycles.max,
            POOL_PAIR_GOAL,
            "–",
        ),
    ]
}

/// The fast-path table (samples, instructions and cycles, min / avg / max).
pub fn table(fast: &FastPaths) -> String {
    let mut t = Table::new(&[
        "fast path (no task switch)",
        ">samples",
        ">instructions min / avg / max",
        ">cycles min / avg / max",
    ]);
    for (name, p) in [
        (
            "message pair: `cactus_queue_send` + `cactus_queue_recv`, 16 bytes",
            &fast.msg_pair,
        ),
        (
            "pool pair: `cactus_pool_alloc` + `cactus_pool_free`, one block",
            &fast.pool_pair,
        ),
        (
            "pool pair, first use of the block (a never-used one)",
            &fast.pool_first_use,
        ),
    ] {
        t.row([
            name.to_string(),
            p.samples.to_string(),
            format!(
                "{} / {:.1} / {}",
                p.instructions.min, p.instructions.avg, p.instructions.max
            ),
            format!("{} / {:.1} / {}", p.cycles.min, p.cycles.avg, p.cycles.max),
        ]);
    }
    t.render()
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

    fn trap(cycle: u64) -> Event {
        Event {
            cycle,
            instret: 0,
            pc: 0x8000_0100,
            kind: EventKind::Trap {
                cause: 0x8000_0007,
                tval: 0,
            },
        }
    }

    fn run() -> Vec<Event> {
        vec![
            marker(10, 5, ids::CAL_FIRST),
            marker(14, 7, ids::CAL_SECOND), // 4 cycles, 2 instructions per marker pair
            marker(100, 50, ids::MSG_BEFORE),
            marker(254, 132, ids::MSG_AFTER), // 150, 80
            marker(300, 150, ids::MSG_BEFORE),
            trap(320), // the tick inside: dropped
            marker(600, 300, ids::MSG_AFTER),
            marker(700, 400, ids::MSG_BEFORE),
            marker(850, 478, ids::MSG_AFTER), // 146, 76
            marker(900, 500, ids::POOL_BEFORE),
            marker(944, 527, ids::POOL_AFTER), // 40, 25
            marker(1000, 600, ids::POOL_BEFORE),
            marker(1040, 625, ids::POOL_AFTER), // 36, 23
            marker(1050, 630, ids::POOL_FIRST_BEFORE),
            marker(1120, 670, ids::POOL_FIRST_AFTER), // 66, 38
            marker(1100, 700, ids::DONE),
        ]
    }

    #[test]
    fn pairs_without_a_trap_become_samples() {
        let f = fast_paths(&run()).unwrap();
        assert_eq!(f.marker_cost, (4, 2));
        assert_eq!(f.msg_pair.samples, 2);
        assert_eq!((f.msg_pair.cycles.min, f.msg_pair.cycles.max), (146, 150));
        assert_eq!(
            (f.msg_pair.instructions.min, f.msg_pair.instructions.max),
            (76, 80)
        );
        assert_eq!((f.pool_pair.cycles.min, f.pool_pair.cycles.max), (36, 40));
        assert_eq!(f.pool_first_use.samples, 1);
        assert_eq!(f.pool_first_use.cycles.max, 66);
        let g = goals(&f);
        assert!(g.iter().all(|r| r.pass), "{g:?}");
        let mut slow = run();
        slow[10] = marker(945, 527, ids::POOL_AFTER); // 41 cycles: over the goal
        let g = goals(&fast_paths(&slow).unwrap());
        assert_eq!(g.iter().map(|r| r.pass).collect::<Vec<_>>(), [true, false]);
    }

    #[test]
    fn missing_calibration_samples_or_done_is_an_error() {
        let events = run();
        let err = fast_paths(&events[2..]).unwrap_err();
        assert!(err.to_string().contains("calibration"), "{err}");
        let err = fast_paths(&events[..events.len() - 1]).unwrap_err();
        assert!(err.to_string().contains("done"), "{err}");
        let no_first: Vec<Event> = events[..13]
            .iter()
            .cloned()
            .chain([marker(1200, 700, ids::DONE)])
            .collect();
        let err = fast_paths(&no_first).unwrap_err();
        assert!(
            err.to_string().contains("no pool first-use samples"),
            "{err}"
        );
        let no_pool: Vec<Event> = events[..9]
            .iter()
            .cloned()
            .chain([marker(1100, 700, ids::DONE)])
            .collect();
        let err = fast_paths(&no_pool).unwrap_err();
        assert!(err.to_string().contains("no pool pair samples"), "{err}");
    }
}
