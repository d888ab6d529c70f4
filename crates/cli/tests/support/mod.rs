//! Shared helpers of the `cactus` binary tests: building fixture programs with the RISC-V GNU
//! toolchain and running the binary.

#![allow(dead_code)] // each test file uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The cross compiler the fixtures are built with (Debian's `gcc-riscv64-unknown-elf`).
pub const CC: &str = "riscv64-unknown-elf-gcc";

/// True (after saying so on stderr) when the RISC-V compiler is not installed: a test that
/// builds firmware then returns early. CI installs it (`make setup`), so there it always runs.
pub fn no_cross_compiler() -> bool {
    let missing = Command::new(CC).arg("--version").output().is_err();
    if missing {
        eprintln!("{CC} not installed: skipping");
    }
    missing
}

/// This crate's fixture sources.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A fresh directory for one test's build products and outputs.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cactus-cli-tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Runs a command that must succeed, panicking with its output otherwise.
pub fn run_ok(cmd: &mut Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e} (is {CC} installed?)"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds fixture `name.S` with the fixture crt0 into `dir/name.elf` (RAM at 0x8000_0000,
/// or the script `ld` given), with debug information.
pub fn build_with(dir: &Path, name: &str, ld: &str) -> PathBuf {
    let fx = fixtures();
    let elf = dir.join(format!("{name}.elf"));
    let mut objects = Vec::new();
    for src in ["crt0", name] {
        let obj = dir.join(format!("{src}.{name}.o"));
        run_ok(
            Command::new(CC)
                .args(["-g", "-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c"])
                .arg(fx.join(format!("{src}.S")))
                .arg("-o")
                .arg(&obj),
        );
        objects.push(obj);
    }
    run_ok(
        Command::new(CC)
            .args([
                "-march=rv32imac",
                "-mabi=ilp32",
                "-nostdlib",
                "-nostartfiles",
                "-T",
            ])
            .arg(fx.join(ld))
            .args(&objects)
            .arg("-o")
            .arg(&elf),
    );
    elf
}

/// Builds fixture `name.S` linked at RAM (0x8000_0000).
pub fn build(dir: &Path, name: &str) -> PathBuf {
    build_with(dir, name, "link.ld")
}

/// The address of `symbol` in `elf`, read with the toolchain's `nm`.
pub fn symbol(elf: &Path, symbol: &str) -> u32 {
    let out = Command::new("riscv64-unknown-elf-nm")
        .arg(elf)
        .output()
        .expect("run riscv64-unknown-elf-nm");
    let text = String::from_utf8_lossy(&out.stdout);
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() == 3 && fields[2] == symbol {
            return u32::from_str_radix(fields[0], 16).expect("nm address");
        }
    }
    panic!("symbol {symbol} not in {}", elf.display());
}

/// Runs `cactus` with `args`.
pub fn cactus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cactus"))
        .args(args)
        .output()
        .expect("run cactus")
}

/// `cactus run` of the fixture firmware `firmware/NAME.toml`, built under `dir/b`, with the
/// options `extra`.
pub fn run_fixture_firmware(dir: &Path, name: &str, extra: &[&str]) -> Output {
    let manifest = fixtures().join(format!("firmware/{name}.toml"));
    let build = dir.join("b");
    let mut args = vec![
        "run",
        manifest.to_str().expect("utf-8 path"),
        "--build-dir",
        build.to_str().expect("utf-8 path"),
    ];
    args.extend_from_slice(extra);
    cactus(&args)
}

/// `cactus run ELF EXTRA...`.
pub fn cactus_run(elf: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", elf.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    cactus(&args)
}

/// The process's stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The process's stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exit code (panics if killed by a signal).
pub fn code(out: &Output) -> i32 {
    out.status
        .code()
        .unwrap_or_else(|| panic!("cactus killed by a signal; stderr:\n{}", stderr(out)))
}

/// Checks that every nJ of a run's stats JSON (`cactus run --stats-out`) is charged to a task
/// or to the time outside any task, and that both hold some; returns the total.
pub fn assert_energy_adds_up(stats: &serde_json::Value) -> f64 {
    let run = &stats["stats"];
    let tasks: f64 = run["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["energy_nj"].as_f64().unwrap())
        .sum();
    let outside = run["energy_outside_tasks_nj"].as_f64().unwrap();
    let total = run["energy_nj"].as_f64().unwrap();
    assert!(
        outside > 0.0 && tasks > 0.0,
        "tasks {tasks} outside {outside}"
    );
    assert!(
        (tasks + outside - total).abs() <= 1e-9 * total,
        "tasks {tasks} + outside {outside} != {total}"
    );
    total
}
