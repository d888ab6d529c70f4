//! The per-task check margin of the budgets (docs/mtss.md, "The check margin in the budgets")
//! is exactly what the checks need beyond the high water where it is binding: network-small's
//! treeadd, whose margin comes from `tree_update`'s entry check (placed before the frame's
//! allocation, which the recursion's leaf call skips), passes under `static` with `detect`
//! checks at its high water (rounded up to 16 bytes) plus the 16-byte guard plus its margin,
//! and stops with a caught stack overflow when the margin is one 16-byte unit (frames and
//! checks are multiples of 16, so that is the smallest error) short.

use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn workloads() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workloads/mtss")
}

/// A manifest beside network-small.toml (its sources are relative) with treeadd's budget
/// set; removed when dropped.
struct Variant(PathBuf);

impl Variant {
    fn new(budget: u32) -> Variant {
        let text = std::fs::read_to_string(workloads().join("network-small.toml")).unwrap();
        let mut parts: Vec<String> = text.split("[[task]]").map(str::to_string).collect();
        let task = parts
            .iter_mut()
            .find(|p| p.contains("name = \"treeadd\""))
            .expect("network-small has a treeadd task");
        let at = task.find("\nstack = ").expect("treeadd has a stack budget");
        let end = at + 1 + task[at + 1..].find('\n').unwrap();
        task.replace_range(at..end, &format!("\nstack = {budget}"));
        let path = workloads().join(format!("_check-margin-test-{budget}.toml"));
        std::fs::write(&path, parts.join("[[task]]")).unwrap();
        Variant(path)
    }
}

impl Drop for Variant {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn treeadd(rows: &Value) -> &Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["firmware"] == "network_small" && r["task"] == "treeadd")
        .unwrap_or_else(|| panic!("no network_small treeadd row: {rows}"))
}

#[test]
fn a_margin_one_unit_short_is_a_caught_overflow() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("check_margin");
    let build = dir.join("build");
    let margins = dir.join("margins.json");
    let out = cactus(&[
        "workloads",
        "margins",
        "--filter",
        "mtss",
        "--size",
        "small",
        "--json",
        margins.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&margins).unwrap()).unwrap();
    let row = treeadd(&doc["rows"]);
    assert_eq!(row["from"], "tree_update", "{row}");
    let margin = row["check_margin"].as_u64().expect("treeadd has a margin") as u32;

    let stats = dir.join("static.json");
    let m = workloads().join("network-small.toml");
    let out = cactus(&[
        "run",
        m.to_str().unwrap(),
        "--stack",
        "static",
        "--build-dir",
        build.to_str().unwrap(),
        "--stats-out",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats: Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let hwm = stats["firmware"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "treeadd")
        .and_then(|t| t["stack_hwm"].as_u64())
        .expect("treeadd's high water") as u32;

    let run = |budget: u32| {
        let v = Variant::new(budget);
        cactus(&[
            "run",
            v.0.to_str().unwrap(),
            "--stack",
            "static",
            "--checks",
            "detect",
            "--oracle",
            "stop",
            "--build-dir",
            build.to_str().unwrap(),
        ])
    };
    let enough = hwm.div_ceil(16) * 16 + 16 + margin;
    let out = run(enough);
    assert_eq!(
        out.status.code(),
        Some(0),
        "treeadd at {enough} bytes (high water {hwm}, margin {margin}): {}",
        stderr(&out)
    );
    let out = run(enough - 16);
    let err = stderr(&out);
    assert_ne!(
        out.status.code(),
        Some(0),
        "treeadd at {} bytes",
        enough - 16
    );
    assert!(
        err.contains("stack overflow") && err.contains("treeadd"),
        "a margin one unit short must be a caught overflow of treeadd:\n{err}"
    );
}
