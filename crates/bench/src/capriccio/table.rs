//! The Table IV report: per-workload run-time increase and stack memory of MTSS and the
//! Capriccio-style scheme, beside the paper's values, from the stored rows alone.

use super::{Run, WorkloadResult};
use cactus_sweep::table::Table;
use cactus_sweep::Summary;
use std::fmt::Write;

/// The paper's Table IV row of one workload: (name, MTSS %, Capriccio %, MTSS KB,
/// Capriccio KB). Its Capriccio memory includes one 2 MB chunk for library functions.
pub const PAPER: [(&str, f64, f64, u32, u32); 6] = [
    ("automotive", 3.90, 7.72, 87, 2135),
    ("security", 2.72, 8.18, 90, 2138),
    ("telecomm", 0.72, 7.38, 6, 2054),
    ("network", 2.20, 14.52, 7, 2054),
    ("mediabench", 2.79, 1.77, 16, 2064),
    ("ptrdist", 5.97, 17.27, 8, 2056),
];

/// The paper's averages: (MTSS %, Capriccio %, MTSS KB, Capriccio KB).
pub const PAPER_AVERAGE: (f64, f64, u32, u32) = (3.05, 10.69, 32, 2080);

/// Means over the workloads whose three runs passed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Averages {
    /// Workloads averaged.
    pub workloads: usize,
    /// Mean run-time increase of MTSS, percent.
    pub mtss_increase: f64,
    /// Mean run-time increase of Capriccio, percent.
    pub capriccio_increase: f64,
    /// Mean MTSS stack memory, bytes.
    pub mtss_bytes: f64,
    /// Mean Capriccio stack memory, bytes.
    pub capriccio_bytes: f64,
}

/// The averages over the passing workloads; None when none passed.
pub fn averages(workloads: &[WorkloadResult]) -> Option<Averages> {
    let rows: Vec<(f64, f64, f64, f64)> = workloads
        .iter()
        .filter_map(|w| {
            Some((
                w.mtss_increase()?,
                w.capriccio_increase()?,
                f64::from(w.mtss_bytes()?),
                f64::from(w.capriccio_bytes()?),
            ))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let n = rows.len() as f64;
    let mean = |f: fn(&(f64, f64, f64, f64)) -> f64| rows.iter().map(f).sum::<f64>() / n;
    Some(Averages {
        workloads: rows.len(),
        mtss_increase: mean(|r| r.0),
        capriccio_increase: mean(|r| r.1),
        mtss_bytes: mean(|r| r.2),
        capriccio_bytes: mean(|r| r.3),
    })
}

fn suite(workload: &str) -> &str {
    workload.strip_suffix("_small").unwrap_or(workload)
}

fn paper_row(workload: &str) -> Option<(f64, f64, u32, u32)> {
    PAPER
        .iter()
        .find(|p| p.0 == suite(workload))
        .map(|p| (p.1, p.2, p.3, p.4))
}

fn pct(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:.2}"))
}

fn kb(v: Option<u32>) -> String {
    v.map_or("-".into(), |v| format!("{:.1}", f64::from(v) / 1024.0))
}

/// The Markdown tables: Table IV beside the paper, then the raw measurements and failures.
pub fn markdown(workloads: &[WorkloadResult]) -> String {
    let mut s = String::new();
    s.push_str("### Run-time increase and stack memory (Table IV)\n\n");
    let mut t = Table::new(&[
        "Workload",
        ">MTSS run time",
        ">Capriccio run time",
        ">MTSS memory (KB)",
        ">Capriccio memory (KB)",
        ">Paper: MTSS / Capriccio run time",
        ">Paper: MTSS / Capriccio memory (KB)",
    ]);
    for w in workloads {
        let paper = paper_row(&w.workload);
        t.row([
            w.workload.clone(),
            format!("{} %", pct(w.mtss_increase())),
            format!("{} %", pct(w.capriccio_increase())),
            kb(w.mtss_bytes()),
            kb(w.capriccio_bytes()),
            paper.map_or("-".into(), |p| format!("{:.2} % / {:.2} %", p.0, p.1)),
            paper.map_or("-".into(), |p| format!("{} / {}", p.2, p.3)),
        ]);
    }
    let a = averages(workloads);
    let (pm, pc, pmk, pck) = PAPER_AVERAGE;
    t.row([
        "*Average*".to_string(),
        format!("*{} %*", pct(a.map(|a| a.mtss_increase))),
        format!("*{} %*", pct(a.map(|a| a.capriccio_increase))),
        format!(
            "*{}*",
            a.map_or("-".into(), |a| format!("{:.1}", a.mtss_bytes / 1024.0))
        ),
        format!(
            "*{}*",
            a.map_or("-".into(), |a| format!("{:.1}", a.capriccio_bytes / 1024.0))
        ),
        format!("*{pm:.2} % / {pc:.2} %*"),
        format!("*{pmk} / {pck}*"),
    ]);
    s.push_str(&t.render());
    s.push_str("\n### Measurements\n\n");
    let mut t = Table::new(&[
        "Workload",
        ">Unmodified cycles (active)",
        ">MTSS cycles",
        ">Capriccio cycles",
        ">Every-check cycles",
        ">Every-check run time",
        ">MTSS moves",
        ">Capriccio links",
        ">Cycles per link",
        ">Capriccio heap peak (B)",
        ">Sum of task peaks (B)",
    ]);
    for w in workloads {
        let c = |r: &Result<Run, String>| {
            r.as_ref()
                .map_or("failed".into(), |r| r.active_cycles.to_string())
        };
        let ov =
            |r: &Result<Run, String>| r.as_ref().map_or("-".into(), |r| r.overflows.to_string());
        let cap = w.capriccio.as_ref().ok();
        t.row([
            w.workload.clone(),
            c(&w.unmodified),
            c(&w.mtss),
            c(&w.capriccio),
            c(&w.every_check),
            format!("{} %", pct(w.every_check_increase())),
            ov(&w.mtss),
            ov(&w.capriccio),
            w.cycles_per_link()
                .map_or("-".into(), |c| format!("{c:.0}")),
            cap.and_then(|r| r.heap_peak)
                .map_or("-".into(), |v| v.to_string()),
            cap.and_then(|r| r.task_peaks)
                .map_or("-".into(), |v| v.to_string()),
        ]);
    }
    s.push_str(&t.render());
    let failures: Vec<String> = workloads.iter().flat_map(failures_of).collect();
    if !failures.is_empty() {
        s.push_str(
            "\n### Failures (a failed unmodified, MTSS or Capriccio run leaves its workload out \
             of the averages)\n\n",
        );
        for f in failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

fn failures_of(w: &WorkloadResult) -> Vec<String> {
    [
        ("unmodified", &w.unmodified),
        ("mtss", &w.mtss),
        ("capriccio", &w.capriccio),
        ("every-check", &w.every_check),
    ]
    .into_iter()
    .filter_map(|(scheme, r)| {
        r.as_ref()
            .err()
            .map(|e| format!("{} ({scheme}): {e}", w.workload))
    })
    .collect()
}

/// The headline figures: the averages (`-` when no workload passed).
pub fn summary(workloads: &[WorkloadResult]) -> Summary {
    let a = averages(workloads);
    let mut s = Summary::new("mtss-capriccio");
    s.num("mtss_runtime", a.map(|a| a.mtss_increase), 2)
        .num("capriccio_runtime", a.map(|a| a.capriccio_increase), 2)
        .num("mtss_kb", a.map(|a| a.mtss_bytes / 1024.0), 1)
        .num("capriccio_kb", a.map(|a| a.capriccio_bytes / 1024.0), 1);
    s
}
