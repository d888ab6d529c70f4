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

use crate::kernel::events::PathCost;
use crate::kernel::markers::marked_samples;
use crate::kernel::report::GoalRow;
use crate::kernel::KernelBenchError;
use cactus_sim::Event;
use cactus_sweep::table::Table;
use serde::{Deserialize, Serialize};

/// The fast-path benchmark firmware.
pub const FASTPATH_ELF: &str = "build/bench/kernel/fastpath_bench.elf";

/// Marker ids of bench/kernel/fastpath_ids.h (keep in sync).
mod ids {
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
    let m = marked_samples::<3>(events, "fast paths", ids::DONE, |prev, id| {
        match (prev, id) {
            (ids::MSG_BEFORE, ids::MSG_AFTER) => Some(0),
            (ids::POOL_BEFORE, ids::POOL_AFTER) => Some(1),
            (ids::POOL_FIRST_BEFORE, ids::POOL_FIRST_AFTER) => Some(2),
            _ => None,
        }
    })?;
    let [msg, pool, first] = &m.samples;
    Ok(FastPaths {
        msg_pair: PathCost::from_samples(msg, "message pair")?,
        pool_pair: PathCost::from_samples(pool, "pool pair")?,
        pool_first_use: PathCost::from_samples(first, "pool first-use")?,
        marker_cost: m.marker_cost,
    })
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
    use crate::kernel::markers::test_events::{marker, trap};
    use crate::kernel::markers::{CAL_FIRST, CAL_SECOND};

    fn run() -> Vec<Event> {
        vec![
            marker(10, 5, CAL_FIRST),
            marker(14, 7, CAL_SECOND), // 4 cycles, 2 instructions per marker pair
            marker(100, 50, ids::MSG_BEFORE),
            marker(254, 132, ids::MSG_AFTER), // 150, 80
            marker(300, 150, ids::MSG_BEFORE),
            trap(320, 0, 0x8000_0007), // the tick inside: dropped
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
