use super::run::{lookup, preemptions, TIMER_CAUSE};
use super::*;
use cactus_sim::{Event, EventKind};

fn ev(cycle: u64, pc: u32, kind: EventKind) -> Event {
    Event {
        cycle,
        instret: 0,
        pc,
        kind,
    }
}

#[test]
fn a_preemption_is_a_timer_trap_that_switches_before_its_mret() {
    let events = vec![
        // A tick that switches nothing.
        ev(
            10,
            0x100,
            EventKind::Trap {
                cause: TIMER_CAUSE,
                tval: 0,
            },
        ),
        ev(20, 0x900, EventKind::Mret { target: 0x100 }),
        // A preemption at 0x104: 150 cycles to the mret.
        ev(
            100,
            0x104,
            EventKind::Trap {
                cause: TIMER_CAUSE,
                tval: 0,
            },
        ),
        ev(180, 0x900, EventKind::TaskSwitch { task: 2 }),
        ev(250, 0x900, EventKind::Mret { target: 0x500 }),
        // Another trap (an ecall) that switches: not a timer preemption.
        ev(300, 0x108, EventKind::Trap { cause: 11, tval: 0 }),
        ev(310, 0x900, EventKind::TaskSwitch { task: 1 }),
        ev(320, 0x900, EventKind::Mret { target: 0x10c }),
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
    });
    let mut m = CcsRow::new(Part::Mutation, "a4");
    m.note = Some("mutants not detected".into());
    let line = summary(&[a, p, m]).line();
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
}
