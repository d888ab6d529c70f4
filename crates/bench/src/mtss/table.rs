//! The MSO tables: one row per task, per-workload averages of the program tasks beside the
//! paper's stated values, the harness tasks apart, and the failures and monotonicity
//! contradictions.

use super::search::MIN_BUDGET;
use super::{LoanStats, MsoReport, TaskMso};
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

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// One [`Averages`] per workload in report order, then the overall average (the mean of the
/// workload averages, as the paper's *average* group), named `average`.
pub fn averages(report: &MsoReport) -> Vec<Averages> {
    let mut names: Vec<&str> = Vec::new();
    for t in &report.tasks {
        if !names.contains(&t.workload.as_str()) {
            names.push(&t.workload);
        }
    }
    let mut out: Vec<Averages> = names
        .iter()
        .map(|w| {
            let tasks: Vec<&TaskMso> = report
                .tasks
                .iter()
                .filter(|t| t.workload == *w && !t.harness && t.passed())
                .collect();
            let b: Vec<f64> = tasks.iter().filter_map(|t| t.mso_budget()).collect();
            let h: Vec<f64> = tasks.iter().filter_map(|t| t.mso_high_water()).collect();
            Averages {
                workload: w.to_string(),
                budget: mean(&b),
                high_water: mean(&h),
                counted: tasks.len(),
            }
        })
        .collect();
    let b: Vec<f64> = out.iter().filter_map(|a| a.budget).collect();
    let h: Vec<f64> = out.iter().filter_map(|a| a.high_water).collect();
    out.push(Averages {
        workload: "average".into(),
        budget: mean(&b),
        high_water: mean(&h),
        counted: out.iter().map(|a| a.counted).sum(),
    });
    out
}

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.1} %")).unwrap_or_else(|| "-".into())
}

fn bytes(v: Option<u32>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

fn paper_task(t: &TaskMso) -> String {
    PAPER_TASKS
        .iter()
        .find(|(w, n, _)| t.workload.starts_with(w) && t.task == *n)
        .map(|(_, _, v)| format!("{v:.0} %"))
        .unwrap_or_else(|| "-".into())
}

fn task_rows(s: &mut String, tasks: &[&TaskMso], paper: bool) {
    let head = if paper { " Paper |" } else { "" };
    let _ = writeln!(
        s,
        "| Workload | Task | Budget (B) | High water (B) | Smallest (B) | MSO of budget | MSO of high water |{head} Probes |"
    );
    let rule = if paper { "---:|" } else { "" };
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|{rule}---:|");
    for t in tasks {
        let p = if paper {
            format!(" {} |", paper_task(t))
        } else {
            String::new()
        };
        let smallest = match t.smallest {
            _ if !t.passed() => "failed".into(),
            Some(s) if s <= MIN_BUDGET => format!("{s} (floor)"),
            s => bytes(s),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |{p} {} |",
            t.workload,
            t.task,
            t.budget,
            bytes(t.high_water),
            smallest,
            pct(t.mso_budget().filter(|_| t.passed())),
            pct(t.mso_high_water().filter(|_| t.passed())),
            t.probes.len()
        );
    }
}

/// The Markdown tables of `report`.
pub fn markdown(report: &MsoReport) -> String {
    let mut s = String::new();
    let programs: Vec<&TaskMso> = report.tasks.iter().filter(|t| !t.harness).collect();
    let harness: Vec<&TaskMso> = report.tasks.iter().filter(|t| t.harness).collect();
    let _ = writeln!(s, "### MSO per program task (Figure 9)\n");
    task_rows(&mut s, &programs, true);
    if report
        .tasks
        .iter()
        .any(|t| t.passed() && t.smallest <= Some(MIN_BUDGET))
    {
        let _ = writeln!(
            s,
            "\n(floor): the task passes at the manifest's smallest budget ({MIN_BUDGET} bytes), \
             so its MSO is a lower bound."
        );
    }
    let _ = writeln!(s, "\n### Average per workload (program tasks only)\n");
    let _ = writeln!(
        s,
        "| Workload | Tasks | MSO of budget | MSO of high water | Paper |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|");
    for a in averages(report) {
        let paper = if a.workload == "average" {
            format!("{PAPER_AVERAGE:.0} %")
        } else {
            "-".into()
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {paper} |",
            a.workload,
            a.counted,
            pct(a.budget),
            pct(a.high_water)
        );
    }
    if !harness.is_empty() {
        let _ = writeln!(s, "\n### Harness tasks (not in any average)\n");
        task_rows(&mut s, &harness, false);
    }
    loan_rows(&mut s, &programs);
    let odd: Vec<&TaskMso> = report
        .tasks
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
                bytes(t.smallest)
            );
        }
    }
    let failed: Vec<&TaskMso> = report.tasks.iter().filter(|t| !t.passed()).collect();
    if !failed.is_empty() {
        let _ = writeln!(s, "\n### Failures\n");
        for t in failed {
            let why = t.error.as_deref().unwrap_or("search not finished");
            let _ = writeln!(s, "- {} {}: {why}", t.workload, t.task);
        }
    }
    s
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
        "\n### Loans at each task's smallest budget (section 10, \"Additional statistics\")\n\n\
         | Workload | Task | Frames moved | Pages lent | Multi-page moves | Pages leaving a hole \
         | Holes reused | Most pages lent at once | Lenders |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|"
    );
    let (mut pages, mut holes, mut loans, mut multi) = (0u64, 0u64, 0u64, 0u64);
    for (t, l) in &with {
        let multi_pct = (l.loans > 0).then(|| l.multi_page_loans as f64 * 100.0 / l.loans as f64);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} |",
            t.workload,
            t.task,
            l.loans,
            l.pages,
            l.multi_page_loans,
            pct(multi_pct),
            l.hole_pages,
            pct(l.hole_percent()),
            l.hole_reuses,
            l.peak_pages,
            l.pairs
        );
        pages += l.pages;
        holes += l.hole_pages;
        loans += l.loans;
        multi += l.multi_page_loans;
    }
    let all_multi = (loans > 0).then(|| multi as f64 * 100.0 / loans as f64);
    let all_holes = (pages > 0).then(|| holes as f64 * 100.0 / pages as f64);
    let _ = writeln!(
        s,
        "| **all** | | {loans} | {pages} | {multi} ({}) | {holes} ({}) | | | |\n\
         | *paper* | | | | | < 5 % (telecomm 0) | | | |",
        pct(all_multi),
        pct(all_holes)
    );
}

/// `N passed, M failed` over every task (harness tasks included): a task passes when its
/// search finished with a smallest passing budget.
pub fn summary(report: &MsoReport) -> String {
    let passed = report.tasks.iter().filter(|t| t.passed()).count();
    format!("{passed} passed, {} failed", report.tasks.len() - passed)
}
