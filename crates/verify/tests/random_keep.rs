//! The random difftest runner: agreeing programs pass, and a mismatch (forced here by a
//! cycle limit too small for the simulator to finish) keeps every file needed to replay it.
//! Skipped, with a message, when the toolchain or QEMU is missing.

use cactus_verify::difftest::{DiffOptions, DifftestError};
use cactus_verify::random_difftest::{run_random, RandomError, RandomOptions};
use cactus_verify::randprog::GenConfig;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

fn options(keep: &std::path::Path, count: u64, max_cycles: u64) -> RandomOptions {
    RandomOptions {
        count,
        seed: 40,
        keep: keep.to_path_buf(),
        gen: GenConfig::default(),
        diff: DiffOptions {
            timeout: Duration::from_secs(20),
            max_cycles,
            uart_input: None,
        },
        jobs: 2,
    }
}

/// True if the error only says a tool is missing (the test is then skipped).
fn tool_missing(e: &RandomError) -> bool {
    matches!(
        e,
        RandomError::Toolchain(_) | RandomError::Difftest(DifftestError::QemuMissing(_))
    )
}

#[test]
fn agreeing_programs_pass_and_every_case_is_reported() {
    let keep = tempfile::tempdir().expect("temp dir");
    let seen = AtomicUsize::new(0);
    let result = run_random(&options(keep.path(), 6, 2_000_000_000), &|_| {
        seen.fetch_add(1, Ordering::Relaxed);
    });
    let outcomes = match result {
        Ok(o) => o,
        Err(e) if tool_missing(&e) => return eprintln!("skipped: {e}"),
        Err(e) => panic!("{e}"),
    };
    assert_eq!(seen.load(Ordering::Relaxed), 6);
    let seeds: Vec<u64> = outcomes.iter().map(|o| o.seed).collect();
    assert_eq!(seeds, vec![40, 41, 42, 43, 44, 45]);
    for o in &outcomes {
        assert!(o.failure.is_none(), "{:?}", o.failure);
    }
    assert!(std::fs::read_dir(keep.path())
        .expect("keep dir")
        .next()
        .is_none());
}

#[test]
fn mismatch_keeps_files_and_names_the_replay() {
    let keep = tempfile::tempdir().expect("temp dir");
    let outcomes = match run_random(&options(keep.path(), 1, 50), &|_| {}) {
        Ok(o) => o,
        Err(e) if tool_missing(&e) => return eprintln!("skipped: {e}"),
        Err(e) => panic!("{e}"),
    };
    let case = &outcomes[0];
    let text = case
        .failure
        .as_deref()
        .expect("a 50-cycle limit cannot finish the program");
    let dir = keep.path().join("seed-40");
    assert_eq!(case.kept.as_deref(), Some(dir.as_path()));
    for name in [
        "prog.S",
        "prog.elf",
        "link.ld",
        "sim-output.txt",
        "qemu-output.txt",
        "report.txt",
    ] {
        assert!(dir.join(name).is_file(), "{name} kept");
    }
    assert!(text.contains("cycle"), "{text}");
    assert!(
        text.contains(&format!(
            "replay: cactus difftest {}",
            dir.join("prog.elf").display()
        )),
        "{text}"
    );
    assert!(
        text.contains("cactus difftest --random 1 --seed 40"),
        "{text}"
    );
    let qemu_out = std::fs::read_to_string(dir.join("qemu-output.txt")).expect("qemu output");
    assert!(qemu_out.contains("mem="), "{qemu_out}");
}
