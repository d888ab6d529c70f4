use super::run::{lookup, preemptions, TIMER_CAUSE};
use super::*;
use cactus_sim::{Event, EventKind};

#[test]
fn a_preemption_is_a_timer_trap_that_switches_before_its_mret() {
    let events = vec![
        // A tick that switches nothing.
        Event::at(
            10,
            0x100,
            EventKind::Trap {
                cause: TIMER_CAUSE,
                tval: 0,
            },
        ),
        Event::at(20, 0x900, EventKind::Mret { target: 0x100 }),
        // A preemption at 0x104: 150 cycles to the mret.
        Event::at(
            100,
            0x104,
            EventKind::Trap {
                cause: TIMER_CAUSE,
                tval: 0,
            },
        ),
        Event::at(180, 0x900, EventKind::TaskSwitch { task: 2 }),
        Event::at(250, 0x900, EventKind::Mret { target: 0x500 }),
        // Another trap (an ecall) that switches: not a timer preemption.
        Event::at(300, 0x108, EventKind::Trap { cause: 11, tval: 0 }),
        Event::at(310, 0x900, EventKind::TaskSwitch { task: 1 }),
        Event::at(320, 0x900, EventKind::Mret { target: 0x10c }),
    ];
    let p = preemptions(&events);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!((p[0].pc, p[0].cycles), (0x104, 150));
}

#[test]
fn lookup_finds_the_range_holding_a_pc_and_nothing_between_ranges() {
    let table = vec![(0x100, 0x108, 0), (0x110, 0x112, 1), (0x200, 0x240, 2)];
    assert_eq!(lookup(&table, 0x100).map(|r| r.2), Some(0));
    assert_eq!(lookup(&table, 0x106).map(|r| r.2), Some(0));
    assert_eq!(lookup(&table, 0x108), None);
    assert_eq!(lookup(&table, 0x0ff), None);
    assert_eq!(lookup(&table, 0x111).map(|r| r.2), Some(1));
    assert_eq!(lookup(&table, 0x23e).map(|r| r.2), Some(2));
    assert_eq!(lookup(&table, 0x240), None);
    assert_eq!(lookup(&[], 0x100), None);
}

#[test]
fn the_summary_names_every_required_key_and_the_mutants() {
    let mut a = CcsRow::new(Part::Analysis, "a4");
    a.passed = true;
    a.tasks = vec![
        TaskLive {
            task: "ej".into(),
            loops: 2,
            point_avg: 5.0,
            block_avg: 7.0,
            point_reduction_pct: 80.0,
            block_reduction_pct: 70.0,
            worst_deferral: Some(12),
        },
        TaskLive {
            task: "feeder".into(),
            loops: 1,
            point_avg: 1.0,
            block_avg: 1.0,
            point_reduction_pct: 99.0,
            block_reduction_pct: 99.0,
            worst_deferral: Some(99),
        },
    ];
    let mut p = CcsRow::new(Part::Poison, "a4");
    p.passed = true;
    p.poison = Some(Poison {
        runs: 2,
        matched: 2,
        preemptions: 10,
        partial: 3,
        full: Cycles::of(&[200, 220]),
        inside: Cycles::of(&[150, 170, 160]),
        outside: Cycles::of(&[230]),
        awake_full: 1,
        awake_ccs: 2,
        hw: None,
        rmcs: None,
    });
    let mut m = CcsRow::new(Part::Mutation, "a4");
    m.note = Some("mutants not detected".into());
    let line = summary(&[a.clone(), p.clone(), m.clone()]).line();
    for want in [
        "ccs: state_reduction_pct=80.0",
        "worst_deferral_insts=12",
        "worst_deferral_cycles=n/a",
        "preempt_full_cycles=220",
        "preempt_ccs_sw_cycles=170",
        "preempt_ccs_sw_outside_cycles=230",
        "preempt_ccs_hw_cycles=n/a",
        "preemptions=10",
        "partial=3",
        "mutation_detected=0/1",
    ] {
        assert!(line.contains(want), "{want} in {line}");
    }
    // With ccs-hw runs: the deferral and the ccs-hw preemption keys come from them.
    if let Some(x) = p.poison.as_mut() {
        x.hw = Some(HwRuns {
            runs: 2,
            matched: 2,
            preemptions: 10,
            partial: 7,
            inside: Cycles::of(&[180, 190]),
            outside: Cycles::of(&[240]),
            timer_interrupts: 12,
            deferred: 9,
            budget_expiries: 4,
            worst_deferral: 75,
            worst_matched_deferral: 58,
            avg_deferral: 30.0,
            budget: 60,
            records: 263,
            awake: 3,
        });
    }
    let line = summary(&[a.clone(), p.clone(), m.clone()]).line();
    assert!(
        !line.contains("preempt_rmcs_cycles"),
        "no rmcs runs: {line}"
    );
    for want in [
        "worst_deferral_cycles=75",
        "preempt_ccs_hw_cycles=190",
        "preempt_ccs_hw_outside_cycles=240",
        "budget_expiries=4",
        "switch_ranges=263",
        "hw_partial=7",
    ] {
        assert!(line.contains(want), "{want} in {line}");
    }
    // With rmcs runs: its preemption key is added at the end, the others unchanged.
    if let Some(x) = p.poison.as_mut() {
        x.rmcs = Some(RmcsRuns {
            runs: 2,
            matched: 2,
            preemptions: 10,
            partial: 5,
            inside: Cycles::of(&[300, 310]),
            pool_pages: 2,
            ..RmcsRuns::default()
        });
    }
    let with = summary(&[a, p.clone(), m]).line();
    assert!(
        with.starts_with(line.split(" passed=").next().unwrap_or(&line)),
        "{with}"
    );
    assert!(
        with.contains("preempt_rmcs_cycles=310 rmcs_partial=5"),
        "{with}"
    );
    let text = markdown(&[p]);
    assert!(
        text.contains("| 300/305.0 |") || text.contains("| 310/305.0 |"),
        "{text}"
    );
}

#[test]
fn the_report_has_the_ccs_hw_and_budget_tables() {
    let mut b = CcsRow::new(Part::Budget, "a4");
    b.passed = true;
    b.budget = Some(BudgetRun {
        budget: 120,
        timer_interrupts: 200,
        matched: 50,
        budget_expiries: 100,
        ..BudgetRun::default()
    });
    let text = markdown(&[b]);
    assert!(text.contains("| a4 | 120 | 200 | 25.0 | 100 |"), "{text}");
}
