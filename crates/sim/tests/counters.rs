//! Counter CSRs against the privileged spec (not against QEMU 7.2, which gets the first two
//! wrong): a write replaces the writing instruction's increment, a write to either RV32 half
//! is a write to the whole 64-bit counter, `mcountinhibit` stops `mcycle`/`minstret`, the
//! user aliases read the same counters, and counters wrap from all-ones.

use crate::common::*;
use cactus_isa::Op;

const MCOUNTINHIBIT: u16 = 0x320;
const MCYCLEH: u16 = 0xB80;
const MINSTRETH: u16 = 0xB82;

fn csr_cycles() -> u32 {
    cactus_sim::Profile::default_mcu().cycles().csr
}

#[test]
fn minstret_low_then_high_write_keeps_the_low_half() {
    // The example: csrw minstret, t0; csrw minstreth, zero; the next read is t0.
    let m = exec(&cat(&[
        li(T0, 1000),
        vec![
            csrw(MINSTRET, T0),
            csrw(MINSTRETH, ZERO),
            csrr(A0, MINSTRET),
            csrr(A1, MINSTRETH),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 1000);
    assert_eq!(m.reg(A1 as usize), 0);
}

#[test]
fn mcycle_low_then_high_write_keeps_the_low_half() {
    let m = exec(&cat(&[
        li(T0, 5000),
        vec![
            csrw(MCYCLE, T0),
            csrw(MCYCLEH, ZERO),
            csrr(A0, MCYCLE),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 5000);
}

#[test]
fn high_half_write_does_not_carry_into_the_counter() {
    // minstret = 0xffff_ffff; a write of minstreth = 3 keeps that low half (the old code
    // applied the writer's increment first, wrapping the low half to 0).
    let m = exec(&cat(&[
        li(T0, u32::MAX),
        li(T1, 3),
        vec![
            csrw(MINSTRET, T0),
            csrw(MINSTRETH, T1),
            csrr(A0, MINSTRET),  // reads (3 << 32) | 0xffff_ffff
            csrr(A1, MINSTRETH), // one instruction later: 4 << 32
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), u32::MAX);
    assert_eq!(m.reg(A1 as usize), 4);
}

#[test]
fn counters_wrap_from_all_ones() {
    let m = exec(&cat(&[
        li(T0, u32::MAX),
        vec![
            csrw(MINSTRET, T0),
            csrw(MINSTRETH, T0),
            csrr(A0, MINSTRET),  // 2^64 - 1
            csrr(A1, MINSTRETH), // wrapped: 0
            csrr(A2, MINSTRET),  // 1
            csrw(MCYCLE, T0),
            csrw(MCYCLEH, T0),
            csrr(A3, MCYCLE),  // 2^64 - 1
            csrr(A4, MCYCLEH), // wrapped: 0
            csrr(A5, MCYCLE),  // two CSR instructions after all-ones
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), u32::MAX);
    assert_eq!(m.reg(A1 as usize), 0);
    assert_eq!(m.reg(A2 as usize), 1);
    assert_eq!(m.reg(A3 as usize), u32::MAX);
    assert_eq!(m.reg(A4 as usize), 0);
    assert_eq!(m.reg(A5 as usize), 2 * csr_cycles() - 1);
}

#[test]
fn a_write_is_what_the_next_instruction_reads() {
    let m = exec(&cat(&[
        li(T0, 77),
        vec![
            csrw(MINSTRET, T0),
            csrr(A0, MINSTRET),
            csrw(MCYCLEH, T0),
            csrr(A1, MCYCLEH),
            // csrrw reads the old value and writes in one instruction.
            csr(Op::Csrrw, A2, MINSTRET, ZERO),
            csrr(A3, MINSTRET),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 77);
    assert_eq!(m.reg(A1 as usize), 77);
    assert_eq!(
        m.reg(A2 as usize),
        80,
        "77 + the three instructions after the write"
    );
    assert_eq!(m.reg(A3 as usize), 0);
}

#[test]
fn mcountinhibit_ir_stops_minstret() {
    let m = exec(&[
        csrw(MINSTRET, ZERO),                        // minstret = 0 after it
        csr(Op::Csrrsi, ZERO, MCOUNTINHIBIT, 0b100), // counts (takes effect after): 1
        i(Op::Addi, S1, S1, 1),
        i(Op::Addi, S1, S1, 1),
        csrr(A0, MINSTRET),                          // 1
        csr(Op::Csrrci, ZERO, MCOUNTINHIBIT, 0b100), // still inhibited: does not count
        csrr(A1, MINSTRET),                          // 1
        csrr(A2, MINSTRET),                          // 2
        sys(Op::Ebreak),
    ]);
    assert_eq!(m.reg(A0 as usize), 1);
    assert_eq!(m.reg(A1 as usize), 1);
    assert_eq!(m.reg(A2 as usize), 2);
    assert_eq!(m.csr(MCOUNTINHIBIT), Some(0));
}

#[test]
fn mcountinhibit_cy_stops_mcycle_but_not_time() {
    let cc = csr_cycles();
    let m = exec(&cat(&[
        vec![
            csrw(MCYCLE, ZERO),                        // mcycle = 0 after it
            csr(Op::Csrrsi, ZERO, MCOUNTINHIBIT, 0b1), // counts: csr
            csrr(S0, 0xC01),                           // time
        ],
        // A loop of 2000 iterations: mtime advances, mcycle does not.
        li(T1, 2000),
        vec![
            i(Op::Addi, T1, T1, -1),
            b(Op::Bne, T1, ZERO, -4),
            csrr(S1, 0xC01),
            csrr(A0, MCYCLE),                          // csr
            csr(Op::Csrrci, ZERO, MCOUNTINHIBIT, 0b1), // does not count
            csrr(A1, MCYCLE),                          // csr
            csrr(A2, MCYCLE),                          // 2 csr
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), cc);
    assert_eq!(m.reg(A1 as usize), cc);
    assert_eq!(m.reg(A2 as usize), 2 * cc);
    assert!(
        m.reg(S1 as usize) > m.reg(S0 as usize) + 100,
        "time kept counting"
    );
}

#[test]
fn writes_while_inhibited_stick() {
    let m = exec(&cat(&[
        li(T0, 42),
        vec![
            csr(Op::Csrrsi, ZERO, MCOUNTINHIBIT, 0b101),
            csrw(MINSTRET, T0),
            csrw(MCYCLE, T0),
            i(Op::Addi, S1, S1, 1),
            csrr(A0, MINSTRET),
            csrr(A1, MCYCLE),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 42);
    assert_eq!(m.reg(A1 as usize), 42);
}

#[test]
fn user_aliases_read_the_machine_counters() {
    let user = RAM + 0x400;
    let mut m = machine(&cat(&[
        li(T0, HANDLER),
        vec![csrw(0x305, T0)],
        li(T1, 0b111),
        vec![csrw(0x306, T1), csrw(0x106, T1)],
        // minstreth = 0x12, mcycleh = 0x34, mtime high word = 5.
        li(T1, 0x12),
        vec![csrw(MINSTRETH, T1)],
        li(T1, 0x34),
        vec![csrw(MCYCLEH, T1)],
        li(T0, 0x0200_BFFC),
        li(T1, 5),
        vec![s(Op::Sw, T1, T0, 0)],
        li(T1, user),
        vec![csrw(MEPC, T1), sys(Op::Mret)],
    ]));
    load(
        &mut m,
        user,
        &[
            csrr(A0, 0xC00), // cycle
            csrr(A1, 0xC80), // cycleh
            csrr(A2, 0xC01), // time
            csrr(A3, 0xC81), // timeh
            csrr(A4, 0xC02), // instret
            csrr(A5, 0xC82), // instreth
            sys(Op::Ecall),
        ],
    );
    load(
        &mut m,
        HANDLER,
        &cat(&[vec![csrr(S0, MINSTRET), csrr(S1, MCYCLE)], exit_ok()]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A1 as usize), 0x34, "cycleh");
    assert_eq!(m.reg(A3 as usize), 5, "timeh");
    assert_eq!(m.reg(A5 as usize), 0x12, "instreth");
    // The handler's minstret read comes two retired instructions after the U-mode instret
    // read (that csrr and the next; the ecall does not retire).
    assert_eq!(m.reg(S0 as usize), m.reg(A4 as usize) + 2);
    assert!(m.reg(S1 as usize) > m.reg(A0 as usize));
    // Writes to the user aliases are illegal even in M-mode (read-only CSRs).
    let mut m = machine_with(
        cactus_sim::Profile::default_mcu(),
        &[csrw(0xC02, ZERO), sys(Op::Ebreak)],
    );
    match m.run() {
        cactus_sim::RunOutcome::Fault(f) => assert_eq!(f.cause, 2, "illegal instruction"),
        other => panic!("{other:?}"),
    }
}
