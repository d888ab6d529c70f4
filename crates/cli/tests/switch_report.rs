//! `cactus switch-report` on a real firmware (the CCS task set A2 at its small size): every
//! task is reported, the computational kernels' loops are found in their own units, every
//! switch point saves sp and fewer registers than the loop's worst instruction holds, and a
//! manifest that does not exist is a clear error.

use crate::support::*;
use serde_json::Value;

#[test]
fn the_a2_task_set_has_a_switch_point_in_every_loop() {
    let manifest = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../workloads/ccs/ccs-a2-small.toml"
    );
    let out = cactus(&["switch-report", manifest, "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let tasks = doc.as_array().expect("an array of tasks");
    let names: Vec<&str> = tasks.iter().map(|t| t["task"].as_str().unwrap()).collect();
    assert_eq!(names, ["ej", "lu", "feeder", "coordinator"]);
    let ej = &tasks[0]["loops"];
    let ej_loops: Vec<&Value> = ej
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["function"].as_str().unwrap().ends_with("-ej.s:ej_round"))
        .collect();
    assert!(ej_loops.len() >= 3, "{ej}");
    for t in tasks {
        for l in t["loops"].as_array().unwrap() {
            let point: Vec<&str> = l["point_regs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert!(point.contains(&"sp"), "{l}");
            assert!(!point.contains(&"gp") && !point.contains(&"tp"), "{l}");
            assert!(point.len() as u64 <= l["max_live"].as_u64().unwrap(), "{l}");
            assert!(
                !l["function"].as_str().unwrap().starts_with("kernel-"),
                "kernel code is not reported: {l}"
            );
        }
    }
}

#[test]
fn a_missing_manifest_is_an_error_naming_it() {
    let out = cactus(&["switch-report", "/nonexistent/fw.toml"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("/nonexistent/fw.toml"),
        "{}",
        stderr(&out)
    );
}
