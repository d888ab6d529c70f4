//! Markdown tables of the sweeps: PRS and the loan statistics (Figure 11, "Additional
//! statistics"), the worst-case estimate (Figures 12/13) and MSO against the page size
//! (Figure 10). Generated from the JSON rows only.

use super::prs::{WorkloadPrs, PAPER_PRS};
use super::wcet::{WcetRow, PAPER_WCET_AVERAGE};
use super::{averages, MsoReport};
use std::fmt::Write;

fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.1} %")).unwrap_or_else(|| "-".into())
}

fn num<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = v.collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Figure 11 (PRS per workload) and the loan statistics at each workload's PRS point.
pub fn prs_markdown(rows: &[WorkloadPrs]) -> String {
    let mut s = String::new();
    let page = rows.first().map(|r| r.page_bytes).unwrap_or(0);
    let _ = writeln!(s, "### PRS per workload (Figure 11, page {page} bytes)\n");
    s.push_str(
        "| Workload | Program budgets (B) | High water (B) | PRS (shrink) | Budgets at PRS (B) \
         | Saved of budgets | Saved of high water | Frames moved | Probes |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let moved = r
            .prs
            .and_then(|p| r.probes.iter().find(|q| q.percent == p))
            .map(|q| q.moved_frames);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.workload,
            r.budget_total,
            num(r.high_water_total),
            r.prs
                .map(|p| format!("{p} %"))
                .unwrap_or_else(|| "-".into()),
            num(r.smallest_total),
            pct(r.prs_of_budget()),
            pct(r.prs_of_high_water()),
            num(moved),
            r.probes.len()
        );
    }
    let ok: Vec<&WorkloadPrs> = rows.iter().filter(|r| r.error.is_none()).collect();
    let _ = writeln!(
        s,
        "| **average** | | | {} | | {} | {} | | |",
        pct(mean(ok.iter().filter_map(|r| r.prs.map(f64::from)))),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_budget()))),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_high_water()))),
    );
    let _ = writeln!(s, "| *paper* | | | {PAPER_PRS:.1} % | | | | | |");
    failures(&mut s, rows.iter().map(|r| (&r.workload, &r.error)));

    s.push_str(
        "\n### Loans at the PRS point (section 10, \"Additional statistics\")\n\n\
         | Workload | Frames moved | Pages lent | Multi-page moves | Pages leaving a hole \
         | Holes reused | Most pages lent at once | Borrower-lender pairs |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let Some(l) = &r.loans else {
            let _ = writeln!(s, "| {} | - | - | - | - | - | - | - |", r.workload);
            continue;
        };
        let multi = (l.loans > 0).then(|| l.multi_page_loans as f64 * 100.0 / l.loans as f64);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} ({}) | {} ({}) | {} | {} | {} |",
            r.workload,
            l.loans,
            l.pages,
            l.multi_page_loans,
            pct(multi),
            l.hole_pages,
            pct(l.hole_percent()),
            l.hole_reuses,
            l.peak_pages,
            l.pairs
        );
    }
    let holes = mean(
        rows.iter()
            .filter_map(|r| r.loans.as_ref().and_then(|l| l.hole_percent())),
    );
    let _ = writeln!(
        s,
        "| **average** | | | | {} | | | |\n| *paper* | | | | < 5 % (telecomm 0) | | | |",
        pct(holes)
    );
    s
}

fn failures<'a>(s: &mut String, rows: impl Iterator<Item = (&'a String, &'a Option<String>)>) {
    let failed: Vec<String> = rows
        .filter_map(|(w, e)| e.as_ref().map(|e| format!("- {w}: {e}")))
        .collect();
    if !failed.is_empty() {
        let _ = writeln!(s, "\nFailed:\n\n{}", failed.join("\n"));
    }
}

/// Figure 12 (rows at `page`) and, for every workload measured at more than one page,
/// Figure 13 (its overhead against the page size).
pub fn wcet_markdown(rows: &[WcetRow], page: u32) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### Worst-case overhead estimate per workload (Figure 12, page {page} bytes)\n"
    );
    s.push_str(
        "| Workload | Unmodified (cycles) | Common case | Frames moved | Program stacks \
         | Worst case (cycles) | Frames moved | Worst-case overhead |\n\
         |---|---:|---:|---:|---|---:|---:|---:|\n",
    );
    let at: Vec<&WcetRow> = rows.iter().filter(|r| r.page_bytes == page).collect();
    for r in &at {
        let stacks = match r.worst_shrink {
            Some(p) => format!("budgets -{p} %"),
            None => "128 B".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {stacks} | {} | {} | {} |",
            r.workload,
            num(r.base_cycles),
            pct(r.common_overhead()),
            num(r.common_moved),
            num(r.worst_cycles),
            num(r.worst_moved),
            pct(r.wcet_overhead())
        );
    }
    let _ = writeln!(
        s,
        "| **average** | | {} | | | | | {} |\n| *paper* | | 3.1 % | | | | | {PAPER_WCET_AVERAGE:.1} % |",
        pct(mean(at.iter().filter_map(|r| r.common_overhead()))),
        pct(mean(at.iter().filter_map(|r| r.wcet_overhead()))),
    );
    failures(&mut s, rows.iter().map(|r| (&r.workload, &r.error)));
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.workload.as_str()) {
            names.push(&r.workload);
        }
    }
    for w in names {
        let mut of: Vec<&WcetRow> = rows.iter().filter(|r| r.workload == w).collect();
        if of.len() < 2 {
            continue;
        }
        of.sort_by_key(|r| r.page_bytes);
        let _ = writeln!(
            s,
            "\n### {w}: worst-case overhead against the page size (Figure 13)\n\n\
             | Page (B) | Worst-case overhead | Frames moved |\n|---:|---:|---:|"
        );
        for r in of {
            let _ = writeln!(
                s,
                "| {} | {} | {} |",
                r.page_bytes,
                pct(r.wcet_overhead()),
                num(r.worst_moved)
            );
        }
    }
    s
}

/// Figure 10: each program task's MSO (of its budget) at every page size, then the averages.
pub fn pages_markdown(reports: &[MsoReport]) -> String {
    let mut s = String::new();
    let mut sorted: Vec<&MsoReport> = reports.iter().collect();
    sorted.sort_by_key(|r| r.page_bytes);
    s.push_str("### MSO of budget against the page size (Figure 10)\n\n| Workload | Task |");
    for r in &sorted {
        let _ = write!(s, " {} B |", r.page_bytes);
    }
    s.push_str("\n|---|---|");
    for _ in &sorted {
        s.push_str("---:|");
    }
    s.push('\n');
    let Some(first) = sorted.first() else {
        return s;
    };
    for t in first.tasks.iter().filter(|t| !t.harness) {
        let _ = write!(s, "| {} | {} |", t.workload, t.task);
        for r in &sorted {
            let v = r
                .tasks
                .iter()
                .find(|u| u.manifest == t.manifest && u.task == t.task)
                .filter(|u| u.passed())
                .and_then(|u| u.mso_budget());
            let _ = write!(s, " {} |", pct(v));
        }
        s.push('\n');
    }
    s.push_str("| **average** | |");
    for r in &sorted {
        let avg = averages(r).last().and_then(|a| a.budget);
        let _ = write!(s, " {} |", pct(avg));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::super::prs::ShrinkProbe;
    use super::super::LoanStats;
    use super::*;

    #[test]
    fn prs_table_has_rows_averages_and_the_paper() {
        let row = WorkloadPrs {
            workload: "net".into(),
            manifest: "net.toml".into(),
            page_bytes: 128,
            budget_total: 1000,
            high_water_total: Some(800),
            probes: vec![ShrinkProbe {
                percent: 30,
                passed: true,
                moved_frames: 7,
                reason: None,
            }],
            prs: Some(30),
            smallest_total: Some(700),
            loans: Some(LoanStats {
                loans: 7,
                pages: 10,
                multi_page_loans: 2,
                hole_pages: 1,
                hole_reuses: 0,
                peak_pages: 4,
                pairs: 2,
            }),
            error: None,
            complete: true,
        };
        let md = prs_markdown(&[row]);
        assert!(
            md.contains("| net | 1000 | 800 | 30 % | 700 | 30.0 % | 12.5 % | 7 | 1 |"),
            "{md}"
        );
        assert!(
            md.contains("| net | 7 | 10 | 2 (28.6 %) | 1 (10.0 %) | 0 | 4 | 2 |"),
            "{md}"
        );
        assert!(md.contains("| *paper* | | | 15.7 %"), "{md}");
    }

    #[test]
    fn wcet_table_shows_figure_13_for_several_pages() {
        let mk = |page, worst| WcetRow {
            workload: "network".into(),
            manifest: "n.toml".into(),
            page_bytes: page,
            base_cycles: Some(1000),
            common_cycles: Some(1010),
            common_moved: Some(0),
            worst_cycles: Some(worst),
            worst_moved: Some(5),
            worst_shrink: None,
            error: None,
            complete: true,
        };
        let md = wcet_markdown(&[mk(128, 1500), mk(64, 2000)], 128);
        assert!(
            md.contains("| network | 1000 | 1.0 % | 0 | 128 B | 1500 | 5 | 50.0 % |"),
            "{md}"
        );
        assert!(
            md.contains("| 64 | 100.0 % | 5 |\n| 128 | 50.0 % | 5 |"),
            "{md}"
        );
    }
}
