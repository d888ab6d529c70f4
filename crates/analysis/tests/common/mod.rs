//! Test helpers: assembling and linking RISC-V fixtures with the cross toolchain at test time.
#![allow(dead_code)]

use cactus_analysis::machine::{analyze_files, MachineAnalysis, MachineDepth};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cross compiler driver.
pub const GCC: &str = "riscv64-unknown-elf-gcc";

/// Runs `cmd`, panicking with its output if it fails.
pub fn run(cmd: &mut Command) {
    let out = cmd.output().expect("run the cross toolchain");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Assembles (or compiles, by extension) `text` as `dir/name` into `dir/<stem>.o` with `flags`.
pub fn object(dir: &Path, name: &str, text: &str, flags: &[&str]) -> PathBuf {
    let src = dir.join(name);
    std::fs::write(&src, text).unwrap();
    let obj = src.with_extension("o");
    run(Command::new(GCC)
        .args(["-march=rv32imac", "-mabi=ilp32", "-c"])
        .args(flags)
        .arg(&src)
        .arg("-o")
        .arg(&obj));
    obj
}

/// Assembles `text` (a `.s` fixture) into an object.
pub fn assemble(dir: &Path, name: &str, text: &str) -> PathBuf {
    object(dir, name, text, &[])
}

/// The depth of global `name` in `a`.
pub fn depth(a: &MachineAnalysis, name: &str) -> MachineDepth {
    a.depths
        .get(name)
        .unwrap_or_else(|| panic!("{name} not among {:?}", a.depths.keys()))
        .clone()
}

/// Analyses `paths` together, panicking on error.
pub fn analyse(paths: &[PathBuf]) -> MachineAnalysis {
    analyze_files(paths).unwrap()
}

/// The reason `name` is unbounded (panics if it is bounded).
pub fn reason(a: &MachineAnalysis, name: &str) -> String {
    match depth(a, name) {
        MachineDepth::Unbounded(why) => why,
        d => panic!("{name}: expected unbounded, got {d:?}"),
    }
}
