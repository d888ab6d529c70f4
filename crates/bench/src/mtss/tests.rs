//! Host tests of the MSO search's resume logic and the tables (no builds: the probes are
//! fakes). The engine's own resume, shard and merge logic is tested in cactus-sweep.

use super::mso::Mso;
use super::table::markdown;
use super::*;
use cactus_sweep::evaluation::Evaluation;
use cactus_sweep::{Meta, Row};

fn start(task: &str, budget: u32) -> TaskMso {
    TaskMso::start("security_small", "w.toml", task, budget)
}

fn probe(budget: u32, passed: bool) -> Probe {
    Probe {
        budget,
        passed,
        reason: (!passed).then(|| "exit code 1".to_string()),
    }
}

/// A finished search with a fake machine that passes from `boundary` up.
fn searched(task: &str, budget: u32, boundary: u32, high_water: u32) -> TaskMso {
    let mut row = start(task, budget);
    row.high_water = Some(high_water);
    search_row(row, &probe(budget, true), &mut |b| probe(b, b >= boundary))
}

fn meta() -> Meta {
    Meta {
        params: mso::params(None),
        ..Meta::default()
    }
}

#[test]
fn resumed_probes_are_not_made_again() {
    let first = searched("blowfish", 2048, 1000, 1500);
    assert_eq!(first.smallest, Some(1008));
    // Interrupted after three probes: resume from them.
    let mut partial = first.clone();
    partial.probes.truncate(3);
    partial.complete = false;
    partial.smallest = None;
    assert!(!partial.complete());
    let mut made = Vec::new();
    let done = search_row(partial.clone(), &probe(2048, true), &mut |b| {
        made.push(b);
        probe(b, b >= 1000)
    });
    assert_eq!(done.smallest, Some(1008));
    for p in &partial.probes {
        assert!(!made.contains(&p.budget), "{} probed again", p.budget);
    }
    assert_eq!(made.len() + 3, first.probes.len());
}

#[test]
fn a_changed_budget_is_another_point() {
    assert_ne!(
        task::task_key("w.toml", "sha", 1024),
        task::task_key("w.toml", "sha", 1040)
    );
}

#[test]
fn a_full_budget_failure_is_a_failed_row() {
    let row = search_row(start("pgp", 512), &probe(512, false), &mut |_| {
        panic!("nothing to probe below a failing full budget")
    });
    assert!(row.complete && !row.passed());
    assert!(row.error.as_deref().unwrap().contains("exit code 1"));
}

#[test]
fn mso_is_relative_to_budget_and_high_water() {
    let row = searched("rijndael", 1600, 800, 1000);
    assert_eq!(row.smallest, Some(800));
    assert!((row.mso_budget().unwrap() - 50.0).abs() < 1e-9);
    assert!((row.mso_high_water().unwrap() - 20.0).abs() < 1e-9);
    let tight = searched("blowfish", 1600, 1200, 1000);
    assert!(tight.mso_high_water().unwrap() < 0.0);
}

#[test]
fn table_averages_program_tasks_only_and_shows_the_paper() {
    let tasks = vec![
        searched("blowfish", 1600, 1600, 1000), // 0 %
        searched("rijndael", 1600, 800, 1000),  // 50 %
        searched("feeder", 1600, 128, 300),     // harness: 92 %, not averaged
    ];
    let a = averages(&tasks);
    assert_eq!(a.len(), 2);
    assert!((a[0].budget.unwrap() - 25.0).abs() < 1e-9);
    assert_eq!(a[0].counted, 2);
    assert_eq!(a[1].workload, "average");
    let md = markdown(&tasks);
    assert!(
        md.contains("| security_small | blowfish | 1600 | 1000 | 1600 | 0.0 % | -60.0 % | 0 % |"),
        "{md}"
    );
    assert!(
        md.contains("| average | 2 | 25.0 % | -20.0 % | 54 % |"),
        "{md}"
    );
    assert!(md.contains("### Harness tasks"));
    let report = Mso::render(&tasks, &meta());
    assert_eq!(
        report.summary_line(),
        "mso: mso_hw_pct=-20.0 mso_budget=25.0 passed=3 failed=0"
    );
    assert_eq!(report.note, " (MTSS page 128 bytes)");
}

#[test]
fn failures_and_contradictions_are_listed() {
    let mut odd = searched("fft", 2048, 1024, 900);
    odd.probes.push(probe(1536, false));
    odd.non_monotone =
        cactus_sweep::search::contradictions(odd.probes.iter().map(|p| (p.budget, p.passed)));
    let failed = search_row(start("gsm", 512), &probe(512, false), &mut |b| {
        probe(b, false)
    });
    let tasks = vec![odd, failed];
    let md = markdown(&tasks);
    assert!(
        md.contains("fft: fails at 1536 B, above the passing 1024 B"),
        "{md}"
    );
    assert!(md.contains("gsm: fails at its full budget"), "{md}");
    let report = Mso::render(&tasks, &meta());
    assert!(report.summary_line().ends_with("passed=1 failed=1"));
}

#[test]
fn a_task_passing_at_the_minimum_is_marked_as_a_floor() {
    let md = markdown(&[searched("adpcm", 1600, 0, 1000)]);
    assert!(
        md.contains("| adpcm | 1600 | 1000 | 128 (floor) | 92.0 % |"),
        "{md}"
    );
    assert!(md.contains("MSO is a lower bound"), "{md}");
}

#[test]
fn the_limit_names_the_kernels_reason_below_the_smallest_budget() {
    let mut t = searched("pgp", 1600, 800, 1000);
    assert_eq!(super::table::limit(&t), "exit code 1");
    let below = t
        .probes
        .iter_mut()
        .filter(|p| !p.passed)
        .max_by_key(|p| p.budget)
        .unwrap();
    below.reason = Some(
        "exit code 3: task 1 'pgp': stack overflow caught: pc=1 need=2 sp=3 limit=4; no lender: \
         the frame needs 67 contiguous pages of 128 bytes; of 2 switched-out tasks"
            .into(),
    );
    assert_eq!(
        super::table::limit(&t),
        "a 67-page frame: no lender has that many pages free"
    );
    below_reason(
        &mut t,
        "x; the frame is pinned (its address escapes) and cannot move",
    );
    assert_eq!(
        super::table::limit(&t),
        "a pinned frame (its address escapes)"
    );
    t.smallest = None;
    assert_eq!(super::table::limit(&t), "-");
}

#[test]
fn every_task_under_ten_percent_of_its_high_water_is_named_with_its_reason() {
    // pgp: smallest 800 of an 850-byte high water (5.9 %), its probe below refused as pinned;
    // adpcm at the floor is not named.
    let mut pgp = searched("pgp", 1600, 800, 850);
    assert_eq!(pgp.smallest, Some(800));
    below_reason(
        &mut pgp,
        "x; the frame is pinned (its address escapes) and cannot move",
    );
    let md = markdown(&[pgp, searched("adpcm", 1600, 0, 1000)]);
    assert!(
        md.contains(
            "Shrinking by less than 10 % of the high water, and why: security_small's pgp (5.9 %: \
             a pinned frame (its address escapes))."
        ),
        "{md}"
    );
    let md = markdown(&[searched("adpcm", 1600, 0, 1000)]);
    assert!(
        md.contains("Every program task shrinks by at least 10 % of its high water."),
        "{md}"
    );
}

fn below_reason(t: &mut TaskMso, reason: &str) {
    let smallest = t.smallest.unwrap();
    let p = t
        .probes
        .iter_mut()
        .filter(|p| !p.passed && p.budget < smallest)
        .max_by_key(|p| p.budget)
        .unwrap();
    p.reason = Some(reason.into());
}
