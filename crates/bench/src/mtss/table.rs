//! The MSO tables: one row per task, per-workload averages of the program tasks beside the
//! paper's stated values, the harness tasks apart, the loans at each task's smallest budget,
//! and the failures and monotonicity contradictions.

use super::search::MIN_BUDGET;
use super::task::TaskMso;
use super::LoanStats;
use cactus_sweep::table::{mean, or_dash, pct, percent, Table};
use std::fmt::Write;

/// The paper's stated average MSO over its workloads (section 10: "on an average we can
/// recover 54% of stack space per task"). Figure 9 itself is a bar chart without numbers.
pub const PAPER_AVERAGE: f64 = 54.0;

/// Per-task MSO values the paper states in its text (workload, task, percent): the
/// security workload's blowfish (0 %) and rijndael (100 %).
const PAPER_TASKS: [(&str, &str, f64); 2] = [
    ("security", "blowfish", 0.0),
    ("security", "rijndael", 100.0),
];

/// Average MSO of one workload's program tasks (harness tasks and failed searches left out).
#[derive(Clone, Debug, PartialEq)]
pub struct Averages {
    /// Workload firmware name.
    pub workload: String,
    /// Mean MSO against the manifest budgets, percent.
    pub budget: Option<f64>,
    /// Mean MSO against the measured high water, percent.
    pub high_water: Option<f64>,
    /// Program tasks counted.
    pub counted: usize,
}

/// One [`Averages`] per workload in row order, then the overall average (the mean of the
/// workload averages, as the paper's *average* group), named `average`.
pub fn averages(tasks: &[TaskMso]) -> Vec<Averages> {
    let mut names: Vec<&str> = Vec::new();
    for t in tasks {
        if !names.contains(&t.workload.as_str()) {
            names.push(&t.workload);
        }
    }
    let mut out: Vec<Averages> = names
        .iter()
        .map(|w| {
            let of: Vec<&TaskMso> = tasks
                .iter()
                .filter(|t| t.workload == *w && !t.harness && t.passed())
                .collect();
            Averages {
                workload: w.to_string(),
                budget: mean(of.iter().filter_map(|t| t.mso_budget())),
                high_water: mean(of.iter().filter_map(|t| t.mso_high_water())),
                counted: of.len(),
            }
        })
        .collect();
    out.push(Averages {
        workload: "average".into(),
        budget: mean(out.iter().filter_map(|a| a.budget)),
        high_water: mean(out.iter().filter_map(|a| a.high_water)),
        counted: out.iter().map(|a| a.counted).sum(),
    });
    out
}

fn paper_task(t: &TaskMso) -> String {
    PAPER_TASKS
        .iter()
        .find(|(w, n, _)| t.workload.starts_with(w) && t.task == *n)
        .map(|(_, _, v)| format!("{v:.0} %"))
        .unwrap_or_else(|| "-".into())
}

/// Why the largest failing budget below the smallest passing one failed, in a few words: the
/// kernel's reason for refusing the stack request when it gave one.
pub fn limit(t: &TaskMso) -> String {
    let Some(smallest) = t.smallest else {
        return "-".into();
    };
    let below = t
        .probes
        .iter()
        .filter(|p| !p.passed && p.budget < smallest)
        .max_by_key(|p| p.budget);
    let Some(reason) = below.and_then(|p| p.reason.as_deref()) else {
        return "-".into();
    };
    let why = reason.split_once("; ").map_or(reason, |(_, w)| w);
    if let Some(rest) = why.strip_prefix("no lender: the frame needs ") {
        let pages = rest.split_whitespace().next().unwrap_or("?");
        return format!("a {pages}-page frame: no lender has that many pages free");
    }
    for (key, short) in [
        ("pinned", "a pinned frame (its address escapes)"),
        ("dynamic allocation", "a dynamic allocation"),
        ("larger than a loan", "a frame larger than any loan"),
    ] {
        if why.contains(key) {
            return short.into();
        }
    }
    why.chars().take(60).collect()
}

/// The share of its high water below which a task's MSO must come with a reason (issue #14's
/// goal: no task shrinking by less than 10 % without one).
const SMALL_MSO_PCT: f64 = 10.0;

/// A paragraph naming every program task that shrinks by less than [`SMALL_MSO_PCT`] of its
/// high water, each with why (the kernel's refusal below its smallest budget), or saying that
/// there is none.
fn under_ten(s: &mut String, tasks: &[&TaskMso]) {
    let small: Vec<String> = tasks
        .iter()
        .filter(|t| t.passed())
        .filter_map(|t| Some((t, t.mso_high_water()?)))
        .filter(|(_, m)| *m < SMALL_MSO_PCT)
        .map(|(t, m)| {
            let why = match limit(t) {
                l if l == "-" => "no probe below its smallest budget gave a reason".to_string(),
                l => l,
            };
            format!("{}'s {} ({m:.1} %: {why})", t.workload, t.task)
        })
        .collect();
    if small.is_empty() {
        let _ = writeln!(
            s,
            "\nEvery program task shrinks by at least {SMALL_MSO_PCT:.0} % of its high water."
        );
    } else {
        let _ = writeln!(
            s,
            "\nShrinking by less than {SMALL_MSO_PCT:.0} % of the high water, and why: {}.",
            small.join("; ")
        );
    }
}

fn task_table(tasks: &[&TaskMso], paper: bool) -> String {
    let mut head = vec![
        "Workload",
        "Task",
        ">Budget (B)",
        ">High water (B)",
        ">Smallest (B)",
        ">MSO of budget",
        ">MSO of high water",
    ];
    if paper {
        head.push(">Paper");
    }
    head.push(">Probes");
    head.push("What stops it below");
    let mut table = Table::new(&head);
    for t in tasks {
        let smallest = match t.smallest {
            _ if !t.passed() => "failed".into(),
            Some(s) if s <= MIN_BUDGET => format!("{s} (floor)"),
            s => or_dash(s),
        };
        let mut cells = vec![
            t.workload.clone(),
            t.task.clone(),
            t.budget.to_string(),
            or_dash(t.high_water),
            smallest,
            pct(t.mso_budget().filter(|_| t.passed())),
            pct(t.mso_high_water().filter(|_| t.passed())),
        ];
        if paper {
            cells.push(paper_task(t));
        }
        cells.push(t.probes.len().to_string());
        cells.push(limit(t));
        table.row(cells);
    }
    table.render()
}

/// The Markdown tables of `tasks`.
pub fn markdown(tasks: &[TaskMso]) -> String {
    let mut s = String::new();
    let programs: Vec<&TaskMso> = tasks.iter().filter(|t| !t.harness).collect();
    let harness: Vec<&TaskMso> = tasks.iter().filter(|t| t.harness).collect();
    let _ = writeln!(s, "### MSO per program task (Figure 9)\n");
    s.push_str(&task_table(&programs, true));
    if tasks
        .iter()
        .any(|t| t.passed() && t.smallest <= Some(MIN_BUDGET))
    {
        let _ = writeln!(
            s,
            "\n(floor): the task passes at the manifest's smallest budget ({MIN_BUDGET} bytes), \
             so its MSO is a lower bound."
        );
    }
    under_ten(&mut s, &programs);
    let _ = writeln!(s, "\n### Average per workload (program tasks only)\n");
    let mut avg = Table::new(&[
        "Workload",
        ">Tasks",
        ">MSO of budget",
        ">MSO of high water",
        ">Paper",
    ]);
    for a in averages(tasks) {
        let paper = if a.workload == "average" {
            format!("{PAPER_AVERAGE:.0} %")
        } else {
            "-".into()
        };
        avg.row([
            a.workload.clone(),
            a.counted.to_string(),
            pct(a.budget),
            pct(a.high_water),
            paper,
        ]);
    }
    s.push_str(&avg.render());
    if !harness.is_empty() {
        let _ = writeln!(s, "\n### Harness tasks (not in any average)\n");
        s.push_str(&task_table(&harness, false));
    }
    loan_rows(&mut s, &programs);
    let odd: Vec<&TaskMso> = tasks
        .iter()
        .filter(|t| !t.non_monotone.is_empty())
        .collect();
    if !odd.is_empty() {
        let _ = writeln!(s, "\n### Probes contradicting monotonicity\n");
        for t in odd {
            let sizes: Vec<String> = t.non_monotone.iter().map(u32::to_string).collect();
            let _ = writeln!(
                s,
                "- {} {}: fails at {} B, above the passing {} B",
                t.workload,
                t.task,
                sizes.join(", "),
                or_dash(t.smallest)
            );
        }
    }
    let failed: Vec<&TaskMso> = tasks.iter().filter(|t| !t.passed()).collect();
    if !failed.is_empty() {
        let _ = writeln!(s, "\n### Failures\n");
        for t in failed {
            let why = t.error.as_deref().unwrap_or("search not finished");
            let _ = writeln!(s, "- {} {}: {why}", t.workload, t.task);
        }
    }
    s
}

/// The share of `part` in `whole` as a percentage (None when `whole` is 0).
pub(crate) fn share(part: u64, whole: u64) -> Option<f64> {
    percent(part as f64, whole as f64)
}

/// The section 10 "additional statistics" from each program task's recorded run at its
/// smallest budget: frames moved, pages, multi-page moves, pages whose return left a hole.
fn loan_rows(s: &mut String, tasks: &[&TaskMso]) {
    let with: Vec<(&TaskMso, &LoanStats)> = tasks
        .iter()
        .filter_map(|t| t.loans.as_ref().map(|l| (*t, l)))
        .collect();
    if with.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n### Loans at each task's smallest budget (section 10, \"Additional statistics\")\n"
    );
    let mut table = Table::new(&[
        "Workload",
        "Task",
        ">Frames moved",
        ">Pages lent",
        ">Multi-page moves",
        ">Pages leaving a hole",
        ">Holes reused",
        ">Most pages lent at once",
        ">Lenders",
    ]);
    let (mut pages, mut holes, mut loans, mut multi) = (0u64, 0u64, 0u64, 0u64);
    for (t, l) in &with {
        let mut cells = vec![t.workload.clone(), t.task.clone()];
        cells.extend(l.cells());
        table.row(cells);
        pages += l.pages;
        holes += l.hole_pages;
        loans += l.loans;
        multi += l.multi_page_loans;
    }
    table.row([
        "**all**".to_string(),
        String::new(),
        loans.to_string(),
        pages.to_string(),
        format!("{multi} ({})", pct(share(multi, loans))),
        format!("{holes} ({})", pct(share(holes, pages))),
    ]);
    table.row(["*paper*", "", "", "", "", "< 5 % (telecomm 0)"]);
    s.push_str(&table.render());
}

/// Appends a `Failed:` list of the rows with an error (workload name, error).
pub(crate) fn failures<'a>(
    s: &mut String,
    rows: impl Iterator<Item = (&'a String, &'a Option<String>)>,
) {
    let failed: Vec<String> = rows
        .filter_map(|(w, e)| e.as_ref().map(|e| format!("- {w}: {e}")))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(s, "\nFailed:\n\n{}", failed.join("\n"));
    }
}
