//! The MSO search on real firmware: one task of the small telecomm workload, bisected under
//! `stack = "mtss"`; the result lies within its budget, a build at the found size passes and
//! one 16 bytes smaller fails. Skipped (with a message) only when riscv64-unknown-elf-gcc is
//! not installed.

use crate::support::have_cross_gcc;
use cactus_bench::mtss::{baseline, search_row, ProbeSetup, TaskMso};
use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workloads/mtss/telecomm-small.toml")
        .canonicalize()
        .unwrap()
}

#[test]
fn one_task_search_finds_a_tight_boundary() {
    if !have_cross_gcc() {
        return;
    }
    let path = manifest();
    let out = tempfile::tempdir().unwrap();
    let base = baseline(&path).unwrap();
    assert!(base.cycles > 0);
    // Empty reserves: library calls are checked against the blind margin (the command uses
    // the toolchain's measured reserves; the search is the same).
    let setup = ProbeSetup::new(
        &path,
        &Default::default(),
        Some(out.path().to_path_buf()),
        base.cycles * 8,
        None,
    )
    .unwrap();
    let task = setup
        .manifest
        .tasks
        .iter()
        .position(|t| t.name == "crc32")
        .expect("telecomm has a crc32 task");
    let budget = setup.manifest.tasks[task].stack;
    let start = TaskMso::start(
        &setup.manifest.name,
        &path.display().to_string(),
        "crc32",
        budget,
    );
    let full = setup.probe(task, budget);
    assert!(full.passed, "full budget fails: {full:?}");
    let row = search_row(start, &full, &mut |b| setup.probe(task, b));
    let smallest = row.smallest.expect("the search found a passing budget");
    assert!((128..=budget).contains(&smallest), "{smallest} of {budget}");
    assert_eq!(smallest % 16, 0);
    // Bisection: about log2(candidates) probes, not one per candidate.
    assert!(row.probes.len() <= 10, "{} probes", row.probes.len());
    let mso = row.mso_budget().unwrap();
    assert!((0.0..100.0).contains(&mso), "{mso}");
    assert!(setup.probe(task, smallest).passed, "the found size fails");
    if smallest > 128 {
        let below = setup.probe(task, smallest - 16);
        assert!(!below.passed, "{} B passes too", smallest - 16);
    }
}
