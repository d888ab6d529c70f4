//! Energy per task: the profile's prices ([`EnergyPrices`]) and the attribution of the run's
//! energy to the task that ran ([`TaskEnergy`]).
//!
//! The block cache does not count classes per instruction (a block adds its static counts once
//! per execution), so the energy cannot be read at the instant the trace device records a
//! TASK_SWITCH, in the middle of a block. Instead, the store that commits the switch ends the
//! block right after itself (the bus reports it like a device access that needs attention), and
//! the machine, with every counter up to date at that instruction boundary, closes the interval
//! (`Machine::close_energy_interval`): the energy since the previous boundary is charged to the
//! task that ran. The boundary is exactly the cycles' boundary: cycles are charged up to the
//! start of the committing store, energy up to its end, and a trace-device access costs neither
//! cycles (its static cost is refunded) nor energy (class `trace`, priced 0, and no region
//! access). Runs without task switches never reach this code: the hot loop is unchanged.

use crate::cost::{CostClass, NUM_CLASSES};
use crate::events::NOBODY;
use std::collections::BTreeMap;

/// The profile's energy prices in pJ: per class (trace accesses cost nothing) and per
/// region access.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EnergyPrices {
    /// Per class, indexed by [`CostClass`].
    pub(crate) classes_pj: [f64; NUM_CLASSES],
    /// Per region access, in profile order (region 0 first).
    pub(crate) regions_pj: Vec<f64>,
}

impl EnergyPrices {
    /// Energy in nJ of `count` instructions (or trap entries) of class `c`.
    pub(crate) fn class_nj(&self, c: CostClass, count: u64) -> f64 {
        count as f64 * self.class_pj(c) / 1000.0
    }

    /// Energy in pJ of one instruction of class `c` (0 for trace accesses).
    pub(crate) fn class_pj(&self, c: CostClass) -> f64 {
        if c == CostClass::Trace {
            0.0
        } else {
            self.classes_pj[c as usize]
        }
    }

    /// Energy in pJ of one instruction of each class as a block body counts it statically:
    /// its class price, plus region 0's access price for loads, stores and AMOs (the
    /// dynamic counters correct accesses that went elsewhere).
    pub(crate) fn static_pj(&self) -> [f64; NUM_CLASSES] {
        let mut out = [0.0; NUM_CLASSES];
        let ram = self.regions_pj.first().copied().unwrap_or(0.0);
        for c in crate::cost::COST_CLASSES {
            let mem = matches!(c, CostClass::Load | CostClass::Store | CostClass::Amo);
            out[c as usize] = self.class_pj(c) + if mem { ram } else { 0.0 };
        }
        out
    }
}

/// Attribution of the run's energy to tasks at TASK_SWITCH boundaries.
#[derive(Debug)]
pub(crate) struct TaskEnergy {
    /// A TASK_SWITCH was committed and its boundary is not closed yet.
    due: bool,
    /// Who the energy since `since_nj` is charged to (NOBODY: outside any task).
    charged: u32,
    /// The run's energy at the last closed boundary, nJ.
    since_nj: f64,
    /// Energy charged to each task, nJ.
    per_task: BTreeMap<u32, f64>,
    /// Energy outside any task (before the first switch, and while switched to NOBODY: the
    /// kernel's idle loop), nJ.
    outside: f64,
}

impl TaskEnergy {
    /// Nothing charged yet; energy is charged outside any task until the first switch.
    pub(crate) fn new() -> TaskEnergy {
        TaskEnergy {
            due: false,
            charged: NOBODY,
            since_nj: 0.0,
            per_task: BTreeMap::new(),
            outside: 0.0,
        }
    }

    /// A TASK_SWITCH was committed by the instruction executing now: its boundary is due at
    /// the end of that instruction.
    pub(crate) fn switch_committed(&mut self) {
        self.due = true;
    }

    /// True between a committed switch and [`TaskEnergy::close`].
    #[inline]
    pub(crate) fn due(&self) -> bool {
        self.due
    }

    /// Closes the interval where the run's energy is `now_nj`: charges the energy since the
    /// last boundary to the task that ran, and from here on to `next` (the task now running).
    /// Returns the task that ran (NOBODY: none).
    pub(crate) fn close(&mut self, now_nj: f64, next: u32) -> u32 {
        let left = self.charged;
        let delta = now_nj - self.since_nj;
        if self.charged == NOBODY {
            self.outside += delta;
        } else {
            *self.per_task.entry(self.charged).or_default() += delta;
        }
        self.since_nj = now_nj;
        self.charged = next;
        self.due = false;
        left
    }

    /// Energy in nJ of task `id` (NOBODY: outside any task) when the run's energy is
    /// `now_nj`, the open interval included.
    pub(crate) fn energy_nj(&self, id: u32, now_nj: f64) -> f64 {
        let closed = if id == NOBODY {
            self.outside
        } else {
            self.per_task.get(&id).copied().unwrap_or(0.0)
        };
        if id == self.charged {
            closed + (now_nj - self.since_nj)
        } else {
            closed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{EnergyPrices, TaskEnergy};
    use crate::cost::{CostClass, NUM_CLASSES};
    use crate::events::NOBODY;

    #[test]
    fn intervals_go_to_the_task_that_ran_and_the_rest_outside() {
        let mut e = TaskEnergy::new();
        e.switch_committed();
        assert!(e.due());
        e.close(11.0, 1);
        assert!(!e.due());
        e.close(31.0, 2);
        e.close(38.0, 1);
        let now = 43.0;
        assert_eq!(e.energy_nj(NOBODY, now), 11.0);
        // Task 1: 20, then the open interval's 5.
        assert_eq!(e.energy_nj(1, now), 25.0);
        assert_eq!(e.energy_nj(2, now), 7.0);
        assert_eq!(e.energy_nj(3, now), 0.0);
    }

    #[test]
    fn a_block_prices_memory_classes_with_region_0_and_trace_accesses_at_nothing() {
        let p = EnergyPrices {
            classes_pj: [10.0; NUM_CLASSES],
            regions_pj: vec![3.0, 50.0],
        };
        let s = p.static_pj();
        assert_eq!(s[CostClass::Alu as usize], 10.0);
        assert_eq!(s[CostClass::Load as usize], 13.0);
        assert_eq!(s[CostClass::Amo as usize], 13.0);
        assert_eq!(s[CostClass::Trace as usize], 0.0);
        assert_eq!(p.class_nj(CostClass::Mul, 100), 1.0);
        assert_eq!(p.class_nj(CostClass::Trace, 100), 0.0);
    }
}
