//! The timer-pending watch (`MachineConfig::watch_timer_pending`): a timer that rises while
//! interrupts are masked is recorded once, at the instruction where it rose, before the trap
//! it leads to; an unmasked rise is recorded unmasked; and the watch changes no cycle,
//! instruction or other event of the run.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{Event, EventKind, Machine, MachineConfig, Profile};

const MSTATUS: u16 = 0x300;
const MIE: u16 = 0x304;

/// mtvec, mtimecmp = mtime + `ticks`, MTIE; then `masked` addi with MIE clear, `csrsi
/// mstatus, MIE` and 200 more addi. The handler exits with 0.
fn program(ticks: u32, masked: usize) -> (Vec<Inst>, u32) {
    let pre = cat(&[
        set_mtvec(HANDLER),
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
        li(T1, 0x80),
        vec![csr(Op::Csrrw, ZERO, MIE, T1)],
    ]);
    let body_pc = RAM + 4 * pre.len() as u32;
    let body: Vec<Inst> = (0..masked).map(|_| i(Op::Addi, S1, S1, 1)).collect();
    let enable = vec![csr(Op::Csrrsi, ZERO, MSTATUS, 0x8)];
    let tail: Vec<Inst> = (0..200).map(|_| i(Op::Addi, S1, S1, 1)).collect();
    (cat(&[pre, body, enable, tail, exit_code(1)]), body_pc)
}

fn run(ticks: u32, masked: usize, watch: bool) -> (Vec<Event>, u64, u64) {
    let (prog, _) = program(ticks, masked);
    let mut config = MachineConfig::new(Profile::default_mcu());
    config.record_events = true;
    config.watch_timer_pending = watch;
    let mut m = Machine::new(config);
    load(&mut m, RAM, &prog);
    load(&mut m, HANDLER, &exit_ok());
    m.set_pc(RAM);
    run_to_exit(&mut m, 0);
    let st = m.stats();
    (m.events().to_vec(), st.cycles, st.instructions)
}

fn pending(events: &[Event]) -> Vec<(&Event, u64, bool, bool)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::TimerPending {
                since,
                masked,
                in_trap,
            } => Some((e, since, masked, in_trap)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_masked_rise_is_recorded_where_it_happened_before_its_trap() {
    let (_, body_pc) = program(8, 200);
    let (events, _, _) = run(8, 200, true);
    let seen = pending(&events);
    assert_eq!(seen.len(), 1, "{events:?}");
    let (event, since, masked, in_trap) = seen[0];
    assert!(masked && !in_trap);
    assert!(event.cycle >= since, "recorded at or after the rise");
    let alu = u64::from(Profile::default_mcu().cycles().alu);
    assert!(event.cycle - since < alu, "at the first boundary after it");
    assert!(
        (body_pc..body_pc + 4 * 200).contains(&event.pc),
        "inside the masked body: {:#x}",
        event.pc
    );
    let trap = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Trap { cause, .. } if cause == 0x8000_0007))
        .expect("the timer trap");
    let at = events.iter().position(|e| std::ptr::eq(e, event)).unwrap();
    assert!(at < trap, "the pending event comes first");
    assert!(
        events[trap].pc >= body_pc + 4 * 200,
        "taken after the unmask"
    );
}

#[test]
fn an_unmasked_rise_is_recorded_unmasked_at_the_trap_pc() {
    // The deadline falls in the tail, after interrupts are enabled.
    let (events, _, _) = run(8, 10, true);
    let seen = pending(&events);
    assert_eq!(seen.len(), 1, "{events:?}");
    let (event, _, masked, _) = seen[0];
    assert!(!masked);
    let trap = events
        .iter()
        .find(|e| matches!(e.kind, EventKind::Trap { .. }))
        .unwrap();
    assert_eq!(trap.pc, event.pc, "taken where it rose");
}

#[test]
fn the_watch_changes_nothing_else() {
    for (ticks, masked) in [(8, 200), (8, 10), (5, 60), (12, 150)] {
        let (with, c1, i1) = run(ticks, masked, true);
        let (without, c2, i2) = run(ticks, masked, false);
        assert_eq!((c1, i1), (c2, i2), "ticks {ticks}");
        let others: Vec<&Event> = with
            .iter()
            .filter(|e| !matches!(e.kind, EventKind::TimerPending { .. }))
            .collect();
        assert_eq!(others, without.iter().collect::<Vec<_>>(), "ticks {ticks}");
        assert!(pending(&without).is_empty());
    }
}
