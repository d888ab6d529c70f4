//! What the suites of this test binary share: the toolchain test they skip on, and the
//! repository root their firmware is built from.

use std::path::PathBuf;
use std::process::Command;

/// Whether riscv64-unknown-elf-gcc runs; when it does not, says the suite is skipped.
pub fn have_cross_gcc() -> bool {
    let ok = Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        eprintln!("riscv64-unknown-elf-gcc not installed: skipping");
    }
    ok
}

/// The repository's root directory, canonical.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}
