//! Generated programs assemble, link, and run to completion on QEMU with the expected report
//! shape (skipped, with a message, when the toolchain or QEMU is missing).

use cactus_verify::qemu::{run_qemu, QemuError};
use cactus_verify::randprog::{generate, GenConfig, LINK_LD};
use cactus_verify::toolchain::{build_asm, ToolchainError};
use std::time::Duration;

#[test]
fn generated_programs_assemble_and_report_on_qemu() {
    for seed in 0..8 {
        let program = generate(seed, &GenConfig::default());
        let dir = tempfile::tempdir().expect("temp dir");
        let elf = match build_asm(dir.path(), &program.asm, LINK_LD) {
            Ok(elf) => elf,
            Err(ToolchainError::NotInstalled) => {
                eprintln!("skipped: riscv64-unknown-elf-gcc not installed");
                return;
            }
            Err(e) => panic!("seed {seed}: {e}"),
        };
        let run = match run_qemu(&elf, Duration::from_secs(20)) {
            Ok(run) => run,
            Err(QemuError::NotInstalled) => {
                eprintln!("skipped: qemu-system-riscv32 not installed");
                return;
            }
            Err(e) => panic!("seed {seed}: {e}"),
        };
        let text = String::from_utf8(run.uart).expect("ASCII report");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(run.status, 0, "seed {seed}: {text}");
        assert_eq!(lines.len(), 33, "seed {seed}: {text}");
        assert!(lines[0].starts_with("x1="), "seed {seed}: {text}");
        assert!(lines[30].starts_with("x31="), "seed {seed}: {text}");
        assert!(lines[31].starts_with("mem="), "seed {seed}: {text}");
        assert!(lines[32].starts_with("traps="), "seed {seed}: {text}");
        assert!(
            !lines[32].starts_with("traps=00000000 "),
            "seed {seed}: no trap taken: {text}"
        );
    }
}
