//! The switch-register extension (ccs-hw; docs/simulator-design.md, "Switch-register
//! extension"): its CSRs exist only with the extension; with a budget armed a pending timer
//! interrupt is taken before the first instruction inside a loaded range, with the range's
//! routine in `mswmatch`, or after the budget with 0 there; a budget of 0 defers nothing;
//! device interrupts are not deferred; a bad table is a trap with the record's address; and a
//! run, single steps and `run_for` slices agree.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{
    Machine, MachineConfig, Profile, RunOutcome, CAUSE_SWITCH_TABLE, MSWBUDGET, MSWCOUNT, MSWMATCH,
    MSWTAB,
};

const A6: u8 = 16;
const A7: u8 = 17;
const S2: u8 = 18;
/// Where the tests put the switch table.
const TABLE: u32 = RAM + 0x1000;
/// The routine word of the first record (any value: the hardware only reports it).
const ROUTINE: u32 = 0x8000_4440;

/// Loads `count` records from TABLE and sets the budget.
fn arm(count: u32, budget: u32) -> Vec<Inst> {
    cat(&[
        li(T0, TABLE),
        vec![csrw(MSWTAB, T0)],
        li(T0, count),
        vec![csrw(MSWCOUNT, T0)],
        li(T0, budget),
        vec![csrw(MSWBUDGET, T0)],
    ])
}

/// mtvec, mtimecmp = mtime + `ticks`, MTIE, MIE.
fn timer(ticks: u32) -> Vec<Inst> {
    cat(&[
        set_mtvec(HANDLER),
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
        li(T1, 0x80),
        vec![
            csr(Op::Csrrw, ZERO, MIE, T1),
            csr(Op::Csrrsi, ZERO, MSTATUS, 0x8),
        ],
    ])
}

/// The loop the timer interrupts: eight `addi`s and a jump back.
fn body() -> Vec<Inst> {
    let mut v: Vec<Inst> = (0..8)
        .map(|k| i(Op::Addi, A3 + (k % 3), A3 + (k % 3), 1))
        .collect();
    v.push(Inst::new(Op::Jal, ZERO, 0, 0, -32));
    v
}

/// The handler: a6 = mepc, a7 = mswmatch, s2 = mcause; exit 0.
fn handler() -> Vec<Inst> {
    cat(&[
        vec![csrr(A6, MEPC), csrr(A7, MSWMATCH), csrr(S2, MCAUSE)],
        exit_ok(),
    ])
}

/// A machine running arm + timer + the loop, with `records` at TABLE. Returns it and the
/// loop's first pc.
fn build(ext: bool, records: &[[u32; 4]], budget: u32, ticks: u32) -> (Machine, u32) {
    let pre = cat(&[arm(records.len() as u32, budget), timer(ticks)]);
    let loop_pc = RAM + 4 * pre.len() as u32;
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.switch_regs = ext;
    cfg.max_cycles = Some(1_000_000);
    let mut m = Machine::new(cfg);
    load(&mut m, RAM, &cat(&[pre, body()]));
    load(&mut m, HANDLER, &handler());
    let bytes: Vec<u8> = records
        .iter()
        .flat_map(|r| r.iter().flat_map(|w| w.to_le_bytes()))
        .collect();
    m.write_debug(TABLE, &bytes).unwrap();
    m.set_pc(RAM);
    (m, loop_pc)
}

/// The range of the loop's instructions `from..to` (indices) with ROUTINE.
fn range(loop_pc: u32, from: u32, to: u32) -> [u32; 4] {
    [loop_pc + 4 * from, loop_pc + 4 * to, ROUTINE, 0]
}

fn loop_pc() -> u32 {
    build(true, &[], 0, 1).1
}

#[test]
fn csrs_exist_only_with_the_extension() {
    assert!(MachineConfig::new(Profile::default_mcu()).switch_regs);
    assert_eq!(
        (MSWTAB, MSWCOUNT, MSWBUDGET, MSWMATCH),
        (0x7CB, 0x7CC, 0x7CD, 0xFC8)
    );
    for inst in [csrw(MSWTAB, T0), csrr(A0, MSWMATCH), csrw(MSWBUDGET, T0)] {
        let mut cfg = MachineConfig::new(Profile::default_mcu());
        cfg.switch_regs = false;
        let mut m = Machine::new(cfg);
        load(&mut m, RAM, &[inst]);
        m.set_pc(RAM);
        assert_eq!(m.csr(MSWTAB), None);
        assert_eq!(fault(m.run()).cause, 2, "an unimplemented CSR is illegal");
    }
    // mswmatch is read-only.
    let mut m = machine(&[csrw(MSWMATCH, T0)]);
    assert_eq!(fault(m.run()).cause, 2);
}

#[test]
fn a_pending_timer_waits_for_the_range_and_reports_its_routine() {
    let lp = loop_pc();
    // Without the extension's budget the interrupt lands somewhere in the loop; find a tick
    // count that lands outside instructions 5..6, the range.
    let (mut plain, _) = build(true, &[range(lp, 5, 6)], 0, 40);
    run_to_exit(&mut plain, 0);
    let undeferred = plain.reg(A6 as usize);
    assert_ne!(
        undeferred,
        lp + 20,
        "the test needs an interrupt outside the range"
    );
    assert_eq!(plain.reg(A7 as usize), 0, "outside every range: no match");
    let st = plain.stats().switch_regs.unwrap();
    assert_eq!((st.deferred, st.timer_interrupts, st.matched), (0, 1, 0));

    let (mut m, _) = build(true, &[range(lp, 5, 6)], 1000, 40);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(S2 as usize), 0x8000_0007);
    assert_eq!(
        m.reg(A6 as usize),
        lp + 20,
        "taken before the range's instruction"
    );
    assert_eq!(m.reg(A7 as usize), ROUTINE);
    let st = m.stats().switch_regs.unwrap();
    assert_eq!((st.records, st.budget), (1, 1000));
    assert_eq!((st.deferred, st.matched, st.budget_expiries), (1, 1, 0));
    assert!(
        st.worst_deferral_cycles > 0 && st.worst_deferral_cycles < 20,
        "{st:?}"
    );
    assert_eq!(st.avg_deferral_cycles(), st.worst_deferral_cycles as f64);
    assert_eq!(st.worst_matched_deferral_cycles, st.worst_deferral_cycles);
}

#[test]
fn the_budget_bounds_the_deferral_and_reports_no_match() {
    let lp = loop_pc();
    // A range the loop never reaches.
    let never = [HANDLER + 0x400, HANDLER + 0x404, ROUTINE, 0];
    for budget in [1u32, 7, 30] {
        let (mut m, _) = build(true, &[never], budget, 40);
        run_to_exit(&mut m, 0);
        assert_eq!(m.reg(A7 as usize), 0, "budget {budget}: no match");
        let pc = m.reg(A6 as usize);
        assert!((lp..lp + 36).contains(&pc), "budget {budget}: mepc {pc:#x}");
        let st = m.stats().switch_regs.unwrap();
        assert_eq!((st.deferred, st.budget_expiries, st.matched), (1, 1, 0));
        assert_eq!(
            st.worst_matched_deferral_cycles, 0,
            "no deferral ended in a range"
        );
        let w = st.worst_deferral_cycles;
        // Taken at the first boundary at or after the budget: at most one instruction (a
        // taken jump, the loop's longest) late.
        assert!(
            w >= u64::from(budget) && w < u64::from(budget) + 4,
            "budget {budget}: {w}"
        );
    }
}

#[test]
fn a_pc_already_in_a_range_is_taken_at_once() {
    let lp = loop_pc();
    let (mut plain, _) = build(true, &[], 0, 40);
    run_to_exit(&mut plain, 0);
    let at = plain.reg(A6 as usize);
    let k = (at - lp) / 4;
    let (mut m, _) = build(true, &[range(lp, k, k + 1)], 500, 40);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A6 as usize), at);
    assert_eq!(m.reg(A7 as usize), ROUTINE);
    let st = m.stats().switch_regs.unwrap();
    assert_eq!((st.deferred, st.matched), (0, 1));
    assert_eq!(m.stats().cycles, plain.stats().cycles, "nothing deferred");
}

#[test]
fn run_steps_and_slices_agree() {
    let lp = loop_pc();
    let records = [range(lp, 7, 8)];
    let (mut a, _) = build(true, &records, 200, 37);
    run_to_exit(&mut a, 0);
    let (mut b, _) = build(true, &records, 200, 37);
    let end = loop {
        if let Some(o) = b.step() {
            break o;
        }
    };
    assert_eq!(end, RunOutcome::Exited { code: 0 });
    let (mut c, _) = build(true, &records, 200, 37);
    let end = loop {
        if let Some(o) = c.run_for(3) {
            break o;
        }
    };
    assert_eq!(end, RunOutcome::Exited { code: 0 });
    for m in [&b, &c] {
        assert_eq!(m.stats().cycles, a.stats().cycles);
        assert_eq!(m.reg(A6 as usize), a.reg(A6 as usize));
        assert_eq!(m.stats().switch_regs, a.stats().switch_regs);
    }
}

#[test]
fn a_bad_table_is_a_trap_naming_the_record() {
    let lp = loop_pc();
    // Record 1 is empty (start == end), record 2 overlaps record 1.
    for (records, bad) in [
        (vec![range(lp, 0, 1), range(lp, 3, 3)], TABLE + 16),
        (vec![range(lp, 0, 4), range(lp, 3, 5)], TABLE + 16),
    ] {
        let (mut m, _) = build(true, &records, 10, 40);
        let f = fault(m.run());
        assert_eq!((f.cause, f.tval), (CAUSE_SWITCH_TABLE, bad));
        assert_eq!(f.cause_name, "switch table");
        assert_eq!(m.csr(MSWCOUNT), Some(0), "nothing loaded");
    }
    // A table outside memory.
    let prog = cat(&[
        li(T0, 0x4000_0000),
        vec![csrw(MSWTAB, T0)],
        li(T0, 2),
        vec![csrw(MSWCOUNT, T0)],
    ]);
    let mut m = machine(&prog);
    let f = fault(m.run());
    assert_eq!((f.cause, f.tval), (CAUSE_SWITCH_TABLE, 0x4000_0000));
    // More records than registers.
    let prog = cat(&[li(T0, u32::MAX), vec![csrw(MSWCOUNT, T0)]]);
    let mut m = machine(&prog);
    assert_eq!(fault(m.run()).cause, CAUSE_SWITCH_TABLE);
}

#[test]
fn a_software_interrupt_is_not_deferred() {
    // msip set with MSIE: taken at once, mswmatch 0, nothing deferred.
    let lp = loop_pc();
    let prog = cat(&[
        arm(1, 1000),
        set_mtvec(HANDLER),
        li(A0, 0x0200_0000),
        li(T1, 1),
        vec![s(Op::Sw, T1, A0, 0)],
        li(T1, 0x8),
        vec![
            csr(Op::Csrrw, ZERO, MIE, T1),
            csr(Op::Csrrsi, ZERO, MSTATUS, 0x8),
            i(Op::Addi, A3, A3, 1),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine(&prog);
    load(&mut m, HANDLER, &handler());
    let bytes: Vec<u8> = range(lp, 0, 1)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    m.write_debug(TABLE, &bytes).unwrap();
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(S2 as usize), 0x8000_0003);
    assert_eq!(m.reg(A7 as usize), 0);
    assert_eq!(m.stats().switch_regs.unwrap().deferred, 0);
}
