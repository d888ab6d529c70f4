//! `cactus bench sensmart --parts inflation` on one real workload (CoreMark-like, one task):
//! every rewritten build prints what the plain build prints, the task code grows with each
//! pass and the kernel is not counted in it. Built into a temporary directory, so nothing left
//! in build/ matters. Skipped (with a message) only when riscv64-unknown-elf-gcc is not
//! installed.

use crate::support::{have_cross_gcc, repo_root};
use cactus_bench::sensmart::inflation::{measure, task_code_bytes, Rewrite};
use cactus_bench::sensmart::preempt::PreemptOptions;
use cactus_bench::Size;

#[test]
fn every_rewrite_runs_the_workload_and_inflates_its_task_code() {
    if !have_cross_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let o = PreemptOptions {
        root: repo_root(),
        size: Size::Small,
        build_dir: Some(out.path().to_path_buf()),
    };
    let row = measure(
        &o,
        "workloads/coremark-like/coremark-single-small.toml",
        "coremark",
    );
    assert!(row.passed, "{:?}", row.note);
    let i = row.inflation.as_ref().unwrap();
    assert_eq!(i.builds.len(), Rewrite::ALL.len());
    let plain = i.get(Rewrite::Plain).unwrap();
    assert!(plain.code > 1000 && plain.awake > 0, "{plain:?}");
    for rw in [
        Rewrite::PreemptTraps,
        Rewrite::LogicalStack,
        Rewrite::Isolate,
        Rewrite::Sensmart,
    ] {
        assert!(i.code_pct(rw).unwrap() > 0.0, "{rw:?}: {i:?}");
        assert!(i.slowdown_pct(rw).unwrap() > 0.0, "{rw:?}: {i:?}");
    }
    // The combination carries both passes' code.
    let s = i.get(Rewrite::Sensmart).unwrap().code;
    assert!(s > i.get(Rewrite::LogicalStack).unwrap().code);
    assert!(s > i.get(Rewrite::PreemptTraps).unwrap().code);
    // Task code only: far less than the firmware's text, and none of the kernel's
    // functions (no task unit: 0 bytes).
    let dir = std::fs::read_dir(out.path())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.is_dir())
        .unwrap();
    assert_eq!(task_code_bytes(&dir, 0).unwrap(), 0);
}
