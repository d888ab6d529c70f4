//! What the firmware-scenario suites share: whether the RISC-V toolchain is there, and the
//! build of one of the tree's scenario manifests into an ELF image.

use std::path::Path;
use std::process::Command;

use cactus_firmware::{BuildOptions, Manifest};

/// True when `riscv64-unknown-elf-gcc` runs; otherwise says on stderr that the calling test
/// is skipped.
pub fn gcc_installed() -> bool {
    let there = Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .output()
        .is_ok();
    if !there {
        eprintln!("riscv64-unknown-elf-gcc not installed: skipping");
    }
    there
}

/// Builds the manifest at `rel` (relative to the repository root) into a temporary
/// directory and returns the firmware's ELF bytes; panics with the build's error.
pub fn build_elf(rel: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel);
    let manifest = Manifest::load(&path).unwrap();
    let out = tempfile::tempdir().unwrap();
    let options = BuildOptions {
        out_root: Some(out.path().to_path_buf()),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&manifest, &options).unwrap();
    std::fs::read(&built.elf).unwrap()
}
