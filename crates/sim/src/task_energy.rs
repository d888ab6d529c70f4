//! Energy per task: the counters the energy model is linear in ([`EnergyCounts`]), their
//! prices ([`EnergyPrices`]), and their attribution to the task that ran ([`TaskEnergy`]).
//!
//! The block cache does not count classes per instruction (a block adds its static counts once
//! per execution), so the counts cannot be read at the instant the trace device records a
//! TASK_SWITCH, in the middle of a block. Instead, the store that commits the switch ends the
//! block right after itself (the bus reports it like a device access that needs attention), and
//! the machine, with every counter up to date at that instruction boundary, closes the interval
//! (`Machine::close_energy_interval`): the counts since the previous boundary are charged to the
//! task that ran. The boundary is exactly the cycles' boundary: cycles are charged up to the
//! start of the committing store, energy up to its end, and a trace-device access costs neither
//! cycles (its static cost is refunded) nor energy (class `trace`, priced 0, and no region
//! access). Runs without task switches never reach this code: the hot loop is unchanged.

use crate::cost::{CostClass, COST_CLASSES, NUM_CLASSES};
use crate::events::NOBODY;
use std::collections::BTreeMap;

/// Counters the run's energy is a linear function of: per-class counts (as in
/// [`crate::Stats::classes`]) and per-region data accesses (as in [`crate::Stats::regions`],
/// in profile order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct EnergyCounts {
    /// Per-class counts, indexed by [`CostClass`].
    pub(crate) classes: [u64; NUM_CLASSES],
    /// Data accesses per memory region, in profile order.
    pub(crate) regions: Vec<u64>,
}

impl EnergyCounts {
    /// Adds `now - since` (counters only grow; wrapping arithmetic keeps the sum of all
    /// deltas equal to the final counters even if they did not).
    fn add_delta(&mut self, now: &EnergyCounts, since: &EnergyCounts) {
        for ((acc, n), s) in self
            .classes
            .iter_mut()
            .zip(&now.classes)
            .zip(&since.classes)
        {
            *acc = acc.wrapping_add(n.wrapping_sub(*s));
        }
        if self.regions.len() < now.regions.len() {
            self.regions.resize(now.regions.len(), 0);
        }
        for (k, (acc, n)) in self.regions.iter_mut().zip(&now.regions).enumerate() {
            let s = since.regions.get(k).copied().unwrap_or(0);
            *acc = acc.wrapping_add(n.wrapping_sub(s));
        }
    }

    /// Energy in nJ, term by term as [`crate::Machine::stats`] computes the run's total.
    pub(crate) fn energy_nj(&self, prices: &EnergyPrices) -> f64 {
        let classes: f64 = COST_CLASSES
            .iter()
            .map(|&c| prices.class_nj(c, self.classes[c as usize]))
            .sum();
        let regions: f64 = self
            .regions
            .iter()
            .zip(&prices.regions_pj)
            .map(|(&n, &p)| n as f64 * p / 1000.0)
            .sum();
        classes + regions
    }
}

/// The profile's energy prices in pJ: per class (trace accesses cost nothing) and per
/// region access.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct EnergyPrices {
    /// Per class, indexed by [`CostClass`].
    pub(crate) classes_pj: [f64; NUM_CLASSES],
    /// Per region access, in profile order.
    pub(crate) regions_pj: Vec<f64>,
}

impl EnergyPrices {
    /// Energy in nJ of `count` instructions (or trap entries) of class `c`.
    pub(crate) fn class_nj(&self, c: CostClass, count: u64) -> f64 {
        if c == CostClass::Trace {
            0.0
        } else {
            count as f64 * self.classes_pj[c as usize] / 1000.0
        }
    }
}

/// Attribution of energy counters to tasks at TASK_SWITCH boundaries.
#[derive(Debug)]
pub(crate) struct TaskEnergy {
    /// A TASK_SWITCH was committed and its boundary is not closed yet.
    due: bool,
    /// Who the counters since `since` are charged to (NOBODY: outside any task).
    charged: u32,
    /// Counters at the last closed boundary.
    since: EnergyCounts,
    /// Counters charged to each task.
    per_task: BTreeMap<u32, EnergyCounts>,
    /// Counters outside any task (before the first switch, or switched to NOBODY).
    outside: EnergyCounts,
}

impl TaskEnergy {
    /// Nothing charged yet; counters are charged outside any task until the first switch.
    pub(crate) fn new() -> TaskEnergy {
        TaskEnergy {
            due: false,
            charged: NOBODY,
            since: EnergyCounts::default(),
            per_task: BTreeMap::new(),
            outside: EnergyCounts::default(),
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

    fn bucket(&mut self, id: u32) -> &mut EnergyCounts {
        if id == NOBODY {
            &mut self.outside
        } else {
            self.per_task.entry(id).or_default()
        }
    }

    /// Closes the interval at counters `now`: charges `now - since` to the task that ran,
    /// and charges from here on to `next` (the task now running).
    pub(crate) fn close(&mut self, now: EnergyCounts, next: u32) {
        let since = std::mem::take(&mut self.since);
        self.bucket(self.charged).add_delta(&now, &since);
        self.since = now;
        self.charged = next;
        self.due = false;
    }

    /// Counters of `id` (NOBODY: outside any task) with the open interval, up to `now`,
    /// included.
    fn counts(&self, id: u32, now: &EnergyCounts) -> EnergyCounts {
        let mut c = if id == NOBODY {
            self.outside.clone()
        } else {
            self.per_task.get(&id).cloned().unwrap_or_default()
        };
        if id == self.charged {
            c.add_delta(now, &self.since);
        }
        c
    }

    /// Energy in nJ of task `id` (NOBODY: outside any task) up to counters `now`.
    pub(crate) fn energy_nj(&self, id: u32, now: &EnergyCounts, prices: &EnergyPrices) -> f64 {
        self.counts(id, now).energy_nj(prices)
    }
}

#[cfg(test)]
mod tests {
    use super::{EnergyCounts, EnergyPrices, TaskEnergy};
    use crate::cost::{CostClass, NUM_CLASSES};
    use crate::events::NOBODY;

    fn counts(alu: u64, ram: u64) -> EnergyCounts {
        let mut c = EnergyCounts {
            classes: [0; NUM_CLASSES],
            regions: vec![ram],
        };
        c.classes[CostClass::Alu as usize] = alu;
        c.classes[CostClass::Trace as usize] = alu;
        c
    }

    fn prices() -> EnergyPrices {
        EnergyPrices {
            classes_pj: [1000.0; NUM_CLASSES],
            regions_pj: vec![500.0],
        }
    }

    #[test]
    fn intervals_go_to_the_task_that_ran_and_the_rest_outside() {
        let mut e = TaskEnergy::new();
        e.switch_committed();
        assert!(e.due());
        e.close(counts(10, 2), 1);
        assert!(!e.due());
        e.close(counts(30, 2), 2);
        e.close(counts(35, 6), 1);
        let now = counts(40, 6);
        let p = prices();
        // Outside: 10 alu + 2 ram accesses; trace counts priced 0.
        assert_eq!(e.energy_nj(NOBODY, &now, &p), 11.0);
        // Task 1: 20 alu, then the open interval's 5.
        assert_eq!(e.energy_nj(1, &now, &p), 25.0);
        // Task 2: 5 alu + 4 accesses.
        assert_eq!(e.energy_nj(2, &now, &p), 7.0);
        assert_eq!(e.energy_nj(3, &now, &p), 0.0);
        assert_eq!(now.energy_nj(&p), 11.0 + 25.0 + 7.0);
    }
}
