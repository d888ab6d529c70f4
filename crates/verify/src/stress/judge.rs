//! The verdict on one seed: both runs exited 0, the `mtss` run saw no ownership-oracle
//! violation, and both printed exactly the same UART output. Pure: no simulator here.

/// What one run produced, as far as the verdict is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// Every UART byte.
    pub uart: Vec<u8>,
    /// The exit code through the finisher, or None when the run ended otherwise.
    pub exit_code: Option<u32>,
    /// How it ended, for messages (`exit 0`, or the simulator's report's first line).
    pub ending: String,
    /// Ownership-oracle violations.
    pub violations: u64,
}

/// Every reason `reference` (static, ample stacks) and `mtss` (shared stacks) do not agree;
/// empty when the seed passes. The reference's own oracle count is judged too: it has no
/// stack sharing, so any violation there is a kernel or workload bug as well.
pub fn judge(reference: &Observed, mtss: &Observed) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, run) in [("reference", reference), ("mtss", mtss)] {
        if run.exit_code != Some(0) {
            problems.push(format!("{name}: {}", run.ending));
        }
        if run.violations > 0 {
            problems.push(format!(
                "{name}: {} ownership-oracle violation(s)",
                run.violations
            ));
        }
    }
    if reference.uart != mtss.uart {
        problems.push(first_difference(&reference.uart, &mtss.uart));
    }
    problems
}

/// Where two outputs first differ, by line (1-based), showing both lines.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    let mut line = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (x, y) => {
                let show = |s: Option<&str>| match s {
                    Some(s) => format!("{:?}", s.trim_end_matches('\n')),
                    None => "(end of output)".into(),
                };
                return format!(
                    "outputs differ at line {line}: reference {}, mtss {}",
                    show(x),
                    show(y)
                );
            }
        }
    }
}
