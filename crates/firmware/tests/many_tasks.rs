//! The kernel's task slots follow the manifest: a firmware with 256 tasks builds and every
//! task runs on cactus-sim, and the TCB array holds exactly as many TCBs as the manifest has
//! tasks (the kernel used to have a fixed 40). Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{repo_root, run_elf, symbol_size};
use cactus_firmware::{build, BuildOptions, Manifest};
use cactus_sim::RunOutcome;
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// Each task sets its bit; the last one to run checks that all did and ends the run.
const SOURCE: &str = "#include \"cactus_firmware.h\"\n\
    #define N NTASKS\n\
    static volatile uint32_t seen[(N + 31) / 32];\n\
    static volatile uint32_t count;\n\
    void body(void *arg) {\n\
        uint32_t i = (uint32_t)(uintptr_t)arg;\n\
        seen[i / 32] |= 1u << (i % 32);\n\
        if (++count == N) {\n\
            for (uint32_t k = 0; k < N; k++)\n\
                if (!(seen[k / 32] & (1u << (k % 32)))) cactus_fw_finish(1);\n\
            cactus_fw_finish(0);\n\
        }\n\
    }\n";

fn manifest(dir: &Path, n: usize) -> Manifest {
    std::fs::write(dir.join("many.c"), SOURCE).unwrap();
    let mut text = format!(
        "[firmware]\nname = \"many\"\ncflags = [\"-DNTASKS={n}\"]\n[kernel]\ntarget = \"sim\"\n"
    );
    for i in 0..n {
        write!(
            text,
            "[[task]]\nname = \"t{i}\"\nsources = [\"many.c\"]\nentry = \"body\"\n\
             priority = {}\nstack = 128\narg = {i}\n",
            i % 4
        )
        .unwrap();
    }
    let path = dir.join(format!("many-{n}.toml"));
    std::fs::write(&path, &text).unwrap();
    Manifest::load(&path).unwrap()
}

#[test]
fn the_task_table_is_sized_from_the_manifest() {
    if Command::new("riscv64-unknown-elf-gcc")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("riscv64-unknown-elf-gcc not installed: skipping");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let opts = BuildOptions {
        root: Some(repo_root()),
        out_root: Some(tmp.path().join("out")),
        ..BuildOptions::default()
    };
    let mut per_tcb = Vec::new();
    for n in [3usize, 256] {
        let built = build(&manifest(tmp.path(), n), &opts).unwrap();
        assert_eq!(
            run_elf(&built.elf, |c| c.max_cycles = Some(2_000_000_000)).1,
            RunOutcome::Exited { code: 0 },
            "{n} tasks"
        );
        let size = symbol_size(&built.elf, "k_tasks").expect("k_tasks in the ELF");
        assert_eq!(size % n as u64, 0, "{n} tasks: k_tasks is {size} bytes");
        per_tcb.push(size / n as u64);
    }
    assert_eq!(per_tcb[0], per_tcb[1], "one TCB per task");
    assert!(per_tcb[0] <= 160, "{per_tcb:?}");
}
