//! Running an ELF on `qemu-system-riscv32 -M virt -bios none`, the behavioural reference.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// The QEMU binary used as the reference.
pub const QEMU: &str = "qemu-system-riscv32";
/// The Debian package that provides [`QEMU`].
pub const QEMU_PACKAGE: &str = "qemu-system-misc";

/// What a QEMU run produced.
#[derive(Clone, Debug)]
pub struct QemuRun {
    /// Every byte the guest wrote to the UART, and nothing else (no monitor, no escapes).
    pub uart: Vec<u8>,
    /// QEMU's exit status: 0 for a finisher "pass", the code (mod 256) for a finisher "fail".
    pub status: i32,
    /// Wall-clock time from spawning QEMU to its exit.
    pub wall: Duration,
}

/// Why QEMU did not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum QemuError {
    /// QEMU is not on PATH.
    #[error("{QEMU} not found on PATH (install the Debian package {QEMU_PACKAGE}, or run scripts/setup)")]
    NotInstalled,
    /// Spawning or talking to the process failed.
    #[error("running {QEMU} on {elf}: {error}")]
    Io {
        /// The ELF.
        elf: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The guest did not exit in time; QEMU was killed.
    #[error("{elf} did not exit on {QEMU} within {secs:.1} s (killed after {} bytes of UART output)", uart.len())]
    Timeout {
        /// The ELF.
        elf: PathBuf,
        /// The timeout in seconds.
        secs: f64,
        /// The UART output before the kill.
        uart: Vec<u8>,
    },
    /// QEMU itself failed (bad ELF, killed by a signal) and said so on stderr.
    #[error("{QEMU} failed on {elf} (status {status:?}): {stderr}")]
    Failed {
        /// The ELF.
        elf: PathBuf,
        /// The exit status, None if killed by a signal.
        status: Option<i32>,
        /// What QEMU printed on stderr.
        stderr: String,
    },
}

/// The warning QEMU prints under `-icount sleep=off` when the guest waits in `wfi` with no
/// timer armed (for example for UART input). It says nothing about the guest's behaviour, so
/// it is not taken as a QEMU failure.
const ICOUNT_IDLE_WARNING: &str = "warning: icount sleep disabled and no active timers";

/// How QEMU's guest time (`mtime`, `mcycle`) advances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QemuClock {
    /// Host time: fastest, for speed comparisons; guest time depends on host speed.
    Host,
    /// Instruction-driven time (`-icount shift=0,sleep=off`): the guest sees the same `mtime`
    /// at the same instruction on every host, so timer-driven firmware behaves reproducibly.
    Icount,
}

/// Runs `elf` on QEMU's virt machine with host-driven time (see [`run_qemu_with`]).
pub fn run_qemu(elf: &Path, timeout: Duration) -> Result<QemuRun, QemuError> {
    run_qemu_with(elf, timeout, QemuClock::Host)
}

/// Runs `elf` on QEMU's virt machine with no firmware and the UART on stdout, its guest time
/// driven by `clock`; kills QEMU and returns [`QemuError::Timeout`] if it has not exited after
/// `timeout`. The UART receives nothing.
pub fn run_qemu_with(
    elf: &Path,
    timeout: Duration,
    clock: QemuClock,
) -> Result<QemuRun, QemuError> {
    run_qemu_input(elf, timeout, clock, None)
}

/// [`run_qemu_with`], with the UART receiving the bytes of `uart_input` (QEMU's standard
/// input, so QEMU delivers them as fast as the guest's receiver takes them).
pub fn run_qemu_input(
    elf: &Path,
    timeout: Duration,
    clock: QemuClock,
    uart_input: Option<&Path>,
) -> Result<QemuRun, QemuError> {
    let io = |error| QemuError::Io {
        elf: elf.into(),
        error,
    };
    let stdin = match uart_input {
        Some(path) => Stdio::from(std::fs::File::open(path).map_err(io)?),
        None => Stdio::null(),
    };
    let start = Instant::now();
    let mut child = Command::new(QEMU)
        .args([
            "-M", "virt", "-m", "128M", "-bios", "none", "-display", "none",
        ])
        .args(match clock {
            QemuClock::Host => &[][..],
            QemuClock::Icount => &["-icount", "shift=0,sleep=off"][..],
        })
        .args(["-monitor", "none", "-serial", "stdio", "-kernel"])
        .arg(elf)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => QemuError::NotInstalled,
            _ => io(e),
        })?;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let remaining = timeout.saturating_sub(start.elapsed());
    let Some(status) = child.wait_timeout(remaining).map_err(io)? else {
        // Kill can only fail if the process already exited; wait reaps it either way.
        let _ = child.kill();
        child.wait().map_err(io)?;
        let uart = out.join().unwrap_or_default();
        return Err(QemuError::Timeout {
            elf: elf.into(),
            secs: timeout.as_secs_f64(),
            uart,
        });
    };
    let wall = start.elapsed();
    let uart = out.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default())
        .lines()
        .filter(|l| !l.ends_with(ICOUNT_IDLE_WARNING))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string();
    match status.code() {
        Some(code) if stderr.is_empty() => Ok(QemuRun {
            uart,
            status: code,
            wall,
        }),
        code => Err(QemuError::Failed {
            elf: elf.into(),
            status: code,
            stderr,
        }),
    }
}

/// Reads a pipe to its end on a thread (so a chatty guest cannot block on a full pipe).
fn drain<R: Read + Send + 'static>(pipe: Option<R>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            // A read error ends the capture; what was read so far is kept.
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// The first line of `qemu-system-riscv32 --version`, or None if QEMU is not runnable.
pub fn qemu_version() -> Option<String> {
    let out = Command::new(QEMU).arg("--version").output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(str::to_string)
}
