//! `cactus bench carousel`: the Carousel paper's evaluation on cactus-sim (docs/carousel.md).
//! Table IV: the overhead of invoking a trivial task that needs y code blocks and z stack
//! blocks (y = 1..4, z = 0..2) from a full Carousel, measured by `tests/carousel/carousel_ops.c`
//! on `carousel-paper`, and its least-squares fit a·y + b·z + c against the paper's 416y +
//! 286z + 455 (the program first checks what the operations keep and move; a failed check
//! fails the point). Tables V-VII: random task sets of the thirteen malardalen-like tasks
//! ([`taskset`]), each run on the Carousel machine, on both cache machines and on the overlay
//! machine (the software-only variant); a set whose tasks end with different results on two
//! machines fails its point.

pub mod fit;
pub mod report;
pub mod tables;
pub mod taskset;

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
    /// Run `make -C tests` for the programs first.
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
    /// A task set's runs (Tables V-VII; the Table IV point has none).
    #[serde(default)]
    pub set: Option<taskset::SetRow>,
    /// What went wrong (build, run, output), empty when the point passed.
    pub problems: Vec<String>,
}

impl Row for OverheadRow {
    fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Task sets of a size class: the paper's 1,000, or 4.
pub fn set_count(size: crate::Size) -> u64 {
    match size {
        crate::Size::Small => 4,
        crate::Size::Full => 1000,
    }
}

/// SZ for our tasks: the paper's 15·10⁶ cycles scaled by the sum of our C_i over the sum of
/// the paper's (Table V), so that the periods, drawn up to SZ/4, load the machine as the
/// paper's did (our malardalen-like tasks are longer than its hand-adapted ones).
pub fn scaled_sz(calibration: &taskset::MachineRun) -> u64 {
    let ours: u64 = calibration.tasks.iter().map(|t| t.wcet).sum();
    let paper: u64 = tables::PAPER_TABLE_V.iter().map(|t| t.2).sum();
    (u128::from(cactus_rta::PAPER_SZ) * u128::from(ours.max(1)) / u128::from(paper)) as u64
}

/// The generator's seed of every sweep (the sets are the same on every machine).
pub const SEED: u64 = 2011;

/// What the task-set points need, found before the sweep: each task's C_i (its one job on the
/// Carousel machine) and the blocking B (the calibration's longest interrupt-masked window),
/// and the sets drawn from them.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// The calibration run.
    pub calibration: taskset::MachineRun,
    /// The sets.
    pub sets: Vec<taskset::SetSpec>,
    /// SZ, cycles.
    pub sz: u64,
}

/// Builds both programs (unless told not to), runs the calibration and draws the sets.
pub fn prepare(options: &CarouselOptions) -> Result<Prepared, String> {
    if options.build {
        make(
            &options.root,
            &[OPS_ELF, taskset::TASKSET_ELF, taskset::TASKSET_OVERLAY_ELF],
        )?;
    }
    let path = options.root.join(taskset::TASKSET_ELF);
    let elf = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let calibration = taskset::run(&elf, "carousel-paper", 0, None)?;
    let count = set_count(options.size);
    let sz = scaled_sz(&calibration);
    // B for the generator's equation 4: the longest interrupt-masked window of the
    // calibration run, in which every task's job is invoked once through Carousel and the
    // timer handler releases all thirteen at one tick. Every Carousel critical section takes
    // the same cycles whatever the Carousel holds, so the longest one is seen although
    // nothing is preempted; the sets' runs measure how long the timer actually stayed
    // pending (reported beside it).
    let blocking = calibration.masked;
    if blocking == 0 {
        return Err(format!(
            "the calibration run on carousel-paper measured no interrupt-masked window ({})",
            path.display()
        ));
    }
    let sets = taskset::sets(&calibration, blocking, count, sz, SEED).map_err(|e| {
        let c: Vec<String> = taskset::TASKS
            .iter()
            .zip(&calibration.tasks)
            .map(|(n, t)| format!("{n} {}", t.wcet))
            .collect();
        format!("{e} (C_i: {}; B = {blocking})", c.join(", "))
    })?;
    Ok(Prepared {
        calibration,
        sets,
        sz,
    })
}

/// The sweep: the Table IV program, then one point per task set.
pub fn points(options: &CarouselOptions, prepared: &Prepared) -> Vec<Point<'static, OverheadRow>> {
    let mut points = Vec::new();
    let opts = options.clone();
    points.push(Point::new("table4", "Table IV overheads", move |_, _| {
        measure(&opts)
    }));
    let elf_path = options.root.join(taskset::TASKSET_ELF);
    let overlay_path = options.root.join(taskset::TASKSET_OVERLAY_ELF);
    for set in &prepared.sets {
        let set = set.clone();
        let elf_path = elf_path.clone();
        let overlay_path = overlay_path.clone();
        points.push(Point::new(
            &format!("set-{:04}", set.index),
            &format!("task set {}", set.index),
            move |_, _| run_set(&elf_path, &overlay_path, &set),
        ));
    }
    points
}

fn run_set(path: &Path, overlay_path: &Path, set: &taskset::SetSpec) -> OverheadRow {
    let mut row = OverheadRow {
        checks: Some((0, 0)),
        ..OverheadRow::default()
    };
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let (elf, overlay) = match (read(path), read(overlay_path)) {
        (Ok(e), Ok(o)) => (e, o),
        (Err(e), _) | (_, Err(e)) => {
            row.problems.push(e);
            return row;
        }
    };
    let mut runs = Vec::new();
    for (profile, mode) in taskset::MACHINES {
        let program = if mode == taskset::OVERLAY_MODE {
            &overlay
        } else {
            &elf
        };
        match taskset::run(program, profile, mode, Some(set)) {
            Ok(r) => runs.push(r),
            Err(e) => row.problems.push(e),
        }
    }
    // The same jobs compute the same results on every machine.
    if let Some(first) = runs.first() {
        for r in &runs[1..] {
            for (k, (a, b)) in first.tasks.iter().zip(&r.tasks).enumerate() {
                if a.checksum != b.checksum || a.jobs != b.jobs {
                    row.problems.push(format!(
                        "{}: {} jobs with checksum {} on {}, {} with {} on {}",
                        taskset::TASKS[k],
                        a.jobs,
                        a.checksum,
                        first.profile,
                        b.jobs,
                        b.checksum,
                        r.profile
                    ));
                }
            }
        }
    }
    // Equation 4 drew the set with B: no interrupt may wait longer on the Carousel machine.
    if let Some(r) = runs.iter().find(|r| r.profile == taskset::MACHINES[0].0) {
        let longest = r.masked.max(r.blocking);
        if set.b > 0 && longest > set.b {
            row.problems.push(format!(
                "{}: an interrupt-masked window of {} cycles (pending {}) is longer than the B = {} \
                 the set was drawn with",
                r.profile, r.masked, r.blocking, set.b
            ));
        }
    }
    row.set = Some(taskset::SetRow {
        index: set.index,
        runs,
        b: set.b,
    });
    row
}

/// `make -C tests` for the programs.
fn make(root: &Path, elfs: &[&str]) -> Result<(), String> {
    let out = Command::new("make")
        .arg("--no-print-directory")
        .arg("-s")
        .arg("-C")
        .arg(root.join("tests"))
        .args(elfs.iter().map(|e| root.join(e)))
        .output()
        .map_err(|e| format!("cannot run make: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("make -C tests failed: {}", last_lines(&err)));
    }
    Ok(())
}

/// The parameters recorded in the store.
pub fn params(options: &CarouselOptions, prepared: &Prepared) -> serde_json::Value {
    serde_json::json!({
        "profiles": taskset::MACHINES.iter().map(|m| m.0).collect::<Vec<_>>(),
        "programs": [OPS_ELF, taskset::TASKSET_ELF, taskset::TASKSET_OVERLAY_ELF],
        "size": options.size.name(),
        "sets": prepared.sets.len(),
        "sz": prepared.sz,
        "seed": SEED,
        "calibration": prepared.calibration,
    })
}

fn measure(options: &CarouselOptions) -> OverheadRow {
    let mut row = OverheadRow::default();
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
