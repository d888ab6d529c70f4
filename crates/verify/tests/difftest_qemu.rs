//! End-to-end difftests: a generated program agrees on cactus-sim and QEMU, and a program
//! whose behaviour really differs (it prints `misa`, which QEMU's virt CPU sets to RV32GC+SU)
//! is reported as a mismatch. Skipped, with a message, when the toolchain or QEMU is missing.

use cactus_verify::difftest::{difftest_elf, DiffOptions, DifftestError};
use cactus_verify::randprog::{generate, GenConfig, LINK_LD, RUNTIME_S};
use cactus_verify::toolchain::{build_asm, ToolchainError};
use std::path::PathBuf;

/// Builds `asm`, or None (test skipped) if the toolchain is missing.
fn build(dir: &tempfile::TempDir, asm: &str) -> Option<PathBuf> {
    match build_asm(dir.path(), asm, LINK_LD) {
        Ok(elf) => Some(elf),
        Err(ToolchainError::NotInstalled) => {
            eprintln!("skipped: riscv64-unknown-elf-gcc not installed");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn generated_program_agrees() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(elf) = build(&dir, &generate(11, &GenConfig::default()).asm) else {
        return;
    };
    match difftest_elf(&elf, &DiffOptions::default()) {
        Ok(report) => assert!(report.passed(), "{}", report.describe()),
        Err(DifftestError::QemuMissing(e)) => eprintln!("skipped: {e}"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn differing_behaviour_is_a_mismatch() {
    // The runtime's report with x10 = misa: QEMU's CPU has F, D and S; cactus-sim's has not.
    let asm = format!(
        "    .equ SCRATCH_BYTES, 4\n    .section .text.init,\"ax\",@progbits\n    .globl _start\n\
         _start:\n    la t0, __cactus_trap\n    csrw mtvec, t0\n    csrr a0, misa\n    \
         j __cactus_epilogue\n{RUNTIME_S}\n    .data\nscratch: .word 0\n"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(elf) = build(&dir, &asm) else { return };
    match difftest_elf(&elf, &DiffOptions::default()) {
        Ok(report) => {
            assert!(!report.passed(), "{}", report.describe());
            assert!(
                report.describe().contains("sim | x10="),
                "{}",
                report.describe()
            );
        }
        Err(DifftestError::QemuMissing(e)) => eprintln!("skipped: {e}"),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn qemu_timeout_kills_and_keeps_output() {
    let asm = "    .section .text.init,\"ax\",@progbits\n    .globl _start\n_start:\n    \
               li t0, 0x10000000\n    li t1, 65\n    sb t1, 0(t0)\n1:  j 1b\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(elf) = build(&dir, asm) else { return };
    // Long enough for QEMU to start and print under a loaded CI machine (two cores running
    // the whole test suite); the guest spins forever, so only the timeout can end it.
    let start = std::time::Instant::now();
    match cactus_verify::qemu::run_qemu(&elf, std::time::Duration::from_secs(3)) {
        Err(cactus_verify::qemu::QemuError::Timeout {
            uart, elf: named, ..
        }) => {
            assert_eq!(uart, b"A");
            assert_eq!(named, elf);
            assert!(start.elapsed() < std::time::Duration::from_secs(30));
        }
        Err(cactus_verify::qemu::QemuError::NotInstalled) => eprintln!("skipped: QEMU missing"),
        other => panic!("expected a timeout, got {other:?}"),
    }
}
