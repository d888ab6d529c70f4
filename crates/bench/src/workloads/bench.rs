//! `cactus bench workloads`: one row per workload manifest run on cactus-sim (the runs come
//! from [`crate::workloads::stacks::points`]): pass/fail, instructions, cycles, energy,
//! context switches, total stack budget against total high water and, for the CoreMark-like
//! suite, iterations per million cycles.
//!
//! Guarantees: the iterations are the rounds the coordinator task printed for each program
//! (`ok   NAME: checksum 0x... expected 0x... rounds N`, workloads/common/kernel/wl_task.c),
//! summed over the run's programs; iterations per million cycles is that sum × 1e6 divided
//! by the cycles of the whole run. A figure that was not measured is shown as `-`, never
//! invented.

use crate::workloads::stacks::ManifestRun;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::{energy, mean, Table};
use cactus_sweep::{Meta, Summary, SweepReport};
use serde::Serialize;

/// The suite whose programs are counted in iterations.
pub const COREMARK_SUITE: &str = "coremark-like";

/// One program's result line from the coordinator.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProgramResult {
    /// Program name.
    pub name: String,
    /// Whether its checksum matched the expected one.
    pub ok: bool,
    /// Rounds (iterations) the program ran.
    pub rounds: u64,
}

/// The coordinator's per-program lines in `uart`, in output order. Other lines are skipped.
pub fn program_results(uart: &str) -> Vec<ProgramResult> {
    uart.lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [status @ ("ok" | "FAIL"), name, "checksum", _, "expected", _, "rounds", n] => {
                    Some(ProgramResult {
                        name: name.strip_suffix(':')?.to_string(),
                        ok: *status == "ok",
                        rounds: n.parse().ok()?,
                    })
                }
                _ => None,
            }
        })
        .collect()
}

/// Iterations per million cycles: `iterations × 1e6 / cycles` (`None` for zero cycles).
pub fn iterations_per_mcycle(iterations: u64, cycles: u64) -> Option<f64> {
    (cycles > 0).then(|| iterations as f64 * 1e6 / cycles as f64)
}

/// One manifest's benchmark row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchRow {
    /// Suite of the manifest.
    pub suite: String,
    /// Firmware name.
    pub firmware: String,
    /// Manifest path relative to `workloads/`.
    pub manifest: String,
    /// Whether the run exited with 0.
    pub passed: bool,
    /// Why it failed, if it did.
    pub note: Option<String>,
    /// Instructions retired (`None` if it never ran).
    pub instructions: Option<u64>,
    /// Simulated cycles of the whole run.
    pub cycles: Option<u64>,
    /// Energy of the whole run in nJ.
    pub energy_nj: Option<f64>,
    /// Context switches summed over the tasks.
    pub switches: Option<u64>,
    /// Sum of the tasks' stack budgets in bytes.
    pub stack_budget: u32,
    /// Sum of the tasks' measured high water in bytes (`None` unless every task reported).
    pub stack_hwm: Option<u32>,
    /// CoreMark-like only: rounds summed over the programs.
    pub iterations: Option<u64>,
    /// CoreMark-like only: `iterations × 1e6 / cycles`.
    pub iterations_per_mcycle: Option<f64>,
}

impl BenchRow {
    /// The row of one run.
    pub fn of(run: &ManifestRun) -> BenchRow {
        let t = run.totals.as_ref();
        let hwm: Option<Vec<u32>> = run.rows.iter().map(|r| r.stack_hwm).collect();
        let cycles = t.map(|t| t.cycles);
        let iterations = (run.entry.suite == COREMARK_SUITE)
            .then(|| program_results(&run.uart))
            .filter(|p| !p.is_empty())
            .map(|p| p.iter().map(|p| p.rounds).sum::<u64>());
        BenchRow {
            suite: run.entry.suite.clone(),
            firmware: run.entry.firmware.clone(),
            manifest: run.entry.manifest.display().to_string(),
            passed: run.note.is_none(),
            note: run.note.clone(),
            instructions: t.map(|t| t.instructions),
            cycles,
            energy_nj: t.map(|t| t.energy_nj),
            switches: t.and_then(|t| t.switches),
            stack_budget: run.rows.iter().map(|r| r.budget).sum(),
            stack_hwm: hwm.filter(|h| !h.is_empty()).map(|h| h.iter().sum()),
            iterations,
            iterations_per_mcycle: iterations
                .zip(cycles)
                .and_then(|(i, c)| iterations_per_mcycle(i, c)),
        }
    }
}

fn or_dash<T>(v: Option<T>, f: impl Fn(T) -> String) -> String {
    v.map_or_else(|| "-".to_string(), f)
}

/// The rows as a Markdown table, one line per manifest, then the failed runs with their
/// reasons.
pub fn markdown(rows: &[BenchRow]) -> String {
    let mut t = Table::new(&[
        "suite",
        "workload",
        "run",
        ">instructions",
        ">cycles",
        ">energy",
        ">switches",
        ">stack budget (B)",
        ">stack high water (B)",
        ">iterations",
        ">iterations / Mcycle",
    ]);
    for r in rows {
        t.row([
            r.suite.clone(),
            r.firmware.clone(),
            if r.passed { "pass" } else { "FAIL" }.to_string(),
            or_dash(r.instructions, |v| v.to_string()),
            or_dash(r.cycles, |v| v.to_string()),
            or_dash(r.energy_nj, energy),
            or_dash(r.switches, |v| v.to_string()),
            r.stack_budget.to_string(),
            or_dash(r.stack_hwm, |v| v.to_string()),
            or_dash(r.iterations, |v| v.to_string()),
            or_dash(r.iterations_per_mcycle, |v| format!("{v:.2}")),
        ]);
    }
    let mut out = t.render();
    let failed: Vec<_> = rows.iter().filter(|r| !r.passed).collect();
    if !failed.is_empty() {
        out.push_str("\nFailed runs:\n\n");
        for r in failed {
            let why = r.note.as_deref().unwrap_or("no reason recorded");
            out.push_str(&format!("- `{}`: {why}\n", r.manifest));
        }
    }
    out
}

/// The workload suites on cactus-sim (`cactus bench workloads`).
pub struct Workloads;

impl Evaluation for Workloads {
    const NAME: &'static str = "workloads";
    const UNIT: &'static str = "manifests";
    type Row = ManifestRun;

    fn render(runs: &[ManifestRun], meta: &Meta) -> SweepReport {
        let rows: Vec<BenchRow> = runs.iter().map(BenchRow::of).collect();
        let size = meta.params["size"].as_str().unwrap_or("?").to_string();
        let (passed, failed) = verdicts(runs);
        let coremark: Vec<f64> = rows
            .iter()
            .filter_map(|r| r.iterations_per_mcycle)
            .collect();
        let mut summary = Summary::new("workloads");
        summary
            .add("runs", rows.len())
            .add("cycles", rows.iter().filter_map(|r| r.cycles).sum::<u64>())
            .num("coremark_iterations_per_mcycle", mean(coremark), 2);
        SweepReport {
            tables: markdown(&rows),
            reading: reading(&size),
            note: " (simulated cycles only: the figures are deterministic)".to_string(),
            passed,
            failed,
            summary,
        }
    }
}

/// The store's parameters: the size class run.
pub fn params(size: &str) -> serde_json::Value {
    serde_json::json!({ "size": size })
}

/// What the columns mean, for size class `size`.
pub fn reading(size: &str) -> String {
    format!(
        "Every workload manifest of size class `{size}` under `workloads/` is built with \
         `cactus build` (its manifest's stack strategy) and run on cactus-sim with profile \
         `mcu`; each program checks its own result and the run passes when the firmware exits \
         with code 0. Instructions, cycles (sleep included) and energy are the whole run's; \
         switches are the context switches summed over the tasks the kernel reported through \
         the trace device; the stack columns sum the manifest's task budgets (guard included) \
         and the tasks' measured high water (`cactus workloads stacks` gives them per task). \
         For the CoreMark-like suite, iterations are the rounds the coordinator task printed \
         for each program (summed over the programs of the run) and iterations / Mcycle is \
         iterations × 10⁶ / cycles of the whole run, kernel and idle time included."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::stacks::{RunTotals, StackRow};
    use cactus_firmware::catalogue::Entry;

    const UART: &str = "boot\n\
        ok   coremark0: checksum 0xda674e6a expected 0xda674e6a rounds 400\n\
        FAIL coremark1: checksum 0xbad00001 expected 0x580492e8 rounds 399\n\
        PASS coremark_quad (coremark-quad, size class 1, 2 programs)\n";

    fn run(suite: &str, cycles: u64, hwm: Option<u32>) -> ManifestRun {
        let row = |task: &str, hwm| StackRow {
            suite: suite.into(),
            firmware: "fw".into(),
            task: task.into(),
            budget: 600,
            stack_hwm: hwm,
            passed: true,
        };
        ManifestRun {
            entry: Entry {
                suite: suite.into(),
                manifest: "s/fw.toml".into(),
                firmware: "fw".into(),
                size: None,
                tasks: vec![],
                total_stack: 0,
            },
            rows: vec![row("a", Some(500)), row("b", hwm)],
            note: None,
            totals: Some(RunTotals {
                instructions: 1_000_000,
                cycles,
                energy_nj: 2500.0,
                switches: Some(42),
            }),
            uart: UART.into(),
        }
    }

    #[test]
    fn coordinator_lines_give_names_status_and_rounds() {
        let p = program_results(UART);
        assert_eq!(p.len(), 2);
        assert_eq!(
            (p[0].name.as_str(), p[0].ok, p[0].rounds),
            ("coremark0", true, 400)
        );
        assert_eq!(
            (p[1].name.as_str(), p[1].ok, p[1].rounds),
            ("coremark1", false, 399)
        );
    }

    #[test]
    fn iterations_per_mcycle_is_iterations_times_1e6_over_cycles() {
        assert_eq!(iterations_per_mcycle(799, 4_000_000), Some(199.75));
        assert_eq!(iterations_per_mcycle(1, 0), None);
    }

    #[test]
    fn coremark_rows_count_iterations_and_other_suites_do_not() {
        let cm = BenchRow::of(&run(COREMARK_SUITE, 8_000_000, Some(100)));
        assert_eq!(cm.iterations, Some(799));
        assert_eq!(cm.iterations_per_mcycle, Some(99.875));
        assert_eq!((cm.stack_budget, cm.stack_hwm), (1200, Some(600)));
        let md = markdown(std::slice::from_ref(&cm));
        assert!(
            md.contains(
                "| coremark-like | fw | pass | 1000000 | 8000000 | 2.500 µJ | 42 | 1200 | 600 \
                 | 799 | 99.88 |"
            ),
            "{md}"
        );
        let other = BenchRow::of(&run("mtss", 8_000_000, None));
        assert_eq!((other.iterations, other.stack_hwm), (None, None));
        let md = markdown(&[other]);
        assert!(md.contains("| 1200 | - | - | - |"), "{md}");
        let mut failed = run(COREMARK_SUITE, 8_000_000, Some(100));
        failed.note = Some("exit code 1".into());
        let meta = Meta {
            params: params("full"),
            ..Meta::default()
        };
        let report = Workloads::render(&[failed.clone(), failed], &meta);
        assert!(
            report.summary_line().ends_with("passed=0 failed=2"),
            "{}",
            report.summary_line()
        );
        assert!(report.reading.contains("size class `full`"));
        assert!(
            report.tables.contains("- `s/fw.toml`: exit code 1\n"),
            "{}",
            report.tables
        );
    }
}
