//! `cactus bench sim-speed`: cactus-sim's speed as a ratio against QEMU measured in the same
//! run, on the programs in `build/bench/sim-speed/`.

pub mod table;

use cactus_sim::Profile;
use cactus_verify::qemu::{qemu_version, run_qemu, QemuError};
use cactus_verify::sim_run::{run_on_sim, SimEnding};
use cactus_verify::toolchain::{build_asm, ToolchainError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The benchmark programs, in table order.
pub const PROGRAMS: [&str; 5] = ["crc32_table", "crc32_bitwise", "matmul", "fib", "divrem"];
/// The speed target: cactus-sim at least this fraction of QEMU's MIPS on every program.
pub const TARGET_RATIO: f64 = 0.2;
/// QEMU run times (after subtracting start-up) below this are start-up noise.
pub const NOISE_SECONDS: f64 = 0.01;

/// What to measure.
#[derive(Clone, Debug)]
pub struct SpeedOptions {
    /// Directory holding `NAME.elf` and `NAME-small.elf`.
    pub dir: PathBuf,
    /// Use the `-small` variants (a quick check, noisier).
    pub small: bool,
    /// Runs per machine and program; the fastest counts.
    pub repeats: usize,
    /// Wall-clock limit per QEMU run.
    pub timeout: Duration,
}

/// One program's measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedRow {
    /// Program name.
    pub name: String,
    /// Guest instructions retired (from cactus-sim; the same binary runs on QEMU).
    pub instructions: u64,
    /// Best cactus-sim `Machine::run` time, seconds.
    pub sim_seconds: f64,
    /// Best QEMU process time minus QEMU's start-up time, seconds.
    pub qemu_seconds: f64,
    /// Millions of guest instructions per second on cactus-sim.
    pub sim_mips: f64,
    /// Millions of guest instructions per second on QEMU.
    pub qemu_mips: f64,
    /// sim_mips / qemu_mips.
    pub ratio: f64,
    /// ratio >= [`TARGET_RATIO`].
    pub pass: bool,
    /// QEMU's run time was within [`NOISE_SECONDS`] of its start-up time: the QEMU figure
    /// (and so the ratio) is not meaningful; use the full-size programs.
    pub noisy: bool,
}

/// Why the benchmark could not be completed.
#[derive(Debug, thiserror::Error)]
pub enum SpeedError {
    /// A benchmark ELF is missing or unreadable.
    #[error("{path}: {error} (build the benchmarks with `make -C tests`)")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The simulator refused an ELF.
    #[error("{path}: {error}")]
    Load {
        /// The file.
        path: PathBuf,
        /// Why.
        error: cactus_sim::LoadError,
    },
    /// A program did not exit with code 0 on one of the machines.
    #[error("{path} on {machine}: {detail}")]
    BadRun {
        /// The file.
        path: PathBuf,
        /// "cactus-sim" or "qemu".
        machine: &'static str,
        /// What happened instead.
        detail: String,
    },
    /// QEMU failed.
    #[error(transparent)]
    Qemu(#[from] QemuError),
    /// The start-up probe could not be built.
    #[error(transparent)]
    Toolchain(#[from] ToolchainError),
    /// A scratch directory could not be made.
    #[error("temporary directory: {0}")]
    Temp(std::io::Error),
}

/// The machine a speed row was measured on (the same for every row of a run).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// Host CPU model.
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// `qemu-system-riscv32 --version`, first line.
    pub qemu: String,
    /// cactus-sim profile.
    pub profile: String,
    /// QEMU's start-up time (best of the repeats), subtracted from its runs, seconds.
    pub qemu_startup_seconds: f64,
    /// Runs per machine and program (the fastest counts).
    pub repeats: usize,
}

/// One program's measurement, or why it could not be made (a row of the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeedResult {
    /// Program name.
    pub name: String,
    /// Where it was measured.
    pub host: Option<Host>,
    /// The measurement.
    pub row: Result<SpeedRow, String>,
}

impl cactus_sweep::Row for SpeedResult {
    fn passed(&self) -> bool {
        self.row.as_ref().is_ok_and(|r| r.pass)
    }
}

/// cactus-sim's speed against QEMU.
pub struct SimSpeed;

impl cactus_sweep::evaluation::Evaluation for SimSpeed {
    const NAME: &'static str = "sim-speed";
    const UNIT: &'static str = "programs";
    type Row = SpeedResult;

    fn render(rows: &[SpeedResult], _meta: &cactus_sweep::Meta) -> cactus_sweep::SweepReport {
        table::render(rows)
    }
}

/// The store's parameters: the size class and the repeats.
pub fn params(options: &SpeedOptions) -> serde_json::Value {
    serde_json::json!({ "small": options.small, "repeats": options.repeats.max(1) })
}

/// One point per program of [`PROGRAMS`]; QEMU's start-up is measured once, by the first
/// point. Run them one at a time: they are timed.
pub fn points(options: &SpeedOptions) -> Vec<cactus_sweep::Point<'_, SpeedResult>> {
    let startup: std::sync::Arc<cactus_sweep::Memo<(), Result<Host, String>>> =
        std::sync::Arc::new(cactus_sweep::Memo::new());
    PROGRAMS
        .iter()
        .map(|&name| {
            let startup = startup.clone();
            cactus_sweep::Point::new(name, name, move |_, progress: &cactus_sweep::Progress| {
                let host = startup.get(&(), || {
                    progress.message("QEMU start-up");
                    host(options).map_err(|e| e.to_string())
                });
                let row = match host.as_ref() {
                    Ok(h) => measure(name, options, h.qemu_startup_seconds, progress)
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e.clone()),
                };
                SpeedResult {
                    name: name.to_string(),
                    host: host.as_ref().as_ref().ok().cloned(),
                    row,
                }
            })
        })
        .collect()
}

/// The host and QEMU's start-up time.
fn host(options: &SpeedOptions) -> Result<Host, SpeedError> {
    let repeats = options.repeats.max(1);
    Ok(Host {
        cpu: cpu_model(),
        cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        qemu: qemu_version().unwrap_or_else(|| "unknown".into()),
        profile: Profile::default_mcu().name().to_string(),
        qemu_startup_seconds: qemu_startup(repeats, options.timeout)?,
        repeats,
    })
}

/// Runs program `name` on both machines, `options.repeats` times each, the fastest counting.
fn measure(
    name: &str,
    options: &SpeedOptions,
    startup: f64,
    progress: &cactus_sweep::Progress,
) -> Result<SpeedRow, SpeedError> {
    let repeats = options.repeats.max(1);
    let profile = Profile::default_mcu();
    let file = if options.small {
        format!("{name}-small.elf")
    } else {
        format!("{name}.elf")
    };
    let path = options.dir.join(file);
    let bytes = std::fs::read(&path).map_err(|error| SpeedError::Read {
        path: path.clone(),
        error,
    })?;
    progress.message(format!("{name} on cactus-sim"));
    let mut sim_best = f64::INFINITY;
    let mut instructions = 0;
    for _ in 0..repeats {
        let run =
            run_on_sim(&bytes, profile.clone(), u64::MAX).map_err(|error| SpeedError::Load {
                path: path.clone(),
                error,
            })?;
        if run.ending != SimEnding::Exited(0) {
            let detail = format!("{:?}", run.ending);
            return Err(SpeedError::BadRun {
                path,
                machine: "cactus-sim",
                detail,
            });
        }
        instructions = run.instructions;
        sim_best = sim_best.min(run.wall.as_secs_f64());
    }
    progress.message(format!("{name} on QEMU"));
    let mut qemu_best = f64::INFINITY;
    for _ in 0..repeats {
        let run = run_qemu(&path, options.timeout)?;
        if run.status != 0 {
            let detail = format!("exit status {}", run.status);
            return Err(SpeedError::BadRun {
                path,
                machine: "qemu",
                detail,
            });
        }
        qemu_best = qemu_best.min(run.wall.as_secs_f64());
    }
    // Never below a millisecond: a tiny program must not produce an infinite MIPS figure.
    let qemu_seconds = (qemu_best - startup).max(1e-3);
    let noisy = qemu_best - startup < NOISE_SECONDS;
    let sim_seconds = sim_best.max(1e-6);
    let sim_mips = instructions as f64 / sim_seconds / 1e6;
    let qemu_mips = instructions as f64 / qemu_seconds / 1e6;
    let ratio = sim_mips / qemu_mips;
    Ok(SpeedRow {
        name: name.to_string(),
        instructions,
        sim_seconds,
        qemu_seconds,
        sim_mips,
        qemu_mips,
        ratio,
        pass: ratio >= TARGET_RATIO,
        noisy,
    })
}

/// Best wall time of QEMU booting and exiting a program that exits at once.
fn qemu_startup(repeats: usize, timeout: Duration) -> Result<f64, SpeedError> {
    const EXIT_AT_ONCE: &str =
        "    .section .text.init,\"ax\",@progbits\n    .globl _start\n_start:\n    \
        li t0, 0x100000\n    li t1, 0x5555\n    sw t1, 0(t0)\n1:  j 1b\n";
    let dir = tempfile::tempdir().map_err(SpeedError::Temp)?;
    let elf = build_asm(dir.path(), EXIT_AT_ONCE, cactus_verify::randprog::LINK_LD)?;
    let mut best = f64::INFINITY;
    for _ in 0..repeats {
        best = best.min(run_qemu(&elf, timeout)?.wall.as_secs_f64());
    }
    Ok(best)
}

/// The "model name" line of /proc/cpuinfo, or "unknown CPU".
pub fn cpu_model() -> String {
    std::fs::read_to_string(Path::new("/proc/cpuinfo"))
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
