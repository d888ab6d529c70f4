//! `cactus bench workloads` on the real tree (small CoreMark-like manifests): one row per
//! manifest with the iterations the coordinator reported and iterations per million cycles
//! computed from the run's cycles; bad output paths and suites are bad input.

mod support;

use std::path::Path;
use support::*;

fn workloads() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workloads")
        .display()
        .to_string()
}

#[test]
fn small_coremark_rows_report_iterations_per_mcycle() {
    let dir = scratch("bench_workloads");
    let json = dir.join("rows.json");
    let md = dir.join("workloads.md");
    let out = cactus(&[
        "bench",
        "workloads",
        "--size",
        "small",
        "--filter",
        "coremark-like",
        "--dir",
        &workloads(),
        "--json",
        json.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().last(), Some("2 passed, 0 failed"), "{text}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (firmware, iterations) in [("coremark_quad_small", 16), ("coremark_single_small", 4)] {
        let row = rows.iter().find(|r| r["firmware"] == firmware).unwrap();
        assert_eq!(row["passed"], true);
        assert_eq!(row["iterations"], iterations, "{row}");
        let cycles = row["cycles"].as_f64().unwrap();
        let ipm = row["iterations_per_mcycle"].as_f64().unwrap();
        assert!(
            (ipm - iterations as f64 * 1e6 / cycles).abs() < 1e-9,
            "{row}"
        );
        assert!(row["stack_hwm"].as_u64().unwrap() <= row["stack_budget"].as_u64().unwrap());
        assert!(
            text.contains(&format!("| coremark-like | {firmware} | pass |")),
            "{text}"
        );
    }
    let doc = std::fs::read_to_string(&md).unwrap();
    assert!(
        doc.contains("Produced by `cactus bench workloads --size small"),
        "{doc}"
    );
}

#[test]
fn missing_output_directory_is_bad_input_before_any_run() {
    let out = cactus(&[
        "bench",
        "workloads",
        "--filter",
        "nope",
        "--markdown",
        "/nonexistent-dir/w.md",
        "--dir",
        &workloads(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no directory /nonexistent-dir"),
        "{}",
        stderr(&out)
    );
    let out = cactus(&[
        "bench",
        "workloads",
        "--filter",
        "nope",
        "--dir",
        &workloads(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no suite \"nope\""),
        "{}",
        stderr(&out)
    );
}
