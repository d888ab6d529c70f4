//! The driver's other paths with the real riscv64-unknown-elf-gcc: passthrough, compiling
//! and linking in one command, gcc's failures, the driver's own errors, kept assembly and
//! the report.

use crate::driver_support::*;
use cactus_cc::driver::Passthrough;
use cactus_cc::{CcError, CheckMode, Report};
use std::path::PathBuf;

#[test]
fn preprocessing_goes_to_gcc_unchanged() {
    let dir = scratch("dash-e");
    let before = files(&dir);
    let out = run(&dir, &args(true, &["-E", "-DA_EXTRA=1", "a.c"]));
    assert_eq!(out.status, 0, "{}", stderr(&out));
    assert_eq!(out.passthrough, Some(Passthrough::Preprocess));
    let text = String::from_utf8_lossy(&out.captured.stdout);
    assert!(
        text.contains("buf[i] = x + i + 7;"),
        "A_BIAS not expanded:\n{text}"
    );
    assert_eq!(files(&dir), before, "-E writes no file");
    let out = run(&dir, &args(false, &["-dumpmachine"]));
    assert_eq!(out.passthrough, Some(Passthrough::Query));
    assert_eq!(
        String::from_utf8_lossy(&out.captured.stdout).trim(),
        "riscv64-unknown-elf"
    );
}

#[test]
fn compiling_and_linking_in_one_command_matches_gcc() {
    let dir = scratch("link");
    let mut words = args(true, &["a.c", "b.c", "start.S", "-o", "prog.elf"]);
    words.extend(LDFLAGS.iter().map(|s| s.to_string()));
    let out = run(&dir, &words);
    assert_eq!(out.status, 0, "{}", stderr(&out));
    assert_eq!(out.passthrough, None);
    let names = files(&dir);
    assert!(names.contains(&"prog.elf".to_string()), "{names:?}");
    assert!(
        !names.iter().any(|n| n.ends_with(".o")),
        "objects left: {names:?}"
    );
    let words: Vec<String> = words
        .into_iter()
        .map(|w| if w == "prog.elf" { "ref.elf".into() } else { w })
        .collect();
    gcc_ok(&dir, &words);
    assert_eq!(
        section(&dir.join("prog.elf"), ".text"),
        section(&dir.join("ref.elf"), ".text")
    );
    let nm = tool(&dir, "riscv64-unknown-elf-nm", &["prog.elf".into()]);
    let syms = String::from_utf8_lossy(&nm.stdout);
    for sym in [" main", " f", " sum", " start_fn"] {
        assert!(syms.contains(sym), "{sym} missing:\n{syms}");
    }
}

#[test]
fn a_c_error_passes_gccs_message_and_code_and_leaves_no_object() {
    let dir = scratch("c-error");
    let out = run(&dir, &args(true, &["-c", "bad.c", "-o", "bad.o"]));
    assert_eq!(out.status, 1);
    let err = stderr(&out);
    assert!(err.contains("bad.c:4:") && err.contains("error:"), "{err}");
    let reference = tool(&dir, GCC, &args(true, &["-c", "bad.c", "-o", "ref.o"]));
    assert_eq!(err, String::from_utf8_lossy(&reference.stderr));
    let names = files(&dir);
    assert!(!names.iter().any(|n| n.contains("bad.o")), "{names:?}");
}

#[test]
fn one_failing_source_does_not_stop_the_others_nor_hide_the_failure() {
    let dir = scratch("one-bad");
    let out = run(&dir, &args(true, &["-c", "a.c", "bad.c"]));
    assert_eq!(out.status, 1);
    let names = files(&dir);
    assert!(names.contains(&"a.o".to_string()), "{names:?}");
    assert!(!names.contains(&"bad.o".to_string()), "{names:?}");
    let out = run(
        &dir,
        &args(true, &["a.c", "bad.c", "b.c", "-o", "prog.elf"]),
    );
    assert_eq!(out.status, 1);
    assert!(
        !dir.join("prog.elf").exists(),
        "no link after a failed compile"
    );
}

#[test]
fn driver_errors_name_the_culprit() {
    let dir = scratch("driver-errors");
    let mut d = driver(&dir, CheckMode::None);
    d.gcc = PathBuf::from("no-such-riscv-gcc");
    let err = d.run(&args(true, &["-c", "a.c"])).expect_err("gcc missing");
    assert!(matches!(err, CcError::Tool(_)), "{err:?}");
    assert!(
        err.to_string().contains("no-such-riscv-gcc: cannot run"),
        "{err}"
    );
    let err = d
        .run(&args(true, &["-c", "-x", "c", "-"]))
        .expect_err("C from standard input");
    assert!(matches!(err, CcError::Usage(_)), "{err:?}");
    let d = driver(&dir, CheckMode::None);
    let out = d.run(&args(true, &["-c", "a.c", "-o", "missing/a.o"]));
    let err = out.expect_err("no such directory").to_string();
    assert!(err.contains("missing/a.o"), "{err}");
    assert!(!dir.join("a.o").exists());
}

#[test]
fn kept_assembly_and_report_are_written_beside_the_outputs() {
    let dir = scratch("keep-s");
    std::fs::create_dir_all(dir.join("obj")).unwrap();
    for mode in [CheckMode::None, CheckMode::Detect] {
        let mut d = driver(&dir, mode);
        d.keep_s = true;
        d.report = Some(PathBuf::from("obj/report.json"));
        let out = d.run(&args(true, &["-c", "a.c", "-o", "obj/a.o"])).unwrap();
        assert_eq!(out.status, 0, "{}", stderr(&out));
        let kept = std::fs::read_to_string(dir.join("obj/a.o.cactus.s")).unwrap();
        assert!(kept.contains("f:"), "{kept}");
        let json = std::fs::read_to_string(dir.join("obj/report.json")).unwrap();
        let report: Report = serde_json::from_str(&json).expect("report parses");
        assert_eq!(Some(report), out.report);
        let mut link = args(true, &["a.c", "b.c", "-o", "obj/prog.elf"]);
        link.extend(LDFLAGS.iter().map(|s| s.to_string()));
        let out = d.run(&link).unwrap();
        assert_eq!(out.status, 0, "{}", stderr(&out));
        assert!(
            dir.join("obj/prog.elf-b.cactus.s").exists(),
            "{:?}",
            files(&dir.join("obj"))
        );
    }
}
