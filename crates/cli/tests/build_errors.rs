//! Bad manifests and bad manifest options: exit code 2 and one message naming the file, the
//! line, the key and the problem (or the option), never a panic and no firmware run.

use crate::support::*;
use std::path::PathBuf;

/// A scratch directory with `t.c` and manifest `m.toml` holding `manifest`.
fn setup(test: &str, manifest: &str, source: &str) -> PathBuf {
    let dir = scratch(test);
    std::fs::write(dir.join("t.c"), source).unwrap();
    std::fs::write(dir.join("m.toml"), manifest).unwrap();
    dir.join("m.toml")
}

const GOOD_C: &str = "void t_main(void *arg) { (void)arg; }\n";

fn manifest(task_extra: &str) -> String {
    format!(
        "[firmware]\nname = \"t\"\n\n[[task]]\nname = \"t\"\nsources = [\"t.c\"]\n\
         entry = \"t_main\"\npriority = 1\nstack = 512\n{task_extra}"
    )
}

fn assert_bad(out: &std::process::Output, want: &[&str]) {
    let err = stderr(out);
    assert_eq!(code(out), 2, "stderr:\n{err}");
    for w in want {
        assert!(err.contains(w), "{w:?} not in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        stdout(out).is_empty(),
        "nothing may run or be printed: {}",
        stdout(out)
    );
}

#[test]
fn an_unknown_key_names_file_line_and_key() {
    let m = setup("bad-key", &manifest("perod_ms = 5\n"), GOOD_C);
    let out = cactus(&["build", m.to_str().unwrap()]);
    assert_bad(
        &out,
        &["m.toml:10: `task[0].perod_ms`: unknown field `perod_ms`"],
    );
}

#[test]
fn a_missing_entry_and_a_bad_priority_are_named() {
    let text = manifest("").replace("entry = \"t_main\"\n", "");
    let m = setup("no-entry", &text, GOOD_C);
    assert_bad(
        &cactus(&["build", m.to_str().unwrap()]),
        &["m.toml:4: `task[0]`: missing field `entry`"],
    );
    let text = manifest("").replace("priority = 1", "priority = 99");
    let m = setup("bad-prio", &text, GOOD_C);
    assert_bad(
        &cactus(&["run", m.to_str().unwrap()]),
        &["m.toml:8: `task[0].priority`: 99 is out of range (0..=31)"],
    );
}

#[test]
fn a_missing_source_and_an_unknown_strategy_are_named() {
    let text = manifest("").replace("\"t.c\"", "\"gone.c\"");
    let m = setup("no-source", &text, GOOD_C);
    assert_bad(
        &cactus(&["build", m.to_str().unwrap()]),
        &["m.toml:6: `task[0].sources[0]`: no such file: ", "gone.c"],
    );
    let text = format!("{}\n[kernel]\nstack = \"heapless\"\n", manifest(""));
    let m = setup("bad-strategy", &text, GOOD_C);
    assert_bad(
        &cactus(&["build", m.to_str().unwrap()]),
        &["`kernel.stack`: unknown stack strategy \"heapless\"; known strategies: \"static\", \"mtss\""],
    );
    let m = setup("bad-stack-option", &manifest(""), GOOD_C);
    assert_bad(
        &cactus(&["run", m.to_str().unwrap(), "--stack", "heapless"]),
        &["--stack: unknown stack strategy \"heapless\"; known strategies: \"static\", \"mtss\""],
    );
}

#[test]
fn a_compile_error_shows_the_compiler_output() {
    let m = setup(
        "compile-error",
        &manifest(""),
        // A real error: user code is built without -Werror, so a warning alone would build.
        "void t_main(void *arg) { (void)arg; undeclared_name = 1; }\n",
    );
    let dir = m.parent().unwrap().join("out");
    let out = cactus(&[
        "build",
        m.to_str().unwrap(),
        "--build-dir",
        dir.to_str().unwrap(),
    ]);
    assert_bad(&out, &["compiling ", "t.c failed:", "error:"]);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "a failed build leaves nothing: {left:?}");
}

#[test]
fn manifest_options_do_not_apply_to_an_elf() {
    let dir = scratch("elf-with-stack");
    let elf = build(&dir, "hello");
    let out = cactus(&["run", elf.to_str().unwrap(), "--stack", "static"]);
    assert_bad(
        &out,
        &["--stack, --target and --build-dir apply to a manifest"],
    );
}
