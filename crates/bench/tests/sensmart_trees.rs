//! `cactus bench sensmart --parts trees` probes on real firmware (bench/sensmart/trees.c):
//! eight search tasks in Figure 8's 4 KiB pool run correctly under `relocate` with the
//! hardware window, which relocates stacks to do it, and fail under `static` with the same
//! share of the pool (the ownership oracle stops the first overflow). Built into a temporary
//! directory, so nothing left in build/ matters. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_cross_gcc, repo_root};
use cactus_bench::sensmart::trees::{probe, Strategy, TreeOptions, FIG8, SEARCHES};
use cactus_bench::Size;

#[test]
fn relocation_runs_what_static_stacks_cannot_in_the_same_pool() {
    if !have_cross_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let o = TreeOptions {
        root: repo_root(),
        size: Size::Small,
        build_dir: Some(out.path().to_path_buf()),
    };
    let run = probe(&o, Strategy::RelocateHw, FIG8, 8).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.growths > 0, "no relocation: {run:?}");
    assert!(run.depth_max >= run.depth_mean100 / 100 && run.depth_max < 64);
    assert!(run.cycles_per_search(8).unwrap() > 0);
    // The average region while all eight are live is within the pool's share of them.
    let avg = run.avg_stack.unwrap();
    assert!(avg > 0 && avg <= (4096 - 64 - 512) / 8, "{avg}");
    assert!(run.search_cycles > u64::from(8 * SEARCHES), "{run:?}");
    let e = probe(&o, Strategy::Static, FIG8, 8).unwrap_err();
    assert!(e.contains("ownership violation"), "{e}");
}
