use super::*;

fn observed(uart: &str, exit_code: Option<u32>, violations: u64) -> Observed {
    Observed {
        uart: uart.as_bytes().to_vec(),
        exit_code,
        ending: match exit_code {
            Some(c) => format!("exit {c}"),
            None => "cycle limit reached".into(),
        },
        violations,
    }
}

#[test]
fn identical_clean_runs_pass() {
    let a = observed("ok 1\nPASS\n", Some(0), 0);
    assert!(judge(&a, &a.clone()).is_empty());
}

#[test]
fn a_changed_line_is_found_and_named() {
    let a = observed("seed\nok 0x1\nPASS\n", Some(0), 0);
    let b = observed("seed\nok 0x2\nPASS\n", Some(0), 0);
    let p = judge(&a, &b);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].contains("line 2"), "{}", p[0]);
    assert!(
        p[0].contains("ok 0x1") && p[0].contains("ok 0x2"),
        "{}",
        p[0]
    );
}

#[test]
fn a_truncated_output_differs() {
    let a = observed("one\ntwo\n", Some(0), 0);
    let b = observed("one\n", Some(0), 0);
    let p = judge(&a, &b);
    assert!(
        p[0].contains("line 2") && p[0].contains("end of output"),
        "{p:?}"
    );
}

#[test]
fn violations_and_bad_endings_fail_even_with_equal_output() {
    let good = observed("x\n", Some(0), 0);
    let p = judge(&good, &observed("x\n", Some(0), 2));
    assert_eq!(p, vec!["mtss: 2 ownership-oracle violation(s)".to_string()]);
    let p = judge(&observed("x\n", Some(3), 0), &good);
    assert_eq!(p, vec!["reference: exit 3".to_string()]);
    let p = judge(&good, &observed("x\n", None, 0));
    assert_eq!(p, vec!["mtss: cycle limit reached".to_string()]);
}

#[test]
fn replay_names_only_what_differs_from_the_defaults() {
    assert_eq!(
        replay_command(DEFAULT_MANIFEST, "mtss", false, DEFAULT_SHRINK, 77),
        "cactus stress mtss --runs 1 --seed 77"
    );
    assert_eq!(
        replay_command("my.toml", "segmented", true, 40, 5),
        "cactus stress mtss --runs 1 --seed 5 --stack segmented --stack-bound --shrink 40 my.toml"
    );
}

#[test]
fn seed_address_refuses_what_is_not_an_elf() {
    let e = seed_address(b"not an elf").unwrap_err();
    assert!(e.contains("cannot read the ELF"), "{e}");
}

fn row(seed: u32, passed: bool, moved: u64) -> SeedResult {
    let run = |cycles: u64, moved: u64| RunSummary {
        exit_code: Some(0),
        ending: "exit 0".into(),
        cycles,
        instructions: cycles / 2,
        violations: 0,
        moved_frames: moved,
        moved_by_task: if moved > 0 {
            [("w0".to_string(), moved)].into_iter().collect()
        } else {
            Default::default()
        },
        lent_bytes: moved * 256,
        borrowed_bytes: moved * 256,
    };
    SeedResult {
        seed,
        passed,
        problems: if passed {
            vec![]
        } else {
            vec!["outputs differ at line 2: a | b".into()]
        },
        reference: run(1000, 0),
        mtss: run(1100 + moved, moved),
        outputs: None,
    }
}

fn report(results: Vec<SeedResult>) -> StressReport {
    StressReport {
        stack: "mtss".into(),
        stack_bound: false,
        manifest: DEFAULT_MANIFEST.into(),
        workload: "mtss_stress".into(),
        shrink_percent: DEFAULT_SHRINK,
        page_bytes: 128,
        max_cycles: 1_000_000,
        budgets: vec![TaskBudget {
            task: "w0".into(),
            reference: 4096,
            mtss: 2048,
        }],
        results,
    }
}

#[test]
fn summary_counts_passes_moves_and_bytes() {
    let r = report(vec![row(1, true, 3), row(2, false, 0), row(3, true, 5)]);
    let s = summary(&r);
    assert_eq!(s.runs, 3);
    assert_eq!(s.passed, 2);
    assert_eq!(s.runs_with_moves, 2);
    assert_eq!(s.moved_frames, 8);
    assert_eq!(s.lent_bytes, 8 * 256);
    assert_eq!(r.failures().map(|f| f.seed).collect::<Vec<_>>(), vec![2]);
}

#[test]
fn markdown_lists_budgets_verdicts_spreads_and_failures() {
    let md = markdown(&report(vec![
        row(1, true, 3),
        row(2, false, 0),
        row(3, true, 5),
    ]));
    assert!(md.contains("| w0 | 4096 | 2048 |"), "{md}");
    assert!(md.contains("| 3 | 2 | 1 | 2 (66.7 %) | 0 |"), "{md}");
    assert!(
        md.contains("| `mtss` frames moved | 0 | 3 | 2.7 | 5 |"),
        "{md}"
    );
    assert!(md.contains("| w0 | 2 | 2.7 | 5 |"), "{md}");
    assert!(
        md.contains("`cactus stress mtss --runs 1 --seed 2`"),
        "{md}"
    );
    // A problem's `|` must not break the table.
    assert!(md.contains("a \\| b"), "{md}");
    let clean = markdown(&report(vec![row(1, true, 3)]));
    assert!(!clean.contains("Failed seeds"), "{clean}");
}
