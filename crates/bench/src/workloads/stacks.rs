//! `cactus workloads stacks`: builds every selected workload manifest, runs it on cactus-sim
//! with the trace device and collects each task's measured stack high water (the `static`
//! strategy's painted watermark, reported as STACK_HWM events at task exit or by
//! `cactus_fw_finish`) against its budget, plus whether the run passed its own check
//! (exit code 0). Each run also keeps the whole run's totals (instructions, cycles, energy,
//! switches) and the guest's UART output, which `cactus bench workloads`
//! ([`crate::workloads::bench`]) tabulates.
//!
//! Guarantees: rows come in catalogue order whatever order the parallel runs finish in; a
//! manifest that fails to build or to run gives rows with no high water and `passed = false`
//! plus a note, never a missing row or a host panic.

use cactus_firmware::catalogue::Entry;
use cactus_firmware::{BuildOptions, Manifest};
use cactus_sim::{MachineConfig, Profile, RunOutcome};
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Point, Progress, Row};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Simulated cycles after which a run is stopped (and counted as failed).
pub const MAX_CYCLES: u64 = 50_000_000_000;

/// One task's measurement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackRow {
    /// Suite of the manifest.
    pub suite: String,
    /// Firmware name (the manifest's `firmware.name`).
    pub firmware: String,
    /// Task name.
    pub task: String,
    /// Stack budget in bytes (guard included).
    pub budget: u32,
    /// Measured high water in bytes, if the run reported one.
    pub stack_hwm: Option<u32>,
    /// Whether the whole run exited with code 0.
    pub passed: bool,
}

/// What one manifest's run gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ManifestRun {
    /// The catalogue entry.
    pub entry: Entry,
    /// One row per task, in manifest order.
    pub rows: Vec<StackRow>,
    /// Why the run failed (build error, exit code, fault), if it did.
    pub note: Option<String>,
    /// Whole-run totals from the simulator's statistics (`None` if it never ran).
    pub totals: Option<RunTotals>,
    /// Everything the guest wrote to the UART (empty if it never ran).
    pub uart: String,
}

/// Whole-run figures from cactus-sim's statistics (profile `mcu`, or `carousel-paper` for a
/// Carousel firmware).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunTotals {
    /// Instructions retired.
    pub instructions: u64,
    /// Simulated cycles, sleep included.
    pub cycles: u64,
    /// Total energy in nJ.
    pub energy_nj: f64,
    /// Context switches summed over the tasks the firmware reported (`None` if it reported
    /// none through the trace device).
    pub switches: Option<u64>,
}

/// Builds and runs one manifest (at `workloads_dir/entry.manifest`).
pub fn measure(workloads_dir: &Path, entry: &Entry) -> ManifestRun {
    let result = run_one(&workloads_dir.join(&entry.manifest));
    let (hwm, note, totals, uart) = match result {
        Ok(m) => (m.hwm, m.note, Some(m.totals), m.uart),
        Err(e) => (Vec::new(), Some(e), None, String::new()),
    };
    let passed = note.is_none();
    let rows = entry
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| StackRow {
            suite: entry.suite.clone(),
            firmware: entry.firmware.clone(),
            task: t.name.clone(),
            budget: t.stack,
            stack_hwm: hwm.get(i).copied().flatten(),
            passed,
        })
        .collect();
    ManifestRun {
        entry: entry.clone(),
        rows,
        note,
        totals,
        uart,
    }
}

/// What one simulated run gave.
struct Measured {
    /// Per-task high water by task id.
    hwm: Vec<Option<u32>>,
    /// A failure note if the run did not exit with 0.
    note: Option<String>,
    totals: RunTotals,
    uart: String,
}

fn run_one(path: &Path) -> Result<Measured, String> {
    let manifest = Manifest::load(path).map_err(|e| e.to_string())?;
    let built =
        cactus_firmware::build(&manifest, &BuildOptions::default()).map_err(|e| e.to_string())?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    // `mcu`, or the machine a Carousel firmware is linked for.
    let name = manifest.machine_profile();
    let profile = Profile::builtin(name).ok_or(format!("no built-in profile `{name}`"))?;
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(MAX_CYCLES);
    config.record_events = true;
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&elf, &built.elf.display().to_string(), config)?;
    let stats = machine.stats();
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    let totals = RunTotals {
        instructions: stats.instructions,
        cycles: stats.cycles,
        energy_nj: stats.energy_nj,
        switches: (!stats.tasks.is_empty()).then(|| stats.tasks.iter().map(|t| t.switches).sum()),
    };
    // Under the srp scheduler the tasks are jobs on the dispatcher's shared stack (kernel task
    // 0): no task has a stack of its own to measure (`cactus bench srp` measures the shared one).
    let tasks_with_stacks = if manifest.srp.is_some() {
        0
    } else {
        manifest.tasks.len() as u32
    };
    let hwm = (0..tasks_with_stacks)
        .map(|id| {
            stats
                .tasks
                .iter()
                .find(|t| t.id == id && t.hwm_samples > 0)
                .map(|t| t.stack_hwm)
        })
        .collect();
    let note = match outcome {
        RunOutcome::Exited { code: 0 } => None,
        RunOutcome::Exited { code } => Some(format!("exit code {code}")),
        RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => {
            Some(r.to_string().lines().next().unwrap_or("").to_string())
        }
        RunOutcome::OracleViolation(r) => {
            Some(r.to_string().lines().next().unwrap_or("").to_string())
        }
        RunOutcome::Breakpoint { pc } => Some(format!("breakpoint at {pc:#010x}")),
    };
    Ok(Measured {
        hwm,
        note,
        totals,
        uart,
    })
}

impl Row for ManifestRun {
    fn passed(&self) -> bool {
        self.note.is_none()
    }
}

/// One point per entry (keyed by its manifest path): its build and run; a failed run is
/// also a `FAIL manifest: why` note.
pub fn points<'a>(workloads_dir: &'a Path, entries: &'a [Entry]) -> Vec<Point<'a, ManifestRun>> {
    entries
        .iter()
        .map(|e| {
            let key = e.manifest.display().to_string();
            Point::new(key, e.firmware.clone(), move |_, progress: &Progress| {
                let r = measure(workloads_dir, e);
                if let Some(note) = &r.note {
                    progress.note(&format!("FAIL {}: {note}", r.entry.manifest.display()));
                }
                r
            })
        })
        .collect()
}

/// `part` as a percentage of `whole`, one decimal.
fn percent(part: u32, whole: u32) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", f64::from(part) * 100.0 / f64::from(whole))
}

/// The stack budget the paper's rule gives a measured high water: × 1.1, rounded up to 16
/// bytes, plus the `static` strategy's 16-byte guard.
pub fn budget_for(hwm: u32) -> u32 {
    (u64::from(hwm) * 11).div_ceil(160) as u32 * 16 + 16
}

/// The rows as a Markdown table (suite, workload, task, budget, high water, % used, ×1.1
/// budget, run result).
pub fn markdown(runs: &[ManifestRun]) -> String {
    let mut t = Table::new(&[
        "suite",
        "workload",
        "task",
        ">budget (B)",
        ">high water (B)",
        ">used",
        ">hwm × 1.1 + guard (B)",
        "run",
    ]);
    for r in runs {
        for row in &r.rows {
            t.row([
                row.suite.clone(),
                row.firmware.clone(),
                row.task.clone(),
                row.budget.to_string(),
                or_dash(row.stack_hwm),
                row.stack_hwm.map_or("-".into(), |h| percent(h, row.budget)),
                or_dash(row.stack_hwm.map(budget_for)),
                if row.passed { "pass" } else { "FAIL" }.to_string(),
            ]);
        }
    }
    t.render()
}

/// The marker lines that delimit the table of size class `size` (`small`, `full`, `all`) in
/// a document: `<!-- BEGIN cactus workloads stacks --size SIZE -->` and the same with `END`.
pub fn markers(size: &str) -> (String, String) {
    (
        format!("<!-- BEGIN cactus workloads stacks --size {size} -->"),
        format!("<!-- END cactus workloads stacks --size {size} -->"),
    )
}

/// `document` with the lines between the two marker lines of `size` replaced by `table`
/// (the markers stay). Errors name the missing or misordered marker.
pub fn splice(document: &str, size: &str, table: &str) -> Result<String, String> {
    let (begin, end) = markers(size);
    let find = |m: &str| {
        document
            .match_indices(m)
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let (b, e) = (find(&begin), find(&end));
    match (b.as_slice(), e.as_slice()) {
        ([b], [e]) if b < e => {
            let after_begin = b + begin.len();
            Ok(format!(
                "{}\n{}{}",
                &document[..after_begin],
                table,
                &document[*e..]
            ))
        }
        ([_], [_]) => Err(format!("`{end}` comes before `{begin}`")),
        _ => Err(format!(
            "expected one line `{begin}` and one line `{end}`, found {} and {}",
            b.len(),
            e.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers_of_its_size() {
        let doc = "intro\n<!-- BEGIN cactus workloads stacks --size small -->\nold\n\
                   <!-- END cactus workloads stacks --size small -->\nrest\n";
        let out = splice(doc, "small", "| new |\n").unwrap();
        assert_eq!(
            out,
            "intro\n<!-- BEGIN cactus workloads stacks --size small -->\n| new |\n\
             <!-- END cactus workloads stacks --size small -->\nrest\n"
        );
        // Idempotent: splicing the same table again changes nothing.
        assert_eq!(splice(&out, "small", "| new |\n").unwrap(), out);
        let err = splice(doc, "full", "x").unwrap_err();
        assert!(err.contains("found 0 and 0"), "{err}");
        let swapped = "<!-- END cactus workloads stacks --size small -->\n\
                       <!-- BEGIN cactus workloads stacks --size small -->\n";
        assert!(splice(swapped, "small", "x")
            .unwrap_err()
            .contains("comes before"));
    }

    #[test]
    fn budget_rule_is_hwm_times_1_1_rounded_to_16_plus_guard() {
        assert_eq!(budget_for(0), 16);
        assert_eq!(budget_for(160), 176 + 16); // 176 exactly
        assert_eq!(budget_for(161), 192 + 16); // 177.1 -> 192
        assert_eq!(budget_for(1232), 1360 + 16); // 1355.2 -> 1360
    }

    #[test]
    fn markdown_has_one_line_per_task_and_marks_failures() {
        let row = |task: &str, hwm: Option<u32>, passed| StackRow {
            suite: "s".into(),
            firmware: "fw".into(),
            task: task.into(),
            budget: 400,
            stack_hwm: hwm,
            passed,
        };
        let entry = Entry {
            suite: "s".into(),
            manifest: "s/fw.toml".into(),
            firmware: "fw".into(),
            size: None,
            tasks: vec![],
            total_stack: 0,
        };
        let runs = [ManifestRun {
            entry,
            rows: vec![row("a", Some(100), true), row("b", None, false)],
            note: None,
            totals: None,
            uart: String::new(),
        }];
        let md = markdown(&runs);
        assert!(
            md.contains("| s | fw | a | 400 | 100 | 25.0% | 128 | pass |"),
            "{md}"
        );
        assert!(
            md.contains("| s | fw | b | 400 | - | - | - | FAIL |"),
            "{md}"
        );
        assert_eq!(md.lines().count(), 4);
    }
}
