//! `cactus cc` as a program: a drop-in CC for Make, gcc's exit codes and messages passed
//! through, and the driver's own errors reported with exit code 2 before anything is built.

use crate::support::{code, scratch, stderr};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The driver fixtures (shared with the `cactus-cc` tests).
fn sources() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../cc/tests/fixtures/driver")
}

/// `cactus cc ARGS` in `dir`, with `CACTUS_GCC` set to `gcc` when given.
fn cactus_cc(dir: &Path, args: &[&str], gcc: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cactus"));
    cmd.arg("cc").args(args).current_dir(dir);
    match gcc {
        Some(g) => cmd.env("CACTUS_GCC", g),
        None => cmd.env_remove("CACTUS_GCC"),
    };
    cmd.output().expect("run cactus")
}

fn src(name: &str) -> String {
    sources().join(name).to_string_lossy().into_owned()
}

const FLAGS: [&str; 2] = ["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32"];

fn make(dir: &Path, cc: &str, extra: &[&str]) -> Output {
    Command::new("make")
        .arg("-f")
        .arg(sources().join("make/Makefile"))
        .arg(format!("SRC={}", sources().display()))
        .arg(format!("CC={cc}"))
        .args(extra)
        .current_dir(dir)
        .output()
        .expect("run make")
}

#[test]
fn a_makefile_builds_with_cactus_cc_as_cc() {
    let dir = scratch("cc-make");
    let cc = format!("{} cc --checks detect --", env!("CARGO_BIN_EXE_cactus"));
    let out = make(&dir, &cc, &[]);
    assert!(out.status.success(), "make failed:\n{}", stderr(&out));
    assert!(dir.join("build/prog.elf").exists());
    let dep = std::fs::read_to_string(dir.join("build/a.d")).expect("a.d written");
    assert!(dep.starts_with("build/a.o: "), "{dep}");
    assert!(dep.contains("a.h"), "{dep}");
    let sections = Command::new("riscv64-unknown-elf-objdump")
        .args(["-h", "build/a.o"])
        .current_dir(&dir)
        .output()
        .expect("run objdump");
    let sections = String::from_utf8_lossy(&sections.stdout);
    assert!(sections.contains("cactus_checks"), "{sections}");
    let again = make(&dir, &cc, &["-q"]);
    assert_eq!(code(&again), 0, "everything is up to date after one build");
}

#[test]
fn gccs_exit_code_and_message_pass_through() {
    let dir = scratch("cc-gcc-error");
    let bad = src("bad.c");
    let mut args = vec!["--checks", "detect", "--"];
    args.extend(FLAGS);
    args.extend(["-c", &bad, "-o", "bad.o"]);
    let out = cactus_cc(&dir, &args, None);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("bad.c:4:") && err.contains("error:"), "{err}");
    assert!(!err.contains("cactus"), "gcc's message only: {err}");
    assert!(!dir.join("bad.o").exists());
}

#[test]
fn bad_options_exit_2_with_a_clear_message_and_build_nothing() {
    let dir = scratch("cc-bad-option");
    let a = src("a.c");
    let cases: [(&[&str], &str); 3] = [
        (
            &["--checks", "bogus"],
            "invalid value 'bogus' for '--checks <MODE>'",
        ),
        (
            &["--k-app", "lots"],
            "invalid value 'lots' for '--k-app <BYTES>'",
        ),
        (
            &["--reserves", "nope.json"],
            "cactus cc: error: nope.json: ",
        ),
    ];
    for (opts, want) in cases {
        let mut args = opts.to_vec();
        args.extend(["--", "-c", &a]);
        let out = cactus_cc(&dir, &args, None);
        assert_eq!(code(&out), 2, "{opts:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{opts:?}: {}", stderr(&out));
    }
    std::fs::write(dir.join("r.json"), "{\"functions\": 3}").unwrap();
    let out = cactus_cc(&dir, &["--reserves", "r.json", "--", "-c", &a], None);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("cactus cc: error: r.json: invalid type"),
        "{}",
        stderr(&out)
    );
    assert!(
        !dir.join("a.o").exists(),
        "nothing is built after a bad option"
    );
}

#[test]
fn the_gcc_comes_from_cactus_gcc_unless_gcc_is_given() {
    let dir = scratch("cc-which-gcc");
    let a = src("a.c");
    let mut args = vec!["--"];
    args.extend(FLAGS);
    args.extend(["-c", &a]);
    let out = cactus_cc(&dir, &args, Some("/nonexistent/gcc"));
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out).lines().next().unwrap_or(""),
        "cactus cc: error: /nonexistent/gcc: cannot run: No such file or directory (os error 2)"
    );
    let mut args = vec!["--gcc", "riscv64-unknown-elf-gcc", "--"];
    args.extend(FLAGS);
    args.extend(["-c", &a]);
    let out = cactus_cc(&dir, &args, Some("/nonexistent/gcc"));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(dir.join("a.o").exists());
}
