//! Assembling and linking generated programs with the RISC-V GNU toolchain.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The cross compiler driver used for assembling and linking.
pub const GCC: &str = "riscv64-unknown-elf-gcc";
/// The Debian package that provides [`GCC`].
pub const GCC_PACKAGE: &str = "gcc-riscv64-unknown-elf";

/// Why an assembly file could not be turned into an ELF.
#[derive(Debug, thiserror::Error)]
pub enum ToolchainError {
    /// The compiler driver is not on PATH.
    #[error(
        "{GCC} not found on PATH (install the Debian package {GCC_PACKAGE}, or run scripts/setup)"
    )]
    NotInstalled,
    /// Reading or writing a file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The compiler rejected the input; `stderr` is its message.
    #[error("{step} of {path} failed:\n{stderr}")]
    Failed {
        /// "assembling" or "linking".
        step: &'static str,
        /// The input file.
        path: PathBuf,
        /// What the compiler printed.
        stderr: String,
    },
}

/// Writes `asm` to `dir/prog.S` and the linker script `ld` to `dir/link.ld`, assembles with
/// `-march=rv32imac_zicsr_zifencei -mabi=ilp32` and links with `-march=rv32imac -mabi=ilp32
/// -nostdlib -nostartfiles -T dir/link.ld` into `dir/prog.elf`. Returns the ELF's path.
pub fn build_asm(dir: &Path, asm: &str, ld: &str) -> Result<PathBuf, ToolchainError> {
    let src = dir.join("prog.S");
    let obj = dir.join("prog.o");
    let script = dir.join("link.ld");
    let elf = dir.join("prog.elf");
    write(&src, asm)?;
    write(&script, ld)?;
    let mut assemble = Command::new(GCC);
    assemble.args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c", "-o"]);
    assemble.arg(&obj).arg(&src);
    run(assemble, "assembling", &src)?;
    let mut link = Command::new(GCC);
    link.args([
        "-march=rv32imac",
        "-mabi=ilp32",
        "-nostdlib",
        "-nostartfiles",
        "-T",
    ]);
    link.arg(&script).arg("-o").arg(&elf).arg(&obj);
    run(link, "linking", &obj)?;
    Ok(elf)
}

fn write(path: &Path, text: &str) -> Result<(), ToolchainError> {
    std::fs::write(path, text).map_err(|error| ToolchainError::Io {
        path: path.into(),
        error,
    })
}

fn run(mut cmd: Command, step: &'static str, path: &Path) -> Result<(), ToolchainError> {
    let output = cmd.output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ToolchainError::NotInstalled,
        _ => ToolchainError::Io {
            path: PathBuf::from(GCC),
            error: e,
        },
    })?;
    if output.status.success() {
        Ok(())
    } else {
        Err(ToolchainError::Failed {
            step,
            path: path.into(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        })
    }
}
