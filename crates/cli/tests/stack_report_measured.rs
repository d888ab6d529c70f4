//! `cactus stack-report` on the demo firmware against reality: with the kernel's assembly
//! and the toolchain libraries analysed from machine code, every task gets a bounded depth
//! within its budget, and that static bound is at least the stack high water the kernel
//! measures when the same firmware runs on cactus-sim (`cactus run MANIFEST --stats json`).

use crate::support::*;
use std::path::Path;

#[test]
fn demo_stack_report_bounds_every_task_and_covers_the_measured_high_water() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../workloads/demo/demo.toml");
    let manifest = manifest.to_str().unwrap();

    let out = cactus(&["stack-report", "--json", manifest]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        report["machine_code"]["port_syscall"]["bounded"], 0,
        "{report}"
    );

    let out = cactus(&["run", manifest, "--stats", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stats_line = stdout(&out)
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no stats JSON on stdout:\n{}", stdout(&out)))
        .to_string();
    let stats: serde_json::Value = serde_json::from_str(&stats_line).unwrap();
    let measured = stats["firmware"]["tasks"].as_array().unwrap();

    let tasks = report["tasks"].as_array().unwrap();
    // The periodic sensor runs its generated wrapper, which calls the job: the path starts
    // there, and the depth is where the path ends plus what a trap may add.
    let sensor = &tasks[0];
    assert_eq!(sensor["analysed_entry"], "fw_run_sensor", "{sensor}");
    let path = sensor["path"].as_array().unwrap();
    assert_eq!(path[0]["function"], "fw_run_sensor", "{sensor}");
    assert!(
        path.iter().any(|s| s["function"] == "sensor_job"),
        "{sensor}"
    );
    let last = path.last().unwrap();
    let end = last["offset"].as_u64().unwrap() + last["frame"].as_u64().unwrap();
    let trap = sensor["trap_entry"]["bytes"].as_u64().unwrap();
    assert_eq!(
        sensor["depth"]["bounded"].as_u64(),
        Some(end + trap),
        "{sensor}"
    );
    assert_eq!(tasks[1]["analysed_entry"], "consumer_main", "{}", tasks[1]);
    assert_eq!(tasks.len(), measured.len(), "{report}\n{stats}");
    for row in tasks {
        let name = row["task"].as_str().unwrap();
        let depth = row["depth"]["bounded"]
            .as_u64()
            .unwrap_or_else(|| panic!("task {name} is not bounded: {row}"));
        assert_eq!(row["covered"], true, "{row}");
        let hwm = measured
            .iter()
            .find(|t| t["name"] == name)
            .and_then(|t| t["stack_hwm"].as_u64())
            .unwrap_or_else(|| panic!("no measured high water for {name}: {stats}"));
        assert!(hwm > 0, "{name}: measured nothing");
        assert!(
            depth >= hwm,
            "{name}: static bound {depth} below the measured high water {hwm}"
        );
    }
}
