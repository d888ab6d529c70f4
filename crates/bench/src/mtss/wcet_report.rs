//! The worst-case report (Figures 12 and 13): the evaluation's rendering of its rows, the
//! overhead per workload at the default page beside the paper, and each workload measured at
//! several pages against the page size.

use super::table::failures;
use super::wcet::{WcetRow, PAPER_WCET_AVERAGE};
use cactus_firmware::StackStrategy;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::{mean, or_dash, pct, Table};
use cactus_sweep::{Meta, Summary, SweepReport};
use std::fmt::Write;

/// The worst-case experiment.
pub struct Wcet;

/// The page of Figure 12 among `pages`: the kernel's default when measured (or none given),
/// else the first.
pub fn figure_page(pages: &[u32]) -> u32 {
    if pages.is_empty() || pages.contains(&StackStrategy::MTSS_PAGE) {
        StackStrategy::MTSS_PAGE
    } else {
        pages[0]
    }
}

impl Evaluation for Wcet {
    const NAME: &'static str = "mtss wcet";
    const UNIT: &'static str = "runs";
    type Row = WcetRow;

    fn render(rows: &[WcetRow], meta: &Meta) -> SweepReport {
        let pages: Vec<u32> =
            serde_json::from_value(meta.params["pages"].clone()).unwrap_or_default();
        let page = figure_page(&pages);
        let at: Vec<&WcetRow> = rows.iter().filter(|r| r.page_bytes == page).collect();
        let mut summary = Summary::new("mtss-wcet");
        summary
            .pct(
                "worst_case",
                mean(at.iter().filter_map(|r| r.wcet_overhead())),
            )
            .pct(
                "common_case",
                mean(at.iter().filter_map(|r| r.common_overhead())),
            );
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: wcet_markdown(rows, page),
            reading: READING.to_string(),
            note: String::new(),
            passed,
            failed,
            summary,
        }
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

/// How to read the worst-case tables (no figures: they are in the generated tables).
pub const READING: &str = "How to read these tables. The paper's worst-case estimate \
(section 10): every program task at the smallest stack a manifest accepts (128 bytes, below \
any task's certainly-called chain), so every frame that can move does (the harness tasks keep \
their budgets: they print through `kprintf`, whose variadic frame is pinned); the moved frames go to an \
artificial region that never runs out (`kernel.mtss_worst_case`), and every move first scans \
every task and every page of it (the allocation's worst case). *Worst-case overhead* is that \
run's extra simulated cycles over the unmodified workload (`static` stacks, no checks, manifest \
budgets); *common case* is `mtss` at the manifest budgets (nothing moves: the checks' cost). \
Like the paper's, this is an estimate on one input, not a WCET bound. The paper plots Figures \
12 and 13 as bars; only its average (37.5 %) and common case (3.1 %) are stated.";

#[cfg(test)]
mod tests {
    use super::*;

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
