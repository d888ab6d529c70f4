use super::*;

fn row(workload: &str, config: Config, peak: Option<u32>, passed: bool) -> SrpRow {
    SrpRow {
        workload: workload.into(),
        config,
        manifest: "m.toml".into(),
        usable: true,
        passed,
        note: None,
        stack_peak: peak,
        stack_budget: Some(4096),
        static_bound: None,
        cycles: Some(1000),
        awake_cycles: Some(800),
        kernel_cycles: Some(100),
        switches: Some(10),
        preemptions: None,
        misses: Some(0),
    }
}

#[test]
fn the_summary_sums_srp_peaks_against_static_high_waters_of_the_same_workloads() {
    let mut refused = row("demo", Config::Srp, None, false);
    refused.usable = false;
    refused.note = Some("task x cannot run under the srp scheduler".into());
    let mut as_written = row("a", Config::SrpAsWritten, None, false);
    as_written.usable = false;
    as_written.note = Some("task y can block in cactus_sem_take".into());
    let rows = vec![
        row("a", Config::Srp, Some(1000), true),
        row("a", Config::Static, Some(4000), true),
        row("a", Config::Mtss, Some(3900), true),
        row("b", Config::Srp, Some(500), true),
        row("b", Config::Static, None, false), // failed: b is left out of the sums
        refused,
        as_written,
    ];
    let report = Srp::render(
        &rows,
        &cactus_sweep::Meta::current("srp", params(Size::Small)),
    );
    assert_eq!(
        report.summary_line(),
        "srp: workloads=1 srp_stack_bytes=1000 static_stack_bytes=4000 saving_pct=75.0 \
         passed=6 failed=1"
    );
    let md = markdown(&rows);
    assert!(md.contains("cannot use SRP: task x cannot run"), "{md}");
    // The preemptive manifest's refusal is its own column, not a failure or a table row.
    assert!(
        md.contains("| cannot: task y can block in cactus_sem_take |"),
        "{md}"
    );
    assert!(!md.contains("| a | srp-as-written |"), "{md}");
    assert!(
        md.contains("shared stack peak 1000 B against 4000 B"),
        "{md}"
    );
}
