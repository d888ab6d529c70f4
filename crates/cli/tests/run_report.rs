//! `cactus run MANIFEST --report FILE.html`: one self-contained page (nothing to fetch) with
//! its pictures, every task of the run in its table with the run's switch counts, cycles and
//! energy (which with the energy outside any task add up to the run's), and a
//! missing output directory refused by name; `cactus report` makes the same pictures from the
//! run's trace file (without static bounds) and refuses a file that is not one. (scripts/report-check renders pages in a real
//! browser.)

use crate::support::*;

#[test]
fn the_report_is_one_page_with_every_task_and_picture() {
    if no_cross_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("run.html");
    let stats = dir.path().join("stats.json");
    let trace = dir.path().join("run.json");
    let out = run_fixture_firmware(
        dir.path(),
        "threads",
        &[
            "--report",
            page.to_str().unwrap(),
            "--stats-out",
            stats.to_str().unwrap(),
            "--trace",
            trace.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let stats: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(
        !html.contains("src=") && !html.contains("href="),
        "fetches something"
    );
    // Five pictures; this run takes no trap, so its trap histogram has nothing to show.
    assert_eq!(html.matches("<svg").count(), 4, "four pictures");
    assert!(html.contains("<h2>Trap durations</h2><p>Nothing to show in this run.</p>"));
    for section in [
        "Task states",
        "Stack memory over time",
        "Stack use per task",
        "Cycles and energy per task",
        "Trap durations",
    ] {
        assert!(html.contains(&format!("<h2>{section}</h2>")), "{section}");
    }
    for task in stats["firmware"]["tasks"].as_array().unwrap() {
        let row = format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td>",
            task["name"].as_str().unwrap(),
            task["priority"],
            task["switches"]
        );
        assert!(html.contains(&row), "no row {row}");
        let (cycles, energy) = (
            task["cycles"].as_f64().unwrap(),
            task["energy_nj"].as_f64().unwrap(),
        );
        assert!(energy > 0.0, "{task}");
        let figures = format!(
            "<td>{cycles}</td><td>{:.1}%</td><td>{:.3}</td><td>{:.1}%</td>",
            cycles * 100.0 / stats["stats"]["cycles"].as_f64().unwrap(),
            energy / 1000.0,
            energy * 100.0 / stats["stats"]["energy_nj"].as_f64().unwrap(),
        );
        assert!(html.contains(&figures), "no {figures} in {row}");
    }
    assert!(html.contains("<tr><td>kernel and idle</td>"));
    // Every nJ of the run is charged to a task or to the time outside any (start-up, idle).
    assert_energy_adds_up(&stats);
    assert!(!html.contains("Not drawn"), "a chart failed");

    // `cactus report` draws the same pictures again from the run's trace file.
    let again = dir.path().join("again.html");
    let out = cactus(&[
        "report",
        dir.path().join("run.json").to_str().unwrap(),
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let again = std::fs::read_to_string(&again).unwrap();
    let svgs = |h: &str| -> Vec<String> {
        h.split("<svg")
            .skip(1)
            .map(|s| s.split("</svg>").next().unwrap().to_string())
            .collect()
    };
    // The task states and the stack map; the stack-use bars differ (no static bounds without
    // the manifest).
    let (first, second) = (svgs(&html), svgs(&again));
    assert!(first[..2] == second[..2], "the pictures differ");
}

#[test]
fn a_file_that_is_not_a_trace_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("stats.json");
    std::fs::write(&bad, "{\"cycles\": 1}").unwrap();
    let out = cactus(&["report", bad.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("is not a Cactus trace"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("stats.html").exists(), "nothing written");
}

#[test]
fn a_report_in_a_missing_directory_is_refused() {
    let elf = fixtures().join("firmware/threads.toml");
    let out = cactus(&[
        "run",
        elf.to_str().unwrap(),
        "--report",
        "/no/such/dir/run.html",
        "--stats",
        "none",
    ]);
    assert_ne!(code(&out), 0);
    assert!(
        stderr(&out).contains("/no/such/dir/run.html"),
        "{}",
        stderr(&out)
    );
}
