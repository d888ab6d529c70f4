//! Markdown tables of a `cactus bench checks` run, with the MTSS paper's figures beside ours.

use super::{Measurement, WorkloadResult};
use cactus_sweep::table::{mean, Table};
use std::fmt::Write;

/// The paper's Table II (run time, code size, energy increase in %, without / with the
/// optimization), by workload, as printed in the MTSS paper.
const PAPER_TABLE_II: &[(&str, [f64; 6])] = &[
    ("automotive", [4.18, 3.90, 37.69, 7.04, 4.09, 4.03]),
    ("security", [11.54, 2.72, 32.44, 4.45, 13.14, 2.17]),
    ("telecomm", [2.74, 0.72, 38.25, 7.70, 2.84, 0.48]),
    ("network", [10.51, 2.20, 44.66, 7.15, 10.49, 2.23]),
    ("mediabench", [21.75, 2.79, 36.03, 7.21, 22.63, 3.52]),
    ("ptrdist", [22.97, 5.97, 39.69, 6.75, 23.72, 6.63]),
];
const PAPER_AVERAGE: [f64; 6] = [12.28, 3.05, 38.13, 6.72, 12.82, 3.18];

/// `(value - base) / base` in percent.
pub fn overhead_percent(value: f64, base: f64) -> f64 {
    if base == 0.0 {
        0.0
    } else {
        (value - base) * 100.0 / base
    }
}

fn run<'a>(w: &'a WorkloadResult, name: &str) -> Option<&'a Measurement> {
    w.runs
        .iter()
        .find(|(v, _)| v.name == name)
        .and_then(|(_, r)| r.as_ref().ok())
}

/// Overheads (run time, code, energy) of variant `name` against `base` in `w`, if both ran
/// and printed the same output.
fn overheads(w: &WorkloadResult, name: &str) -> Option<[f64; 3]> {
    let base = run(w, "base")?;
    let m = run(w, name)?;
    if m.uart != base.uart || m.exit_code != base.exit_code {
        return None;
    }
    Some([
        overhead_percent(m.active_cycles as f64, base.active_cycles as f64),
        overhead_percent(m.code_bytes as f64, base.code_bytes as f64),
        overhead_percent(m.energy_nj, base.energy_nj),
    ])
}

fn cell(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into())
}

/// The mean run-time overheads of `unopt` and `opt` over the workloads where they ran
/// correctly (Table II's average row).
pub fn average_runtime(results: &[WorkloadResult]) -> (Option<f64>, Option<f64>) {
    (
        average_runtime_of(results, "unopt"),
        average_runtime_of(results, "opt"),
    )
}

/// The mean run-time overhead of variant `name` over the workloads where it ran.
pub fn average_runtime_of(results: &[WorkloadResult], name: &str) -> Option<f64> {
    mean(
        results
            .iter()
            .filter_map(|w| overheads(w, name).map(|x| x[0])),
    )
}

/// A table whose first column is `workload` and whose other columns are `names`, all left
/// aligned (the cells hold `ours \| paper` pairs).
fn table_of<S: AsRef<str>>(names: &[S]) -> Table {
    let mut columns = vec!["workload"];
    columns.extend(names.iter().map(|n| n.as_ref()));
    Table::new(&columns)
}

fn paper_row(firmware: &str) -> Option<[f64; 6]> {
    let key = firmware.split('-').next().unwrap_or(firmware);
    PAPER_TABLE_II
        .iter()
        .find(|(n, _)| *n == key)
        .map(|(_, v)| *v)
}

/// The report: Table II (ours beside the paper's), the rolling rules' contributions
/// (Figure 7), the K sweep (Figure 8) and the check counts. A variant whose output differs
/// from the unchecked build, or that failed, shows `-` and is listed under "Failures".
pub fn markdown(results: &[WorkloadResult], k_sweep: &[u32]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "### Table II: overhead of the checks (%), ours | paper\n"
    );
    let mut t = table_of(&[
        "run time unopt",
        "run time opt",
        "code unopt",
        "code opt",
        "energy unopt",
        "energy opt",
    ]);
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); 6];
    for w in results {
        let u = overheads(w, "unopt");
        let o = overheads(w, "opt");
        let ours = [
            u.map(|x| x[0]),
            o.map(|x| x[0]),
            u.map(|x| x[1]),
            o.map(|x| x[1]),
            u.map(|x| x[2]),
            o.map(|x| x[2]),
        ];
        for (c, v) in cols.iter_mut().zip(ours) {
            c.extend(v);
        }
        let paper = paper_row(&w.firmware);
        let mut cells = vec![w.firmware.clone()];
        for (i, v) in ours.iter().enumerate() {
            let p = paper
                .map(|p| format!(" \\| {:.2}", p[i]))
                .unwrap_or_default();
            cells.push(format!("{}{p}", cell(*v)));
        }
        t.row(cells);
    }
    let mut cells = vec!["**average**".to_string()];
    for (i, c) in cols.iter().enumerate() {
        cells.push(format!(
            "{} \\| {:.2}",
            cell(mean(c.iter().copied())),
            PAPER_AVERAGE[i]
        ));
    }
    t.row(cells);
    s.push_str(&t.render());
    s.push('\n');

    let _ = writeln!(
        s,
        "### Figure 7: run-time overhead (%) by rolling rule (each rule alone, then all)\n"
    );
    let names = ["unopt", "zero", "certainty", "limited", "opt"];
    s.push_str(&overhead_table(results, &names, &names));
    s.push('\n');

    let _ = writeln!(
        s,
        "### Hardware stack bound: overhead (%) of *opt* and of *opt* on the bound\n"
    );
    s.push_str(&bound_table(results));
    s.push('\n');

    if !k_sweep.is_empty() {
        let _ = writeln!(s, "### Figure 8: run-time overhead (%) against K (bytes)\n");
        let heads: Vec<String> = k_sweep.iter().map(|k| format!("K={k}")).collect();
        let names: Vec<String> = k_sweep.iter().map(|k| format!("opt-k{k}")).collect();
        s.push_str(&overhead_table(results, &heads, &names));
        s.push('\n');
    }

    let _ = writeln!(
        s,
        "### Checks kept (functions with an entry check / functions; table bytes)\n"
    );
    let mut t = table_of(&["unopt", "opt", "table bytes (opt)"]);
    for w in results {
        let c = |n: &str| {
            run(w, n)
                .map(|m| format!("{} / {}", m.checked_functions, m.functions))
                .unwrap_or_else(|| "-".into())
        };
        let bytes = run(w, "opt")
            .map(|m| m.table_bytes.to_string())
            .unwrap_or_else(|| "-".into());
        t.row([w.firmware.clone(), c("unopt"), c("opt"), bytes]);
    }
    s.push_str(&t.render());
    let failures: Vec<String> = results
        .iter()
        .flat_map(|w| {
            let base = run(w, "base").cloned();
            w.runs.iter().filter_map(move |(v, r)| match (r, &base) {
                (Err(e), _) => Some(format!("{} {}: {e}", w.firmware, v.name)),
                (Ok(m), Some(b)) if m.uart != b.uart || m.exit_code != b.exit_code => {
                    Some(format!(
                        "{} {}: output differs from the unchecked build",
                        w.firmware, v.name
                    ))
                }
                _ => None,
            })
        })
        .collect();
    if !failures.is_empty() {
        let _ = writeln!(s, "\n### Failures\n");
        for f in failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

/// Run time, code and energy overheads of `opt` and `bound`, one row per workload, then their
/// averages.
fn bound_table(results: &[WorkloadResult]) -> String {
    let heads = [
        "run time opt",
        "run time bound",
        "code opt",
        "code bound",
        "energy opt",
        "energy bound",
    ];
    let mut t = table_of(&heads);
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); heads.len()];
    for w in results {
        let (o, b) = (overheads(w, "opt"), overheads(w, "bound"));
        let cells = [0, 1, 2].map(|i| [o.map(|x| x[i]), b.map(|x| x[i])]);
        let flat: Vec<Option<f64>> = cells.into_iter().flatten().collect();
        for (c, v) in cols.iter_mut().zip(&flat) {
            c.extend(*v);
        }
        let mut row = vec![w.firmware.clone()];
        row.extend(flat.into_iter().map(cell));
        t.row(row);
    }
    let mut row = vec!["**average**".to_string()];
    row.extend(cols.iter().map(|c| cell(mean(c.iter().copied()))));
    t.row(row);
    t.render()
}

/// Run-time overheads of the variants `names` (columns headed `heads`), one row per workload,
/// then their averages.
fn overhead_table<S: AsRef<str>>(results: &[WorkloadResult], heads: &[S], names: &[S]) -> String {
    let mut t = table_of(heads);
    let mut sums: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for w in results {
        let mut cells = vec![w.firmware.clone()];
        for (i, n) in names.iter().enumerate() {
            let v = overheads(w, n.as_ref()).map(|x| x[0]);
            sums[i].extend(v);
            cells.push(cell(v));
        }
        t.row(cells);
    }
    let mut cells = vec!["**average**".to_string()];
    cells.extend(sums.iter().map(|c| cell(mean(c.iter().copied()))));
    t.row(cells);
    t.render()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overhead_is_relative_to_the_base() {
        assert_eq!(overhead_percent(103.0, 100.0), 3.0);
        assert_eq!(overhead_percent(100.0, 0.0), 0.0);
    }

    #[test]
    fn paper_rows_match_by_suite_prefix() {
        assert_eq!(paper_row("ptrdist-small").unwrap()[1], 5.97);
        assert!(paper_row("demo").is_none());
    }
}
