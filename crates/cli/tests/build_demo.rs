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
    let stats = dir.join("stats.json");
    let out = cactus(&[
        "run",
        &demo(),
        "--build-dir",
        &dir.display().to_string(),
        "--stats-out",
        stats.to_str().unwrap(),
    ]);
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
    // task prio cycles share energy share instructions switches hwm / budget used ovf lent
    // borrowed releases misses state
    assert_eq!(sensor[1], "20");
    assert_eq!((sensor[9], sensor[10]), ("/", "512"));
    assert_eq!(sensor[15], "1536", "one release per sample");
    assert_eq!(sensor[16], "0", "the sensor meets every deadline");
    assert_eq!(sensor[17..], ["exited:", "returned"]);
    assert!(
        !se.contains("  tasks  "),
        "one per-task table: the simulator's is left out for a manifest run:\n{se}"
    );
    let mut energy_share = 0.0;
    for (task, prio, budget) in [
        ("sensor", "20", "512"),
        ("consumer", "10", "1024"),
        ("logger", "2", "1024"),
    ] {
        let r = row(&se, task);
        assert_eq!((r[1], r[9], r[10]), (prio, "/", budget), "{r:?}");
        let hwm: u32 = r[8]
            .parse()
            .unwrap_or_else(|_| panic!("no high water for {task}: {r:?}"));
        assert!(hwm > 0 && hwm < 1024, "{r:?}");
        assert!(r[2].parse::<u64>().unwrap() > 0, "{task} ran: {r:?}");
        assert!(
            r[4].parse::<f64>().unwrap() > 0.0,
            "{task} used energy: {r:?}"
        );
        energy_share += r[5].trim_end_matches('%').parse::<f64>().unwrap();
        if task != "sensor" {
            assert_eq!((r[15], r[16]), ("-", "-"), "not periodic: {r:?}");
        }
    }
    // The kernel and idle row: cycles, share, energy µJ, share; with the tasks' shares the
    // energy adds up to the run's.
    let rest = row(&se, "kernel");
    let rest_share: f64 = rest[6].trim_end_matches('%').parse().unwrap();
    assert!(
        (energy_share + rest_share - 100.0).abs() < 0.2,
        "energy shares {energy_share}% + {rest_share}%:\n{se}"
    );
    assert!(se.contains("; outside any task: "), "{se}");
    // Every nJ is charged to a task (the idle task included) or to the start-up before the
    // first switch.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_energy_adds_up(&json);
    let run = &json["stats"];
    assert_eq!(
        json["firmware"]["tasks"][0]["energy_nj"], run["tasks"][0]["energy_nj"],
        "the firmware rows carry the simulator's figures"
    );
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
    assert_eq!((tick[15], tick[16]), ("4", "1"), "{tick:?}");
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
    let entries = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name() != cactus_firmware::unit_cache::DIR_NAME)
        .count();
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
