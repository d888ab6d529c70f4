//! Comparing runs: what counts as the same behaviour, and the findings a case reports.

use crate::fuzz::run::FuzzRun;
use crate::sim_run::SimEnding;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What kind of problem a finding is. Its [`fmt::Display`] form is stable: the replay and
/// reduce steps match findings by `"<variant>: <kind>"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// The pass refused the assembly, or its output does not assemble or link.
    BuildFailed,
    /// UART output or ending differs from the build it is compared with.
    Mismatch,
    /// The oracle saw a store below the stack limit.
    OracleViolation,
    /// Under a tight stack, an instrumented build did not report the overflow cleanly.
    TightMismatch,
    /// Under a tight stack, the uninstrumented build overflowed and the oracle saw nothing.
    OracleBlind,
    /// QEMU disagrees with cactus-sim on the reference build.
    QemuMismatch,
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FindingKind::BuildFailed => "build failed",
            FindingKind::Mismatch => "mismatch",
            FindingKind::OracleViolation => "oracle violation",
            FindingKind::TightMismatch => "tight-stack mismatch",
            FindingKind::OracleBlind => "oracle blind",
            FindingKind::QemuMismatch => "qemu mismatch",
        })
    }
}

/// One problem found in a case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The variant it concerns (`O2-detect-rolling`).
    pub variant: String,
    /// What kind of problem.
    pub kind: FindingKind,
    /// A multi-line explanation.
    pub detail: String,
}

impl Finding {
    /// `"<variant>: <kind>"`, what replay and reduce match on.
    pub fn signature(&self) -> String {
        format!("{}: {}", self.variant, self.kind)
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.signature())?;
        for line in self.detail.lines() {
            writeln!(f, "    {line}")?;
        }
        Ok(())
    }
}

/// Why `actual` does not behave like `expected` (UART bytes and ending), or None if it does.
/// Violations are judged separately ([`violation`]).
pub fn behaviour_difference(expected: &FuzzRun, actual: &FuzzRun) -> Option<String> {
    let mut out = String::new();
    if expected.ending != actual.ending {
        out.push_str(&format!(
            "ending: expected {}, got {}\n",
            expected.ending_text(),
            actual.ending_text()
        ));
    }
    if let Some(diff) = first_difference(&expected.uart, &actual.uart) {
        out.push_str(&diff);
    }
    (!out.is_empty()).then_some(out)
}

/// The oracle's complaint about `run`, if it had any.
pub fn violation(run: &FuzzRun) -> Option<String> {
    (run.violations > 0).then(|| {
        format!(
            "{} store(s) below the stack limit; first:\n{}",
            run.violations,
            run.first_violation.as_deref().unwrap_or("(not listed)")
        )
    })
}

/// The first line where two outputs differ, with both versions, or None if they are equal.
pub fn first_difference(expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let a = String::from_utf8_lossy(expected);
    let b = String::from_utf8_lossy(actual);
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let line = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let show = |lines: &[&str]| {
        lines
            .get(line)
            .map_or("<end of output>".into(), |l| l.to_string())
    };
    Some(format!(
        "output differs at line {}:\n  expected | {}\n  actual   | {}\n",
        line + 1,
        show(&a),
        show(&b)
    ))
}

/// True if `run` ended through the finisher with code 0.
pub fn exited_cleanly(run: &FuzzRun) -> bool {
    run.ending == SimEnding::Exited(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(uart: &str, ending: SimEnding, violations: u64) -> FuzzRun {
        FuzzRun {
            uart: uart.as_bytes().to_vec(),
            ending,
            cycles: 10,
            violations,
            first_violation: None,
            stack_hwm: 64,
        }
    }

    #[test]
    fn equal_runs_have_no_difference_whatever_their_cycles() {
        let a = run("checksum = 1\n", SimEnding::Exited(0), 0);
        let mut b = a.clone();
        b.cycles = 99;
        b.stack_hwm = 7;
        assert_eq!(behaviour_difference(&a, &b), None);
        assert_eq!(violation(&b), None);
    }

    #[test]
    fn output_and_ending_differences_are_described() {
        let a = run("x\nchecksum = 1\n", SimEnding::Exited(0), 0);
        let b = run("x\nchecksum = 2\n", SimEnding::Exited(0), 0);
        let text = behaviour_difference(&a, &b).unwrap();
        assert!(text.contains("line 2"), "{text}");
        assert!(text.contains("checksum = 2"), "{text}");
        let c = run("x\n", SimEnding::Exited(91), 0);
        let text = behaviour_difference(&a, &c).unwrap();
        assert!(text.contains("expected exit 0, got exit 91"), "{text}");
        assert!(text.contains("<end of output>"), "{text}");
    }

    #[test]
    fn violations_are_reported() {
        let a = run("", SimEnding::Exited(0), 3);
        assert!(violation(&a).unwrap().starts_with("3 store(s)"));
    }

    #[test]
    fn signatures_name_variant_and_kind() {
        let f = Finding {
            variant: "O2-detect-rolling".into(),
            kind: FindingKind::TightMismatch,
            detail: "x".into(),
        };
        assert_eq!(f.signature(), "O2-detect-rolling: tight-stack mismatch");
    }
}
