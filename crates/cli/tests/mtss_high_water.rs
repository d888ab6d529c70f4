//! The stack high water under `mtss` is the task's real deepest use even when its deepest
//! frames ran on loan in another task's region (docs/mtss.md, "The high water with moved
//! frames"): `make demo`'s MTSS run (network-small with patricia's budget cut by 90 %, so its
//! frames move) must report every task at least as deep as the same program under `static`
//! with the manifest's budgets, and the per-task table and the HTML report must show the
//! JSON's figure.

use crate::support::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workloads/mtss/network-small.toml")
}

/// Runs the workload with `extra` options; returns the table (stderr) and the JSON.
fn run(dir: &Path, name: &str, extra: &[&str]) -> (String, Value) {
    let json = dir.join(format!("{name}.json"));
    let build = dir.join("build");
    let m = manifest();
    let mut args = vec![
        "run",
        m.to_str().unwrap(),
        "--build-dir",
        build.to_str().unwrap(),
        "--stats-out",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = cactus(&args);
    assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    let stats = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (stderr(&out), stats)
}

/// The `stack hwm` cell of `task`'s row in the firmware table ("984 / 128": the number before
/// the first lone `/`), `None` if the row is missing or the cell is `?`.
fn table_hwm(table: &str, task: &str) -> Option<u64> {
    let header = table.find("── firmware")?;
    let row = table[header..]
        .lines()
        .find(|l| l.split_whitespace().next() == Some(task))?;
    let cells: Vec<&str> = row.split_whitespace().collect();
    let slash = cells.iter().position(|&c| c == "/")?;
    cells[slash - 1].parse().ok()
}

/// The high-water cell of `task`'s row in the HTML report's task table (its tenth cell: name,
/// priority, switches, cycles, share, energy, share, instructions, budget, high water).
fn html_hwm(html: &str, task: &str) -> Option<u64> {
    let row = html
        .lines()
        .find(|l| l.starts_with(&format!("<tr><td>{task}</td>")))?;
    let cell = row.split("<td>").nth(10)?;
    cell.split("</td>").next()?.parse().ok()
}

fn task<'a>(stats: &'a Value, name: &str) -> &'a Value {
    stats["firmware"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no task {name}: {stats}"))
}

#[test]
fn frames_on_loan_count_in_the_high_water_and_the_table_shows_the_json() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("mtss_high_water");
    let (_, static_stats) = run(&dir, "static", &["--stack", "static"]);
    let (table, mtss) = run(
        &dir,
        "mtss",
        &[
            "--oracle",
            "stop",
            "--stack",
            "mtss",
            "--shrink",
            "patricia=90%",
            "--report",
            dir.join("mtss.html").to_str().unwrap(),
        ],
    );
    let html = std::fs::read_to_string(dir.join("mtss.html")).unwrap();

    let patricia = task(&mtss, "patricia");
    assert!(
        patricia["overflows"].as_u64() > Some(0) && patricia["borrowed_bytes"].as_u64() > Some(0),
        "patricia's frames must move: {patricia}"
    );
    for t in static_stats["firmware"]["tasks"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        let deepest = t["stack_hwm"]
            .as_u64()
            .unwrap_or_else(|| panic!("{name}: no high water under static: {t}"));
        let row = task(&mtss, name);
        let hwm = row["stack_hwm"]
            .as_u64()
            .unwrap_or_else(|| panic!("{name}: no high water under mtss: {row}"));
        assert!(
            hwm >= deepest,
            "{name}: high water {hwm} under mtss below its deepest use {deepest} (static): {row}"
        );
        assert_eq!(
            table_hwm(&table, name),
            Some(hwm),
            "{name}: the table and the JSON disagree:\n{table}"
        );
        assert_eq!(
            html_hwm(&html, name),
            Some(hwm),
            "{name}: the HTML report and the JSON disagree"
        );
    }

    let sim = mtss["stats"]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "patricia")
        .unwrap();
    let loans = sim["stack_hwm_loans"].as_u64();
    assert!(
        loans.is_some() && loans <= sim["stack_hwm"].as_u64(),
        "the simulator measured patricia's loans, within its figure: {sim}"
    );
}
