//! Tight-stack runs: each build runs again with half the stack its uninstrumented build
//! needs. The check must then report the overflow before anything is written below the
//! limit (no oracle violation), and the uninstrumented build must be caught by the oracle
//! (otherwise the oracle, not the pass, is broken and every other verdict is worthless).

use crate::fuzz::run::FuzzRun;
use crate::fuzz::runtime::EXIT_OVERFLOW;
use crate::fuzz::verdict::{behaviour_difference, violation};
use crate::sim_run::SimEnding;

/// The first line the runtime prints when a check fails.
pub const OVERFLOW_LINE: &str = "stack overflow caught:";

/// Smallest high water (bytes) worth a tight run: below it halving leaves no room to test.
pub const MIN_HWM: u32 = 64;

/// The stack given to a tight run of a program whose uninstrumented build used `hwm` bytes:
/// half of it, rounded down to 16 bytes. None if `hwm` < [`MIN_HWM`].
pub fn tight_stack(hwm: u32) -> Option<u32> {
    (hwm >= MIN_HWM).then_some((hwm / 2) & !15)
}

/// Judges an instrumented build's tight run against its generous run `full`: it must either
/// behave exactly like `full` (the checks judged the stack sufficient) or print a prefix of
/// `full`'s output followed by the overflow report and exit with [`EXIT_OVERFLOW`]; in both
/// cases without any oracle violation. Returns the problem, if any.
pub fn judge_instrumented(full: &FuzzRun, tight: &FuzzRun) -> Option<String> {
    if let Some(v) = violation(tight) {
        return Some(format!(
            "the check let the program write below the limit: {v}"
        ));
    }
    // Behaving exactly like the full run is fine; otherwise it must be a clean report.
    behaviour_difference(full, tight)?;
    if tight.ending != SimEnding::Exited(EXIT_OVERFLOW) {
        return Some(format!(
            "expected the overflow report (exit {EXIT_OVERFLOW}) or the full run's behaviour; \
             got {}\n{}",
            tight.ending_text(),
            tail(&tight.uart)
        ));
    }
    let text = String::from_utf8_lossy(&tight.uart);
    let Some(at) = text.rfind(OVERFLOW_LINE) else {
        return Some(format!("exit {EXIT_OVERFLOW} without the overflow report"));
    };
    if !full.uart.starts_with(&tight.uart[..at]) {
        return Some(format!(
            "output before the overflow report is not a prefix of the full run's output:\n{}",
            tail(&tight.uart[..at])
        ));
    }
    None
}

/// Judges the uninstrumented build's tight run: it overflows its stack, so the oracle must
/// have seen stores below the limit.
pub fn judge_baseline(tight: &FuzzRun, stack: u32, hwm: u32) -> Option<String> {
    (tight.violations == 0).then(|| {
        format!(
            "the program used {hwm} bytes of stack with {stack} allowed, \
             and the ownership oracle reported nothing"
        )
    })
}

fn tail(uart: &[u8]) -> String {
    let text = String::from_utf8_lossy(uart);
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(3);
    lines[start..]
        .iter()
        .map(|l| format!("  | {l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(uart: &str, code: u32, violations: u64) -> FuzzRun {
        FuzzRun {
            uart: uart.as_bytes().to_vec(),
            ending: SimEnding::Exited(code),
            cycles: 1,
            violations,
            first_violation: None,
            stack_hwm: 0,
        }
    }

    #[test]
    fn tight_stack_is_half_rounded() {
        assert_eq!(tight_stack(200), Some(96));
        assert_eq!(tight_stack(63), None);
    }

    #[test]
    fn clean_overflow_report_passes() {
        let full = run("a\nb\nchecksum = 1\n", 0, 0);
        let caught = run(
            "a\nstack overflow caught: pc=80000000 need=32 sp=1\n",
            91,
            0,
        );
        assert_eq!(judge_instrumented(&full, &caught), None);
        assert_eq!(judge_instrumented(&full, &full.clone()), None);
    }

    #[test]
    fn violations_wrong_prefix_or_wrong_exit_fail() {
        let full = run("a\nb\n", 0, 0);
        let dirty = run("stack overflow caught: x\n", 91, 1);
        assert!(judge_instrumented(&full, &dirty)
            .unwrap()
            .contains("below the limit"));
        let wrong = run("z\nstack overflow caught: x\n", 91, 0);
        assert!(judge_instrumented(&full, &wrong)
            .unwrap()
            .contains("not a prefix"));
        let trap = run("trap: mcause=5\n", 92, 0);
        assert!(judge_instrumented(&full, &trap)
            .unwrap()
            .contains("exit 92"));
    }

    #[test]
    fn blind_oracle_is_reported() {
        assert!(judge_baseline(&run("", 0, 0), 64, 128).is_some());
        assert!(judge_baseline(&run("", 0, 5), 64, 128).is_none());
    }
}
