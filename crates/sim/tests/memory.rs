//! AMOs and LR/SC, devices (UART, finisher), self-modifying code, step/breakpoints and
//! determinism.

use crate::common::*;
use cactus_isa::{encode, Inst, Op};
use cactus_sim::{FaultKind, RunOutcome};

const DATA: u32 = RAM + 0x1000;

fn amo_result(op: Op, old: u32, src: u32) -> (u32, u32) {
    let m = exec(&cat(&[
        li(S0, DATA),
        li(T0, old),
        li(A1, src),
        vec![
            s(Op::Sw, T0, S0, 0),
            amo(op, A0, S0, A1),
            i(Op::Lw, A2, S0, 0),
            sys(Op::Ebreak),
        ],
    ]));
    (m.reg(A0 as usize), m.reg(A2 as usize))
}

#[test]
fn amo_operations() {
    assert_eq!(amo_result(Op::AmoswapW, 5, 9), (5, 9));
    assert_eq!(amo_result(Op::AmoaddW, 5, 9), (5, 14));
    assert_eq!(amo_result(Op::AmoxorW, 0b1100, 0b1010), (0b1100, 0b0110));
    assert_eq!(amo_result(Op::AmoandW, 0b1100, 0b1010), (0b1100, 0b1000));
    assert_eq!(amo_result(Op::AmoorW, 0b1100, 0b1010), (0b1100, 0b1110));
    assert_eq!(
        amo_result(Op::AmominW, 0xFFFF_FFFF, 1),
        (0xFFFF_FFFF, 0xFFFF_FFFF)
    );
    assert_eq!(amo_result(Op::AmomaxW, 0xFFFF_FFFF, 1), (0xFFFF_FFFF, 1));
    assert_eq!(amo_result(Op::AmominuW, 0xFFFF_FFFF, 1), (0xFFFF_FFFF, 1));
    assert_eq!(
        amo_result(Op::AmomaxuW, 0xFFFF_FFFF, 1),
        (0xFFFF_FFFF, 0xFFFF_FFFF)
    );
}

#[test]
fn misaligned_amo_and_lr_trap() {
    let mut m = machine(&cat(&[
        li(S0, DATA + 2),
        vec![amo(Op::AmoaddW, A0, S0, A1)],
    ]));
    match m.run() {
        RunOutcome::Fault(f) => assert_eq!((f.cause, f.tval), (6, DATA + 2)),
        other => panic!("{other:?}"),
    }
    let mut m = machine(&cat(&[li(S0, DATA + 2), vec![amo(Op::LrW, A0, S0, ZERO)]]));
    match m.run() {
        RunOutcome::Fault(f) => assert_eq!((f.cause, f.tval), (4, DATA + 2)),
        other => panic!("{other:?}"),
    }
    // AMO to the trace device (lw/sw only) or unmapped memory: store/AMO access fault.
    for addr in [0x0E00_0010, 0x4000_0000] {
        let mut m = machine(&cat(&[li(S0, addr), vec![amo(Op::AmoaddW, A0, S0, A1)]]));
        match m.run() {
            RunOutcome::Fault(f) => assert_eq!((f.cause, f.tval), (7, addr)),
            other => panic!("{other:?}"),
        }
    }
    // LR there: load access fault.
    let mut m = machine(&cat(&[
        li(S0, 0x0E00_0010),
        vec![amo(Op::LrW, A0, S0, ZERO)],
    ]));
    match m.run() {
        RunOutcome::Fault(f) => assert_eq!(f.cause, 5),
        other => panic!("{other:?}"),
    }
}

#[test]
fn amo_on_a_device_register_reads_then_writes_it() {
    // amoadd on CLINT mtimecmp (QEMU performs AMOs on MMIO too).
    let m = exec(&cat(&[
        li(S0, 0x0200_4000),
        li(A1, 5),
        vec![
            s(Op::Sw, A1, S0, 0),
            amo(Op::AmoaddW, A0, S0, A1),
            i(Op::Lw, A2, S0, 0),
        ],
        vec![sys(Op::Ebreak)],
    ]));
    assert_eq!((m.reg(A0 as usize), m.reg(A2 as usize)), (5, 10));
}

#[test]
fn access_running_off_the_end_of_ram_reports_the_first_missing_byte() {
    let end = RAM + 0x0800_0000;
    let mut m = machine(&cat(&[li(S0, end), vec![i(Op::Lw, A0, S0, -2)]]));
    match m.run() {
        RunOutcome::Fault(f) => assert_eq!((f.cause, f.tval), (5, end), "like QEMU"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn lr_sc_reservation() {
    let m = exec(&cat(&[
        li(S0, DATA),
        li(A1, 42),
        vec![
            // Successful pair.
            amo(Op::LrW, A0, S0, ZERO),
            amo(Op::ScW, A2, S0, A1),
            // SC without reservation fails and does not write.
            amo(Op::ScW, A3, S0, ZERO),
            i(Op::Lw, A4, S0, 0),
            // A store to the reserved word breaks the reservation.
            amo(Op::LrW, A0, S0, ZERO),
            s(Op::Sw, ZERO, S0, 0),
            amo(Op::ScW, A5, S0, A1),
            // A store elsewhere on the same page does not.
            amo(Op::LrW, A0, S0, ZERO),
            s(Op::Sw, ZERO, S0, 8),
            amo(Op::ScW, S1, S0, A1),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A2 as usize), 0, "sc succeeded");
    assert_eq!(m.reg(A3 as usize), 1, "sc without reservation fails");
    assert_eq!(m.reg(A4 as usize), 42);
    assert_eq!(
        m.reg(A5 as usize),
        1,
        "store to the word cleared the reservation"
    );
    assert_eq!(m.reg(S1 as usize), 0);
}

#[test]
fn trap_clears_reservation() {
    let mut m = machine(&cat(&[
        set_mtvec(HANDLER),
        li(S0, DATA),
        vec![
            amo(Op::LrW, A0, S0, ZERO),
            sys(Op::Ecall),
            amo(Op::ScW, A2, S0, S0),
        ],
        exit_ok(),
    ]));
    load(
        &mut m,
        HANDLER,
        &[
            csr(Op::Csrrs, T1, 0x341, ZERO),
            i(Op::Addi, T1, T1, 4),
            csr(Op::Csrrw, ZERO, 0x341, T1),
            sys(Op::Mret),
        ],
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A2 as usize), 1);
}

fn uart_putc(c: u8) -> Vec<Inst> {
    cat(&[li(T1, u32::from(c)), vec![s(Op::Sb, T1, T2, 0)]])
}

#[test]
fn uart_output_and_lsr() {
    let mut m = machine(&cat(&[
        li(T2, 0x1000_0000),
        uart_putc(b'h'),
        uart_putc(b'i'),
        // DLAB set: writes to offset 0 set the divisor, they are not output.
        li(T1, 0x80),
        vec![
            s(Op::Sb, T1, T2, 3),
            s(Op::Sb, T1, T2, 0),
            s(Op::Sb, ZERO, T2, 3),
        ],
        uart_putc(b'\n'),
        vec![i(Op::Lbu, A0, T2, 5)],
        exit_code(3),
    ]));
    run_to_exit(&mut m, 3);
    assert_eq!(m.take_uart_output(), b"hi\n");
    assert_eq!(m.reg(A0 as usize), 0x60);
    assert_eq!(
        m.stats().device_accesses,
        8,
        "7 UART accesses and the finisher"
    );
}

#[test]
fn uart_sink_receives_output() {
    use std::sync::{Arc, Mutex};
    #[derive(Clone)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Shared(Arc::new(Mutex::new(Vec::new())));
    let mut m = machine(&cat(&[li(T2, 0x1000_0000), uart_putc(b'x'), exit_ok()]));
    m.set_uart_sink(Box::new(sink.clone()));
    run_to_exit(&mut m, 0);
    assert_eq!(*sink.0.lock().unwrap(), b"x");
    assert!(m.take_uart_output().is_empty());
}

#[test]
fn finisher_reset_is_reported() {
    let mut m = machine(&cat(&[
        li(T0, 0x0010_0000),
        li(T1, 0x7777),
        vec![s(Op::Sw, T1, T0, 0)],
    ]));
    match m.run() {
        RunOutcome::Fault(f) => assert_eq!(f.kind, FaultKind::Reset),
        other => panic!("{other:?}"),
    }
}

#[test]
fn self_modifying_code_is_seen() {
    // Calls PATCH (`addi a0, a0, 1`), overwrites it with `addi a0, a0, 100`, fence.i, calls
    // it again.
    let patch = RAM + 0x100;
    let new_word = encode(&i(Op::Addi, A0, A0, 100)).unwrap();
    let mut m = machine(&cat(&[
        li(S0, patch),
        li(S1, new_word),
        vec![
            Inst::new(Op::Jal, RA, 0, 0, 0x100 - 16),
            s(Op::Sw, S1, S0, 0),
            sys(Op::FenceI),
            Inst::new(Op::Jal, RA, 0, 0, 0x100 - 28),
            sys(Op::Ebreak),
        ],
    ]));
    load(
        &mut m,
        patch,
        &[i(Op::Addi, A0, A0, 1), i(Op::Jalr, ZERO, RA, 0)],
    );
    run_to_ebreak(&mut m);
    assert_eq!(
        m.reg(A0 as usize),
        101,
        "the patched instruction ran the second time"
    );
    let fence = m
        .stats()
        .classes
        .iter()
        .find(|c| c.class == "fence")
        .unwrap()
        .count;
    assert_eq!(fence, 1);
}

#[test]
fn store_to_code_without_fence_is_still_seen() {
    // Patch the very next instruction in the same block: the store ends the block.
    let target = RAM + 0x20;
    let new_word = encode(&i(Op::Addi, A0, ZERO, 7)).unwrap();
    let prog = cat(&[li(S0, target), li(S1, new_word)]);
    assert_eq!(prog.len(), 4);
    let mut m = machine(&cat(&[
        prog,
        vec![
            i(Op::Addi, ZERO, ZERO, 0),
            i(Op::Addi, ZERO, ZERO, 0),
            i(Op::Addi, ZERO, ZERO, 0),
            s(Op::Sw, S1, S0, 0),
            i(Op::Addi, A0, ZERO, 1), // at RAM + 0x20: replaced by addi a0, x0, 7
            sys(Op::Ebreak),
        ],
    ]));
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), 7);
}

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

#[test]
fn runs_are_deterministic() {
    let a = exec(&counting_loop()).stats();
    let b = exec(&counting_loop()).stats();
    assert_eq!(a, b);
    assert_eq!(a.instructions, 2 + 5 * 1000);
    let p = cactus_sim::Profile::default_mcu();
    let c = p.cycles();
    let expect =
        2 * c.alu + 1000 * (2 * c.alu + c.mul + c.div) + 999 * c.branch_taken + c.branch_not_taken;
    assert_eq!(a.cycles, u64::from(expect));
    assert!(a.energy_nj > 0.0);
}

#[test]
fn step_and_breakpoints() {
    let prog = counting_loop();
    let mut m = machine(&prog);
    for _ in 0..3 {
        assert_eq!(m.step(), None);
    }
    assert_eq!(m.pc(), RAM + 12);
    assert_eq!(m.stats().instructions, 3);
    let bp = RAM + 16; // the div
    m.add_breakpoint(bp);
    assert_eq!(m.run(), RunOutcome::Breakpoint { pc: bp });
    let a0_first = m.reg(A0 as usize);
    // Continuing from the breakpoint executes it and stops at the next iteration.
    assert_eq!(m.run(), RunOutcome::Breakpoint { pc: bp });
    assert_eq!(m.reg(A0 as usize), a0_first + 3);
    m.remove_breakpoint(bp);
    run_to_ebreak(&mut m);
    // Stepping and breakpoints do not change the totals.
    assert_eq!(m.stats(), exec(&prog).stats());
}

#[test]
fn debug_access_errors_name_the_address() {
    let m = machine(&[]);
    let mut buf = [0u8; 8];
    let err = m.read_debug(RAM - 4, &mut buf).unwrap_err();
    assert_eq!(err.addr, RAM - 4);
    assert!(
        m.read_debug(0x1000_0000, &mut buf[..1]).is_err(),
        "devices are not debug memory"
    );
    assert_eq!(m.reg(0), 0);
}

#[test]
fn set_reg_ignores_x0() {
    let mut m = machine(&[]);
    m.set_reg(0, 5);
    m.set_reg(7, 9);
    assert_eq!((m.reg(0), m.reg(7)), (0, 9));
}
