//! `cactus build` and `cactus run MANIFEST.toml` on real firmware: the demo workload builds,
//! is cached, runs to a self-checked exit 0 with a per-task report, and behaves the same on
//! QEMU; the generated wrappers keep start delays, periods and deadlines.

use crate::support::*;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn demo() -> String {
    repo()
        .join("workloads/demo/demo.toml")
        .display()
        .to_string()
}

/// The report row of `task` split into columns.
fn row<'a>(report: &'a str, task: &str) -> Vec<&'a str> {
    report
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|cols| cols.first() == Some(&task))
        .unwrap_or_else(|| panic!("no row for {task} in:\n{report}"))
}

#[test]
fn a_second_identical_build_is_up_to_date() {
    let dir = scratch("build-cache");
    let out_dir = dir.display().to_string();
    let first = cactus(&["build", &demo(), "--build-dir", &out_dir]);
    assert_eq!(code(&first), 0, "{}", stderr(&first));
    assert!(
        stderr(&first).contains("demo built: "),
        "{}",
        stderr(&first)
    );
    let elf = stdout(&first).trim().to_string();
    assert!(
        elf.starts_with(&out_dir) && elf.ends_with("/demo.elf"),
        "{elf}"
    );
    assert!(Path::new(&elf).is_file());
    let second = cactus(&["build", &demo(), "--build-dir", &out_dir]);
    assert_eq!(code(&second), 0);
    assert!(
        stderr(&second).contains("demo up to date: "),
        "{}",
        stderr(&second)
    );
    assert_eq!(stdout(&second).trim(), elf);
}

#[test]
fn the_demo_runs_to_its_self_check_and_reports_every_task() {
    let dir = scratch("demo-run");
    let out = cactus(&["run", &demo(), "--build-dir", &dir.display().to_string()]);
    let (so, se) = (stdout(&out), stderr(&out));
    assert_eq!(code(&out), 0, "stdout:\n{so}\nstderr:\n{se}");
    assert!(so.contains("PASS demo"), "{so}");
    assert_eq!(
        so.matches("block ").count(),
        6,
        "every 8th of 48 blocks is logged:\n{so}"
    );
    assert!(
        se.contains("── firmware demo (stack static, checks none, target sim, 1000 Hz tick) ──"),
        "{se}"
    );
    let sensor = row(&se, "sensor");
    // task prio cycles share instructions switches hwm / budget used ovf lent borrowed
    // releases misses state
    assert_eq!(sensor[1], "20");
    assert_eq!((sensor[7], sensor[8]), ("/", "512"));
    assert_eq!(sensor[13], "1536", "one release per sample");
    assert_eq!(sensor[14], "0", "the sensor meets every deadline");
    assert_eq!(sensor[15..], ["exited:", "returned"]);
    assert!(
        !se.contains("  tasks  "),
        "one per-task table: the simulator's is left out for a manifest run:\n{se}"
    );
    for (task, prio, budget) in [("consumer", "10", "1024"), ("logger", "2", "1024")] {
        let r = row(&se, task);
        assert_eq!((r[1], r[7], r[8]), (prio, "/", budget), "{r:?}");
        let hwm: u32 = r[6]
            .parse()
            .unwrap_or_else(|_| panic!("no high water for {task}: {r:?}"));
        assert!(hwm > 0 && hwm < 1024, "{r:?}");
        assert!(r[2].parse::<u64>().unwrap() > 0, "{task} ran: {r:?}");
        assert_eq!((r[13], r[14]), ("-", "-"), "not periodic: {r:?}");
    }
}

#[test]
fn the_qemu_build_of_the_demo_passes_the_difftest() {
    let dir = scratch("demo-difftest");
    let built = cactus(&[
        "build",
        &demo(),
        "--target",
        "qemu",
        "--build-dir",
        &dir.display().to_string(),
    ]);
    assert_eq!(code(&built), 0, "{}", stderr(&built));
    let elf = stdout(&built).trim().to_string();
    let out = cactus(&["difftest", &elf]);
    assert!(
        stdout(&out).contains("1 passed, 0 failed"),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// Runs `fixtures/firmware/NAME.toml` (built in a scratch directory), asserts exit 0 and
/// returns the output and the `--stats-out` JSON.
fn run_fixture(name: &str) -> (std::process::Output, serde_json::Value) {
    let dir = scratch(name);
    let manifest = fixtures().join(format!("firmware/{name}.toml"));
    let stats = dir.join("stats.json");
    let out = cactus(&[
        "run",
        manifest.to_str().unwrap(),
        "--build-dir",
        &dir.display().to_string(),
        "--stats-out",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let json = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    (out, json)
}

#[test]
fn generated_wrappers_keep_delays_periods_and_deadlines() {
    let (out, json) = run_fixture("wrappers");
    assert_eq!(
        stdout(&out),
        "job 0 at tick 3 arg 42\nlate starts at tick 7\njob 1 at tick 8 arg 42\n\
         job 2 at tick 13 arg 42\njob 3 at tick 18 arg 42\nreleases 4 misses 1\n"
    );
    let report = stderr(&out);
    let tick = row(&report, "tick");
    assert_eq!((tick[13], tick[14]), ("4", "1"), "{tick:?}");
    let tasks = &json["firmware"]["tasks"];
    assert_eq!(json["firmware"]["name"], "wrappers");
    assert_eq!(
        (tasks[1]["name"].as_str(), tasks[1]["releases"].as_u64()),
        (Some("tick"), Some(4))
    );
    assert_eq!(tasks[1]["deadline_misses"], 1);
    assert_eq!(
        tasks[0]["releases"],
        serde_json::Value::Null,
        "late is not periodic"
    );
    assert_eq!(tasks[0]["stack_budget"], 768);
    assert!(tasks[0]["stack_hwm"].as_u64().unwrap() > 0);
}

#[test]
fn four_concurrent_builds_of_one_manifest_share_the_cache() {
    let dir = scratch("build-concurrent");
    let out_dir = dir.display().to_string();
    let builds: Vec<_> = (0..4)
        .map(|_| {
            let out_dir = out_dir.clone();
            std::thread::spawn(move || cactus(&["build", &demo(), "--build-dir", &out_dir]))
        })
        .collect();
    let outs: Vec<_> = builds.into_iter().map(|b| b.join().unwrap()).collect();
    for out in &outs {
        assert_eq!(code(out), 0, "{}", stderr(out));
    }
    let elfs: Vec<String> = outs.iter().map(|o| stdout(o).trim().to_string()).collect();
    assert!(
        elfs.iter().all(|e| e == &elfs[0]),
        "one cache entry: {elfs:?}"
    );
    // The entry they share is whole: it runs, and a fifth build finds it up to date.
    let run = cactus(&["run", &elfs[0], "--stats", "none"]);
    assert_eq!(code(&run), 0, "{}", stderr(&run));
    let again = cactus(&["build", &demo(), "--build-dir", &out_dir]);
    assert!(
        stderr(&again).contains("demo up to date: "),
        "{}",
        stderr(&again)
    );
    let entries = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(entries, 1, "no half-written or duplicate entries are left");
}

#[test]
fn a_run_ended_by_cactus_exit_still_measures_every_task_stack() {
    let (out, json) = run_fixture("early_exit");
    assert_eq!(stdout(&out), "worker 19900\nmain 19900\n");
    for task in json["firmware"]["tasks"].as_array().unwrap() {
        let hwm = task["stack_hwm"].as_u64();
        assert!(
            hwm.is_some_and(|h| h >= 200),
            "{}: the 200-byte buffer is on its stack, high water {hwm:?}",
            task["name"]
        );
    }
}
