//! Regression cases from an outside tester's run: every kind of bad manifest `cactus build` was
//! given (empty, not TOML, wrong types, values out of range, duplicate and non-C names, unknown
//! keys and strategies, missing sources, a directory, too many tasks) exits 2 with one message
//! naming the file, the line and the key, without a panic and without building anything.

use crate::support::*;
use std::path::{Path, PathBuf};

/// One task with `stack = 512` at priority 1 in `t.c`; `edit` rewrites the text.
fn manifest(edit: impl Fn(String) -> String) -> String {
    edit(
        "[firmware]\nname = \"t\"\n\n[kernel]\ntick_hz = 1000\n\n[[task]]\nname = \"t\"\n\
         sources = [\"t.c\"]\nentry = \"t_main\"\npriority = 1\nstack = 512\n"
            .to_string(),
    )
}

/// A manifest with `n` tasks of the smallest stack.
fn many_tasks(n: usize) -> String {
    let mut text = String::from("[firmware]\nname = \"many\"\n");
    for i in 0..n {
        text += &format!(
            "\n[[task]]\nname = \"t{i}\"\nsources = [\"t.c\"]\nentry = \"t_main\"\n\
             priority = 1\nstack = 128\n"
        );
    }
    text
}

/// Writes `text` as `m.toml` beside a valid `t.c` in a fresh directory and builds it.
fn build(case: &str, text: &str) -> (PathBuf, std::process::Output) {
    let dir = scratch(&format!("bad-manifest-{case}"));
    std::fs::write(dir.join("t.c"), "void t_main(void *arg) { (void)arg; }\n").unwrap();
    let m = dir.join("m.toml");
    std::fs::write(&m, text).unwrap();
    let out = cactus(&["build", m.to_str().unwrap()]);
    (dir, out)
}

/// Exit 2, every `want` in the message, no panic, nothing printed or built.
fn assert_refused(case: &str, dir: &Path, out: &std::process::Output, want: &[&str]) {
    let err = stderr(out);
    assert_eq!(code(out), 2, "{case}: stderr:\n{err}");
    for w in want {
        assert!(err.contains(w), "{case}: {w:?} not in:\n{err}");
    }
    assert!(!err.contains("panicked"), "{case}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: one message:\n{err}");
    assert!(stdout(out).is_empty(), "{case}: {}", stdout(out));
    let built: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "t.c" && n != "m.toml")
        .collect();
    assert!(
        built.is_empty(),
        "{case}: a refused build leaves nothing: {built:?}"
    );
}

#[test]
fn every_kind_of_bad_manifest_names_file_line_and_key() {
    let cases: Vec<(&str, String, &[&str])> = vec![
        ("empty", String::new(), &["m.toml:1: ", "`firmware`"]),
        (
            "not-toml",
            "this is not = = toml [\n".into(),
            &["m.toml:1: ", "expected"],
        ),
        (
            "wrong-type",
            manifest(|m| m.replace("stack = 512", "stack = \"big\"")),
            &["m.toml:12: `task[0].stack`: invalid type: string \"big\""],
        ),
        (
            "sources-not-a-list",
            manifest(|m| m.replace("[\"t.c\"]", "\"t.c\"")),
            &["m.toml:9: `task[0].sources`: invalid type"],
        ),
        (
            "stack-too-small",
            manifest(|m| m.replace("stack = 512", "stack = 4")),
            &["m.toml:12: `task[0].stack`: 4 is out of range"],
        ),
        (
            "stack-too-large",
            manifest(|m| m.replace("stack = 512", "stack = 99999999")),
            &["m.toml:12: `task[0].stack`: 99999999 is out of range"],
        ),
        (
            "negative-priority",
            manifest(|m| m.replace("priority = 1", "priority = -3")),
            &["m.toml:11: `task[0].priority`: -3 is out of range (0..=31)"],
        ),
        (
            "priority-too-high",
            manifest(|m| m.replace("priority = 1", "priority = 99")),
            &["m.toml:11: `task[0].priority`: 99 is out of range"],
        ),
        (
            "tick-zero",
            manifest(|m| m.replace("tick_hz = 1000", "tick_hz = 0")),
            &["m.toml:5: `kernel.tick_hz`: "],
        ),
        (
            "period-below-a-tick",
            manifest(|m| m + "period_ms = 0\n"),
            &["m.toml:13: `task[0].period_ms`: 0 ms must be at least one tick"],
        ),
        (
            "duplicate-task",
            manifest(|m| {
                let task = m[m.find("[[task]]").unwrap()..].to_string();
                m + "\n" + &task
            }),
            &["`task[1].name`: task name \"t\" is used twice"],
        ),
        (
            "task-name-not-c",
            manifest(|m| m.replace("name = \"t\"\nsources", "name = \"t-1\"\nsources")),
            &["m.toml:8: `task[0].name`: \"t-1\" is not a C identifier"],
        ),
        (
            "firmware-name-not-c",
            manifest(|m| m.replacen("name = \"t\"", "name = \"9 t\"", 1)),
            &["m.toml:2: `firmware.name`: \"9 t\" is not a C identifier"],
        ),
        (
            "unknown-task-key",
            manifest(|m| m + "bogus = 1\n"),
            &["m.toml:13: `task[0].bogus`: unknown field `bogus`"],
        ),
        (
            "unknown-kernel-key",
            manifest(|m| m.replace("tick_hz = 1000", "tick_us = 1000")),
            &["m.toml:5: `kernel.tick_us`: unknown field `tick_us`"],
        ),
        (
            "unknown-strategy",
            manifest(|m| m.replace("tick_hz = 1000", "stack = \"magic\"")),
            &["m.toml:5: `kernel.stack`: unknown stack strategy \"magic\""],
        ),
        (
            "missing-source",
            manifest(|m| m.replace("[\"t.c\"]", "[\"t.c\", \"nope.c\"]")),
            &["m.toml:9: `task[0].sources[1]`: no such file: ", "nope.c"],
        ),
        (
            "too-many-tasks",
            many_tasks(300),
            &["`task`: 300 tasks; a firmware has at most 256"],
        ),
    ];
    for (case, text, want) in &cases {
        let (dir, out) = build(case, text);
        assert_refused(case, &dir, &out, want);
    }
}

#[test]
fn a_directory_given_as_the_manifest_is_named_with_its_cause_once() {
    let dir = scratch("bad-manifest-directory");
    let m = dir.join("d.toml");
    std::fs::create_dir(&m).unwrap();
    let out = cactus(&["build", m.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(code(&out), 2, "{err}");
    assert!(err.contains(m.to_str().unwrap()), "{err}");
    assert_eq!(
        err.matches("Is a directory").count(),
        1,
        "the cause is said once:\n{err}"
    );
}
