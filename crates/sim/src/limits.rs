//! The run's cycle limits: total cycles (`max_cycles`), busy cycles (every cycle not spent
//! asleep in `wfi`: `max_busy_cycles`) and idle cycles (asleep in `wfi`: `max_idle_cycles`).
//! A firmware that spins without end exhausts the busy limit; one that sleeps between rare
//! wake-ups forever exhausts the idle limit; neither limit cuts the other's time short.
//!
//! Guarantees: the run ends with [`RunOutcome::CycleLimit`] whose report's kind names the limit
//! ([`FaultKind::CycleLimit`], [`FaultKind::BusyLimit`], [`FaultKind::IdleLimit`]) before the
//! first instruction that would start at or after it (a sleep stops exactly at it).

use crate::machine::{Machine, RunOutcome};
use crate::report::FaultKind;

/// The three limits of one run; `None` = unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Limits {
    /// All cycles.
    pub total: Option<u64>,
    /// Cycles not spent asleep.
    pub busy: Option<u64>,
    /// Cycles spent asleep in `wfi`.
    pub idle: Option<u64>,
}

impl Machine {
    /// The cycle count at which the run must stop while the hart is awake, and which limit
    /// that is: the earlier of the total limit and the busy limit (the busy budget moves
    /// forward by every cycle slept).
    pub(crate) fn awake_limit(&self) -> Option<(u64, FaultKind)> {
        let total = self.limits.total.map(|t| (t, FaultKind::CycleLimit));
        let busy = self
            .limits
            .busy
            .map(|b| (self.sleep_cycles.saturating_add(b), FaultKind::BusyLimit));
        match (total, busy) {
            (Some(t), Some(b)) => Some(if b.0 < t.0 { b } else { t }),
            (t, b) => t.or(b),
        }
    }

    /// The run's end when the awake limit is reached at the current cycle.
    pub(crate) fn check_awake_limit(&mut self) -> Option<RunOutcome> {
        let (max, kind) = self.awake_limit()?;
        (self.hart.cycle >= max).then(|| self.limit_reached(kind))
    }

    /// Where a sleep from now until cycle `wake` must stop instead, and why: the total limit
    /// (the wake-up lies beyond it) or the idle limit (the sleep would pass it).
    pub(crate) fn sleep_limit(&self, wake: u64) -> Option<(u64, FaultKind)> {
        let now = self.hart.cycle;
        let total = self
            .limits
            .total
            .filter(|&t| wake > t)
            .map(|t| (t.max(now), FaultKind::CycleLimit));
        let idle = self.limits.idle.and_then(|i| {
            let left = i.saturating_sub(self.sleep_cycles);
            (wake - now > left).then(|| (now + left, FaultKind::IdleLimit))
        });
        match (total, idle) {
            (Some(t), Some(i)) => Some(if i.0 < t.0 { i } else { t }),
            (t, i) => t.or(i),
        }
    }

    /// The outcome for a limit of `kind` reached at the current cycle and pc.
    pub(crate) fn limit_reached(&mut self, kind: FaultKind) -> RunOutcome {
        let pc = self.hart.pc;
        RunOutcome::CycleLimit(self.fault_report(kind, 0, 0, pc))
    }
}
