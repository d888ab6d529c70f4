//! Differential testing: the same ELF on cactus-sim and on QEMU, comparing UART output and
//! exit code.

use crate::diff_render::render_diff;
use crate::qemu::{run_qemu_input, QemuClock, QemuError, QemuRun};
use crate::sim_run::{run_on_sim_with_input, SimEnding, SimRun};
use cactus_sim::{LoadError, Misaligned, Profile};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Limits for one comparison.
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// Wall-clock limit for the QEMU run.
    pub timeout: Duration,
    /// Simulated-cycle limit for the cactus-sim run.
    pub max_cycles: u64,
    /// A file whose bytes both machines receive on the UART: cactus-sim at its default input
    /// rate, QEMU as the serial port's standard input. None = the ELF's own input file
    /// ([`declared_input`]) if it has one, else no input.
    pub uart_input: Option<PathBuf>,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            timeout: Duration::from_secs(10),
            max_cycles: 2_000_000_000,
            uart_input: None,
        }
    }
}

/// Why a comparison could not be made at all (bad input or missing QEMU).
#[derive(Debug, thiserror::Error)]
pub enum DifftestError {
    /// The ELF could not be read.
    #[error("{path}: {error}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// cactus-sim refused the ELF.
    #[error("{path}: {error}")]
    Load {
        /// The file.
        path: PathBuf,
        /// Why the simulator refused it.
        error: LoadError,
    },
    /// QEMU is not installed.
    #[error(transparent)]
    QemuMissing(QemuError),
}

/// The result of running one ELF on both machines.
#[derive(Debug)]
pub struct DiffReport {
    /// The ELF compared.
    pub elf: PathBuf,
    /// The simulator's run.
    pub sim: SimRun,
    /// QEMU's run, or why it produced none (timeout, QEMU error).
    pub qemu: Result<QemuRun, QemuError>,
}

/// The profile difftests run with: the default profile, with misaligned accesses performed
/// rather than trapped because QEMU performs them.
pub fn difftest_profile() -> Profile {
    let mut profile = Profile::default_mcu();
    profile.set_misaligned(Misaligned::Emulate);
    profile
}

/// The UART input a program declares: the file `NAME.in` beside `NAME.elf`, if it exists (the
/// tests Makefile copies `tests/isa/NAME.in` there).
pub fn declared_input(elf: &Path) -> Option<PathBuf> {
    Some(elf.with_extension("in")).filter(|p| p.is_file())
}

/// Runs `elf` on cactus-sim ([`difftest_profile`]) and on QEMU, both with the UART input of
/// `options`, or else the one `elf` declares ([`declared_input`]), if any.
pub fn difftest_elf(elf: &Path, options: &DiffOptions) -> Result<DiffReport, DifftestError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|error| DifftestError::Read {
            path: path.into(),
            error,
        })
    };
    let bytes = read(elf)?;
    let input_file = options.uart_input.clone().or_else(|| declared_input(elf));
    let input = match &input_file {
        Some(path) => read(path)?,
        None => Vec::new(),
    };
    let sim = run_on_sim_with_input(&bytes, difftest_profile(), options.max_cycles, input)
        .map_err(|error| DifftestError::Load {
            path: elf.into(),
            error,
        })?;
    let qemu = match run_qemu_input(
        elf,
        options.timeout,
        QemuClock::Icount,
        input_file.as_deref(),
    ) {
        Err(QemuError::NotInstalled) => {
            return Err(DifftestError::QemuMissing(QemuError::NotInstalled))
        }
        other => other,
    };
    Ok(DiffReport {
        elf: elf.into(),
        sim,
        qemu,
    })
}

impl DiffReport {
    /// True if both machines exited through the finisher with the same code (QEMU reports the
    /// code modulo 256) and wrote the same UART bytes.
    pub fn passed(&self) -> bool {
        match (&self.sim.ending, &self.qemu) {
            (SimEnding::Exited(code), Ok(q)) => {
                (code & 0xff) as i32 == q.status && self.sim.uart == q.uart
            }
            _ => false,
        }
    }

    /// What QEMU's guest wrote to the UART (up to the kill, if QEMU timed out).
    pub fn qemu_uart(&self) -> &[u8] {
        match &self.qemu {
            Ok(run) => &run.uart,
            Err(QemuError::Timeout { uart, .. }) => uart,
            Err(_) => &[],
        }
    }

    /// A multi-line explanation of a mismatch: both endings and the first output difference.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {}",
            self.elf.display(),
            if self.passed() {
                "same behaviour"
            } else {
                "MISMATCH"
            }
        );
        let _ = match &self.sim.ending {
            SimEnding::Exited(code) => writeln!(out, "  cactus-sim: exit code {code}"),
            SimEnding::Stopped(report) => {
                write!(out, "  cactus-sim: stopped:\n{}", indent(report))
            }
        };
        let _ = match &self.qemu {
            Ok(q) => writeln!(out, "  qemu:       exit code {}", q.status),
            Err(e) => writeln!(out, "  qemu:       {e}"),
        };
        if let Some(diff) = render_diff(&self.sim.uart, self.qemu_uart()) {
            let _ = write!(out, "  UART output differs, {}", indent(&diff).trim_start());
        }
        out
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(
        sim_ending: SimEnding,
        sim_uart: &[u8],
        qemu: Result<QemuRun, QemuError>,
    ) -> DiffReport {
        let sim = SimRun {
            uart: sim_uart.to_vec(),
            ending: sim_ending,
            instructions: 1,
            wall: Duration::ZERO,
        };
        DiffReport {
            elf: "t.elf".into(),
            sim,
            qemu,
        }
    }

    fn qemu(status: i32, uart: &[u8]) -> Result<QemuRun, QemuError> {
        Ok(QemuRun {
            uart: uart.to_vec(),
            status,
            wall: Duration::ZERO,
        })
    }

    #[test]
    fn an_elf_declares_input_with_a_file_beside_it() {
        let dir =
            std::env::temp_dir().join(format!("cactus-declared-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let elf = dir.join("rx.elf");
        assert_eq!(declared_input(&elf), None);
        std::fs::write(dir.join("rx.in"), b"hi\n").unwrap();
        assert_eq!(declared_input(&elf), Some(dir.join("rx.in")));
        assert_eq!(declared_input(&dir.join("other.elf")), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn same_output_and_code_passes() {
        assert!(report(SimEnding::Exited(0), b"hi\n", qemu(0, b"hi\n")).passed());
        assert!(report(SimEnding::Exited(3), b"", qemu(3, b"")).passed());
    }

    #[test]
    fn exit_codes_compare_modulo_256() {
        assert!(report(SimEnding::Exited(257), b"", qemu(1, b"")).passed());
        assert!(!report(SimEnding::Exited(2), b"", qemu(1, b"")).passed());
    }

    #[test]
    fn different_output_fails_and_is_shown() {
        let r = report(SimEnding::Exited(0), b"a\nb\n", qemu(0, b"a\nc\n"));
        assert!(!r.passed());
        let text = r.describe();
        assert!(text.contains("MISMATCH"), "{text}");
        assert!(text.contains("sim | b"), "{text}");
        assert!(text.contains("qemu | c"), "{text}");
    }

    #[test]
    fn sim_fault_or_qemu_timeout_fails() {
        let stopped = SimEnding::Stopped("illegal instruction at 0x80000000".into());
        let r = report(stopped, b"", qemu(0, b""));
        assert!(!r.passed());
        assert!(r.describe().contains("illegal instruction at 0x80000000"));
        let timeout = Err(QemuError::Timeout {
            elf: "t.elf".into(),
            secs: 1.0,
            uart: b"x".to_vec(),
        });
        let r = report(SimEnding::Exited(0), b"", timeout);
        assert!(!r.passed());
        assert!(r.describe().contains("did not exit"), "{}", r.describe());
    }
}
