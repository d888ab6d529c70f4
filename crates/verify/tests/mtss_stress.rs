//! The MTSS stress end to end: the stress workload built as the static reference and as the
//! shrunk `mtss` variant, a few seeds run on both and judged. They must pass with frames
//! really moved; the seed must reach the firmware (different seeds, different output); and
//! the comparison must be able to fail (a corrupted reference output is caught). Skipped (with
//! a message) only when riscv64-unknown-elf-gcc is not installed.

use cactus_verify::stress::{
    build_pair, judge, points, run::run_variant, DEFAULT_MAX_CYCLES, DEFAULT_SHRINK,
};
use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workloads/mtss-stress/stress.toml")
        .canonicalize()
        .unwrap()
}

#[test]
fn seeds_pass_share_stacks_and_a_corrupted_reference_is_caught() {
    if !crate::scenario::gcc_installed() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let fw = build_pair(
        &manifest(),
        DEFAULT_SHRINK,
        &Default::default(),
        Some(out.path().to_path_buf()),
        "mtss",
        false,
    )
    .unwrap();
    for b in &fw.budgets {
        assert!(b.mtss < b.reference, "{b:?}");
    }

    let options = cactus_sweep::SweepOptions {
        workers: 2,
        ..Default::default()
    };
    let store = cactus_sweep::run(points(&fw, 41, 3, DEFAULT_MAX_CYCLES), &options, None).unwrap();
    let results: Vec<_> = store.rows().into_iter().cloned().collect();
    assert_eq!(
        results.iter().map(|r| r.seed).collect::<Vec<_>>(),
        vec![41, 42, 43]
    );
    for r in &results {
        assert!(
            r.passed,
            "seed {}: {:?} {:?}",
            r.seed, r.problems, r.outputs
        );
        assert!(r.mtss.moved_frames > 0, "seed {}: nothing moved", r.seed);
        assert!(r.mtss.lent_bytes > 0 && r.mtss.borrowed_bytes > 0);
        assert_eq!(r.reference.moved_frames, 0);
        assert_eq!(r.mtss.violations + r.reference.violations, 0);
    }

    // The seed reaches the firmware: its output names it and differs from another seed's.
    let (a, _) = run_variant(&fw.reference, 7, DEFAULT_MAX_CYCLES);
    let (b, _) = run_variant(&fw.reference, 8, DEFAULT_MAX_CYCLES);
    let text = String::from_utf8_lossy(&a.uart).into_owned();
    assert!(text.contains("stress seed 0x00000007"), "{text}");
    assert!(text.contains("PASS"), "{text}");
    assert_ne!(a.uart, b.uart);

    // The comparison can fail: one changed checksum digit in the reference output is found.
    let (m, _) = run_variant(&fw.mtss, 7, DEFAULT_MAX_CYCLES);
    assert!(judge(&a, &m).is_empty(), "{:?}", judge(&a, &m));
    let mut corrupted = a.clone();
    let at = text.find("checksum 0x").unwrap() + "checksum 0x".len();
    corrupted.uart[at] = if corrupted.uart[at] == b'0' {
        b'1'
    } else {
        b'0'
    };
    let problems = judge(&corrupted, &m);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("outputs differ at line 2"),
        "{problems:?}"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The stress catches a broken strategy: a copy of the tree's kernel whose `mtss` strategy
/// corrupts the stack arguments it copies into a moved frame fails seeds (the workload's own
/// frame checks see the changed arguments, so the outputs differ).
#[test]
fn a_kernel_that_corrupts_moved_arguments_is_caught() {
    if !crate::scenario::gcc_installed() {
        return;
    }
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = tempfile::tempdir().unwrap();
    copy_tree(&tree.join("kernel"), &root.path().join("kernel"));
    copy_tree(
        &tree.join("workloads/mtss-stress"),
        &root.path().join("workloads/mtss-stress"),
    );
    // The argument copy of a moved frame: in mtss.c, or in the frame-move helpers it uses.
    let copy = "to[i] = from[i];";
    let strategy = ["kernel/stack/frame_move.h", "kernel/stack/mtss.c"]
        .iter()
        .map(|f| root.path().join(f))
        .find(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(copy)))
        .unwrap_or_else(|| {
            panic!("neither frame_move.h nor mtss.c has `{copy}`: update this mutation")
        });
    let text = std::fs::read_to_string(&strategy).unwrap();
    std::fs::write(&strategy, text.replace(copy, "to[i] = from[i] ^ 1u;")).unwrap();
    let fw = build_pair(
        &root.path().join("workloads/mtss-stress/stress.toml"),
        DEFAULT_SHRINK,
        &Default::default(),
        None,
        "mtss",
        false,
    )
    .unwrap();
    let options = cactus_sweep::SweepOptions {
        workers: 2,
        ..Default::default()
    };
    let store = cactus_sweep::run(points(&fw, 1, 4, DEFAULT_MAX_CYCLES), &options, None).unwrap();
    let results: Vec<_> = store.rows().into_iter().cloned().collect();
    let caught: Vec<_> = results.iter().filter(|r| !r.passed).collect();
    assert!(!caught.is_empty(), "no seed failed: {results:?}");
    eprintln!("{} of {} seeds caught", caught.len(), results.len());
    for r in caught {
        assert!(
            r.problems.iter().any(|p| p.contains("outputs differ")),
            "{:?}",
            r.problems
        );
    }
}
