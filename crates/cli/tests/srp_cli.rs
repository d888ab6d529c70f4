//! The SRP mode through the `cactus` binary (docs/srp.md): `cactus run` of the order scenario
//! prints PASS, its per-task report (on stderr) has the jobs' releases and the shared stack's row, and its
//! `--stats json` names the scheduler and carries the SRP counters; `cactus stack-report` of
//! an SRP workload bounds every job and the shared stack (row `srp`); `cactus build` of a
//! manifest whose job blocks fails naming the task and the call, leaving no ELF.

use crate::support::*;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn run_reports_the_jobs_and_the_shared_stack() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("srp_run");
    let json = dir.join("stats.json");
    let manifest = repo().join("tests/srp/order.toml");
    let out = cactus(&[
        "run",
        manifest.to_str().unwrap(),
        "--build-dir",
        dir.join("b").to_str().unwrap(),
        "--stats-out",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("srp_order: PASS"), "{text}");
    let report = stderr(&out);
    assert!(report.contains("scheduler srp, stack static"), "{report}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let fw = &v["firmware"];
    assert_eq!(fw["scheduler"], "srp");
    assert!(fw["srp"]["preemptions"].as_u64().unwrap() > 0, "{fw}");
    let tasks = fw["tasks"].as_array().unwrap();
    let last = tasks.last().unwrap();
    assert_eq!(last["name"], "srp");
    let hwm = last["stack_hwm"].as_u64().unwrap();
    assert!(
        hwm > 0 && hwm <= last["stack_budget"].as_u64().unwrap(),
        "{last}"
    );
    let low = &tasks[0];
    assert_eq!(
        (low["name"].as_str(), low["releases"].as_u64()),
        (Some("low"), Some(3))
    );
    assert!(
        low["stack_hwm"].is_null(),
        "a job has no stack of its own: {low}"
    );
}

#[test]
fn stack_report_bounds_the_shared_stack() {
    if no_cross_compiler() {
        return;
    }
    let manifest = repo().join("workloads/malardalen-like/malardalen-srp-small.toml");
    let out = cactus(&["stack-report", "--json", manifest.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let tasks = v["tasks"].as_array().unwrap();
    let srp = tasks.last().unwrap();
    assert_eq!(srp["task"], "srp");
    let shared = srp["depth"]["bounded"]
        .as_u64()
        .expect("a bounded shared stack");
    // At least the deepest job plus one nested start over the lowest level.
    let deepest = tasks[..tasks.len() - 1]
        .iter()
        .map(|t| t["depth"]["bounded"].as_u64().unwrap())
        .max()
        .unwrap();
    assert!(shared > deepest, "{shared} <= {deepest}");
}

#[test]
fn build_refuses_a_blocking_job_naming_task_and_call() {
    if no_cross_compiler() {
        return;
    }
    let dir = scratch("srp_refused");
    std::fs::write(
        dir.join("j.c"),
        "#include \"cactus_firmware.h\"\nvoid job(void *a) { (void)a; cactus_sleep(3); }\n",
    )
    .unwrap();
    let m = dir.join("j.toml");
    std::fs::write(
        &m,
        "[firmware]\nname = \"j\"\n[kernel]\nscheduler = \"srp\"\n[[task]]\nname = \"napper\"\n\
         sources = [\"j.c\"]\nentry = \"job\"\npriority = 3\nstack = 256\nperiod_ms = 2\n",
    )
    .unwrap();
    let build = dir.join("b");
    let out = cactus(&[
        "build",
        m.to_str().unwrap(),
        "--build-dir",
        build.to_str().unwrap(),
    ]);
    assert_ne!(code(&out), 0);
    let err = stderr(&out);
    assert!(
        err.contains("task napper cannot run under the srp scheduler")
            && err.contains("job -> cactus_sleep"),
        "{err}"
    );
    let elves = walk(&build);
    assert!(elves.is_empty(), "{elves:?}");
}

/// Every `.elf` under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "elf") {
            out.push(p);
        }
    }
    out
}
