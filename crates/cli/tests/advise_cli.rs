//! `cactus advise` from the command line: a static search on a two-task fixture ends with its
//! summary line, writes its store and plot, and its answer is the edge of what runs (no task
//! below its measured high water, a failing probe just under it); bad options are bad input
//! before any build.

use crate::support::*;

#[test]
fn a_static_search_finds_the_edge_and_writes_its_files() {
    if no_cross_compiler() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("advise.json");
    let plot = dir.path().join("advise.svg");
    let manifest = fixtures().join("firmware/early_exit.toml");
    let out = cactus(&[
        "advise",
        manifest.to_str().unwrap(),
        "--stack",
        "static",
        "--seeds",
        "2",
        "--no-refine",
        "--build-dir",
        dir.path().join("builds").to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--plot",
        plot.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}{}", stderr(&out));
    let last = text.lines().last().unwrap_or("");
    assert!(
        last.starts_with("advise: static_bytes=") && last.ends_with(" passed=1 failed=0"),
        "{text}"
    );
    assert!(
        text.contains("Static bound (cactus stack-report): "),
        "{text}"
    );

    let store: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let reference = &store["meta"]["params"]["reference"];
    let high_water: Vec<u64> = reference["high_water"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_u64().expect("both tasks measured"))
        .collect();
    let row = &store["rows"][0]["row"];
    let answer: Vec<u64> = row["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_u64().unwrap())
        .collect();
    assert_eq!(answer.len(), 2, "{row}");
    for (b, h) in answer.iter().zip(&high_water) {
        assert!(
            b >= h,
            "a budget below what the task used: {answer:?} vs {high_water:?}"
        );
    }
    // The next shrink down failed, at some seed, with a reason.
    let probes = row["probes"].as_array().unwrap();
    let below = probes.iter().find(|p| {
        !p["passed"].as_bool().unwrap()
            && p["budgets"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&answer)
                .all(|(b, a)| b.as_u64().unwrap() <= *a)
    });
    let below = below.unwrap_or_else(|| panic!("no failing probe under the answer: {row}"));
    assert!(
        below["reason"].as_str().is_some_and(|r| !r.is_empty()),
        "{below}"
    );
    assert_eq!(
        row["stack_bytes"].as_u64(),
        Some(answer.iter().sum::<u64>()),
        "static stack RAM is the budgets"
    );

    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("static"), "{svg}");
}

#[test]
fn bad_options_are_bad_input_before_any_build() {
    let manifest = fixtures().join("firmware/early_exit.toml");
    let m = manifest.to_str().unwrap();
    for (args, says) in [
        (vec!["advise", "nowhere.toml"], "nowhere.toml"),
        (
            vec!["advise", m, "--stack", "chunks"],
            "advise searches static, mtss, mtss+split",
        ),
        (vec!["advise", m, "--stack", "heap"], "--stack"),
        (
            vec!["advise", m, "--stacklet-pool", "0"],
            "a heap of 0 bytes",
        ),
        (vec!["advise", m, "--seeds", "0"], "--seeds"),
        (
            vec!["advise", m, "--plot", "/no/such/dir/a.svg"],
            "no directory /no/such/dir",
        ),
    ] {
        let out = cactus(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}
