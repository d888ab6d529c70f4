//! Rendering a [`SpeedReport`] as a terminal table and as Markdown.

use crate::sim_speed::{SpeedReport, SpeedRow, NOISE_SECONDS, TARGET_RATIO};
use std::fmt::Write;

impl SpeedReport {
    /// A fixed-width table, one row per program, with PASS/MISS against the target ratio.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<14} {:>14} {:>10} {:>10} {:>10} {:>10} {:>7}  target {TARGET_RATIO}",
            "program", "instructions", "sim s", "sim MIPS", "qemu s", "qemu MIPS", "ratio"
        );
        for r in &self.rows {
            let _ = writeln!(
                out,
                "{:<14} {:>14} {:>10.3} {:>10.1} {:>10.3} {:>10.1} {:>7.3}  {}",
                r.name,
                r.instructions,
                r.sim_seconds,
                r.sim_mips,
                r.qemu_seconds,
                r.qemu_mips,
                r.ratio,
                verdict(r)
            );
        }
        if self.rows.iter().any(|r| r.noisy) {
            let _ = writeln!(
                out,
                "(noise: QEMU ran less than {NOISE_SECONDS} s beyond its start-up; those ratios mean nothing, use the full-size programs)"
            );
        }
        let _ = write!(
            out,
            "(best of {} runs; QEMU start-up {:.3} s subtracted; {} x{}; {})",
            self.repeats, self.qemu_startup_seconds, self.cpu, self.cpus, self.qemu
        );
        out
    }

    /// The report as pretty-printed JSON (every field of [`SpeedReport`]), newline-terminated.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self).map(|text| text + "\n")
    }

    /// A Markdown section: the command that produced it, the machine, and the table.
    pub fn markdown(&self, command: &str) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# Simulator speed: cactus-sim against QEMU\n");
        let _ = writeln!(out, "Produced by `{command}`.\n");
        let _ = writeln!(out, "- CPU: {} ({} logical CPUs)", self.cpu, self.cpus);
        let _ = writeln!(out, "- QEMU: {} (`-M virt -bios none`, TCG)", self.qemu);
        let _ = writeln!(
            out,
            "- cactus-sim: release build, profile `{}`, cycle and energy model on",
            self.profile
        );
        let _ = writeln!(
            out,
            "- Method: best of {} runs per machine; cactus-sim times `Machine::run`; QEMU times the whole process minus its start-up ({:.3} s, measured on a program that exits at once). MIPS = guest instructions (counted by cactus-sim) / seconds.",
            self.repeats, self.qemu_startup_seconds
        );
        let _ = writeln!(out, "- Target: ratio ≥ {TARGET_RATIO} on every program.\n");
        let _ = writeln!(
            out,
            "| program | instructions | cactus-sim MIPS | QEMU MIPS | ratio | target |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---|");
        for r in &self.rows {
            let _ = writeln!(
                out,
                "| {} | {} | {:.1} | {:.1} | {:.3} | {} |",
                r.name,
                r.instructions,
                r.sim_mips,
                r.qemu_mips,
                r.ratio,
                verdict(r)
            );
        }
        out
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

    fn row(name: &str, ratio: f64, noisy: bool) -> SpeedRow {
        SpeedRow {
            name: name.into(),
            instructions: 1_000_000_000,
            sim_seconds: 4.0,
            qemu_seconds: 4.0 * ratio,
            sim_mips: 250.0,
            qemu_mips: 250.0 / ratio,
            ratio,
            pass: ratio >= TARGET_RATIO,
            noisy,
        }
    }

    fn report(rows: Vec<SpeedRow>) -> SpeedReport {
        SpeedReport {
            cpu: "Test CPU".into(),
            cpus: 2,
            qemu: "QEMU 7.2".into(),
            profile: "mcu".into(),
            qemu_startup_seconds: 0.02,
            repeats: 3,
            rows,
        }
    }

    #[test]
    fn table_marks_pass_miss_and_noise() {
        let t = report(vec![
            row("fib", 0.25, false),
            row("matmul", 0.1, false),
            row("x", 0.3, true),
        ])
        .table();
        let lines: Vec<&str> = t.lines().collect();
        assert!(
            lines[1].starts_with("fib") && lines[1].ends_with("PASS"),
            "{t}"
        );
        assert!(
            lines[2].starts_with("matmul") && lines[2].ends_with("MISS"),
            "{t}"
        );
        assert!(lines[3].ends_with("PASS (noise)"), "{t}");
        assert!(t.contains("(noise:"), "{t}");
    }

    #[test]
    fn markdown_names_command_and_machine() {
        let md = report(vec![row("fib", 0.25, false)]).markdown("cactus bench sim-speed");
        assert!(md.contains("Produced by `cactus bench sim-speed`."), "{md}");
        assert!(md.contains("Test CPU (2 logical CPUs)"), "{md}");
        assert!(
            md.contains("| fib | 1000000000 | 250.0 | 1000.0 | 0.250 | PASS |"),
            "{md}"
        );
    }

    #[test]
    fn json_has_every_row() {
        let json = report(vec![row("fib", 0.25, false), row("divrem", 0.5, false)])
            .json()
            .unwrap();
        assert!(
            json.contains("\"name\": \"fib\"") && json.contains("\"name\": \"divrem\""),
            "{json}"
        );
    }
}
