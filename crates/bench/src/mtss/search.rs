//! The bisection behind MSO: the smallest stack budget (a multiple of 16, at least the
//! manifest minimum) at which a workload still completes, assuming completion is monotone in
//! the budget, plus a record of every probe that contradicts that assumption.
//!
//! Pure: the probe is a function, so the search is tested on the host with fake oracles.

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

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The smallest passing budget found by bisection.
    Smallest(u32),
    /// Even the full budget fails: there is nothing to search.
    FullBudgetFails,
}

/// The candidate budgets of a task whose manifest budget is `budget`: every multiple of
/// [`STEP`] from [`MIN_BUDGET`] up to `budget` (which is itself a multiple of 16 in a valid
/// manifest; a budget below the minimum gives just itself).
pub fn candidates(budget: u32) -> Vec<u32> {
    if budget <= MIN_BUDGET {
        return vec![budget];
    }
    let mut c: Vec<u32> = (MIN_BUDGET..budget).step_by(STEP as usize).collect();
    c.push(budget);
    c
}

/// Finds the smallest passing budget among [`candidates`]`(budget)` by bisection. `probe`
/// answers whether the workload passes at a budget (the caller may answer from a cache of
/// earlier probes); it is asked at most `2 + ceil(log2(n))` times for `n` candidates: the full
/// budget, the minimum, the bisection, and one monotonicity spot check just above the found
/// boundary. Under monotonicity the result is exact; a contradiction is visible through
/// [`contradictions`] on the probes made.
pub fn smallest_passing(budget: u32, probe: &mut dyn FnMut(u32) -> bool) -> Outcome {
    let c = candidates(budget);
    let top = c.len() - 1;
    if !probe(c[top]) {
        return Outcome::FullBudgetFails;
    }
    if top == 0 || probe(c[0]) {
        return Outcome::Smallest(c[0]);
    }
    // Invariant: c[lo] fails, c[hi] passes.
    let (mut lo, mut hi) = (0, top);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if probe(c[mid]) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    // Spot check of monotonicity where it matters most: just above the boundary.
    if hi + 1 < top {
        probe(c[hi + 1]);
    }
    Outcome::Smallest(c[hi])
}

/// The failing budgets that lie above some passing budget (contradictions of monotonicity),
/// ascending and without repeats.
pub fn contradictions(probes: &[Probe]) -> Vec<u32> {
    let Some(lowest_pass) = probes.iter().filter(|p| p.passed).map(|p| p.budget).min() else {
        return Vec::new();
    };
    let mut bad: Vec<u32> = probes
        .iter()
        .filter(|p| !p.passed && p.budget > lowest_pass)
        .map(|p| p.budget)
        .collect();
    bad.sort_unstable();
    bad.dedup();
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the search against `passes`, returning the outcome and the probes made.
    fn search(budget: u32, passes: impl Fn(u32) -> bool) -> (Outcome, Vec<Probe>) {
        let mut probes = Vec::new();
        let outcome = smallest_passing(budget, &mut |b| {
            let passed = passes(b);
            probes.push(Probe {
                budget: b,
                passed,
                reason: None,
            });
            passed
        });
        (outcome, probes)
    }

    #[test]
    fn candidates_are_multiples_of_16_from_the_minimum() {
        assert_eq!(candidates(192), vec![128, 144, 160, 176, 192]);
        assert_eq!(candidates(128), vec![128]);
    }

    #[test]
    fn finds_the_boundary_in_logarithmic_probes() {
        for boundary in [144, 1024, 1040, 2000, 4096] {
            let (outcome, probes) = search(4096, |b| b >= boundary);
            assert_eq!(outcome, Outcome::Smallest(boundary), "boundary {boundary}");
            // 249 candidates: full, minimum, 8 bisection steps, one spot check.
            assert!(probes.len() <= 11, "{} probes", probes.len());
            assert!(contradictions(&probes).is_empty());
        }
    }

    #[test]
    fn all_pass_gives_the_minimum_in_two_probes() {
        let (outcome, probes) = search(2048, |_| true);
        assert_eq!(outcome, Outcome::Smallest(MIN_BUDGET));
        assert_eq!(probes.len(), 2);
    }

    #[test]
    fn all_fail_is_a_full_budget_failure_after_one_probe() {
        let (outcome, probes) = search(2048, |_| false);
        assert_eq!(outcome, Outcome::FullBudgetFails);
        assert_eq!(probes.len(), 1);
    }

    #[test]
    fn a_failure_just_above_the_boundary_is_recorded() {
        // Passes from 1024 up, except at 1040.
        let (outcome, probes) = search(4096, |b| b >= 1024 && b != 1040);
        assert_eq!(outcome, Outcome::Smallest(1024));
        assert_eq!(contradictions(&probes), vec![1040]);
    }

    #[test]
    fn contradictions_ignore_failures_below_every_pass() {
        let p = |budget, passed| Probe {
            budget,
            passed,
            reason: None,
        };
        assert!(contradictions(&[p(128, false), p(256, true)]).is_empty());
        assert_eq!(
            contradictions(&[p(512, false), p(256, true), p(512, false)]),
            vec![512]
        );
        assert!(contradictions(&[p(512, false)]).is_empty());
    }
}
