//! Shared helpers of the pass integration tests: compile the fixtures in
//! tests/fixtures/pass with riscv64-unknown-elf-gcc -S, instrument them with
//! `instrument_units`, assemble and link with the fixture runtime, run on cactus-sim.

#![allow(dead_code)]

use cactus_cc::{instrument_units, PassOptions, Report, Reserve, Reserves, Unit};
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cross compiler.
pub const GCC: &str = "riscv64-unknown-elf-gcc";
/// Exit code the fixture runtime uses for a failed stack check.
pub const CHECK_FAILED: u32 = 42;
/// Guard region painted by crt0.S below the stack limit.
pub const GUARD_BOTTOM: u32 = 0x8020_0000;
/// The stack limit (descriptor word 0).
pub const STACK_LIMIT: u32 = 0x8021_0000;
/// The paint pattern.
pub const PAINT: u32 = 0x5a5a_a5a5;
/// Optimisation levels every test covers.
pub const OPT_LEVELS: [&str; 4] = ["-O0", "-O1", "-O2", "-Os"];

/// The fixture directory.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pass")
}

/// Whether the cross compiler is installed (tests print a note and pass without it).
pub fn have_gcc() -> bool {
    let ok = Command::new(GCC)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("note: {GCC} not found; skipping");
    }
    ok
}

fn run_tool(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("run tool");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// GCC's assembly for fixture `c_file` at `opt`, with extra `defines`.
pub fn compile(c_file: &str, opt: &str, defines: &[&str]) -> Unit {
    let mut flags = vec![opt];
    flags.extend_from_slice(defines);
    compile_with(c_file, &flags)
}

/// GCC's assembly for fixture `c_file` with `flags` (optimisation level, defines, ...).
pub fn compile_with(c_file: &str, flags: &[&str]) -> Unit {
    let text = run_tool(
        Command::new(GCC)
            .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32"])
            .args(["-Wall", "-Wextra", "-Werror", "-ffreestanding"])
            .arg("-fno-tree-loop-distribute-patterns")
            .args(flags)
            .arg("-S")
            .arg(fixtures().join(c_file))
            .args(["-o", "-"]),
    );
    Unit {
        origin: c_file.to_string(),
        text: String::from_utf8(text).expect("utf-8 assembly"),
        library: c_file == "rt.c",
    }
}

/// The program `c_file` plus the runtime, compiled at `opt`.
pub fn program(c_file: &str, opt: &str, defines: &[&str]) -> Vec<Unit> {
    vec![compile(c_file, opt, defines), compile("rt.c", opt, &[])]
}

/// Reserves of the uninstrumented fixture code.
pub fn reserves() -> Reserves {
    [("ext_add3".to_string(), Reserve::Bytes(32))]
        .into_iter()
        .collect()
}

/// Instruments `units` under `opts`, assembles and links them with the fixture runtime;
/// returns the ELF image (the build directory is removed).
pub fn build(units: &[Unit], opts: &PassOptions) -> (Vec<u8>, Report, Vec<String>) {
    let (texts, report) = instrument_units(units, opts, &reserves()).expect("instrument");
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let dir = tmp.path();
    let mut objects = Vec::new();
    let fx = fixtures();
    let mut sources: Vec<PathBuf> = vec![fx.join("crt0.S"), fx.join("uninstr.S")];
    for (i, t) in texts.iter().enumerate() {
        let s = dir.join(format!("u{i}.s"));
        std::fs::write(&s, t).unwrap();
        sources.push(s);
    }
    for (i, s) in sources.iter().enumerate() {
        let o = dir.join(format!("o{i}.o"));
        run_tool(
            Command::new(GCC)
                .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c"])
                .arg(s)
                .arg("-o")
                .arg(&o),
        );
        objects.push(o);
    }
    let elf = dir.join("prog.elf");
    run_tool(
        Command::new(GCC)
            .args([
                "-march=rv32imac",
                "-mabi=ilp32",
                "-nostdlib",
                "-nostartfiles",
            ])
            .arg("-Wl,--no-warn-rwx-segments")
            .arg("-T")
            .arg(fx.join("link.ld"))
            .args(&objects)
            .arg("-lgcc")
            .arg("-o")
            .arg(&elf),
    );
    (std::fs::read(&elf).expect("read ELF"), report, texts)
}

/// What a run showed.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    /// Exit code through the finisher (None: the run ended otherwise).
    pub exit: Option<u32>,
    /// UART output.
    pub output: String,
    /// Every word of the guard below the stack limit still holds the paint.
    pub guard_intact: bool,
}

/// Runs the ELF image `elf` on cactus-sim (bounded cycles).
pub fn run(elf: &[u8]) -> Run {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.max_cycles = Some(200_000_000);
    let mut m = Machine::new(cfg);
    m.load_elf(elf).expect("load ELF");
    let outcome = m.run();
    let exit = match outcome {
        RunOutcome::Exited { code } => Some(code),
        _ => None,
    };
    let mut guard = vec![0u8; (STACK_LIMIT - GUARD_BOTTOM) as usize];
    m.read_debug(GUARD_BOTTOM, &mut guard)
        .expect("guard readable");
    let guard_intact = guard
        .chunks(4)
        .all(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) == PAINT);
    Run {
        exit,
        output: String::from_utf8_lossy(&m.take_uart_output()).into_owned(),
        guard_intact,
    }
}

/// Number of functions keeping an entry check, and of check sites, in a report.
pub fn counts(report: &Report) -> (usize, u32) {
    (
        report.functions.iter().filter(|f| f.checked).count(),
        report.functions.iter().map(|f| f.sites).sum(),
    )
}

/// (UART output, exit status) of the ELF image under qemu-system-riscv32 (virt, no BIOS),
/// or `None` when QEMU is not installed.
pub fn run_qemu(elf: &[u8]) -> Option<(String, i32)> {
    const QEMU: &str = "qemu-system-riscv32";
    if Command::new(QEMU).arg("--version").output().is_err() {
        eprintln!("note: {QEMU} not found; not comparing with QEMU");
        return None;
    }
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let path = tmp.path().join("prog.elf");
    std::fs::write(&path, elf).unwrap();
    let out = Command::new("timeout")
        .args([
            "20",
            QEMU,
            "-M",
            "virt",
            "-bios",
            "none",
            "-nographic",
            "-kernel",
        ])
        .arg(&path)
        .output()
        .expect("run qemu");
    Some((
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    ))
}
