use super::preempt::{geomean_pct, parse_latencies, summary_pairs, Latency, Overhead, PERIOD};
use super::*;

fn lat(masked: bool, period: Option<u32>, samples: &[u64]) -> SensmartRow {
    SensmartRow {
        part: Part::Preempt,
        name: Latency::name(masked, period),
        passed: true,
        note: None,
        overhead: None,
        latency: Some(Latency {
            masked,
            period,
            samples: samples.to_vec(),
            traps: 0,
        }),
        relocations: Vec::new(),
        switch_cycles: None,
        ops: Vec::new(),
        attacks: None,
        cost: None,
        trees: None,
        inflation: None,
    }
}

fn ov(name: &str, cycles: (u64, u64), code: (u64, u64), passed: bool) -> SensmartRow {
    SensmartRow {
        part: Part::Preempt,
        name: name.into(),
        passed,
        note: (!passed).then(|| "x".into()),
        overhead: Some(Overhead {
            period: PERIOD,
            cycles_base: cycles.0,
            cycles_pass: cycles.1,
            code_base: code.0,
            code_pass: code.1,
            sites: 3,
            traps: 2,
        }),
        latency: None,
        relocations: Vec::new(),
        switch_cycles: None,
        ops: Vec::new(),
        attacks: None,
        cost: None,
        trees: None,
        inflation: None,
    }
}

#[test]
fn latency_stats_use_nearest_ranks() {
    let l = Latency {
        masked: true,
        period: Some(256),
        samples: vec![50, 10, 40, 30, 20, 60, 70, 80, 90, 100],
        traps: 0,
    };
    let (min, mean, p50, p90, max) = l.stats().unwrap();
    assert_eq!((min, p50, p90, max), (10, 50, 90, 100));
    assert!((mean - 55.0).abs() < 1e-9);
    assert_eq!(
        Latency {
            samples: vec![],
            ..l
        }
        .stats(),
        None
    );
}

#[test]
fn configuration_names() {
    assert_eq!(Latency::name(false, None), "timer");
    assert_eq!(Latency::name(true, Some(PERIOD)), "masked+traps");
    assert_eq!(Latency::name(true, Some(64)), "masked+traps64");
}

#[test]
fn latencies_are_read_from_the_firmware_line() {
    let out = "cactus: x\nlatency: 3 4 5\nPASS preempt\n";
    assert_eq!(parse_latencies(out), Some(vec![3, 4, 5]));
    assert_eq!(parse_latencies("latency: 3 x\n"), None);
    assert_eq!(parse_latencies("no line\n"), None);
}

#[test]
fn geomean_of_ratios() {
    let g = geomean_pct(&[(100, 121), (100, 100)]).unwrap();
    assert!((g - 10.0).abs() < 1e-9, "{g}");
    assert_eq!(geomean_pct(&[]), None);
}

#[test]
fn summary_is_the_parts_pairs_and_skips_failed_rows() {
    let rows = vec![
        lat(false, None, &[260, 300]),
        lat(true, Some(PERIOD), &[500, 5000, 900]),
        ov("a", (100, 121), (1000, 1100), true),
        ov("b", (100, 100), (1000, 1100), true),
        ov("c", (100, 900), (1000, 9000), false),
    ];
    let pairs = summary_pairs(&rows);
    let get = |k: &str| pairs.iter().find(|(key, _)| *key == k).unwrap().1.clone();
    assert_eq!(get("trap_overhead_pct"), "10.0");
    assert_eq!(get("trap_code_pct"), "10.0");
    assert_eq!(get("trap_latency_max"), "5000");
    assert_eq!(get("timer_latency_max"), "300");
    let line = summary(&rows).line();
    assert!(
        line.starts_with("sensmart: trap_overhead_pct=10.0 trap_code_pct=10.0 trap_latency_max=5000 timer_latency_max=300"),
        "{line}"
    );
}

#[test]
fn tables_name_every_row_and_failures() {
    let rows = vec![
        lat(false, None, &[260]),
        ov("net", (100, 110), (10, 11), true),
        ov("bad", (100, 110), (10, 11), false),
    ];
    let md = preempt::markdown(&rows);
    assert!(md.contains("| timer"), "{md}");
    assert!(md.contains("| net"), "{md}");
    assert!(md.contains("FAIL: x"), "{md}");
    assert_eq!(Part::parse("preempt"), Some(Part::Preempt));
    assert_eq!(Part::parse("relocate"), Some(Part::Relocate));
    assert_eq!(Part::parse("isolate"), Some(Part::Isolate));
    assert_eq!(Part::parse("hardware"), None);
}

/// A `relocate` row that passed.
fn reloc_row(name: &str, rel: Vec<Relocation>, switch: Option<u64>) -> SensmartRow {
    let mut r = SensmartRow::new(Part::Relocate, name);
    r.passed = true;
    r.relocations = rel;
    r.switch_cycles = switch;
    r
}

#[test]
fn fit_recovers_a_line_and_refuses_one_size() {
    let rel: Vec<Relocation> = [256u32, 1024, 4096]
        .iter()
        .map(|&b| Relocation {
            bytes: b,
            cycles: 200 + 3 * u64::from(b / 4),
            breakdown: None,
        })
        .collect();
    let (a, b) = fit(&rel).unwrap();
    assert!(
        (a - 200.0).abs() < 1e-6 && (b - 3.0).abs() < 1e-9,
        "{a} {b}"
    );
    assert_eq!(fit(&rel[..1]), None);
    assert_eq!(fit(&[]), None);
}

#[test]
fn the_relocate_part_names_the_software_kib_relocation_and_both_switches() {
    use super::relocate::{RELOCATION_CPU, RELOCATION_HW, RELOCATION_SW};
    let rel = |bytes: u32, cycles: u64| Relocation {
        bytes,
        cycles,
        breakdown: None,
    };
    let mut sw = rel(1024, 900);
    sw.breakdown = Some([80, 100, 60, 280, 250, 20, 100]);
    let rows = vec![
        reloc_row(RELOCATION_SW, vec![rel(512, 700), sw], None),
        reloc_row(RELOCATION_CPU, vec![rel(1024, 1800)], None),
        reloc_row(RELOCATION_HW, vec![rel(512, 600), rel(1024, 750)], None),
        reloc_row("switch static", vec![], Some(90)),
        reloc_row("switch relocate", vec![], Some(95)),
    ];
    let line = summary(&rows).line();
    assert!(
        line.starts_with("sensmart: relocation_cycles=900 "),
        "{line}"
    );
    assert!(line.contains("relocation_per_word=1.56"), "{line}");
    assert!(line.contains("relocation_cpu_cycles=1800 "), "{line}");
    assert!(line.contains("relocation_hw_cycles=750 "), "{line}");
    assert!(
        line.contains("switch_static=90 switch_relocate=95"),
        "{line}"
    );
    let mut failed = rows.clone();
    failed[0].passed = false;
    assert!(summary(&failed).line().contains("relocation_cycles=- "));
    let md = super::relocate::markdown(&rows);
    assert!(md.contains("| software | engine | 1024 |"), "{md}");
    // The breakdown of the software 1 KiB relocation: its phases, their sum (890), the copy
    // beyond one a word (280 - 256) and the fixed part (890 - 256).
    assert!(
        md.contains("| software | engine | 80 | 100 | 60 | 280 | 250 | 20 | 100 |"),
        "{md}"
    );
    assert!(
        md.contains("| software | engine | 900 | 890 | 24 | 634 |"),
        "{md}"
    );
}

#[test]
fn isolate_summary_pairs_come_from_the_attacks_and_the_costs() {
    use super::isolate::{self, Attacks, Cost};
    let mut a = SensmartRow::new(Part::Isolate, "attacks");
    a.passed = true;
    a.attacks = Some(Attacks {
        tried: 10,
        stopped: 9,
        stopped_without: 0,
    });
    let mut c = SensmartRow::new(Part::Isolate, "w");
    c.passed = true;
    c.cost = Some(Cost {
        cycles_base: 100,
        cycles_isolate: 121,
        cycles_preempt: 110,
        code_base: 1000,
        code_isolate: 1500,
        code_preempt: 1100,
        sites: 3,
        slow: 1,
    });
    let pairs = isolate::summary_pairs(&[a.clone(), c.clone()]);
    let get = |k: &str| pairs.iter().find(|(n, _)| *n == k).unwrap().1.clone();
    assert_eq!(get("isolate_median_pct"), "21.0");
    // The median is the middle row's overhead (+1 %, +21 %, +200 %), not the mean's.
    let mut rows = vec![a.clone(), c.clone(), c.clone(), c.clone()];
    rows[2].cost.as_mut().unwrap().cycles_isolate = 101;
    rows[3].cost.as_mut().unwrap().cycles_isolate = 300;
    let three = isolate::summary_pairs(&rows);
    let median = three
        .iter()
        .find(|(n, _)| *n == "isolate_median_pct")
        .unwrap();
    assert_eq!(median.1, "21.0");
    assert!(isolate::markdown(&rows).contains("(median +21.0 %)"));
    assert_eq!(get("attacks_tried"), "10");
    assert_eq!(get("attacks_stopped"), "9");
    assert_eq!(get("isolate_overhead_pct"), "21.0");
    assert_eq!(get("isolate_code_pct"), "50.0");
    assert_eq!(
        isolate::parse_attacks("x\nattacks_tried=10 attacks_stopped=7\nPASS"),
        Some((10, 7))
    );
    assert_eq!(isolate::parse_attacks("nothing"), None);
}

#[test]
fn the_isolate_cost_rows_at_small_are_a_subset_of_the_preempt_parts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let o = super::preempt::PreemptOptions {
        root: root.clone(),
        size: crate::Size::Small,
        build_dir: None,
    };
    let small = super::isolate::workloads(&o);
    let preempt = super::preempt::workloads(&root, crate::Size::Small);
    assert!(
        !small.is_empty() && small.len() < preempt.len(),
        "{small:?}"
    );
    assert!(small.iter().all(|w| preempt.contains(w)), "{small:?}");
    let full = super::isolate::workloads(&super::preempt::PreemptOptions {
        size: crate::Size::Full,
        ..o
    });
    assert!(full.len() > small.len(), "{full:?}");
}

#[test]
fn breakdowns_follow_the_boundaries_in_order() {
    use super::breakdown::{breakdowns, Probes};
    use cactus_sim::{Event, EventKind};
    let ev = |cycle: u64, pc: u32, kind: EventKind| Event {
        cycle,
        instret: 0,
        pc,
        kind,
    };
    let call = EventKind::Call { a0: 0, a1: 0 };
    let p = Probes {
        grow: 0x100,
        give: 0x200,
        lstack: vec![0x300, 0x304],
    };
    let region = EventKind::RegionAssign {
        base: 0,
        size: 16,
        owner: 0,
    };
    let overflow = EventKind::Overflow {
        task: 0,
        sp: 0,
        requested: 16,
        action: 3,
    };
    let mret = EventKind::Mret { target: 0 };
    let events = vec![
        // A kernel bracket outside a relocation counts for nothing.
        ev(5, 0, EventKind::KernelEnter),
        ev(6, 0, EventKind::KernelLeave),
        ev(7, 0, mret.clone()),
        // Hardware: the trap starts it; a second region report changes nothing.
        ev(100, 0, EventKind::Trap { cause: 25, tval: 0 }),
        ev(190, 0x100, call.clone()),
        ev(280, 0x200, call.clone()),
        ev(340, 0, EventKind::KernelEnter),
        ev(620, 0, EventKind::KernelLeave),
        ev(700, 0, region.clone()),
        ev(712, 0, region.clone()),
        ev(720, 0, overflow.clone()),
        ev(820, 0, mret.clone()),
        // A growth refused (no copy) is dropped.
        ev(1000, 0, EventKind::Trap { cause: 25, tval: 0 }),
        ev(1010, 0x100, call.clone()),
        ev(1200, 0, mret.clone()),
        // Software: the slow path's entry starts it, its common part does not restart it.
        ev(2000, 0x300, call.clone()),
        ev(2005, 0x304, call.clone()),
        ev(2080, 0x100, call.clone()),
        ev(2180, 0x200, call),
        ev(2240, 0, EventKind::KernelEnter),
        ev(2520, 0, EventKind::KernelLeave),
        ev(2800, 0, region),
        ev(2820, 0, overflow),
        ev(2920, 0, mret),
    ];
    assert_eq!(
        breakdowns(&events, &p),
        vec![
            [90, 90, 60, 280, 80, 20, 100],
            [80, 100, 60, 280, 280, 20, 100]
        ]
    );
}

fn inf(name: &str, passed: bool, builds: &[(super::inflation::Rewrite, u64, u64)]) -> SensmartRow {
    use super::inflation::{Build, Inflation};
    let mut r = SensmartRow::new(Part::Inflation, name);
    r.passed = passed;
    r.note = (!passed).then(|| "sensmart: the output differs".into());
    r.inflation = Some(Inflation {
        builds: builds
            .iter()
            .map(|&(rewrite, code, awake)| Build {
                rewrite,
                code,
                cycles: awake + 7,
                awake,
            })
            .collect(),
    });
    r
}

#[test]
fn inflation_arithmetic_means_and_summary() {
    use super::inflation::{self, Rewrite::*};
    let a = inf(
        "a",
        true,
        &[
            (Plain, 1000, 200),
            (PreemptTraps, 1100, 220),
            (Checks, 1000, 200),
            (LogicalStack, 2000, 300),
            (Isolate, 3000, 250),
            (Sensmart, 2200, 330),
        ],
    );
    let b = inf(
        "b",
        true,
        &[
            (Plain, 100, 100),
            (PreemptTraps, 130, 100),
            (Checks, 110, 110),
            (LogicalStack, 100, 100),
            (Isolate, 200, 150),
            (Sensmart, 150, 130),
        ],
    );
    // A failed row counts in no mean.
    let c = inf("c", false, &[(Plain, 100, 100), (Sensmart, 900, 900)]);
    let ia = a.inflation.as_ref().unwrap();
    let close = |got: Option<f64>, want: f64| {
        assert!((got.unwrap() - want).abs() < 1e-9, "{got:?} != {want}")
    };
    close(ia.code_pct(Isolate), 200.0);
    close(ia.slowdown_pct(LogicalStack), 50.0);
    close(ia.code_pct(Plain), 0.0);
    // A build that did not run has no figure.
    assert_eq!(c.inflation.as_ref().unwrap().code_pct(PreemptTraps), None);
    assert_eq!(inflation::pct(0, 5), None);
    let rows = vec![a, b, c];
    let avg = inflation::averages(&rows);
    // preempt-traps: code (+10, +30) / 2, slowdown (+10, 0) / 2.
    close(avg[0].0, 20.0);
    close(avg[0].1, 5.0);
    // sensmart: code (+120, +50) / 2, slowdown (+65, +30) / 2.
    close(avg[4].0, 85.0);
    close(avg[4].1, 47.5);
    let pairs = inflation::summary_pairs(&rows);
    let get = |k: &str| pairs.iter().find(|(key, _)| *key == k).unwrap().1.clone();
    assert_eq!(get("inflation_preempt_code_pct"), "20.0");
    assert_eq!(get("inflation_checks_slowdown_pct"), "5.0");
    assert_eq!(get("inflation_logical_code_pct"), "50.0");
    assert_eq!(get("inflation_isolate_code_pct"), "150.0");
    assert_eq!(get("inflation_sensmart_slowdown_pct"), "47.5");
    assert_eq!(inflation::summary_pairs(&[])[0].1, "-");
    let md = inflation::markdown(&rows);
    assert!(md.contains("| a | 1000 | 1100 | +10.0 |"), "{md}");
    assert!(md.contains("| mean (passed rows) |"), "{md}");
    assert!(md.contains("FAIL: sensmart: the output differs"), "{md}");
    assert!(md.contains("within 200%"), "{md}");
    assert_eq!(Part::parse("inflation"), Some(Part::Inflation));
}

#[test]
fn inflation_keys_come_after_the_other_parts() {
    let rows = vec![
        ov("a", (100, 121), (1000, 1100), true),
        inf(
            "w",
            true,
            &[
                (super::inflation::Rewrite::Plain, 100, 100),
                (super::inflation::Rewrite::Sensmart, 200, 150),
            ],
        ),
    ];
    let line = summary(&rows).line();
    assert!(line.starts_with("sensmart: trap_overhead_pct="), "{line}");
    assert!(line.contains("inflation_sensmart_code_pct=100.0"), "{line}");
    assert!(
        line.find("trap_code_pct").unwrap() < line.find("inflation_").unwrap(),
        "{line}"
    );
}
