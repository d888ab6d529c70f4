//! `cactus bench carousel`: the Carousel paper's evaluation on cactus-sim's `carousel-paper`
//! profile (docs/carousel.md). Today: Table IV, the overhead of invoking a trivial task that
//! needs y code blocks and z stack blocks (y = 1..4, z = 0..2) from a full Carousel, measured
//! by `tests/carousel/carousel_ops.c` (built by `make -C tests`), and its least-squares fit
//! a·y + b·z + c against the paper's 416y + 286z + 455. The program first checks what the
//! Carousel operations keep and move; a failed check fails the point. Tables V-VII (1,000
//! task sets on the Carousel and cache machines) are not built yet: their summary keys show
//! `-`.

pub mod fit;
pub mod report;

pub use report::Carousel;

use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use cactus_sweep::{Point, Row};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The test program that measures Table IV.
pub const OPS_ELF: &str = "build/tests/carousel/carousel_ops.elf";
/// Its simulated-cycle limit (it needs about a million).
const MAX_CYCLES: u64 = 100_000_000;

/// Where the program lives and whether to build it first.
#[derive(Clone, Debug)]
pub struct CarouselOptions {
    /// Repository root (holds `tests/` and `build/`).
    pub root: PathBuf,
    /// Run `make -C tests` for the program first.
    pub build: bool,
    /// Size class (Table IV is the same at both; it is recorded in the store).
    pub size: crate::Size,
}

/// One invocation's overhead: y code blocks, z stack blocks, cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overhead {
    /// Code blocks.
    pub y: u32,
    /// Stack blocks.
    pub z: u32,
    /// Cycles of swap_out, open, close and swap_in (the invocation less the task's own run).
    pub cycles: u64,
}

/// What the Table IV point measured.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct OverheadRow {
    /// The overheads, in the program's order.
    pub overheads: Vec<Overhead>,
    /// The program's own checks of the operations: (checks, failed).
    pub checks: Option<(u32, u32)>,
    /// What went wrong (build, run, output), empty when the point passed.
    pub problems: Vec<String>,
}

impl Row for OverheadRow {
    fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The sweep: one point, the Table IV program.
pub fn points(options: &CarouselOptions) -> Vec<Point<'static, OverheadRow>> {
    let options = options.clone();
    vec![Point::new("table4", "Table IV overheads", move |_, _| {
        measure(&options)
    })]
}

/// The parameters recorded in the store.
pub fn params(options: &CarouselOptions) -> serde_json::Value {
    serde_json::json!({ "profile": "carousel-paper", "program": OPS_ELF, "size": options.size.name() })
}

fn measure(options: &CarouselOptions) -> OverheadRow {
    let mut row = OverheadRow::default();
    if options.build {
        let elf = options.root.join(OPS_ELF);
        let status = Command::new("make")
            .arg("--no-print-directory")
            .arg("-s")
            .arg("-C")
            .arg(options.root.join("tests"))
            .arg(&elf)
            .output();
        match status {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr);
                row.problems.push(format!(
                    "make -C tests {OPS_ELF} failed: {}",
                    last_lines(&err)
                ));
                return row;
            }
            Err(e) => {
                row.problems.push(format!("cannot run make: {e}"));
                return row;
            }
        }
    }
    match run(&options.root.join(OPS_ELF)) {
        Ok(output) => parse(&output, &mut row),
        Err(e) => row.problems.push(e),
    }
    row
}

fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(3)..].join(" / ")
}

/// Runs the program on `carousel-paper`; its UART output, or why it did not end with exit 0.
fn run(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let profile = Profile::builtin("carousel-paper").ok_or("no carousel-paper profile")?;
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(MAX_CYCLES);
    let mut machine = Machine::new(config);
    machine
        .load_elf(&bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let ending = match machine.run_to_end() {
        RunOutcome::Exited { code } => code,
        other => return Err(other.failure().unwrap_or_default()),
    };
    let output = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    if ending != 0 {
        let failed: Vec<&str> = output.lines().filter(|l| l.starts_with("FAIL")).collect();
        return Err(format!(
            "{} exited with {ending}: {}",
            path.display(),
            failed.join("; ")
        ));
    }
    Ok(output)
}

/// Reads `overhead y=Y z=Z cycles=C` lines and the `NAME: N checks, M failed` line.
pub fn parse(output: &str, row: &mut OverheadRow) {
    for line in output.lines() {
        if let Some(rest) = line.strip_prefix("overhead ") {
            let value = |key: &str| -> Option<u64> {
                rest.split_whitespace()
                    .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))?
                    .parse()
                    .ok()
            };
            match (value("y"), value("z"), value("cycles")) {
                (Some(y), Some(z), Some(cycles)) => row.overheads.push(Overhead {
                    y: y as u32,
                    z: z as u32,
                    cycles,
                }),
                _ => row.problems.push(format!("unreadable line {line:?}")),
            }
        } else if let Some((_, counts)) = line.split_once(": ") {
            let words: Vec<&str> = counts.split_whitespace().collect();
            if let [n, "checks,", m, "failed"] = words[..] {
                if let (Ok(n), Ok(m)) = (n.parse(), m.parse()) {
                    row.checks = Some((n, m));
                }
            }
        }
    }
    if row.overheads.len() != 12 {
        row.problems.push(format!(
            "{} overhead lines, 12 expected (y = 1..4, z = 0..2)",
            row.overheads.len()
        ));
    }
    match row.checks {
        Some((_, 0)) => {}
        Some((n, m)) => row.problems.push(format!("{m} of {n} checks failed")),
        None => row.problems.push("no checks line".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_output_is_read_and_judged() {
        let mut text = String::new();
        for y in 1..=4 {
            for z in 0..=2 {
                text.push_str(&format!(
                    "overhead y={y} z={z} cycles={}\n",
                    100 * y + 10 * z
                ));
            }
        }
        text.push_str("carousel_ops: 31 checks, 0 failed\nPASS\n");
        let mut row = OverheadRow::default();
        parse(&text, &mut row);
        assert!(row.passed(), "{:?}", row.problems);
        assert_eq!(
            row.overheads[5],
            Overhead {
                y: 2,
                z: 2,
                cycles: 220
            }
        );
        let mut bad = OverheadRow::default();
        parse(
            "overhead y=1 z=0 cycles=x\ncarousel_ops: 31 checks, 2 failed\n",
            &mut bad,
        );
        assert_eq!(bad.problems.len(), 3, "{:?}", bad.problems);
    }
}
