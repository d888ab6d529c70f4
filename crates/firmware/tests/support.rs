//! What the suites share: the Cactus tree, whether the cross compiler is installed (a suite
//! that needs it is skipped with a message otherwise), build options into a scratch directory,
//! the symbols of a built ELF, and a run on cactus-sim's default profile.

use cactus_firmware::BuildOptions;
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Cactus tree this crate is in.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// True if riscv64-unknown-elf-gcc runs; says on stderr that the test is skipped if not.
pub fn have_gcc() -> bool {
    let ok = Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .output()
        .is_ok();
    if !ok {
        eprintln!("riscv64-unknown-elf-gcc not installed: skipping firmware builds");
    }
    ok
}

/// Build options for the tree, with the build cache under `out`.
pub fn options(out: &Path) -> BuildOptions {
    BuildOptions {
        root: Some(repo_root()),
        out_root: Some(out.to_path_buf()),
        ..BuildOptions::default()
    }
}

/// `nm`'s listing of `elf`.
pub fn symbols(elf: &Path) -> String {
    let out = Command::new("riscv64-unknown-elf-nm")
        .arg(elf)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Size of `symbol` in `elf` (from `nm -S`).
pub fn symbol_size(elf: &Path, symbol: &str) -> Option<u64> {
    let out = Command::new("riscv64-unknown-elf-nm")
        .arg("-S")
        .arg(elf)
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).lines().find_map(|l| {
        let cols: Vec<_> = l.split_whitespace().collect();
        (cols.len() == 4 && cols[3] == symbol).then(|| u64::from_str_radix(cols[1], 16).ok())?
    })
}

/// Runs `elf` on the default `mcu` profile with `config` adjusted by `tune`, to its end; the
/// machine (for its events and output) and how the run ended.
pub fn run_elf(elf: &Path, tune: impl FnOnce(&mut MachineConfig)) -> (Machine, RunOutcome) {
    let mut config = MachineConfig::new(Profile::default_mcu());
    tune(&mut config);
    let mut machine = Machine::new(config);
    machine.load_elf(&std::fs::read(elf).unwrap()).unwrap();
    let outcome = machine.run_to_end();
    (machine, outcome)
}
