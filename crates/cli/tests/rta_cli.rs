//! `cactus rta`: a hand-worked task set (its table, summary line and exit codes by equation 3
//! and 4), `--json` to a file and to stdout, bad input (exit 2, the file, line and key named,
//! nothing written), `--generate` with `--emit` read back, and `--manifest` on the
//! Mälardalen-like small set and the demo (C_i measured on cactus-sim, the verdicts checked
//! against the run's deadline misses).

use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Burns & Wellings' three tasks with CS¹ = 1 (worked in crates/rta's unit tests): by
/// equation 4, R = 4, 12 and c's first iterate 22 > 20 (unschedulable, slack −2); by
/// equation 3, R = 3, 6, 20 (schedulable, worst slack 0).
const BW: &str = r#"[system]
cs1 = 1
clock_hz = 1000000

[[task]]
name = "a"
wcet = 3
period = 7
priority = 3

[[task]]
name = "b"
wcet = 3
period = 12
priority = 2

[[task]]
name = "c"
wcet = 5
period = 20
priority = 1
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the task set");
    path
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn last_line(out: &str) -> &str {
    out.lines().last().unwrap_or_default()
}

#[test]
fn a_hand_worked_set_by_equations_4_and_3() {
    let dir = scratch("rta-bw");
    let file = write(&dir, "bw.toml", BW);
    let out = cactus(&["rta", arg(&file)]);
    assert_eq!(code(&out), 1, "unschedulable is exit 1: {}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(
        last_line(&text),
        "rta: tasks=3 schedulable=no worst_slack_cycles=-2"
    );
    let c = text
        .lines()
        .find(|l| l.starts_with("c "))
        .expect("a row for c");
    let cells: Vec<&str> = c.split_whitespace().collect();
    // task prio C T D B R R-µs slack verdict
    assert_eq!(
        cells,
        [
            "c",
            "1",
            "5",
            "20",
            "20",
            "0",
            ">22",
            ">22.0",
            "-2",
            "UNSCHEDULABLE"
        ]
    );
    assert!(
        text.contains("set: UNSCHEDULABLE by equation 4 (cs1=1 cs2=0)"),
        "{text}"
    );

    let out = cactus(&["rta", arg(&file), "--equation", "3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        last_line(&stdout(&out)),
        "rta: tasks=3 schedulable=yes worst_slack_cycles=0"
    );
    // --cs1 overrides the file: 0 makes equation 4 equal equation 3.
    let out = cactus(&["rta", arg(&file), "--cs1", "0"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn json_to_a_file_and_to_stdout() {
    let dir = scratch("rta-json");
    let file = write(&dir, "bw.toml", BW);
    let json = dir.join("out.json");
    let out = cactus(&["rta", arg(&file), "--json", arg(&json)]);
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["equation"], 4);
    assert_eq!(doc["schedulable"], false);
    assert_eq!(doc["worst_slack_cycles"], -2);
    let r: Vec<Value> = doc["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["response_cycles"].clone())
        .collect();
    assert_eq!(r, [Value::from(4), Value::from(12), Value::Null]);
    assert_eq!(doc["tasks"][2]["first_above_deadline"], 22);

    // `-`: the JSON alone on stdout, the table and summary on stderr.
    let out = cactus(&["rta", arg(&file), "--json", "-", "--equation", "3"]);
    assert_eq!(code(&out), 0);
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("stdout is the JSON");
    assert_eq!(doc["worst_slack_cycles"], 0);
    assert!(last_line(&stderr(&out)).starts_with("rta: tasks=3 schedulable=yes"));
}

#[test]
fn bad_input_is_exit_2_naming_file_line_and_key() {
    let dir = scratch("rta-bad");
    let bad = write(
        &dir,
        "bad.toml",
        &BW.replace("period = 12", "period = 12\ndeadline = 13"),
    );
    let json = dir.join("never.json");
    let out = cactus(&["rta", arg(&bad), "--json", arg(&json)]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:15: `task[1].deadline`: 13 is longer than the period",
            bad.display()
        )),
        "{err}"
    );
    assert!(!json.exists(), "nothing written on bad input");
    assert!(stdout(&out).is_empty());

    let unknown = write(&dir, "unknown.toml", &BW.replace("cs1 = 1", "cs3 = 1"));
    let out = cactus(&["rta", arg(&unknown)]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("unknown.toml:2:"), "{}", stderr(&out));

    let out = cactus(&["rta", "/nonexistent/set.toml"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("/nonexistent/set.toml"));

    // Manifest options without --manifest.
    let file = write(&dir, "bw.toml", BW);
    let out = cactus(&["rta", arg(&file), "--stack", "mtss"]);
    assert_eq!(code(&out), 2);
    // Neither a file nor --manifest.
    assert_eq!(code(&cactus(&["rta"])), 2);
}

#[test]
fn generate_emits_a_set_that_reads_back_schedulable() {
    let dir = scratch("rta-generate");
    let file = write(&dir, "bw.toml", BW);
    let emitted = dir.join("set.toml");
    let run = |seed: &str| {
        cactus(&[
            "rta",
            arg(&file),
            "--generate",
            "--seed",
            seed,
            "--sz",
            "400",
            "--emit",
            arg(&emitted),
        ])
    };
    let out = run("5");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let summary = last_line(&stdout(&out)).to_string();
    assert!(
        summary.starts_with("rta: tasks=3 schedulable=yes"),
        "{summary}"
    );
    assert!(summary.contains(" rejected="), "{summary}");
    let first = std::fs::read_to_string(&emitted).unwrap();
    // The emitted set analyses the same (without the generator's rejected= count).
    let again = cactus(&["rta", arg(&emitted)]);
    assert_eq!(code(&again), 0);
    assert!(summary.starts_with(last_line(&stdout(&again))), "{summary}");
    // The same seed is the same set; another seed another.
    assert_eq!(code(&run("5")), 0);
    assert_eq!(std::fs::read_to_string(&emitted).unwrap(), first);
    assert_eq!(code(&run("6")), 0);
    assert_ne!(std::fs::read_to_string(&emitted).unwrap(), first);
}

/// Runs `cactus rta --manifest` on a workload manifest, building under `dir`; returns the
/// output and the JSON document.
fn rta_manifest(dir: &Path, manifest: &str) -> (std::process::Output, Value) {
    let path = format!("{}/../../workloads/{manifest}", env!("CARGO_MANIFEST_DIR"));
    let json = dir.join("rta.json");
    let out = cactus(&[
        "rta",
        "--manifest",
        &path,
        "--build-dir",
        arg(&dir.join("b")),
        "--json",
        arg(&json),
    ]);
    let doc =
        serde_json::from_slice(&std::fs::read(&json).unwrap_or_default()).unwrap_or(Value::Null);
    (out, doc)
}

/// The thirteen periodic tasks: every one measured (one job per release, or fewer where a job
/// ran into its next release), C_i the longest job and at least its BCET, and the check: no
/// task the analysis calls schedulable missed a deadline (exit 5 otherwise).
#[test]
fn manifest_malardalen_small_is_measured_and_checked() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("rta-malardalen");
    let (out, doc) = rta_manifest(&dir, "malardalen-like/malardalen-small.toml");
    let code = code(&out);
    assert!(code == 0 || code == 1, "exit {code}: {}", stderr(&out));
    assert_eq!(doc["check"]["agree"], true, "{doc}");
    let tasks = doc["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 13, "every periodic task, not the coordinator");
    for t in tasks {
        let m = &t["measured"];
        let jobs = m["jobs"].as_u64().unwrap();
        let releases = m["releases"].as_u64().unwrap();
        assert!(jobs >= 1 && jobs <= releases, "{t}");
        assert!(
            m["bcet"].as_u64().unwrap() <= t["wcet"].as_u64().unwrap(),
            "{t}"
        );
        // 1, 2, 4, 10, 20 or 40 ms at 100 MHz.
        assert_eq!(t["period"].as_u64().unwrap() % 100_000, 0, "{t}");
        if t["schedulable"] == true {
            assert_eq!(m["deadline_misses"], 0, "{t}");
        }
    }
    let summary = last_line(&stdout(&out)).to_string();
    assert!(
        summary.starts_with("rta: tasks=13 schedulable="),
        "{summary}"
    );
    assert!(summary.ends_with(" agree=yes"), "{summary}");
    assert_eq!(code == 0, doc["schedulable"] == true);
}

/// The demo's one periodic task (the sensor; the consumer and logger are below it) is
/// schedulable with ample slack and missed no deadline: exit 0.
#[test]
fn manifest_demo_is_schedulable_and_agrees() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("rta-demo");
    let (out, doc) = rta_manifest(&dir, "demo/demo.toml");
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let t = &doc["tasks"][0];
    assert_eq!(t["name"], "sensor");
    assert_eq!(t["period"], 100_000, "1 ms at 100 MHz");
    let m = &t["measured"];
    assert_eq!(m["jobs"], m["releases"], "{t}");
    assert!(m["max_response"].as_u64().unwrap() <= t["response_cycles"].as_u64().unwrap());
    assert!(last_line(&stdout(&out)).ends_with(" misses=0 agree=yes"));
}
