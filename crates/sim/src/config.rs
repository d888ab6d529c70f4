//! Run configuration: profile, oracle mode, cycle limit, event recording.

use crate::profile::Profile;

/// What the ownership oracle does on a violation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OracleMode {
    /// Count and list violations; the run goes on.
    Record,
    /// The first violation ends the run with [`crate::RunOutcome::OracleViolation`].
    Stop,
}

/// Everything [`crate::Machine::new`] needs.
#[derive(Clone, Debug)]
pub struct MachineConfig {
    /// Timing, energy and memory map.
    pub profile: Profile,
    /// Oracle behaviour (default Record).
    pub oracle: OracleMode,
    /// Stop with [`crate::RunOutcome::CycleLimit`] before the first instruction that would
    /// start at or after this cycle (so a run overshoots by less than one instruction's
    /// cycles; `wfi` may end it at the limit). None = unlimited.
    pub max_cycles: Option<u64>,
    /// Keep the event list (for `--trace`); statistics are always kept.
    pub record_events: bool,
}

impl MachineConfig {
    /// Defaults: oracle Record, no cycle limit, no event list.
    pub fn new(profile: Profile) -> Self {
        MachineConfig {
            profile,
            oracle: OracleMode::Record,
            max_cycles: None,
            record_events: false,
        }
    }
}
