//! What a stress run shows: the summary line numbers and the Markdown report
//! (docs/results/mtss-stress.md), both computed from a [`StressReport`] alone.

use super::{replay_command, StressReport};
use cactus_sweep::table::{percent, Table};
use std::fmt::Write;

/// Failed seeds listed in the Markdown report, at most.
const LISTED_FAILURES: usize = 20;

/// The headline figures of a stress run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Seeds run.
    pub runs: usize,
    /// Seeds that passed.
    pub passed: usize,
    /// `mtss` runs that moved at least one frame.
    pub runs_with_moves: usize,
    /// Ownership-oracle violations over every run of both variants.
    pub violations: u64,
    /// Frames moved over all `mtss` runs.
    pub moved_frames: u64,
    /// Bytes lent over all `mtss` runs.
    pub lent_bytes: u64,
}

/// The headline figures of `report`.
pub fn summary(report: &StressReport) -> Summary {
    let r = &report.results;
    Summary {
        runs: r.len(),
        passed: r.iter().filter(|s| s.passed).count(),
        runs_with_moves: r.iter().filter(|s| s.mtss.moved_frames > 0).count(),
        violations: r
            .iter()
            .map(|s| s.reference.violations + s.mtss.violations)
            .sum(),
        moved_frames: r.iter().map(|s| s.mtss.moved_frames).sum(),
        lent_bytes: r.iter().map(|s| s.mtss.lent_bytes).sum(),
    }
}

/// Minimum, median, mean and maximum of `values` (all 0 when empty).
fn spread(mut values: Vec<u64>) -> (u64, u64, f64, u64) {
    if values.is_empty() {
        return (0, 0, 0.0, 0);
    }
    values.sort_unstable();
    let mean = values.iter().sum::<u64>() as f64 / values.len() as f64;
    (
        values[0],
        values[values.len() / 2],
        mean,
        values[values.len() - 1],
    )
}

/// The Markdown report of `report` (tables only; the caller adds the command line).
pub fn markdown(report: &StressReport) -> String {
    let s = summary(report);
    let mut out = String::new();
    let first = report.results.first().map(|r| r.seed).unwrap_or(0);
    let last = report.results.last().map(|r| r.seed).unwrap_or(0);
    let _ = writeln!(
        out,
        "Workload `{}` ({}), seeds {first}..={last}; the `mtss` build shrinks every budget by \
         {} % (MTSS page {} bytes); cycle limit {} per run.\n",
        report.workload,
        report.manifest,
        report.shrink_percent,
        report.page_bytes,
        report.max_cycles
    );
    let _ = writeln!(out, "### Stack budgets\n");
    let mut t = Table::new(&["Task", ">Reference (`static`)", ">`mtss`"]);
    for b in &report.budgets {
        t.row([b.task.clone(), b.reference.to_string(), b.mtss.to_string()]);
    }
    out.push_str(&t.render());
    let _ = writeln!(out, "\n### Verdicts\n");
    let mut t = Table::new(&[
        ">Seeds",
        ">Passed",
        ">Failed",
        ">`mtss` runs that moved frames",
        ">Oracle violations",
    ]);
    t.row([
        s.runs.to_string(),
        s.passed.to_string(),
        (s.runs - s.passed).to_string(),
        format!(
            "{} ({:.1} %)",
            s.runs_with_moves,
            percent(s.runs_with_moves as f64, s.runs as f64).unwrap_or(0.0)
        ),
        s.violations.to_string(),
    ]);
    out.push_str(&t.render());
    let _ = writeln!(out, "\n### Per run\n");
    let mut t = Table::new(&["Figure", ">Min", ">Median", ">Mean", ">Max"]);
    let rows: [(&str, Vec<u64>); 5] = [
        (
            "`mtss` frames moved",
            report.results.iter().map(|r| r.mtss.moved_frames).collect(),
        ),
        (
            "`mtss` bytes lent",
            report.results.iter().map(|r| r.mtss.lent_bytes).collect(),
        ),
        (
            "`mtss` bytes borrowed",
            report
                .results
                .iter()
                .map(|r| r.mtss.borrowed_bytes)
                .collect(),
        ),
        (
            "reference cycles",
            report.results.iter().map(|r| r.reference.cycles).collect(),
        ),
        (
            "`mtss` cycles",
            report.results.iter().map(|r| r.mtss.cycles).collect(),
        ),
    ];
    for (name, values) in rows {
        let (min, median, mean, max) = spread(values);
        t.row([
            name.to_string(),
            min.to_string(),
            median.to_string(),
            format!("{mean:.1}"),
            max.to_string(),
        ]);
    }
    out.push_str(&t.render());
    let _ = writeln!(out, "\n### `mtss` frames moved per task\n");
    let mut t = Table::new(&["Task", ">Runs with moves", ">Mean per run", ">Max"]);
    for b in &report.budgets {
        let moved: Vec<u64> = report
            .results
            .iter()
            .map(|r| r.mtss.moved_by_task.get(&b.task).copied().unwrap_or(0))
            .collect();
        let (_, _, mean, max) = spread(moved.clone());
        let runs = moved.iter().filter(|&&m| m > 0).count();
        t.row([
            b.task.clone(),
            runs.to_string(),
            format!("{mean:.1}"),
            max.to_string(),
        ]);
    }
    out.push_str(&t.render());
    let failures: Vec<_> = report.failures().collect();
    if !failures.is_empty() {
        let _ = writeln!(out, "\n### Failed seeds\n");
        let mut t = Table::new(&[">Seed", "Problems", "Replay"]);
        for f in failures.iter().take(LISTED_FAILURES) {
            t.row([
                f.seed.to_string(),
                f.problems.join("; ").replace('|', "\\|"),
                format!(
                    "`{}`",
                    replay_command(
                        &report.manifest,
                        &report.stack,
                        report.stack_bound,
                        report.shrink_percent,
                        f.seed
                    )
                ),
            ]);
        }
        out.push_str(&t.render());
        if failures.len() > LISTED_FAILURES {
            let _ = writeln!(
                out,
                "\n({} more in the JSON.)",
                failures.len() - LISTED_FAILURES
            );
        }
    }
    out
}
