//! The MSO probe and its ladder: stack budgets are whole multiples of 16 bytes from the
//! manifest minimum up to the task's budget (the bisection itself is the engine's,
//! `cactus_sweep::search`).

use serde::{Deserialize, Serialize};

/// Stack budgets are whole multiples of this many bytes (the manifest's rounding).
pub const STEP: u32 = 16;

/// The smallest budget a manifest accepts.
pub const MIN_BUDGET: u32 = 128;

/// One build-and-run at one budget of the task under search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    /// The task's stack budget in bytes.
    pub budget: u32,
    /// The workload completed correctly (exit 0, no oracle violation).
    pub passed: bool,
    /// Why it did not (first line of the outcome), when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The candidate budgets of a task whose manifest budget is `budget`: every multiple of
/// [`STEP`] from [`MIN_BUDGET`] up to `budget` (a budget below the minimum gives itself).
pub fn candidates(budget: u32) -> Vec<u32> {
    cactus_sweep::search::ladder(MIN_BUDGET, budget, STEP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_multiples_of_16_from_the_minimum() {
        assert_eq!(candidates(192), vec![128, 144, 160, 176, 192]);
        assert_eq!(candidates(128), vec![128]);
    }
}
