//! Host tests of the pure parts: increases, averages and the Markdown report.

use super::*;

fn run(active: u64, region: u32, peak: Option<u32>) -> Run {
    Run {
        cycles: active + 10,
        active_cycles: active,
        instructions: active / 2,
        overflows: 3,
        region_bytes: region,
        heap_peak: peak,
        task_peaks: peak.map(|p| p + 16),
    }
}

fn workload(name: &str, base: u64, mtss: u64, cap: u64, mem: u32, peak: u32) -> WorkloadResult {
    WorkloadResult {
        workload: name.into(),
        manifest: format!("workloads/mtss/{name}.toml"),
        unmodified: Ok(run(base, 4096, None)),
        mtss: Ok(run(mtss, mem, None)),
        capriccio: Ok(run(cap, 256, Some(peak))),
        every_check: Ok(run(base + (cap - base) / 2, 4096, None)),
    }
}

#[test]
fn increases_are_relative_to_the_unmodified_active_cycles() {
    let w = workload("network", 1000, 1030, 1150, 2048, 1024);
    assert!((w.mtss_increase().unwrap() - 3.0).abs() < 1e-9);
    assert!((w.capriccio_increase().unwrap() - 15.0).abs() < 1e-9);
    assert!((w.every_check_increase().unwrap() - 7.5).abs() < 1e-9);
    // (1150 - 1075) cycles over 3 links.
    assert!((w.cycles_per_link().unwrap() - 25.0).abs() < 1e-9);
    assert_eq!(w.mtss_bytes(), Some(2048));
    assert_eq!(w.capriccio_bytes(), Some(1024));
    assert!(w.passed());
}

#[test]
fn averages_skip_failed_workloads() {
    let mut bad = workload("ptrdist", 1000, 1000, 1000, 1, 1);
    bad.capriccio = Err("exit code 1".into());
    let report = vec![
        workload("automotive", 1000, 1010, 1100, 1024, 512),
        workload("security", 2000, 2040, 2100, 3072, 1536),
        bad,
    ];
    let a = averages(&report).unwrap();
    assert_eq!(a.workloads, 2);
    assert!((a.mtss_increase - 1.5).abs() < 1e-9);
    assert!((a.capriccio_increase - 7.5).abs() < 1e-9);
    assert!((a.mtss_bytes - 2048.0).abs() < 1e-9);
    assert!((a.capriccio_bytes - 1024.0).abs() < 1e-9);
    assert_eq!(
        summary(&report).line(),
        "mtss-capriccio: mtss_runtime=1.50 capriccio_runtime=7.50 mtss_kb=2.0 capriccio_kb=1.0"
    );
    assert_eq!(cactus_sweep::evaluation::verdicts(&report), (2, 1));
}

#[test]
fn no_passing_workload_has_no_averages() {
    let mut bad = workload("telecomm", 1000, 1000, 1000, 1, 1);
    bad.unmodified = Err("build failed".into());
    let report = vec![bad];
    assert_eq!(averages(&report), None);
    assert!(summary(&report).line().contains("mtss_runtime=- "));
}

#[test]
fn markdown_puts_the_paper_beside_ours_and_lists_failures() {
    let mut bad = workload("ptrdist_small", 1000, 1000, 1000, 1, 1);
    bad.mtss = Err("exit code 3".into());
    let report = vec![
        workload("automotive_small", 1000, 1039, 1077, 2048, 1536),
        bad,
    ];
    let md = markdown(&report);
    assert!(md.contains(
        "| automotive_small | 3.90 % | 7.70 % | 2.0 | 1.5 | 3.90 % / 7.72 % | 87 / 2135 |"
    ));
    assert!(md.contains("| ptrdist_small | - % | 0.00 % | - | 0.0 | 5.97 % / 17.27 % | 8 / 2056 |"));
    assert!(md.contains("| *Average* | *3.90 %* | *7.70 %* | *2.0* | *1.5* | *3.05 % / 10.69 %*"));
    assert!(md.contains("- ptrdist_small (mtss): exit code 3"));
    assert!(md.contains(
        "| automotive_small | 1000 | 1039 | 1077 | 1038 | 3.80 % | 3 | 3 | 13 | 1536 | 1552 |"
    ));
}

#[test]
fn the_json_round_trips() {
    let report = vec![workload("network", 1000, 1030, 1150, 2048, 1024)];
    let text = serde_json::to_string(&report).unwrap();
    let back: Vec<WorkloadResult> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, report);
}

#[test]
fn schemes_build_their_configurations() {
    use cactus_cc::RollingRules;
    assert_eq!(
        scheme_options(Scheme::Unmodified),
        ("static", "none", RollingRules::ALL)
    );
    assert_eq!(
        scheme_options(Scheme::Mtss),
        ("mtss", "mtss", RollingRules::ALL)
    );
    assert_eq!(
        scheme_options(Scheme::Capriccio),
        ("chunks", "mtss", RollingRules::NONE)
    );
    assert_eq!(
        scheme_options(Scheme::EveryCheck),
        ("static", "mtss", RollingRules::NONE)
    );
}
