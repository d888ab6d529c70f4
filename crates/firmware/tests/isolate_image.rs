//! An isolated firmware's image (`kernel.isolate`, crates/firmware/src/isolate_link.rs): each
//! task region's zero-initialised globals are in a NOLOAD part, so the writable bytes the image
//! carries are those of the plain build (within the regions' alignment), and crt0 clears every
//! such part at start-up: the tasks find their `.bss` zero even when the memory held garbage
//! before the run. Skipped (with a message) only when riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, run_elf};
use cactus_firmware::{build, Manifest};
use cactus_sim::RunOutcome;
use std::path::Path;
use std::process::Command;

/// One task's unit: 64 KiB of zeros and four initialised words, checked by the task; the
/// first task returns, the second finishes the run (exit 0 when both found what they should).
fn source(name: &str, last: bool) -> String {
    let end = if last {
        "cactus_fw_finish(0);"
    } else {
        "return;"
    };
    format!(
        "#include \"cactus_firmware.h\"\n\
         static unsigned zeros_{name}[16384];\n\
         static unsigned words_{name}[4] = {{1, 2, 3, 4}};\n\
         void {name}_main(void *arg) {{\n\
             (void)arg;\n\
             for (unsigned i = 0; i < 16384; i++) if (zeros_{name}[i]) cactus_fw_finish(10);\n\
             for (unsigned i = 0; i < 4; i++) if (words_{name}[i] != i + 1) cactus_fw_finish(11);\n\
             zeros_{name}[100] = 7;\n\
             {end}\n\
         }}\n"
    )
}

fn manifest(dir: &Path, isolate: bool) -> Manifest {
    std::fs::write(dir.join("a.c"), source("a", false)).unwrap();
    std::fs::write(dir.join("b.c"), source("b", true)).unwrap();
    let text = format!(
        "[firmware]\nname = \"isobss\"\n[kernel]\ntarget = \"sim\"\nisolate = {isolate}\n\
         [[task]]\nname = \"a\"\nsources = [\"a.c\"]\nentry = \"a_main\"\npriority = 3\n\
         stack = 512\n\
         [[task]]\nname = \"b\"\nsources = [\"b.c\"]\nentry = \"b_main\"\npriority = 2\n\
         stack = 512\n"
    );
    let path = dir.join("isobss.toml");
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).unwrap()
}

/// The bytes of writable load segments the image carries (`FileSiz` of the `RW` LOAD lines).
fn writable_image_bytes(elf: &Path) -> u64 {
    let out = Command::new("riscv64-unknown-elf-readelf")
        .arg("-lW")
        .arg(elf)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.trim_start().starts_with("LOAD") && l.contains(" RW"))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            u64::from_str_radix(cols[4].trim_start_matches("0x"), 16).unwrap()
        })
        .sum()
}

/// The address of `symbol` in `elf`.
fn address(elf: &Path, symbol: &str) -> u32 {
    let out = Command::new("riscv64-unknown-elf-nm")
        .arg(elf)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| {
            let cols: Vec<_> = l.split_whitespace().collect();
            (cols.len() == 3 && cols[2] == symbol)
                .then(|| u32::from_str_radix(cols[0], 16).unwrap())
        })
        .unwrap_or_else(|| panic!("{symbol} not in {}", elf.display()))
}

#[test]
fn isolated_bss_is_not_in_the_image_and_is_cleared_at_start_up() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let plain = build(&manifest(dir.path(), false), &options(out.path())).unwrap();
    let isolated = build(&manifest(dir.path(), true), &options(out.path())).unwrap();
    let (p, i) = (
        writable_image_bytes(&plain.elf),
        writable_image_bytes(&isolated.elf),
    );
    // 128 KiB of zeros in the two task regions: none of it in the image.
    assert!(p < 16 * 1024, "plain image {p} bytes");
    assert!(i <= p + 256, "isolated image {i} bytes, plain {p}");
    // Garbage where the regions' zeros go: crt0 must clear it before the tasks run.
    let (_, outcome) = run_elf(&isolated.elf, |c| {
        c.max_cycles = Some(100_000_000);
    });
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?}"
    );
    let regions = ["d0", "d1", "sd"].map(|r| {
        (
            address(&isolated.elf, &format!("__cactus_iso_{r}_bss")),
            address(&isolated.elf, &format!("__cactus_iso_{r}_hi")),
        )
    });
    assert!(regions[0].1 - regions[0].0 >= 64 * 1024, "{regions:?}");
    let mut config = cactus_sim::MachineConfig::new(cactus_sim::Profile::default_mcu());
    config.max_cycles = Some(100_000_000);
    let mut machine = cactus_sim::Machine::new(config);
    machine
        .load_elf(&std::fs::read(&isolated.elf).unwrap())
        .unwrap();
    for (lo, hi) in regions {
        machine
            .write_debug(lo, &vec![0xa5; (hi - lo) as usize])
            .unwrap();
    }
    let outcome = machine.run_to_end();
    let uart = machine.take_uart_output();
    assert!(
        matches!(outcome, RunOutcome::Exited { code: 0 }),
        "{outcome:?}: {}",
        String::from_utf8_lossy(&uart)
    );
}
