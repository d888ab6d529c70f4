//! Interrupts from devices other than the timer, taken at instruction granularity: a CLINT
//! msip write is taken before the next instruction; a UART input byte (PLIC source 10) is
//! taken at the first instruction boundary at or after its arrival cycle, also while the hart
//! sleeps in `wfi`; the handler's claim, RBR read and complete see QEMU's registers; input
//! waits for the guest instead of overrunning; and `wfi` with nothing that can wake it is a
//! deadlock.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{
    CostClass, EventKind, FaultKind, Machine, MachineConfig, Profile, RunOutcome, PLIC_BASE,
    UART_BASE,
};

const MIP_MEIP: u32 = 1 << 11;
const CAUSE_MEI: u32 = 0x8000_000B;

/// A spin loop: `s1 += 1; j .-4`.
fn spin() -> Vec<Inst> {
    vec![i(Op::Addi, S1, S1, 1), Inst::new(Op::Jal, ZERO, 0, 0, -4)]
}

/// PLIC source 10 at priority 1, enabled for context 0; UART IER = received data; MEIE.
fn enable_uart_rx() -> Vec<Inst> {
    cat(&[
        li(A0, PLIC_BASE),
        vec![i(Op::Addi, A1, ZERO, 1), s(Op::Sw, A1, A0, 40)],
        li(A0, PLIC_BASE + 0x2000),
        vec![i(Op::Addi, A1, ZERO, 1 << 10), s(Op::Sw, A1, A0, 0)],
        li(A0, UART_BASE),
        vec![i(Op::Addi, A1, ZERO, 1), s(Op::Sb, A1, A0, 1)],
        li(T1, MIP_MEIP),
        vec![csrw(MIE, T1)],
    ])
}

/// The handler: a3 = mcause, a4 = mepc, a5 = claim, a2 = RBR, a6 = LSR after the read,
/// complete; then exit 0.
fn rx_handler() -> Vec<Inst> {
    cat(&[
        vec![csrr(A3, MCAUSE), csrr(A4, MEPC)],
        li(A0, PLIC_BASE + 0x20_0004),
        vec![i(Op::Lw, A5, A0, 0)],
        li(A1, UART_BASE),
        vec![
            i(Op::Lbu, A2, A1, 0),
            i(Op::Lbu, 16, A1, 5),
            s(Op::Sw, A5, A0, 0),
        ],
        exit_ok(),
    ])
}

fn machine_with_input(prog: &[Inst], input: &[u8], rate: u64) -> Machine {
    let mut config = MachineConfig::new(Profile::default_mcu());
    config.record_events = true;
    config.uart_input = input.to_vec();
    config.uart_input_rate = Some(rate);
    // A missed arrival would leave the guest spinning: end such a run as a failure.
    config.max_cycles = Some(10_000_000);
    let mut m = Machine::new(config);
    load(&mut m, RAM, prog);
    load(&mut m, HANDLER, &rx_handler());
    m.set_pc(RAM);
    m
}

/// The cycle before trap entry of the first external interrupt taken.
fn mei_cycle(m: &Machine) -> u64 {
    let entry = u64::from(Profile::default_mcu().cycles().get(CostClass::TrapEntry));
    m.events()
        .iter()
        .find(|e| matches!(e.kind, EventKind::Trap { cause, .. } if cause == CAUSE_MEI))
        .map(|e| e.cycle - entry)
        .expect("an external interrupt was taken")
}

#[test]
fn msip_is_taken_before_the_next_instruction() {
    let pre = cat(&[
        set_mtvec(HANDLER),
        li(T1, 0x8),
        vec![csrw(MIE, T1), csr(Op::Csrrsi, ZERO, MSTATUS, 0x8)],
        li(A0, 0x0200_0000),
        vec![i(Op::Addi, A1, ZERO, 1)],
    ]);
    let store_pc = RAM + 4 * pre.len() as u32;
    let prog = cat(&[
        pre,
        vec![s(Op::Sw, A1, A0, 0)],
        vec![i(Op::Addi, S0, S0, 1), i(Op::Addi, S0, S0, 1)],
        spin(),
    ]);
    let mut m = machine(&prog);
    load(
        &mut m,
        HANDLER,
        &cat(&[vec![csrr(A3, MCAUSE), csrr(A4, MEPC)], exit_ok()]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A3 as usize), 0x8000_0003);
    assert_eq!(
        m.reg(A4 as usize),
        store_pc + 4,
        "mepc = the instruction after the store"
    );
    assert_eq!(m.reg(S0 as usize), 0, "nothing after the store retired");
}

#[test]
fn uart_byte_interrupts_at_its_arrival_cycle() {
    let prog = cat(&[
        set_mtvec(HANDLER),
        enable_uart_rx(),
        vec![csr(Op::Csrrsi, ZERO, MSTATUS, 0x8)],
        spin(),
    ]);
    let mut m = machine_with_input(&prog, b"Z", 5_000);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A3 as usize), CAUSE_MEI);
    assert_eq!(m.reg(A5 as usize), 10, "claim returns the UART's source");
    assert_eq!(m.reg(A2 as usize), u32::from(b'Z'));
    assert_eq!(m.reg(16) & 1, 0, "LSR.DR clear after the read");
    assert!(m.reg(S1 as usize) > 100, "the loop ran until the byte came");
    let at = mei_cycle(&m);
    // Taken at the first boundary at or after cycle 5000: within one loop iteration.
    assert!((5_000..5_000 + 10).contains(&at), "taken at cycle {at}");
    let st = m.stats();
    assert_eq!(
        (st.interrupts, st.plic_claims, st.uart_input_left),
        (1, 1, 0)
    );
    assert_eq!(st.traps_by_cause.get(&CAUSE_MEI), Some(&1));
}

#[test]
fn wfi_sleeps_until_the_byte_arrives() {
    let prog = cat(&[
        set_mtvec(HANDLER),
        enable_uart_rx(),
        vec![csr(Op::Csrrsi, ZERO, MSTATUS, 0x8), sys(Op::Wfi)],
        exit_code(7),
    ]);
    let mut m = machine_with_input(&prog, b"w", 20_000);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A2 as usize), u32::from(b'w'));
    assert_eq!(mei_cycle(&m), 20_000, "woken exactly at the arrival");
    assert!(m.stats().sleep_cycles > 19_000);
}

#[test]
fn wfi_without_a_wake_up_source_is_a_deadlock() {
    // MEIE set but the UART has no input: nothing can ever wake the hart.
    let prog = cat(&[enable_uart_rx(), vec![sys(Op::Wfi)], exit_code(7)]);
    let mut m = machine_with_input(&prog, b"", 100);
    match m.run() {
        RunOutcome::Fault(f) if f.kind == FaultKind::Deadlock => {}
        other => panic!("expected a deadlock, got {other:?}"),
    }
}

#[test]
fn input_waits_for_the_guest_and_is_never_lost() {
    // No interrupts: the guest spins 2000 iterations (input due every 10 cycles piles up),
    // then polls LSR.DR and stores every byte; all five arrive, in order.
    let buf = RAM + 0x1000;
    let prog = cat(&[
        li(T0, 2_000),
        vec![i(Op::Addi, T0, T0, -1), b(Op::Bne, T0, ZERO, -4)],
        li(A0, UART_BASE),
        li(A1, buf),
        li(A3, buf + 5),
        // poll: lbu t1, 5(a0); andi t1, t1, 1; beqz t1, poll
        vec![
            i(Op::Lbu, T1, A0, 5),
            i(Op::Andi, T1, T1, 1),
            b(Op::Beq, T1, ZERO, -8),
            i(Op::Lbu, T2, A0, 0),
            s(Op::Sb, T2, A1, 0),
            i(Op::Addi, A1, A1, 1),
            b(Op::Bne, A1, A3, -24),
        ],
        exit_ok(),
    ]);
    let mut m = machine_with_input(&prog, b"12345", 10);
    run_to_exit(&mut m, 0);
    let mut got = [0u8; 5];
    m.read_debug(buf, &mut got).unwrap();
    assert_eq!(&got, b"12345");
    assert_eq!(m.stats().uart_input_left, 0);
}
