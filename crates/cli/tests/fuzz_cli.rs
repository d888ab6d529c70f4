//! `cactus fuzz` from the command line: a one-program batch ends with the result line make
//! parses, a saved case replays, bad options and missing cases are bad input.

use crate::support::*;
use std::process::Command;

fn have_csmith() -> bool {
    Command::new("csmith").arg("--version").output().is_ok()
}

#[test]
fn one_program_batch_ends_with_the_result_line() {
    if !have_csmith() {
        eprintln!("csmith is not installed: skipping");
        return;
    }
    let out_dir = tempfile::tempdir().unwrap();
    let out = cactus(&[
        "fuzz",
        "--runs",
        "1",
        "--seed",
        "2",
        "--opt",
        "O2",
        "--modes",
        "detect",
        "--out",
        out_dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("1 passed, 0 failed"), "{text}");
    assert!(text.contains("0 skipped"), "{text}");
    assert!(text.contains("1 programs, 8 simulator runs"), "{text}");
}

#[test]
fn a_saved_case_replays() {
    if !have_csmith() {
        eprintln!("csmith is not installed: skipping");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = Command::new("csmith")
        .args(["--seed", "3", "--max-funcs", "3"])
        .output()
        .unwrap();
    std::fs::write(dir.path().join("prog.c"), &source.stdout).unwrap();
    std::fs::write(
        dir.path().join("case.json"),
        r#"{"seed": null, "csmith": null, "variants": ["O0-none", "O0-detect-rolling"],
            "max_cycles": 20000000, "tight": true, "qemu": false, "qemu_timeout_secs": 30.0,
            "status": "failed", "findings": [], "baseline": []}"#,
    )
    .unwrap();
    let case = dir.path().to_str().unwrap();
    let out = cactus(&["fuzz", "replay", case]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("1 passed, 0 failed"));
    assert!(dir
        .path()
        .join("replay/O0-detect-rolling/prog.elf")
        .exists());
    let out = cactus(&[
        "fuzz",
        "replay",
        case,
        "--expect",
        "O0-detect-rolling: mismatch",
    ]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("not reproduced"));
}

#[test]
fn bad_options_and_missing_cases_are_bad_input() {
    let out = cactus(&["fuzz", "--opt", "O3"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("unknown level `O3`"),
        "{}",
        stderr(&out)
    );
    let out = cactus(&["fuzz", "--modes", "fast"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("unknown mode `fast`"),
        "{}",
        stderr(&out)
    );
    let out = cactus(&["fuzz", "--multitask", "1"]);
    assert_eq!(code(&out), 2);
    let missing = tempfile::tempdir().unwrap();
    let out = cactus(&["fuzz", "replay", missing.path().to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("case.json"), "{}", stderr(&out));
}
