//! The bisection searches of the evaluations: the smallest passing value of an ascending
//! ladder (MSO: the smallest stack budget that still works) and the largest passing value of
//! `0..=max` (PRS: the largest shrink that still works), both assuming passing is monotone,
//! plus a record of the answers that contradict that assumption.
//!
//! Pure: the question is a function, so every search is tested on the host with fake oracles.
//! A search point of a sweep wraps one of these around its builds and runs.

/// What a smallest-passing search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The smallest passing value found by bisection.
    Smallest(u32),
    /// Even the top of the ladder fails: there is nothing to search.
    TopFails,
}

/// Every multiple of `step` from `min` below `top`, then `top` itself; just `[top]` when `top`
/// is at most `min`.
pub fn ladder(min: u32, top: u32, step: u32) -> Vec<u32> {
    if top <= min {
        return vec![top];
    }
    let mut c: Vec<u32> = (min..top).step_by(step.max(1) as usize).collect();
    c.push(top);
    c
}

/// The smallest value of `ladder` (ascending, non-empty) for which `passes` holds, by
/// bisection. Asks at most `3 + ceil(log2(n))` questions for `n` values: the top, the bottom,
/// the bisection, and one monotonicity spot check just above the boundary found. Under
/// monotonicity the result is exact; a contradiction shows in [`contradictions`].
pub fn smallest_passing(ladder: &[u32], passes: &mut dyn FnMut(u32) -> bool) -> Outcome {
    let top = ladder.len() - 1;
    if !passes(ladder[top]) {
        return Outcome::TopFails;
    }
    if top == 0 || passes(ladder[0]) {
        return Outcome::Smallest(ladder[0]);
    }
    // Invariant: ladder[lo] fails, ladder[hi] passes.
    let (mut lo, mut hi) = (0, top);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if passes(ladder[mid]) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    if hi + 1 < top {
        passes(ladder[hi + 1]);
    }
    Outcome::Smallest(ladder[hi])
}

/// The largest value in `0..=max` for which `passes` holds, by bisection, assuming passing is
/// monotone (a smaller value never fails where a larger one passes); None if 0 fails. Asks at
/// most `2 + ceil(log2(max))` questions.
pub fn largest_passing(max: u32, passes: &mut dyn FnMut(u32) -> bool) -> Option<u32> {
    if !passes(0) {
        return None;
    }
    if passes(max) {
        return Some(max);
    }
    // Invariant: lo passes, hi fails.
    let (mut lo, mut hi) = (0, max);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if passes(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The failing values that lie above some passing value (contradictions of a
/// smallest-passing search's monotonicity), ascending and without repeats, from the
/// `(value, passed)` answers made.
pub fn contradictions(answers: impl IntoIterator<Item = (u32, bool)>) -> Vec<u32> {
    let answers: Vec<(u32, bool)> = answers.into_iter().collect();
    let Some(lowest_pass) = answers.iter().filter(|a| a.1).map(|a| a.0).min() else {
        return Vec::new();
    };
    let mut bad: Vec<u32> = answers
        .iter()
        .filter(|a| !a.1 && a.0 > lowest_pass)
        .map(|a| a.0)
        .collect();
    bad.sort_unstable();
    bad.dedup();
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(top: u32, passes: impl Fn(u32) -> bool) -> (Outcome, Vec<(u32, bool)>) {
        let mut asked = Vec::new();
        let outcome = smallest_passing(&ladder(128, top, 16), &mut |b| {
            let p = passes(b);
            asked.push((b, p));
            p
        });
        (outcome, asked)
    }

    #[test]
    fn the_ladder_is_multiples_from_the_minimum() {
        assert_eq!(ladder(128, 192, 16), vec![128, 144, 160, 176, 192]);
        assert_eq!(ladder(128, 128, 16), vec![128]);
        assert_eq!(ladder(128, 100, 16), vec![100]);
    }

    #[test]
    fn finds_the_boundary_in_logarithmic_questions() {
        for boundary in [144, 1024, 1040, 2000, 4096] {
            let (outcome, asked) = search(4096, |b| b >= boundary);
            assert_eq!(outcome, Outcome::Smallest(boundary), "boundary {boundary}");
            // 249 values: top, bottom, 8 bisection steps, one spot check.
            assert!(asked.len() <= 11, "{} questions", asked.len());
            assert!(contradictions(asked).is_empty());
        }
    }

    #[test]
    fn all_pass_and_all_fail_ask_little() {
        let (outcome, asked) = search(2048, |_| true);
        assert_eq!((outcome, asked.len()), (Outcome::Smallest(128), 2));
        let (outcome, asked) = search(2048, |_| false);
        assert_eq!((outcome, asked.len()), (Outcome::TopFails, 1));
    }

    #[test]
    fn a_failure_just_above_the_boundary_is_recorded() {
        let (outcome, asked) = search(4096, |b| b >= 1024 && b != 1040);
        assert_eq!(outcome, Outcome::Smallest(1024));
        assert_eq!(contradictions(asked), vec![1040]);
    }

    #[test]
    fn contradictions_ignore_failures_below_every_pass() {
        assert!(contradictions([(128, false), (256, true)]).is_empty());
        assert_eq!(
            contradictions([(512, false), (256, true), (512, false)]),
            vec![512]
        );
        assert!(contradictions([(512, false)]).is_empty());
    }

    #[test]
    fn largest_passing_finds_the_boundary_with_few_questions() {
        for boundary in [0u32, 1, 17, 50, 94, 95] {
            let mut asked = Vec::new();
            let got = largest_passing(95, &mut |p| {
                asked.push(p);
                p <= boundary
            });
            assert_eq!(got, Some(boundary));
            assert!(asked.len() <= 9, "{boundary}: {asked:?}");
        }
        assert_eq!(largest_passing(95, &mut |_| false), None);
    }
}
