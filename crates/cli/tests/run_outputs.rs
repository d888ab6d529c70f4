//! `cactus run` output files and machine-readable statistics: `--trace`, `--stats json`,
//! `--stats-out`.

use crate::support::*;

/// The `--stats json` object: the last line of stdout (never on stderr).
fn stats_json_line(out: &std::process::Output) -> serde_json::Value {
    assert!(
        !stderr(out).lines().any(|l| l.starts_with('{')),
        "JSON on stderr:\n{}",
        stderr(out)
    );
    let text = stdout(out);
    let line = text
        .lines()
        .last()
        .filter(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON line ending stdout:\n{text}"));
    serde_json::from_str(line).unwrap_or_else(|e| panic!("invalid JSON ({e}): {line}"))
}

#[test]
fn stats_json_is_valid_json_with_the_instruction_count() {
    let dir = scratch("stats-json");
    let out = cactus_run(&build(&dir, "hello"), &["--stats", "json"]);
    assert_eq!(code(&out), 0, "stderr:\n{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("hello from cactus\n{"),
        "stdout holds the guest's output, then the JSON line: {}",
        stdout(&out)
    );
    let summary = stats_json_line(&out);
    assert_eq!(summary["exit_code"], 0);
    assert_eq!(summary["ending"]["kind"], "exited");
    assert_eq!(summary["profile"], "mcu");
    // Counted by hand from the disassembly of the fixture: _start runs 4 instructions
    // (csrw, auipc, addi, jal), main 9, puts 1 + 5 per character of the 18-character string
    // + 3 for the final NUL, and exit 5 (lui, bnez, lui, addi, and the finisher store).
    let instructions = summary["stats"]["instructions"]
        .as_u64()
        .expect("instructions");
    assert_eq!(instructions, 4 + 9 + (1 + 18 * 5 + 3) + 5, "{summary:#}");
    assert!(summary["stats"]["cycles"].as_u64().unwrap() >= instructions);
}

#[test]
fn stats_out_writes_the_same_object_to_a_file() {
    let dir = scratch("stats-out");
    let file = dir.join("stats.json");
    let out = cactus_run(
        &build(&dir, "fail"),
        &["--stats", "none", "--stats-out", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 7, "stderr:\n{}", stderr(&out));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(summary["exit_code"], 7);
    assert_eq!(summary["ending"]["code"], 7);
    assert!(summary["stats"]["instructions"].as_u64().unwrap() > 0);
}

#[test]
fn trace_writes_valid_json_with_the_marker_events() {
    let dir = scratch("trace");
    let trace = dir.join("trace.json");
    let out = cactus_run(
        &build(&dir, "marker"),
        &["--stats", "none", "--trace", trace.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "stderr:\n{}", stderr(&out));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).expect("valid JSON");
    let events = doc["events"].as_array().expect("events array");
    let markers: Vec<(u64, u64)> = events
        .iter()
        .filter(|e| e["kind"]["type"] == "marker")
        .map(|e| {
            let kind = &e["kind"];
            (
                kind["id"].as_u64().unwrap(),
                kind["value"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        markers,
        [(42, 1), (42, 2)],
        "two MARKER events expected in {doc:#}"
    );
    assert!(events
        .iter()
        .all(|e| e["pc"].is_u64() && e["cycle"].is_u64()));
}

#[test]
fn an_unwritable_trace_path_is_bad_input_and_leaves_no_file() {
    let dir = scratch("trace-bad");
    let trace = dir.join("missing-dir/trace.json");
    let out = cactus_run(
        &build(&dir, "hello"),
        &["--stats", "none", "--trace", trace.to_str().unwrap()],
    );
    assert_eq!(code(&out), 2, "stderr:\n{}", stderr(&out));
    assert!(stderr(&out).contains("trace.json"), "{}", stderr(&out));
    assert!(!trace.exists());
}
