//! Rendering the speed rows: the machine, the method and one table row per program, with
//! PASS/MISS against the target ratio and the ratio's minimum in the summary.

use crate::sim_speed::{SpeedResult, SpeedRow, NOISE_SECONDS, TARGET_RATIO};
use cactus_sweep::table::Table;
use cactus_sweep::{Summary, SweepReport};
use std::fmt::Write;

/// The report of `rows` (in [`crate::sim_speed::PROGRAMS`] order).
pub fn render(rows: &[SpeedResult]) -> SweepReport {
    let mut reading = String::new();
    if let Some(h) = rows.iter().find_map(|r| r.host.as_ref()) {
        let _ = writeln!(reading, "- CPU: {} ({} logical CPUs)", h.cpu, h.cpus);
        let _ = writeln!(reading, "- QEMU: {} (`-M virt -bios none`, TCG)", h.qemu);
        let _ = writeln!(
            reading,
            "- cactus-sim: release build, profile `{}`, cycle and energy model on",
            h.profile
        );
        let _ = writeln!(
            reading,
            "- Method: best of {} runs per machine; cactus-sim times `Machine::run`; QEMU times \
             the whole process minus its start-up ({:.3} s, measured on a program that exits at \
             once). MIPS = guest instructions (counted by cactus-sim) / seconds.",
            h.repeats, h.qemu_startup_seconds
        );
    }
    let _ = write!(
        reading,
        "- Target: ratio ≥ {TARGET_RATIO} on every program. A QEMU time under \
         {NOISE_SECONDS} s after start-up is marked (noise): the ratio is then unreliable."
    );
    let mut t = Table::new(&[
        "program",
        ">instructions",
        ">cactus-sim MIPS",
        ">QEMU MIPS",
        ">ratio",
        "target",
    ]);
    let mut failures = String::new();
    for r in rows {
        match &r.row {
            Ok(row) => {
                t.row([
                    row.name.clone(),
                    row.instructions.to_string(),
                    format!("{:.1}", row.sim_mips),
                    format!("{:.1}", row.qemu_mips),
                    format!("{:.3}", row.ratio),
                    verdict(row).to_string(),
                ]);
            }
            Err(e) => {
                t.row([r.name.as_str(), "-", "-", "-", "-", "FAILED"]);
                let _ = writeln!(failures, "- {}: {e}", r.name);
            }
        }
    }
    let mut tables = t.render();
    if !failures.is_empty() {
        tables.push_str(&format!("\nFailed:\n\n{failures}"));
    }
    let ok: Vec<&SpeedRow> = rows.iter().filter_map(|r| r.row.as_ref().ok()).collect();
    let min = ok.iter().map(|r| r.ratio).reduce(f64::min);
    let mean = cactus_sweep::table::mean(ok.iter().map(|r| r.ratio));
    let mut summary = Summary::new("sim-speed");
    summary
        .num("ratio_min", min, 3)
        .num("ratio_mean", mean, 3)
        .num(
            "sim_mips_mean",
            cactus_sweep::table::mean(ok.iter().map(|r| r.sim_mips)),
            1,
        );
    let passed = rows
        .iter()
        .filter(|r| cactus_sweep::Row::passed(*r))
        .count();
    SweepReport {
        tables,
        reading,
        note: String::new(),
        passed,
        failed: rows.len() - passed,
        summary,
    }
}

/// PASS or MISS against the target, marked when the QEMU time is start-up noise.
fn verdict(row: &SpeedRow) -> &'static str {
    match (row.pass, row.noisy) {
        (true, false) => "PASS",
        (false, false) => "MISS",
        (true, true) => "PASS (noise)",
        (false, true) => "MISS (noise)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim_speed::Host;

    fn row(name: &str, ratio: f64, noisy: bool) -> SpeedResult {
        SpeedResult {
            name: name.into(),
            host: Some(Host {
                cpu: "Test CPU".into(),
                cpus: 2,
                qemu: "QEMU 7.2".into(),
                profile: "mcu".into(),
                qemu_startup_seconds: 0.02,
                repeats: 3,
            }),
            row: Ok(SpeedRow {
                name: name.into(),
                instructions: 1_000_000_000,
                sim_seconds: 4.0,
                qemu_seconds: 4.0 * ratio,
                sim_mips: 250.0,
                qemu_mips: 250.0 / ratio,
                ratio,
                pass: ratio >= TARGET_RATIO,
                noisy,
            }),
        }
    }

    #[test]
    fn the_table_marks_pass_miss_noise_and_failures() {
        let mut broken = row("divrem", 0.5, false);
        broken.row = Err("qemu missing".into());
        let r = render(&[
            row("fib", 0.25, false),
            row("matmul", 0.1, false),
            row("x", 0.3, true),
            broken,
        ]);
        assert!(
            r.tables
                .contains("| fib | 1000000000 | 250.0 | 1000.0 | 0.250 | PASS |"),
            "{}",
            r.tables
        );
        assert!(r.tables.contains("| 0.100 | MISS |"), "{}", r.tables);
        assert!(
            r.tables.contains("| 0.300 | PASS (noise) |"),
            "{}",
            r.tables
        );
        assert!(r.tables.contains("- divrem: qemu missing"), "{}", r.tables);
        assert!(
            r.reading.contains("Test CPU (2 logical CPUs)"),
            "{}",
            r.reading
        );
        assert_eq!(
            r.summary_line(),
            "sim-speed: ratio_min=0.100 ratio_mean=0.217 sim_mips_mean=250.0 passed=2 failed=2"
        );
    }
}
