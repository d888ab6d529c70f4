//! Fused instruction pairs (one hot-loop dispatch for two instructions): each pair computes
//! what its two instructions do one by one, whether a run executes it whole or cuts it in
//! two (single steps), and a trap in its second half is precise.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{FaultKind, Machine, RunOutcome};

/// Every fused pair, the second half reading the first half's result, in a loop that runs
/// three times (a3 counts down), then ebreak.
fn pairs_program() -> Vec<Inst> {
    let data = RAM + 0x400;
    cat(&[
        li(A3, 3),
        li(S0, data),
        li(A1, 5),
        li(A2, 0x1234),
        vec![
            // loop:
            r(Op::Mul, A4, A1, A2),
            r(Op::Add, A5, A4, A1), // mul + add
            s(Op::Sw, A5, S0, 0),
            s(Op::Sw, A4, S0, 4),
            i(Op::Lw, T0, S0, 0),
            i(Op::Lw, T1, S0, 4), // lw + lw
            i(Op::Addi, T2, S0, 4),
            i(Op::Lw, A0, T2, 0), // addi + lw
            i(Op::Addi, A1, A1, 1),
            i(Op::Addi, A1, A1, 2), // addi + addi
            i(Op::Slli, T2, A1, 3),
            r(Op::Add, A2, T2, A2), // slli + add
            r(Op::Xor, T2, T0, T1),
            b(Op::Bne, T2, ZERO, 8), // xor + bne (taken: skips the next instruction)
            i(Op::Addi, S1, S1, 100),
            r(Op::Add, T2, A1, A1),
            b(Op::Beq, T2, ZERO, 8), // add + beq (not taken)
            i(Op::Addi, S1, S1, 1),
            i(Op::Addi, T2, A3, -3),
            b(Op::Beq, T2, ZERO, 8), // addi + beq (taken once, in the first round)
            i(Op::Addi, S1, S1, 10),
            r(Op::Add, S1, S1, A0),
            i(Op::Addi, A3, A3, -1),
            b(Op::Bne, A3, ZERO, -23 * 4), // addi + bne: back to loop
            sys(Op::Ebreak),
        ],
    ])
}

/// Steps until an outcome (every fused pair is cut in two).
fn step_to_end(m: &mut Machine) -> RunOutcome {
    loop {
        if let Some(o) = m.step() {
            return o;
        }
    }
}

#[test]
fn fused_pairs_compute_what_their_instructions_do() {
    let run = exec(&pairs_program());
    let mut stepped = machine(&pairs_program());
    match step_to_end(&mut stepped) {
        RunOutcome::Fault(f) => assert_eq!(f.cause, 3),
        other => panic!("expected the final ebreak, got {other:?}"),
    }
    for r in 0..32 {
        assert_eq!(run.reg(r), stepped.reg(r), "x{r}");
    }
    assert_eq!(run.stats(), stepped.stats());
    // Worked by hand: a1 goes 5 -> 8 -> 11 -> 14; s1 gets 1 + a0 each round, plus 10 in
    // rounds 2 and 3.
    assert_eq!(run.reg(A1 as usize), 14);
    assert_eq!(run.reg(A3 as usize), 0);
    let mut a2 = 0x1234u32;
    let mut a1 = 5u32;
    let mut s1 = 0u32;
    for round in 0..3 {
        let a4 = a1.wrapping_mul(a2);
        a1 += 3;
        a2 = (a1 << 3).wrapping_add(a2);
        s1 = s1.wrapping_add(1).wrapping_add(a4);
        if round > 0 {
            s1 += 10;
        }
    }
    assert_eq!(run.reg(A2 as usize), a2);
    assert_eq!(run.reg(S1 as usize), s1);
}

#[test]
fn a_fault_in_the_second_half_of_a_pair_is_precise() {
    let prog = cat(&[
        li(S0, RAM + 0x400),
        li(S1, 0x4000_0000), // unmapped
        vec![
            i(Op::Lw, T0, S0, 0),
            i(Op::Lw, T1, S1, 0), // lw + lw: the second faults
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine(&prog);
    write_word(&mut m, RAM + 0x400, 77);
    let lw2 = RAM + 4 * (li(S0, RAM + 0x400).len() + li(S1, 0x4000_0000).len()) as u32 + 4;
    match m.run() {
        RunOutcome::Fault(f) => {
            assert_eq!(
                (f.kind, f.cause, f.pc, f.tval),
                (FaultKind::Unhandled, 5, lw2, 0x4000_0000)
            );
        }
        other => panic!("expected a load access fault, got {other:?}"),
    }
    assert_eq!(m.reg(T0 as usize), 77, "the first load retired");
    let mut stepped = machine(&prog);
    write_word(&mut stepped, RAM + 0x400, 77);
    step_to_end(&mut stepped);
    assert_eq!(m.stats(), stepped.stats());
}

#[test]
fn alu_pairs_compute_what_their_instructions_do() {
    let prog = cat(&[
        vec![
            Inst::new(Op::Lui, A1, 0, 0, 0x8765_4000u32 as i32),
            i(Op::Addi, A1, A1, 0x321), // lui + addi: a1 = 0x8765_4321
            i(Op::Andi, T0, A1, 1),
            r(Op::Sub, T0, ZERO, T0), // andi + sub: t0 = -(a1 & 1) = all ones
            i(Op::Srli, T1, A1, 4),
            r(Op::And, T1, T1, T0), // srli + and: t1 = a1 >> 4
            i(Op::Srli, T2, A1, 8),
            i(Op::Andi, T2, T2, 0xFF), // srli + andi: t2 = 0x43
            i(Op::Slli, A2, A1, 16),
            i(Op::Srli, A2, A2, 16), // slli + srli: a2 = 0x4321
            i(Op::Slli, A3, A1, 8),
            i(Op::Srai, A3, A3, 24), // slli + srai: a3 = sign-extended 0x65
            i(Op::Slli, A4, A1, 0),
            i(Op::Srai, A4, A4, 28), // slli + srai: a4 = sign-extended 0x8
        ],
        vec![sys(Op::Ebreak)],
    ]);
    let run = exec(&prog);
    let expect = [
        (A1, 0x8765_4321),
        (T0, u32::MAX),
        (T1, 0x0876_5432),
        (T2, 0x43),
        (A2, 0x4321),
        (A3, 0x65),
        (A4, 0xFFFF_FFF8),
    ];
    for (r, v) in expect {
        assert_eq!(run.reg(r as usize), v, "x{r}");
    }
    let mut stepped = machine(&prog);
    step_to_end(&mut stepped);
    assert_eq!(run.stats(), stepped.stats());
}

fn write_word(m: &mut Machine, addr: u32, v: u32) {
    m.write_debug(addr, &v.to_le_bytes()).expect("RAM");
}
