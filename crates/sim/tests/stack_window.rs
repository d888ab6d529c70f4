//! The stack-window extension (docs/simulator-design.md, "Stack-window extension"): the
//! `mswbound`/`mswdisp` CSRs exist only with the extension, every width of load and store
//! and an AMO in the aperture reach `address + mswdisp`, an access below the bound raises
//! cause 25 precisely (nothing written, re-executed after a handler moved the bound), the
//! window off (bound 0) leaves aperture addresses unmapped, addresses outside the aperture
//! are never translated, and a profile may not place memory in the aperture.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{
    cause_name, FaultKind, MachineConfig, Profile, CAUSE_STACK_WINDOW, MSWBOUND, MSWDISP,
    STACK_WINDOW_BASE, STACK_WINDOW_END,
};

/// Physical stack top the tests map the logical top (`STACK_WINDOW_END`) to.
const PHYS_TOP: u32 = RAM + 0x6000;
/// Logical bound the tests set: 256 bytes of window.
const BOUND: u32 = STACK_WINDOW_END - 256;

/// Sets the window: bound, and the displacement mapping the logical top to `PHYS_TOP`.
fn set_window(bound: u32) -> Vec<Inst> {
    cat(&[
        li(T0, bound),
        vec![csrw(MSWBOUND, T0)],
        li(T0, PHYS_TOP.wrapping_sub(STACK_WINDOW_END)),
        vec![csrw(MSWDISP, T0)],
    ])
}

#[test]
fn csrs_exist_only_with_the_extension() {
    assert!(MachineConfig::new(Profile::default_mcu()).stack_window);
    assert_eq!((MSWBOUND, MSWDISP), (0x7C9, 0x7CA));
    let prog = cat(&[
        vec![csrr(A0, MSWBOUND), csrr(A1, MSWDISP)],
        li(T1, 0x1234_5678),
        vec![
            csrw(MSWBOUND, T1),
            csrw(MSWDISP, T1),
            csrr(A2, MSWBOUND),
            csrr(A3, MSWDISP),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine_stack_window(true, &prog);
    run_to_ebreak(&mut m);
    assert_eq!((m.reg(A0 as usize), m.reg(A1 as usize)), (0, 0));
    assert_eq!(m.reg(A2 as usize), 0x1234_5678);
    assert_eq!(m.reg(A3 as usize), 0x1234_5678);
    for inst in [csrw(MSWBOUND, T0), csrr(A0, MSWDISP)] {
        let mut m = machine_stack_window(false, &[inst]);
        assert_eq!(m.csr(MSWBOUND), None);
        let f = fault(m.run());
        assert_eq!(f.cause, 2, "an unimplemented CSR is an illegal instruction");
    }
}

#[test]
fn every_width_and_an_amo_reach_the_displaced_address() {
    let prog = cat(&[
        set_window(BOUND),
        li(S0, STACK_WINDOW_END - 16),
        li(T1, 0xA1B2_C3D4),
        vec![
            s(Op::Sw, T1, S0, 0),
            s(Op::Sh, T1, S0, 4),
            s(Op::Sb, T1, S0, 6),
            i(Op::Lw, A0, S0, 0),
            i(Op::Lhu, A1, S0, 4),
            i(Op::Lbu, A2, S0, 6),
            i(Op::Addi, A4, ZERO, 5),
            i(Op::Addi, S1, S0, 8),
            amo(Op::AmoaddW, A3, S1, A4),
            amo(Op::AmoaddW, A5, S1, A4),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine_stack_window(true, &prog);
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), 0xA1B2_C3D4);
    assert_eq!(m.reg(A1 as usize), 0xC3D4);
    assert_eq!(m.reg(A2 as usize), 0xD4);
    assert_eq!((m.reg(A3 as usize), m.reg(A5 as usize)), (0, 5));
    // The bytes are at the physical address: logical top - 16 + disp = PHYS_TOP - 16.
    assert_eq!(word(&m, PHYS_TOP - 16), 0xA1B2_C3D4);
    assert_eq!(word(&m, PHYS_TOP - 12), 0x00D4_C3D4);
    assert_eq!(word(&m, PHYS_TOP - 8), 10);
}

#[test]
fn an_access_below_the_bound_traps_precisely_and_resumes_after_the_handler() {
    // The handler lowers the bound by 256 and returns to the same store (mepc unchanged).
    let handler = cat(&[
        vec![csrr(A0, MCAUSE), csrr(A1, MTVAL), csrr(A2, MEPC)],
        li(T0, BOUND - 256),
        // mtvec = 0 again: the final ebreak then ends the run.
        vec![csrw(MSWBOUND, T0), csrw(0x305, ZERO), sys(Op::Mret)],
    ]);
    let prog = cat(&[
        set_mtvec(HANDLER),
        set_window(BOUND),
        li(S0, BOUND - 4),
        li(T1, 0x5555_AAAA),
        vec![s(Op::Sw, T1, S0, 0), i(Op::Lw, A4, S0, 0), sys(Op::Ebreak)],
    ]);
    let store_pc = RAM + 4 * (prog.len() as u32 - 3);
    let mut m = machine_stack_window(true, &prog);
    load(&mut m, HANDLER, &handler);
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), CAUSE_STACK_WINDOW);
    assert_eq!(m.reg(A1 as usize), BOUND - 4, "mtval: the logical address");
    assert_eq!(m.reg(A2 as usize), store_pc, "mepc: the store itself");
    assert_eq!(
        m.reg(A4 as usize),
        0x5555_AAAA,
        "the re-executed store and the load went through"
    );
    assert_eq!(word(&m, PHYS_TOP - 256 - 4), 0x5555_AAAA);
    assert_eq!(cause_name(CAUSE_STACK_WINDOW), "stack window");
}

#[test]
fn an_unhandled_window_trap_writes_nothing() {
    let prog = cat(&[
        set_window(BOUND),
        li(S0, BOUND - 16),
        li(T1, 0x7777_7777),
        vec![s(Op::Sw, T1, S0, 0)],
    ]);
    let mut m = machine_stack_window(true, &prog);
    let f = fault(m.run());
    assert_eq!(
        (f.kind, f.cause, f.tval),
        (FaultKind::Unhandled, 25, BOUND - 16)
    );
    assert_eq!(word(&m, PHYS_TOP - 256 - 16), 0);
}

#[test]
fn window_off_or_outside_the_aperture_means_no_translation() {
    // Bound 0 (reset): an aperture address is unmapped (load access fault).
    let mut m = machine_stack_window(
        true,
        &cat(&[li(S0, STACK_WINDOW_END - 4), vec![i(Op::Lw, A0, S0, 0)]]),
    );
    let f = fault(m.run());
    assert_eq!((f.cause, f.tval), (5, STACK_WINDOW_END - 4));
    // On: a RAM address and the address just past the aperture keep their meaning.
    let prog = cat(&[
        set_window(BOUND),
        li(S0, RAM + 0x3000),
        li(T1, 42),
        vec![s(Op::Sw, T1, S0, 0), i(Op::Lw, A0, S0, 0)],
        li(S1, STACK_WINDOW_END),
        vec![i(Op::Lw, A1, S1, 0)],
    ]);
    let mut m = machine_stack_window(true, &prog);
    let f = fault(m.run());
    assert_eq!(m.reg(A0 as usize), 42);
    assert_eq!(word(&m, RAM + 0x3000), 42);
    assert_eq!((f.cause, f.tval), (5, STACK_WINDOW_END));
    const { assert!(STACK_WINDOW_BASE < BOUND) };
}

#[test]
fn a_profile_may_not_put_memory_in_the_aperture() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../profiles/mcu.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("base = 0x8000_0000", "base = 0x6000_0000");
    let err = Profile::from_toml(&text, "test").expect_err("memory in the aperture");
    assert!(err.to_string().contains("stack-window aperture"), "{err}");
}
