//! Markdown tables of the sweeps: PRS and the loan statistics (Figure 11, "Additional
//! statistics"), the worst-case estimate (Figures 12/13) and MSO against the page size
//! (Figure 10). Generated from the stored rows only.

use super::averages;
use super::mso::TaskMso;
use super::prs::{WorkloadPrs, PAPER_PRS};
use super::wcet::{WcetRow, PAPER_WCET_AVERAGE};
use cactus_sweep::table::{mean, or_dash, pct, Table};
use std::fmt::Write;

/// Figure 11 (PRS per workload) and the loan statistics at each workload's PRS point.
pub fn prs_markdown(rows: &[WorkloadPrs]) -> String {
    let mut s = String::new();
    let page = rows.first().map(|r| r.page_bytes).unwrap_or(0);
    let _ = writeln!(s, "### PRS per workload (Figure 11, page {page} bytes)\n");
    let mut t = Table::new(&[
        "Workload",
        ">Program budgets (B)",
        ">High water (B)",
        ">PRS (shrink)",
        ">Budgets at PRS (B)",
        ">Saved of budgets",
        ">Saved of high water",
        ">Frames moved",
        ">Probes",
    ]);
    for r in rows {
        let moved = r
            .prs
            .and_then(|p| r.probes.iter().find(|q| q.percent == p))
            .map(|q| q.moved_frames);
        t.row([
            r.workload.clone(),
            r.budget_total.to_string(),
            or_dash(r.high_water_total),
            r.prs
                .map(|p| format!("{p} %"))
                .unwrap_or_else(|| "-".into()),
            or_dash(r.smallest_total),
            pct(r.prs_of_budget()),
            pct(r.prs_of_high_water()),
            or_dash(moved),
            r.probes.len().to_string(),
        ]);
    }
    let ok: Vec<&WorkloadPrs> = rows.iter().filter(|r| r.error.is_none()).collect();
    t.row([
        "**average**".to_string(),
        String::new(),
        String::new(),
        pct(mean(ok.iter().filter_map(|r| r.prs.map(f64::from)))),
        String::new(),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_budget()))),
        pct(mean(ok.iter().filter_map(|r| r.prs_of_high_water()))),
    ]);
    t.row([
        "*paper*".to_string(),
        String::new(),
        String::new(),
        format!("{PAPER_PRS:.1} %"),
    ]);
    s.push_str(&t.render());
    failures(&mut s, rows.iter().map(|r| (&r.workload, &r.error)));

    s.push_str("\n### Loans at the PRS point (section 10, \"Additional statistics\")\n\n");
    let mut t = Table::new(&[
        "Workload",
        ">Frames moved",
        ">Pages lent",
        ">Multi-page moves",
        ">Pages leaving a hole",
        ">Holes reused",
        ">Most pages lent at once",
        ">Borrower-lender pairs",
    ]);
    for r in rows {
        let Some(l) = &r.loans else {
            t.row([r.workload.as_str(), "-", "-", "-", "-", "-", "-", "-"]);
            continue;
        };
        let mut cells = vec![r.workload.clone()];
        cells.extend(l.cells());
        t.row(cells);
    }
    let holes = mean(
        rows.iter()
            .filter_map(|r| r.loans.as_ref().and_then(|l| l.hole_percent())),
    );
    t.row([
        "**average**".to_string(),
        String::new(),
        String::new(),
        String::new(),
        pct(holes),
    ]);
    t.row(["*paper*", "", "", "", "< 5 % (telecomm 0)"]);
    s.push_str(&t.render());
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
    let mut t = Table::new(&[
        "Workload",
        ">Unmodified (cycles)",
        ">Common case",
        ">Frames moved",
        "Program stacks",
        ">Worst case (cycles)",
        ">Frames moved",
        ">Worst-case overhead",
    ]);
    let at: Vec<&WcetRow> = rows.iter().filter(|r| r.page_bytes == page).collect();
    for r in &at {
        let stacks = match r.worst_shrink {
            Some(p) => format!("budgets -{p} %"),
            None => "128 B".into(),
        };
        t.row([
            r.workload.clone(),
            or_dash(r.base_cycles),
            pct(r.common_overhead()),
            or_dash(r.common_moved),
            stacks,
            or_dash(r.worst_cycles),
            or_dash(r.worst_moved),
            pct(r.wcet_overhead()),
        ]);
    }
    t.row([
        "**average**".to_string(),
        String::new(),
        pct(mean(at.iter().filter_map(|r| r.common_overhead()))),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        pct(mean(at.iter().filter_map(|r| r.wcet_overhead()))),
    ]);
    t.row([
        "*paper*".to_string(),
        String::new(),
        "3.1 %".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        format!("{PAPER_WCET_AVERAGE:.1} %"),
    ]);
    s.push_str(&t.render());
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
            "\n### {w}: worst-case overhead against the page size (Figure 13)\n"
        );
        let mut t = Table::new(&[">Page (B)", ">Worst-case overhead", ">Frames moved"]);
        for r in of {
            t.row([
                r.page_bytes.to_string(),
                pct(r.wcet_overhead()),
                or_dash(r.worst_moved),
            ]);
        }
        s.push_str(&t.render());
    }
    s
}

/// Figure 10: each program task's MSO (of its budget) at every page size (`by_page`,
/// ascending), then the averages.
pub fn pages_markdown(by_page: &[(u32, Vec<TaskMso>)]) -> String {
    let mut s = String::from("### MSO of budget against the page size (Figure 10)\n\n");
    let heads: Vec<String> = by_page.iter().map(|(p, _)| format!(">{p} B")).collect();
    let mut columns = vec!["Workload", "Task"];
    columns.extend(heads.iter().map(String::as_str));
    let mut t = Table::new(&columns);
    if let Some((_, first)) = by_page.first() {
        for task in first.iter().filter(|t| !t.harness) {
            let mut cells = vec![task.workload.clone(), task.task.clone()];
            for (_, tasks) in by_page {
                let v = tasks
                    .iter()
                    .find(|u| u.manifest == task.manifest && u.task == task.task)
                    .filter(|u| u.passed())
                    .and_then(|u| u.mso_budget());
                cells.push(pct(v));
            }
            t.row(cells);
        }
        let mut cells = vec!["**average**".to_string(), String::new()];
        for (_, tasks) in by_page {
            cells.push(pct(averages(tasks).last().and_then(|a| a.budget)));
        }
        t.row(cells);
    }
    s.push_str(&t.render());
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
