//! `cactus workloads stacks` on real firmware: the small single-task CoreMark-like manifest
//! builds, runs on cactus-sim, passes its own check, and every task reports a stack high water
//! within its budget; a manifest whose budget is too small for its program fails (the kernel
//! halts on the overflow) instead of passing. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::have_cross_gcc;
use cactus_bench::workloads::stacks::{measure, points};
use cactus_firmware::catalogue::{discover, select, SizeClass};
use std::path::{Path, PathBuf};

fn workloads() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workloads")
        .canonicalize()
        .unwrap()
}

#[test]
fn coremark_single_small_passes_with_every_high_water_within_budget() {
    if !have_cross_gcc() {
        return;
    }
    let dir = workloads();
    let entries = select(
        discover(&dir).unwrap(),
        Some("coremark-like"),
        Some(SizeClass::Small),
    );
    let single: Vec<_> = entries
        .into_iter()
        .filter(|e| e.firmware == "coremark_single_small")
        .collect();
    assert_eq!(single.len(), 1);
    let options = cactus_sweep::SweepOptions {
        workers: 1,
        ..Default::default()
    };
    let store = cactus_sweep::run(points(&dir, &single), &options, None).unwrap();
    let run = store.rows()[0];
    assert_eq!(run.note, None);
    let names: Vec<_> = run.rows.iter().map(|r| r.task.as_str()).collect();
    assert_eq!(names, ["coremark0", "feeder", "coordinator"]);
    for r in &run.rows {
        let hwm = r
            .stack_hwm
            .unwrap_or_else(|| panic!("no high water for {}", r.task));
        assert!(hwm > 0 && hwm + 16 <= r.budget, "{r:?}");
        assert!(r.passed);
    }
}

/// `text` with every path of its `sources` and `include` lines made absolute (from `base`).
fn anchored(text: &str, base: &Path) -> String {
    text.lines()
        .map(|l| {
            if !(l.starts_with("sources = ") || l.starts_with("include = ")) {
                return l.to_string();
            }
            l.split('"')
                .enumerate()
                .map(|(i, part)| {
                    if i % 2 == 1 {
                        base.join(part).display().to_string()
                    } else {
                        part.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\"")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_budget_below_the_programs_stack_fails_the_run() {
    if !have_cross_gcc() {
        return;
    }
    let suite = workloads().join("coremark-like");
    let text = anchored(
        &std::fs::read_to_string(suite.join("coremark-single-small.toml")).unwrap(),
        &suite,
    );
    // The worker (priority 10) gets 256 bytes: its program needs more than 500.
    let starved = text.replacen("priority = 10\nstack = ", "priority = 10\nstack = 256 #", 1);
    assert_ne!(starved, text, "the worker's stack line was not found");
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("s")).unwrap();
    std::fs::write(tmp.path().join("s/starved.toml"), format!("{starved}\n")).unwrap();
    let entries = discover(tmp.path()).unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].tasks[0].stack, 256);
    let run = measure(tmp.path(), &entries[0]);
    // The kernel finds the overflow at a switch and halts (exit code 3): not a build error.
    assert_eq!(run.note.as_deref(), Some("exit code 3"), "{run:?}");
    assert!(run.rows.iter().all(|r| !r.passed));
}
