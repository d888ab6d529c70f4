//! Host tests of the resume logic and the tables (no builds: the probes are fakes).

use super::*;

fn plan_of(tasks: &[(&str, u32)]) -> Vec<WorkloadPlan> {
    vec![WorkloadPlan {
        manifest: "w.toml".into(),
        workload: "security_small".into(),
        tasks: tasks.iter().map(|(n, b)| (n.to_string(), *b)).collect(),
    }]
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
    let (mut rows, _) = plan(&plan_of(&[(task, budget)]), None);
    rows[0].high_water = Some(high_water);
    search_row(rows.remove(0), &probe(budget, true), &mut |b| {
        probe(b, b >= boundary)
    })
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
    let resume = MsoReport {
        page_bytes: 128,
        tasks: vec![partial.clone()],
    };
    let (rows, todo) = plan(&plan_of(&[("blowfish", 2048)]), Some(&resume));
    assert_eq!(todo, vec![(0, 0, 0)]);
    let mut made = Vec::new();
    let done = search_row(rows[0].clone(), &probe(2048, true), &mut |b| {
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
fn complete_rows_are_kept_and_changed_budgets_start_afresh() {
    let done = searched("sha", 1024, 512, 600);
    let resume = MsoReport {
        page_bytes: 128,
        tasks: vec![done.clone()],
    };
    let (rows, todo) = plan(&plan_of(&[("sha", 1024)]), Some(&resume));
    assert!(todo.is_empty());
    assert_eq!(rows[0], done);
    let (rows, todo) = plan(&plan_of(&[("sha", 1040)]), Some(&resume));
    assert_eq!(todo.len(), 1);
    assert!(rows[0].probes.is_empty() && !rows[0].complete);
}

#[test]
fn a_full_budget_failure_is_a_failed_row() {
    let (mut rows, _) = plan(&plan_of(&[("pgp", 512)]), None);
    let row = search_row(rows.remove(0), &probe(512, false), &mut |_| {
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
    let report = MsoReport {
        page_bytes: 128,
        tasks: vec![
            searched("blowfish", 1600, 1600, 1000), // 0 %
            searched("rijndael", 1600, 800, 1000),  // 50 %
            searched("feeder", 1600, 128, 300),     // harness: 92 %, not averaged
        ],
    };
    let a = averages(&report);
    assert_eq!(a.len(), 2);
    assert!((a[0].budget.unwrap() - 25.0).abs() < 1e-9);
    assert_eq!(a[0].counted, 2);
    assert_eq!(a[1].workload, "average");
    let md = markdown(&report);
    assert!(
        md.contains("| security_small | blowfish | 1600 | 1000 | 1600 | 0.0 % | -60.0 % | 0 % |"),
        "{md}"
    );
    assert!(
        md.contains("| average | 2 | 25.0 % | -20.0 % | 54 % |"),
        "{md}"
    );
    assert!(md.contains("### Harness tasks"));
    assert_eq!(summary(&report), "3 passed, 0 failed");
}

#[test]
fn failures_and_contradictions_are_listed() {
    let odd = searched("fft", 2048, 1024, 900);
    let mut odd = odd;
    odd.probes.push(probe(1536, false));
    odd.non_monotone = search::contradictions(&odd.probes);
    let (mut rows, _) = plan(&plan_of(&[("gsm", 512)]), None);
    let failed = search_row(rows.remove(0), &probe(512, false), &mut |b| probe(b, false));
    let report = MsoReport {
        page_bytes: 128,
        tasks: vec![odd, failed],
    };
    let md = markdown(&report);
    assert!(
        md.contains("fft: fails at 1536 B, above the passing 1024 B"),
        "{md}"
    );
    assert!(md.contains("gsm: fails at its full budget"), "{md}");
    assert_eq!(summary(&report), "1 passed, 1 failed");
}

#[test]
fn the_json_round_trips_through_an_atomic_save() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mso.json");
    let report = MsoReport {
        page_bytes: 128,
        tasks: vec![searched("sha", 1024, 512, 600)],
    };
    save_atomic(&path, &report).unwrap();
    assert_eq!(load::<MsoReport>(&path).unwrap(), report);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_task_passing_at_the_minimum_is_marked_as_a_floor() {
    let report = MsoReport {
        page_bytes: 128,
        tasks: vec![searched("adpcm", 1600, 0, 1000)],
    };
    let md = markdown(&report);
    assert!(
        md.contains("| adpcm | 1600 | 1000 | 128 (floor) | 92.0 % |"),
        "{md}"
    );
    assert!(md.contains("MSO is a lower bound"), "{md}");
}
