//! Programs built with riscv64-unknown-elf-gcc from tests/fixtures, run on cactus-sim and,
//! when qemu-system-riscv32 is installed, on QEMU too (same UART output and exit code).
//! Skipped with a printed note when the cross compiler is absent.

use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use std::path::{Path, PathBuf};
use std::process::Command;

const GCC: &str = "riscv64-unknown-elf-gcc";
const QEMU: &str = "qemu-system-riscv32";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Builds `sources` (in tests/fixtures) into an ELF named `name`; None if gcc is missing.
fn build(name: &str, sources: &[&str], defines: &[&str]) -> Option<PathBuf> {
    if !have(GCC) {
        eprintln!("note: {GCC} not found; skipping {name}");
        return None;
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.elf"));
    let dir = fixtures();
    let status = Command::new(GCC)
        .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-O2"])
        .args([
            "-Wall",
            "-Wextra",
            "-Werror",
            "-ffreestanding",
            "-nostdlib",
            "-nostartfiles",
        ])
        .arg("-Wl,--no-warn-rwx-segments")
        .arg("-T")
        .arg(dir.join("link.ld"))
        .args(defines)
        .args(sources.iter().map(|s| dir.join(s)))
        .arg("-o")
        .arg(&out)
        .status()
        .expect("run gcc");
    assert!(status.success(), "building {name} failed");
    Some(out)
}

fn run_sim(elf: &Path) -> (RunOutcome, Vec<u8>, cactus_sim::Stats) {
    let mut m = Machine::new(MachineConfig::new(Profile::default_mcu()));
    let info = m.load_elf(&std::fs::read(elf).unwrap()).expect("load");
    assert_eq!(m.pc(), info.entry);
    let outcome = m.run();
    (outcome, m.take_uart_output(), m.stats())
}

/// (stdout, exit code) under QEMU, or None if QEMU is not installed.
fn run_qemu(elf: &Path) -> Option<(Vec<u8>, i32)> {
    if !have(QEMU) {
        eprintln!("note: {QEMU} not found; not comparing with QEMU");
        return None;
    }
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
        .arg(elf)
        .output()
        .expect("run qemu");
    Some((out.stdout, out.status.code().unwrap_or(-1)))
}

fn check_against_qemu(elf: &Path, outcome: &RunOutcome, uart: &[u8]) {
    if let Some((qout, qcode)) = run_qemu(elf) {
        let code = match outcome {
            RunOutcome::Exited { code } => *code as i32,
            other => panic!("simulator did not exit: {other:?}"),
        };
        assert_eq!(
            String::from_utf8_lossy(uart),
            String::from_utf8_lossy(&qout)
        );
        assert_eq!(code, qcode);
    }
}

#[test]
fn c_workload_matches_qemu() {
    let Some(elf) = build("bench2", &["crt0.S", "bench.c"], &["-DROUNDS=2"]) else {
        return;
    };
    let (outcome, uart, stats) = run_sim(&elf);
    assert_eq!(outcome, RunOutcome::Exited { code: 0 });
    assert!(String::from_utf8_lossy(&uart).starts_with("checksum "));
    assert!(stats.instructions > 100_000);
    assert!(
        stats.cycles > stats.instructions,
        "loads, taken branches and div cost more"
    );
    check_against_qemu(&elf, &outcome, &uart);
    // Determinism across runs of the same ELF.
    let (_, _, again) = run_sim(&elf);
    assert_eq!(stats, again);
}

#[test]
fn traps_timer_and_user_mode_match_qemu() {
    let Some(elf) = build("traps", &["traps.S"], &[]) else {
        return;
    };
    let (outcome, uart, stats) = run_sim(&elf);
    assert_eq!(outcome, RunOutcome::Exited { code: 0 });
    assert_eq!(uart, b"TTTUI8\n");
    assert_eq!(stats.interrupts, 3);
    assert!(stats.sleep_cycles > 0, "wfi fast-forwarded");
    assert_eq!(
        stats.user_mode.instructions, 2,
        "li and sb; csrr and ecall trap"
    );
    check_against_qemu(&elf, &outcome, &uart);
}

#[test]
fn tohost_ends_the_run() {
    let Some(elf) = build("tohost", &["tohost.S"], &[]) else {
        return;
    };
    let mut m = Machine::new(MachineConfig::new(Profile::default_mcu()));
    let info = m.load_elf(&std::fs::read(&elf).unwrap()).unwrap();
    assert!(info.tohost.is_some());
    assert_eq!(m.run(), RunOutcome::Exited { code: 5 });
}

#[test]
fn carousel_open_and_close_from_c_through_the_header() {
    let include = format!(
        "-I{}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../kernel/arch/rv32")
            .display()
    );
    let Some(elf) = build("carousel", &["crt0.S", "carousel.c"], &[&include]) else {
        return;
    };
    let profile = Profile::builtin("carousel-paper").unwrap();
    let mut m = Machine::new(MachineConfig::new(profile));
    m.load_elf(&std::fs::read(&elf).unwrap()).expect("load");
    assert_eq!(m.run(), RunOutcome::Exited { code: 0 });
    let s = m.stats();
    let ms = s.memory_system.expect("memory-system statistics");
    // open and close: one external side, 2 × 65 each; the peek: external to external, 4 × 65.
    assert_eq!((ms.dma_copies, ms.dma_bytes, ms.dma_cycles), (3, 384, 520));
    assert_eq!(ms.spm_data, 64, "32 loads and 32 stores through the tag");
}
