//! Helpers of the driver integration tests: scratch directories holding the fixtures, the
//! driver configured to run in one, and plain gcc and binutils runs to compare against.

#![allow(dead_code)] // each test file uses a different subset

use cactus_cc::driver::{Driver, DriverOutcome};
use cactus_cc::{CheckMode, PassOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The cross compiler (Debian's `gcc-riscv64-unknown-elf`).
pub const GCC: &str = "riscv64-unknown-elf-gcc";

/// Compile flags of the project's RV32 code.
pub const CFLAGS: &[&str] = &["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-O2", "-g"];

/// Link flags for the fixtures (no C library; entry `main`).
pub const LDFLAGS: &[&str] = &[
    "-march=rv32imac",
    "-mabi=ilp32",
    "-nostdlib",
    "-nostartfiles",
    "-Wl,-e,main",
];

/// A fresh directory for `test` holding a copy of every driver fixture file (not the
/// `make/` project).
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cactus-cc-driver")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/driver");
    for entry in std::fs::read_dir(fixtures).expect("fixtures") {
        let path = entry.expect("fixture").path();
        if path.is_dir() {
            continue;
        }
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).expect("copy fixture");
    }
    dir
}

/// `words` as owned strings, with `CFLAGS` first when `cflags`.
pub fn args(cflags: bool, words: &[&str]) -> Vec<String> {
    let flags = if cflags { CFLAGS } else { &[] };
    flags.iter().chain(words).map(|w| w.to_string()).collect()
}

/// The driver in `dir` under `mode`, capturing gcc's output.
pub fn driver(dir: &Path, mode: CheckMode) -> Driver {
    let mut d = Driver::new(PassOptions {
        mode,
        ..PassOptions::default()
    });
    d.gcc = PathBuf::from(GCC);
    d.cwd = Some(dir.to_path_buf());
    d.capture = true;
    d
}

/// Runs the driver (mode `none`) in `dir` with `args`; panics on a driver error.
pub fn run(dir: &Path, args: &[String]) -> DriverOutcome {
    driver(dir, CheckMode::None)
        .run(args)
        .unwrap_or_else(|e| panic!("cactus cc {args:?}: {e}"))
}

/// gcc's diagnostics in `out`.
pub fn stderr(out: &DriverOutcome) -> String {
    String::from_utf8_lossy(&out.captured.stderr).into_owned()
}

/// Runs `program args` in `dir`.
pub fn tool(dir: &Path, program: &str, args: &[String]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
}

/// Runs plain gcc in `dir`, which must succeed.
pub fn gcc_ok(dir: &Path, args: &[String]) {
    let out = tool(dir, GCC, args);
    assert!(
        out.status.success(),
        "gcc {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The contents of section `name` of `elf`.
pub fn section(elf: &Path, name: &str) -> Vec<u8> {
    let bin = elf.with_extension("section.bin");
    let out = Command::new("riscv64-unknown-elf-objcopy")
        .args(["-O", "binary", "--only-section", name])
        .arg(elf)
        .arg(&bin)
        .output()
        .expect("run objcopy");
    assert!(out.status.success(), "objcopy {}", elf.display());
    std::fs::read(&bin).expect("section bytes")
}

/// The names of the files in `dir` (not directories), sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list dir")
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}
