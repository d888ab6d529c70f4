//! `Machine::run_for`: bounded runs that stop after a number of instructions, honour
//! breakpoints, and together execute exactly what one `run` does.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{Machine, RunOutcome};

/// a0 += 3; a2 = a0 * a0; a3 = a2 / a1; a1 -= 1; loop while a1 != 0 (1000 times), ebreak.
fn counting_loop() -> Vec<Inst> {
    cat(&[
        li(A1, 1000),
        vec![
            i(Op::Addi, A0, A0, 3),
            r(Op::Mul, A2, A0, A0),
            r(Op::Div, A3, A2, A1),
            i(Op::Addi, A1, A1, -1),
            b(Op::Bne, A1, ZERO, -16),
            sys(Op::Ebreak),
        ],
    ])
}

/// A loop counting s1 up until a timer interrupt (armed for `ticks`) ends the run through a
/// handler that records mcause and exits with code 0.
fn timer_program(ticks: u32) -> Machine {
    let main = cat(&[
        set_mtvec(HANDLER),
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
        li(T1, 0x80),
        vec![
            csr(Op::Csrrw, ZERO, 0x304, T1),
            csr(Op::Csrrsi, ZERO, 0x300, 0x8),
            i(Op::Addi, S1, S1, 1),
            i(Op::Addi, S0, S1, 7),
            Inst::new(Op::Jal, ZERO, 0, 0, -8),
        ],
    ]);
    let handler = cat(&[vec![csr(Op::Csrrs, A3, 0x342, ZERO)], exit_ok()]);
    let mut m = machine(&main);
    load(&mut m, HANDLER, &handler);
    m
}

/// Runs in slices of `slice` instructions until an outcome; checks every slice that ended
/// with nothing to report retired exactly `slice` instructions (the programs here take no
/// trap before their last slice).
fn run_in_slices(m: &mut Machine, slice: u64) -> RunOutcome {
    loop {
        let before = m.stats().instructions;
        match m.run_for(slice) {
            None => assert_eq!(m.stats().instructions - before, slice),
            Some(outcome) => return outcome,
        }
    }
}

#[test]
fn slices_execute_exactly_what_one_run_does() {
    let whole = exec(&counting_loop());
    for slice in [1, 2, 3, 5, 7, 64, 95, 96, 97, 1000, 1 << 20] {
        let mut m = machine(&counting_loop());
        match run_in_slices(&mut m, slice) {
            RunOutcome::Fault(f) => assert_eq!(f.cause, 3, "slice {slice}"),
            other => panic!("slice {slice}: expected the final ebreak, got {other:?}"),
        }
        assert_eq!(m.stats(), whole.stats(), "slice {slice}");
        assert_eq!(m.reg(A0 as usize), whole.reg(A0 as usize));
    }
}

#[test]
fn a_used_up_budget_returns_none_mid_program() {
    let mut m = machine(&counting_loop());
    assert_eq!(m.run_for(0), None);
    assert_eq!(m.stats().instructions, 0);
    assert_eq!(m.run_for(1234), None);
    assert_eq!(m.stats().instructions, 1234);
    // li a1, 1000 is two instructions; then 5 per iteration: 1232 = 246 iterations + 2.
    assert_eq!(m.pc(), RAM + 8 + 2 * 4);
    assert_eq!(m.reg(A0 as usize), 3 * 247);
}

#[test]
fn interrupts_arrive_in_slices_as_in_one_run() {
    // Interrupts are taken at block boundaries, and the end of a slice is one, so in slices
    // an interrupt may arrive up to one block earlier than in one run.
    let mut whole = timer_program(40);
    run_to_exit(&mut whole, 0);
    let (n, s1) = (whole.stats().instructions, whole.reg(S1 as usize));
    for slice in [1, 3, 10, 100, 1 << 20] {
        let mut m = timer_program(40);
        assert_eq!(
            run_in_slices(&mut m, slice),
            RunOutcome::Exited { code: 0 },
            "slice {slice}"
        );
        let st = m.stats();
        assert_eq!((st.interrupts, m.reg(A3 as usize)), (1, 0x8000_0007));
        assert!(
            st.instructions <= n && st.instructions + 3 >= n,
            "slice {slice}"
        );
        assert!(m.reg(S1 as usize) + 1 >= s1, "slice {slice}");
        if slice == 1 << 20 {
            assert_eq!(st, whole.stats());
        }
    }
}

#[test]
fn breakpoints_stop_a_bounded_run_but_not_where_it_resumes() {
    let mut m = machine(&counting_loop());
    let bp = RAM + 16; // the div
    m.add_breakpoint(bp);
    assert_eq!(m.run_for(1 << 20), Some(RunOutcome::Breakpoint { pc: bp }));
    let a0_first = m.reg(A0 as usize);
    assert_eq!(m.run_for(1 << 20), Some(RunOutcome::Breakpoint { pc: bp }));
    assert_eq!(m.reg(A0 as usize), a0_first + 3);
    // A budget that ends before the breakpoint is reached again returns None.
    assert_eq!(m.run_for(2), None);
    assert_eq!(m.pc(), RAM + 24);
    m.remove_breakpoint(bp);
    assert!(matches!(m.run_for(u64::MAX), Some(RunOutcome::Fault(_))));
    assert_eq!(m.stats(), exec(&counting_loop()).stats());
}
