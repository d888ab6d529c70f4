//! `cactus workloads list` on the real tree: every suite appears with its manifests, and the
//! JSON form carries tasks and stack budgets; a bad `--filter` is bad input.

use crate::support::*;
use std::path::Path;

fn workloads() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../workloads")
        .display()
        .to_string()
}

#[test]
fn list_shows_every_suite() {
    let out = cactus(&["workloads", "list", "--dir", &workloads()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for suite in [
        "mtss",
        "coremark-like",
        "ccs",
        "malardalen-like",
        "crazyflie-like",
    ] {
        assert!(
            text.contains(&format!("suite {suite} (")),
            "no {suite} in:\n{text}"
        );
    }
    assert!(text.contains("ccs/ccs-a2-unroll-small.toml"), "{text}");
    assert!(text.contains("wl_coordinator_main"), "{text}");
}

#[test]
fn list_json_has_tasks_and_budgets() {
    let out = cactus(&[
        "workloads",
        "list",
        "--json",
        "--filter",
        "crazyflie-like",
        "--dir",
        &workloads(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let entries = v.as_array().unwrap();
    assert!(entries.iter().all(|e| e["suite"] == "crazyflie-like"));
    let allocated = entries
        .iter()
        .find(|e| e["firmware"] == "crazyflie_allocated")
        .expect("the allocated manifest");
    let stab = &allocated["tasks"][0];
    assert_eq!(stab["name"], "stabilizer");
    assert_eq!(stab["stack"], 3600);
    assert_eq!(stab["period_ms"], 1);
    assert_eq!(allocated["size"], "full");
}

#[test]
fn unknown_suite_is_bad_input() {
    let out = cactus(&[
        "workloads",
        "list",
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
