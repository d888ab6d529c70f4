//! Zicsr semantics, traps, mret, privilege modes, interrupts, wfi and counter exactness.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{FaultKind, Mode, RunOutcome, MISA};

const MHARTID: u16 = 0xF14;

fn machine_with_handler(main: &[Inst], handler: &[Inst]) -> cactus_sim::Machine {
    let mut m = machine(&cat(&[set_mtvec(HANDLER), main.to_vec()]));
    load(&mut m, HANDLER, handler);
    m
}

/// Handler that advances mepc by 4 and returns.
fn skip_handler() -> Vec<Inst> {
    vec![
        csrr(T1, MEPC),
        i(Op::Addi, T1, T1, 4),
        csrw(MEPC, T1),
        sys(Op::Mret),
    ]
}

#[test]
fn csr_read_write_set_clear() {
    let m = exec(&cat(&[
        li(A1, 0xF0F0),
        vec![
            csr(Op::Csrrw, A0, MSCRATCH, A1),    // a0 = 0, mscratch = f0f0
            csr(Op::Csrrsi, A2, MSCRATCH, 0x0F), // a2 = f0f0, mscratch = f0ff
            csr(Op::Csrrci, A3, MSCRATCH, 0x03), // a3 = f0ff, mscratch = f0fc
            csr(Op::Csrrc, A4, MSCRATCH, A1),    // a4 = f0fc, mscratch = 000c
            csr(Op::Csrrwi, A5, MSCRATCH, 7),    // a5 = 000c, mscratch = 7
            csrr(S1, MSCRATCH),
            csrr(T2, MHARTID), // read-only CSR read with rs1 = x0: no write
            csrr(S0, 0x301),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 0);
    assert_eq!(m.reg(A2 as usize), 0xF0F0);
    assert_eq!(m.reg(A3 as usize), 0xF0FF);
    assert_eq!(m.reg(A4 as usize), 0xF0FC);
    assert_eq!(m.reg(A5 as usize), 0x000C);
    assert_eq!(m.reg(S1 as usize), 7);
    assert_eq!(m.reg(T2 as usize), 0);
    assert_eq!(m.reg(S0 as usize), MISA);
    assert_eq!(MISA, 0x4010_1105);
    assert_eq!(m.csr(MSCRATCH), Some(7));
    assert_eq!(m.csr(0x7C0), None);
}

fn expect_fault(m: &mut cactus_sim::Machine) -> Box<cactus_sim::FaultReport> {
    match m.run() {
        RunOutcome::Fault(f) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

#[test]
fn illegal_csr_accesses() {
    // Unknown CSR.
    let unknown = csr(Op::Csrrs, A0, 0x7C0, ZERO);
    let mut m = machine(&[unknown]);
    let f = expect_fault(&mut m);
    assert_eq!(
        (f.cause, f.tval),
        (2, cactus_isa::encode(&unknown).unwrap())
    );
    // Write to a read-only CSR (csrrw with rd = x0 still writes).
    let mut m = machine(&[csrw(MHARTID, A0)]);
    assert_eq!(expect_fault(&mut m).cause, 2);
    // csrrs with a nonzero register writes even if the value is 0.
    let mut m = machine(&[csr(Op::Csrrs, A0, MHARTID, A1)]);
    assert_eq!(expect_fault(&mut m).cause, 2);
}

#[test]
fn ecall_trap_and_mret() {
    let mut m = machine_with_handler(
        &cat(&[
            li(A1, 0x8),
            vec![csr(Op::Csrrs, ZERO, MSTATUS, A1)], // MIE = 1
            vec![sys(Op::Ecall)],
            vec![csrr(S1, MSTATUS)],
            exit_ok(),
        ]),
        &cat(&[
            vec![
                csrr(A0, MCAUSE),
                csrr(A2, MTVAL),
                csrr(A3, MSTATUS),
                csrr(A4, MEPC),
            ],
            skip_handler(),
        ]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A0 as usize), 11, "ecall from M");
    assert_eq!(m.reg(A2 as usize), 0);
    let st = m.reg(A3 as usize);
    assert_eq!(st & 0x8, 0, "MIE cleared in the handler");
    assert_ne!(st & 0x80, 0, "MPIE = old MIE");
    assert_eq!((st >> 11) & 3, 3, "MPP = M");
    assert_eq!(m.reg(A4 as usize), RAM + 3 * 4 + 3 * 4, "mepc = the ecall");
    let after = m.reg(S1 as usize);
    assert_ne!(after & 0x8, 0, "mret restores MIE");
    assert_ne!(after & 0x80, 0, "mret sets MPIE");
    assert_eq!((after >> 11) & 3, 0, "mret sets MPP to U");
    assert_eq!(m.stats().traps_by_cause.get(&11), Some(&1));
}

#[test]
fn user_mode_ecall_and_privileged_csr() {
    // main: mepc = user; MPP = 0; mret -> user: csrr mscratch (illegal) ; ecall ; ...
    let user = RAM + 0x400;
    let mut m = machine_with_handler(
        &cat(&[li(T1, user), vec![csrw(MEPC, T1), sys(Op::Mret)]]),
        &cat(&[
            vec![csrr(A0, MCAUSE), csrr(A1, MSTATUS), i(Op::Addi, S1, S1, 1)],
            // count traps in s1; second trap (ecall) exits with a0 = cause
            vec![i(Op::Addi, T2, ZERO, 2), b(Op::Beq, S1, T2, 24)],
            vec![csrr(A2, MTVAL)],
            skip_handler(),
            exit_ok(),
        ]),
    );
    load(
        &mut m,
        user,
        &[i(Op::Addi, A5, A5, 1), csrr(A3, MSCRATCH), sys(Op::Ecall)],
    );
    // The `beq` in the handler jumps over csrr mtval and the 4-instruction skip handler.
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A0 as usize), 8, "second trap: ecall from U");
    assert_eq!(
        m.reg(A2 as usize),
        cactus_isa::encode(&csrr(A3, MSCRATCH)).unwrap()
    );
    assert_eq!((m.reg(A1 as usize) >> 11) & 3, 0, "MPP = U");
    assert_eq!(m.mode(), Mode::Machine);
    let st = m.stats();
    assert_eq!(
        st.user_mode.instructions, 1,
        "only the addi retires in U-mode"
    );
    assert!(st.user_mode.cycles >= 1);
    assert_eq!(st.traps_by_cause.get(&2), Some(&1));
    assert_eq!(st.traps_by_cause.get(&8), Some(&1));
}

#[test]
fn user_counter_access_needs_mcounteren_and_scounteren() {
    let user = RAM + 0x400;
    let build = |mcounteren: u32, scounteren: u32| {
        let mut m = machine_with_handler(
            &cat(&[
                li(T1, mcounteren),
                vec![csrw(0x306, T1)],
                li(T1, scounteren),
                vec![csrw(0x106, T1)],
                li(T1, user),
                vec![csrw(MEPC, T1), sys(Op::Mret)],
            ]),
            &cat(&[vec![csrr(A0, MCAUSE)], exit_ok()]),
        );
        load(
            &mut m,
            user,
            &[csrr(A1, 0xC00), csrr(A2, 0xC01), sys(Op::Ecall)],
        );
        run_to_exit(&mut m, 0);
        m.reg(A0 as usize)
    };
    assert_eq!(build(0, 0b111), 2, "rdcycle in U without mcounteren.CY");
    // Like QEMU 7.2 (which has S-mode), scounteren must allow it too.
    assert_eq!(build(0b111, 0), 2, "rdcycle in U without scounteren.CY");
    assert_eq!(build(0b111, 0b111), 8, "allowed: reaches the ecall");
}

#[test]
fn unhandled_exception_and_double_fault() {
    let mut m = machine(&[sys(Op::Ecall)]);
    let f = expect_fault(&mut m);
    assert_eq!(f.kind, FaultKind::Unhandled);
    assert_eq!(f.cause, 11);
    assert!(f.to_string().contains("environment call from M-mode"));
    // mtvec points at an illegal instruction word: the handler's first instruction faults.
    let mut m = machine_with_handler(&[sys(Op::Ecall)], &[]);
    m.write_debug(HANDLER, &[0, 0, 0, 0]).unwrap();
    let f = expect_fault(&mut m);
    assert_eq!(f.kind, FaultKind::DoubleFault);
    assert_eq!(f.cause, 2);
    assert_eq!(f.pc, HANDLER);
}

#[test]
fn counters_exact_at_csr_read() {
    let p = cactus_sim::Profile::default_mcu();
    let alu = u64::from(p.cycles().alu);
    let m = exec(&[
        i(Op::Addi, A1, A1, 1),
        i(Op::Addi, A1, A1, 1),
        i(Op::Addi, A1, A1, 1),
        csrr(A0, MCYCLE),
        csrr(A2, MINSTRET),
        sys(Op::Ebreak),
    ]);
    assert_eq!(u64::from(m.reg(A0 as usize)), 3 * alu);
    assert_eq!(m.reg(A2 as usize), 4);
    assert_eq!(m.stats().instructions, 5);
}

#[test]
fn counters_exact_after_mid_block_trap() {
    let p = cactus_sim::Profile::default_mcu();
    let c = p.cycles();
    let mut m = machine_with_handler(
        &cat(&[
            li(S0, 0x4000_0000),
            vec![
                i(Op::Addi, A1, A1, 1),
                i(Op::Lw, A2, S0, 0),
                i(Op::Addi, A1, A1, 1),
            ],
        ]),
        &cat(&[vec![csrr(A0, MINSTRET), csrr(A3, MCYCLE)], exit_ok()]),
    );
    run_to_exit(&mut m, 0);
    // Retired before the fault: li t0 (2) + csrw mtvec + li s0 (2) + addi = 6.
    assert_eq!(m.reg(A0 as usize), 6);
    let expect = 5 * c.alu + c.csr + c.trap_entry + c.csr;
    assert_eq!(m.reg(A3 as usize), expect);
    assert_eq!(m.reg(A1 as usize), 1, "the addi after the fault never ran");
}

#[test]
fn counter_writes() {
    let m = exec(&cat(&[
        li(A1, 100),
        vec![
            csrw(MINSTRET, A1),
            csrr(A0, MINSTRET),
            csrw(MCYCLE, ZERO),
            csrr(A2, MCYCLE),
        ],
        vec![csrw(0xB82, A1), csrr(A3, 0xB82), sys(Op::Ebreak)],
    ]));
    assert_eq!(m.reg(A0 as usize), 100);
    assert_eq!(
        m.reg(A2 as usize),
        0,
        "mcycle written to 0 reads 0 right after"
    );
    assert_eq!(m.reg(A3 as usize), 100);
}

/// Sets up CLINT mtimecmp = mtime + `ticks` (a0..a2 clobbered).
fn arm_timer(ticks: u32) -> Vec<Inst> {
    cat(&[
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0), i(Op::Addi, A1, A1, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
    ])
}

#[test]
fn timer_interrupt_direct_mode() {
    let mut m = machine_with_handler(
        &cat(&[
            arm_timer(50),
            li(T1, 0x80),
            vec![csrw(MIE, T1), csr(Op::Csrrsi, ZERO, MSTATUS, 0x8)],
            // spin: s1 += 1; j spin
            vec![i(Op::Addi, S1, S1, 1), Inst::new(Op::Jal, ZERO, 0, 0, -4)],
        ]),
        &cat(&[vec![csrr(A3, MCAUSE), csrr(A4, MEPC)], exit_ok()]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A3 as usize), 0x8000_0007);
    assert!(m.reg(S1 as usize) > 0, "the loop ran before the interrupt");
    let st = m.stats();
    assert_eq!(st.interrupts, 1);
    // mtime 50 ticks at 10 MHz = 500 cycles at 100 MHz.
    assert!(st.cycles >= 500, "{}", st.cycles);
}

#[test]
fn vectored_software_interrupt() {
    // mtvec = HANDLER | 1; msip cause 3 -> HANDLER + 12.
    let mut m = machine(&cat(&[
        set_mtvec(HANDLER | 1),
        li(T1, 0x8),
        vec![csrw(MIE, T1), csr(Op::Csrrsi, ZERO, MSTATUS, 0x8)],
        li(A0, 0x0200_0000),
        vec![i(Op::Addi, A1, ZERO, 1), s(Op::Sw, A1, A0, 0)],
        vec![i(Op::Addi, S1, S1, 1), Inst::new(Op::Jal, ZERO, 0, 0, -4)],
    ]));
    load(&mut m, HANDLER, &exit_code(9));
    load(
        &mut m,
        HANDLER + 12,
        &cat(&[vec![csrr(A3, MCAUSE)], exit_ok()]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A3 as usize), 0x8000_0003);
}

#[test]
fn wfi_fast_forwards_to_the_timer() {
    // MIE = 0: wfi wakes on the pending timer and execution continues after it.
    let m = exec(&cat(&[
        arm_timer(10_000),
        li(T1, 0x80),
        vec![
            csrw(MIE, T1),
            sys(Op::Wfi),
            csrr(A3, MCYCLE),
            csr(Op::Csrrs, A4, 0x344, ZERO),
        ],
        vec![sys(Op::Ebreak)],
    ]));
    // 10_000 ticks of 10 MHz at 100 MHz = 100_000 cycles.
    let cyc = m.reg(A3 as usize);
    assert!((100_000..100_020).contains(&cyc), "{cyc}");
    assert_eq!(m.reg(A4 as usize) & 0x80, 0x80, "MTIP pending");
    assert!(m.stats().sleep_cycles > 99_000);
}

#[test]
fn wfi_with_nothing_to_wake_is_a_deadlock() {
    let mut m = machine(&[sys(Op::Wfi)]);
    let f = expect_fault(&mut m);
    assert_eq!(f.kind, FaultKind::Deadlock);
    assert!(f.to_string().contains("deadlock"));
}

#[test]
fn cycle_limit_stops_an_endless_loop() {
    let mut cfg = cactus_sim::MachineConfig::new(cactus_sim::Profile::default_mcu());
    cfg.max_cycles = Some(10_000);
    let mut m = cactus_sim::Machine::new(cfg);
    load(&mut m, RAM, &[Inst::new(Op::Jal, ZERO, 0, 0, 0)]);
    m.set_pc(RAM);
    match m.run() {
        RunOutcome::CycleLimit(f) => {
            assert!(f.cycles >= 10_000 && f.cycles < 10_200, "{}", f.cycles);
            assert_eq!(f.kind, FaultKind::CycleLimit);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn wfi_in_user_mode_is_illegal() {
    let user = RAM + 0x400;
    let mut m = machine_with_handler(
        &cat(&[li(T1, user), vec![csrw(MEPC, T1), sys(Op::Mret)]]),
        &cat(&[vec![csrr(A0, MCAUSE)], exit_ok()]),
    );
    load(&mut m, user, &[sys(Op::Wfi)]);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A0 as usize), 2);
}

#[test]
fn mtip_is_pending_from_reset_and_mepc_keeps_bit0() {
    let m = exec(&cat(&[
        vec![csrr(A0, 0x344)],
        li(T1, RAM + 3),
        vec![csrw(MEPC, T1), csrr(A1, MEPC), sys(Op::Ebreak)],
    ]));
    assert_eq!(m.reg(A0 as usize), 0x80, "mtimecmp = 0 at reset, like QEMU");
    assert_eq!(
        m.reg(A1 as usize),
        RAM + 3,
        "QEMU keeps mepc bit 0 as written"
    );
}
