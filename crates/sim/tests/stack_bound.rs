//! The stack-bound extension (docs/simulator-design.md, "Stack-bound extension"): the
//! `mstackbound` CSR, the precise exception (cause 24) of every kind of instruction that writes
//! sp below the bound, bound 0 and the extension switched off, re-execution after a handler
//! fixed things, arming and disarming, and the checked sp-write path against the ordinary hot
//! loop.

use crate::common::*;
use cactus_isa::{compress, encode, encode_compressed, CInst, COp, Inst, Op};
use cactus_sim::{
    cause_name, FaultKind, Machine, MachineConfig, Mode, Profile, RunOutcome, CAUSE_STACK_BOUND,
    MSTACKBOUND,
};
use proptest::prelude::*;

/// Initial sp of the per-instruction cases and the bound they cross.
const SP0: u32 = 0x8000_9000;
const BOUND: u32 = 0x8000_8FF0;
/// A data word away from code and stack.
const DATA: u32 = RAM + 0x2000;

/// One instruction of a test program: a 32-bit word or a compressed halfword.
#[derive(Clone, Copy, Debug)]
enum P {
    W(Inst),
    H(CInst),
}

fn w(insts: Vec<Inst>) -> Vec<P> {
    insts.into_iter().map(P::W).collect()
}

fn bytes(prog: &[P]) -> Vec<u8> {
    prog.iter()
        .flat_map(|p| match p {
            P::W(inst) => encode(inst)
                .unwrap_or_else(|e| panic!("{inst:?}: {e}"))
                .to_le_bytes()
                .to_vec(),
            P::H(c) => encode_compressed(c)
                .unwrap_or_else(|e| panic!("{c:?}: {e}"))
                .to_le_bytes()
                .to_vec(),
        })
        .collect()
}

fn size(prog: &[P]) -> u32 {
    prog.iter()
        .map(|p| match p {
            P::W(_) => 4,
            P::H(_) => 2,
        })
        .sum()
}

/// `li t0, bound; csrw mstackbound, t0`.
fn set_bound(bound: u32) -> Vec<Inst> {
    cat(&[li(T0, bound), vec![csrw(MSTACKBOUND, T0)]])
}

/// A machine with or without the extension, `prog` at RAM and pc there. A cycle limit turns
/// a trap loop (a check that does not fire) into a failure instead of a hang.
fn machine_ext(ext: bool, prog: &[P]) -> Machine {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.stack_bound = ext;
    cfg.max_cycles = Some(1_000_000);
    let mut m = Machine::new(cfg);
    m.write_debug(RAM, &bytes(prog)).unwrap();
    m.set_pc(RAM);
    m
}

fn sp(m: &Machine) -> u32 {
    m.reg(SP as usize)
}

#[test]
fn csr_exists_only_with_the_extension() {
    // On (the default): reads 0 after reset, keeps all 32 bits.
    assert!(MachineConfig::new(Profile::default_mcu()).stack_bound);
    assert_eq!(MSTACKBOUND, 0x7C8);
    let prog = w(cat(&[
        li(A1, 0xFFFF_FFFF),
        vec![
            csrr(A0, MSTACKBOUND),
            csr(Op::Csrrw, A2, MSTACKBOUND, A1),
            csrr(A3, MSTACKBOUND),
            csrw(MSTACKBOUND, ZERO),
            sys(Op::Ebreak),
        ],
    ]));
    let mut m = machine_ext(true, &prog);
    assert_eq!(m.csr(MSTACKBOUND), Some(0));
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), 0);
    assert_eq!(m.reg(A2 as usize), 0);
    assert_eq!(m.reg(A3 as usize), 0xFFFF_FFFF);
    assert_eq!(m.csr(MSTACKBOUND), Some(0));

    // Off: an unimplemented CSR, reads and writes are illegal instructions.
    for inst in [csrw(MSTACKBOUND, T0), csrr(A0, MSTACKBOUND)] {
        let mut m = machine_ext(false, &w(vec![inst]));
        assert_eq!(m.csr(MSTACKBOUND), None);
        let f = fault(m.run());
        assert_eq!((f.cause, f.tval), (2, encode(&inst).unwrap()));
        assert_eq!(f.stack_bound, None);
    }
}

#[test]
fn addi_sp_crossing_the_bound_traps_precisely() {
    let c = *Profile::default_mcu().cycles();
    let bound = 0x8000_FF00;
    let main = w(cat(&[
        set_mtvec(HANDLER),
        li(SP, 0x8001_0000),
        set_bound(bound),
        vec![
            i(Op::Addi, SP, SP, -0x80),  // 0x8000_ff80: above the bound
            i(Op::Addi, SP, SP, -0x100), // 0x8000_fe80: below, traps (offset 36)
            i(Op::Addi, S1, S1, 1),
        ],
        exit_code(9),
    ]));
    let mut m = machine_ext(true, &main);
    load(
        &mut m,
        HANDLER,
        &cat(&[
            vec![
                csrr(A4, MCYCLE),
                csrr(A5, MINSTRET),
                csrr(A0, MCAUSE),
                csrr(A1, MEPC),
                csrr(A2, MTVAL),
                i(Op::Addi, A3, SP, 0),
            ],
            exit_ok(),
        ]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A0 as usize), CAUSE_STACK_BOUND);
    assert_eq!(CAUSE_STACK_BOUND, 24);
    assert_eq!(m.reg(A1 as usize), RAM + 36, "mepc = the addi");
    assert_eq!(m.reg(A2 as usize), 0x8000_FE80, "mtval = the refused sp");
    assert_eq!(m.reg(A3 as usize), 0x8000_FF80, "sp not written");
    assert_eq!(m.reg(S1 as usize), 0, "nothing after the addi ran");
    // Retired: li t0 + csrw mtvec + li sp + li t0 + csrw bound + the first addi = 9
    // instructions (7 ALU, 2 CSR); the refused addi costs nothing, the trap entry its class.
    // minstret is read after the handler's first csrr retired.
    assert_eq!(m.reg(A5 as usize), 9 + 1);
    assert_eq!(
        m.reg(A4 as usize),
        7 * c.alu + 2 * c.csr + c.trap_entry,
        "mcycle at the handler's first instruction"
    );
    let st = m.stats();
    assert_eq!(st.traps_by_cause.get(&24), Some(&1));
    assert_eq!(cause_name(24), "stack bound");
}

#[test]
fn sp_at_the_bound_is_allowed_and_one_below_is_not() {
    let bound = 0x8000_FF00;
    let prog = w(cat(&[
        li(SP, 0x8001_0000),
        set_bound(bound),
        vec![
            i(Op::Addi, SP, SP, -0x100), // exactly the bound: allowed
            i(Op::Addi, A0, A0, 1),
            i(Op::Addi, SP, SP, -4), // below: unhandled (mtvec = 0), offset 28
            sys(Op::Ebreak),
        ],
    ]));
    let mut m = machine_ext(true, &prog);
    let f = fault(m.run());
    assert_eq!(f.kind, FaultKind::Unhandled);
    assert_eq!((f.cause, f.pc, f.tval), (24, RAM + 28, bound - 4));
    assert_eq!(f.regs[SP as usize], bound);
    assert_eq!(f.regs[A0 as usize], 1);
    assert_eq!(f.stack_bound, Some(bound));
    assert_eq!(f.cause_name, "stack bound");
    let text = f.to_string();
    assert!(text.contains("cause: 24 (stack bound)"), "{text}");
    assert!(
        text.contains("sp 0x8000fefc would be below mstackbound 0x8000ff00"),
        "{text}"
    );
}

/// One kind of sp write: registers and memory it needs, the instruction(s) (the sp writer
/// last), the value it writes given its pc, and what else must (not) have happened.
struct Case {
    name: &'static str,
    setup: Vec<Inst>,
    writer: Vec<P>,
    value: fn(u32) -> u32,
    /// (machine, trapped): checks beyond sp.
    check: fn(&Machine, bool),
}

fn no_check(_: &Machine, _: bool) {}

fn cases() -> Vec<Case> {
    let h = |op: COp, rd: u8, rs1: u8, rs2: u8, imm: i32| P::H(CInst::new(op, rd, rs1, rs2, imm));
    vec![
        Case {
            name: "addi sp, sp, -2048",
            setup: vec![],
            writer: w(vec![i(Op::Addi, SP, SP, -2048)]),
            value: |_| SP0 - 2048,
            check: no_check,
        },
        Case {
            name: "addi a5 then addi sp (a fusable pair)",
            setup: vec![],
            writer: w(vec![i(Op::Addi, A5, A5, 7), i(Op::Addi, SP, SP, -2048)]),
            value: |_| SP0 - 2048,
            check: |m, trapped| {
                let want = if trapped { 7 } else { 8 };
                assert_eq!(m.reg(A5 as usize), want, "the first of the pair retired");
            },
        },
        Case {
            name: "lui sp then addi sp (li sp, a fusable pair; the lui stays above the bound)",
            setup: vec![],
            writer: w(li(SP, 0x8000_8FE0)),
            value: |_| 0x8000_8FE0,
            check: no_check,
        },
        Case {
            name: "c.addi16sp sp, -512",
            setup: vec![],
            writer: vec![h(COp::Addi16sp, 0, 0, 0, -512)],
            value: |_| SP0 - 512,
            check: no_check,
        },
        Case {
            name: "c.addi sp, -32",
            setup: vec![],
            writer: vec![h(COp::Addi, SP, 0, 0, -32)],
            value: |_| SP0 - 32,
            check: no_check,
        },
        Case {
            name: "c.mv sp, a0",
            setup: li(A0, 0x8000_1000),
            writer: vec![h(COp::Mv, SP, 0, A0, 0)],
            value: |_| 0x8000_1000,
            check: no_check,
        },
        Case {
            name: "add sp, sp, t1",
            setup: li(T1, 0xFFFF_F000),
            writer: w(vec![r(Op::Add, SP, SP, T1)]),
            value: |_| SP0 - 0x1000,
            check: no_check,
        },
        Case {
            name: "c.add sp, t1",
            setup: li(T1, 0xFFFF_F000),
            writer: vec![h(COp::Add, SP, 0, T1, 0)],
            value: |_| SP0 - 0x1000,
            check: no_check,
        },
        Case {
            name: "sub sp, sp, t1",
            setup: li(T1, 0x100),
            writer: w(vec![r(Op::Sub, SP, SP, T1)]),
            value: |_| SP0 - 0x100,
            check: no_check,
        },
        Case {
            name: "lw sp, 0(a1)",
            setup: cat(&[
                li(A1, DATA),
                li(T1, 0x8000_4000),
                vec![s(Op::Sw, T1, A1, 0)],
            ]),
            writer: w(vec![i(Op::Lw, SP, A1, 0)]),
            value: |_| 0x8000_4000,
            check: no_check,
        },
        Case {
            name: "c.lwsp sp, 8(sp)",
            setup: cat(&[li(T1, 0x8000_4444), vec![s(Op::Sw, T1, SP, 8)]]),
            writer: vec![h(COp::Lwsp, SP, 0, 0, 8)],
            value: |_| 0x8000_4444,
            check: no_check,
        },
        Case {
            name: "lh sp, 2(a1)",
            setup: cat(&[
                li(A1, DATA),
                li(T1, 0x7FF0_1234),
                vec![s(Op::Sw, T1, A1, 0)],
            ]),
            writer: w(vec![i(Op::Lh, SP, A1, 2)]),
            value: |_| 0x7FF0,
            check: no_check,
        },
        Case {
            name: "lbu sp, 5(a1) (UART LSR: a device read)",
            setup: li(A1, cactus_sim::UART_BASE),
            writer: w(vec![i(Op::Lbu, SP, A1, 5)]),
            value: |_| 0x60,
            check: no_check,
        },
        Case {
            name: "auipc sp, 0",
            setup: vec![],
            writer: w(vec![Inst::new(Op::Auipc, SP, 0, 0, 0)]),
            value: |pc| pc,
            check: no_check,
        },
        Case {
            name: "jal sp, 8",
            setup: vec![],
            writer: w(vec![Inst::new(Op::Jal, SP, 0, 0, 8)]),
            value: |pc| pc + 4,
            check: |m, _| assert_eq!(m.reg(A5 as usize), 0, "the jump skips the addi"),
        },
        Case {
            // a2 = the auipc's pc; the writer is 16 bytes further (after set_bound).
            name: "jalr sp, 24(a2)",
            setup: vec![Inst::new(Op::Auipc, A2, 0, 0, 0)],
            writer: w(vec![i(Op::Jalr, SP, A2, 24)]),
            value: |pc| pc + 4,
            check: |m, _| assert_eq!(m.reg(A5 as usize), 0, "the jump skips the addi"),
        },
        Case {
            name: "mul sp, t1, t2",
            setup: cat(&[li(T1, 0x4000_2000), li(T2, 2)]),
            writer: w(vec![r(Op::Mul, SP, T1, T2)]),
            value: |_| 0x8000_4000,
            check: no_check,
        },
        Case {
            name: "csrrw sp, mscratch, a3",
            setup: cat(&[
                li(T1, 0x8000_3000),
                vec![csrw(MSCRATCH, T1)],
                li(A3, 0x1234),
            ]),
            writer: w(vec![csr(Op::Csrrw, SP, MSCRATCH, A3)]),
            value: |_| 0x8000_3000,
            check: |m, trapped| {
                let want = if trapped { 0x8000_3000 } else { 0x1234 };
                assert_eq!(
                    m.csr(MSCRATCH),
                    Some(want),
                    "mscratch written only if it retired"
                );
            },
        },
        Case {
            name: "amoswap.w sp, a4, (a1)",
            setup: cat(&[
                li(A1, DATA),
                li(T1, 0x8000_4000),
                vec![s(Op::Sw, T1, A1, 0)],
                li(A4, 0x5555),
            ]),
            writer: w(vec![amo(Op::AmoswapW, SP, A1, A4)]),
            value: |_| 0x8000_4000,
            check: |m, trapped| {
                let want = if trapped { 0x8000_4000 } else { 0x5555 };
                assert_eq!(word(m, DATA), want, "memory written only if it retired");
            },
        },
        Case {
            name: "lr.w sp, (a1)",
            setup: cat(&[
                li(A1, DATA),
                li(T1, 0x8000_4000),
                vec![s(Op::Sw, T1, A1, 0)],
            ]),
            writer: w(vec![amo(Op::LrW, SP, A1, ZERO)]),
            value: |_| 0x8000_4000,
            check: no_check,
        },
        Case {
            name: "sc.w sp, a4, (a1) after lr.w (succeeds: sp = 0)",
            setup: cat(&[
                li(A1, DATA),
                li(T1, 0x8000_4000),
                vec![s(Op::Sw, T1, A1, 0)],
                li(A4, 0x5555),
                vec![amo(Op::LrW, T2, A1, ZERO)],
            ]),
            writer: w(vec![amo(Op::ScW, SP, A1, A4)]),
            value: |_| 0,
            check: |m, trapped| {
                let want = if trapped { 0x8000_4000 } else { 0x5555 };
                assert_eq!(word(m, DATA), want, "the store happens only if it retired");
            },
        },
        Case {
            name: "sc.w sp, a4, (a1) without a reservation (fails: sp = 1)",
            setup: cat(&[li(A1, DATA), li(A4, 0x5555)]),
            writer: w(vec![amo(Op::ScW, SP, A1, A4)]),
            value: |_| 1,
            check: |m, _| assert_eq!(word(m, DATA), 0),
        },
    ]
}

/// How a case is run.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Setting {
    /// Extension on, bound [`BOUND`] (above every case's value): the writer traps.
    Crossing,
    /// Extension on, bound = the value written: allowed.
    AtValue,
    /// Extension on, bound 0: disabled.
    Zero,
    /// Extension off (no CSR write).
    Off,
}

/// The case's program under `setting` and the pc of its sp writer.
fn program(case: &Case, setting: Setting) -> (Vec<P>, u32) {
    let mut prefix = w(cat(&[li(SP, SP0), case.setup.clone()]));
    let bound = match setting {
        Setting::Crossing => Some(BOUND),
        Setting::Zero => Some(0),
        Setting::AtValue => Some(0), // patched below once the value is known
        Setting::Off => None,
    };
    match bound {
        Some(b) => prefix.extend(w(set_bound(b))),
        // The same layout without the CSR.
        None => prefix.extend(w(cat(&[li(T0, 0), vec![Inst::NOP]]))),
    }
    let writer_pc =
        RAM + size(&prefix) + size(&case.writer) - size(&case.writer[case.writer.len() - 1..]);
    if setting == Setting::AtValue {
        prefix.truncate(prefix.len() - 3);
        prefix.extend(w(set_bound((case.value)(writer_pc))));
    }
    let mut prog = prefix;
    prog.extend(case.writer.iter().copied());
    // jal sp, 8 lands on the ebreak.
    prog.extend(w(vec![i(Op::Addi, A5, A5, 1), sys(Op::Ebreak)]));
    (prog, writer_pc)
}

/// Runs to the end: by `run`, or one `step` at a time.
fn finish(m: &mut Machine, stepping: bool) -> RunOutcome {
    if !stepping {
        return m.run();
    }
    loop {
        if let Some(o) = m.step() {
            return o;
        }
    }
}

#[test]
fn every_kind_of_sp_write_is_checked() {
    for case in cases() {
        let name = case.name;
        for stepping in [false, true] {
            // Crossing: a precise exception with the value in mtval and sp untouched.
            let (prog, pc) = program(&case, Setting::Crossing);
            let value = (case.value)(pc);
            assert!(value < BOUND, "{name}: the case must cross the bound");
            let mut m = machine_ext(true, &prog);
            let f = fault(finish(&mut m, stepping));
            assert_eq!(f.kind, FaultKind::Unhandled, "{name}");
            assert_eq!(
                (f.cause, f.pc, f.tval),
                (CAUSE_STACK_BOUND, pc, value),
                "{name} (stepping {stepping})"
            );
            assert_eq!(f.regs[SP as usize], SP0, "{name}: sp not written");
            assert_eq!(f.stack_bound, Some(BOUND), "{name}");
            (case.check)(&m, true);

            // Not crossing (bound = the value), bound 0, extension off: sp is written, and
            // the checked instruction costs what it costs unchecked.
            let mut stats = Vec::new();
            for setting in [Setting::AtValue, Setting::Zero, Setting::Off] {
                let (prog, pc) = program(&case, setting);
                assert_eq!((case.value)(pc), value, "{name}: same layout");
                let mut m = machine_ext(setting != Setting::Off, &prog);
                match finish(&mut m, stepping) {
                    RunOutcome::Fault(f) if f.cause == 3 => {}
                    other => panic!("{name} {setting:?}: expected the final ebreak, got {other:?}"),
                }
                assert_eq!(sp(&m), value, "{name} {setting:?}");
                (case.check)(&m, false);
                stats.push(m.stats());
            }
            assert_eq!(stats[0], stats[1], "{name}: armed costs what bound 0 costs");
        }
    }
}

#[test]
fn compressed_cases_really_are_compressed() {
    // The compressed cases above must reach the simulator as 16-bit instructions.
    let addi16sp = CInst::new(COp::Addi16sp, 0, 0, 0, -512);
    assert_eq!(addi16sp.expand(), i(Op::Addi, SP, SP, -512));
    assert_eq!(
        CInst::new(COp::Mv, SP, 0, A0, 0).expand(),
        r(Op::Add, SP, ZERO, A0)
    );
    assert!(compress(&i(Op::Addi, SP, SP, -32)).is_some());
}

#[test]
fn a_handler_that_lowers_the_bound_retries_the_instruction() {
    let main = w(cat(&[
        set_mtvec(HANDLER),
        li(SP, SP0),
        set_bound(BOUND),
        vec![i(Op::Addi, SP, SP, -2048), csrr(A0, MSTACKBOUND)],
        exit_ok(),
    ]));
    let mut m = machine_ext(true, &main);
    // Count the trap, set the bound to the refused value (mtval), return to the instruction.
    load(
        &mut m,
        HANDLER,
        &[
            i(Op::Addi, S1, S1, 1),
            csrr(T1, MTVAL),
            csrw(MSTACKBOUND, T1),
            sys(Op::Mret),
        ],
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(S1 as usize), 1, "one trap");
    assert_eq!(sp(&m), SP0 - 2048, "re-executed and written");
    assert_eq!(m.reg(A0 as usize), SP0 - 2048, "the lowered bound");
}

#[test]
fn a_handler_that_clears_the_bound_retries_the_instruction() {
    // Disarming re-predecodes the refused instruction's block without the checks.
    let main = w(cat(&[
        set_mtvec(HANDLER),
        li(SP, SP0),
        set_bound(BOUND),
        vec![i(Op::Addi, SP, SP, -2048), i(Op::Addi, SP, SP, -16)],
        exit_ok(),
    ]));
    let mut m = machine_ext(true, &main);
    load(
        &mut m,
        HANDLER,
        &[
            i(Op::Addi, S1, S1, 1),
            csrw(MSTACKBOUND, ZERO),
            sys(Op::Mret),
        ],
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(S1 as usize), 1);
    assert_eq!(sp(&m), SP0 - 2048 - 16);
}

#[test]
fn code_predecoded_before_the_bound_was_set_is_checked_after() {
    // f runs once with the bound 0 (its block is predecoded then), then again after the bound
    // is set: the second call must trap at the same instruction.
    let f = RAM + 0x400;
    let call_f = |at: u32| Inst::new(Op::Jal, RA, 0, 0, (f - at) as i32);
    let head = cat(&[li(SP, SP0), set_bound(0)]);
    let first_call = RAM + 4 * head.len() as u32;
    let mid = set_bound(BOUND);
    let second_call = first_call + 4 + 4 * mid.len() as u32;
    let main = w(cat(&[
        head,
        vec![call_f(first_call)],
        mid,
        vec![call_f(second_call)],
        exit_code(9),
    ]));
    let mut m = machine_ext(true, &main);
    load(
        &mut m,
        f,
        &[
            i(Op::Addi, S1, S1, 1),
            i(Op::Addi, SP, SP, -2032),
            i(Op::Addi, SP, SP, 2032),
            Inst::new(Op::Jalr, ZERO, RA, 0, 0),
        ],
    );
    let fault = fault(m.run());
    assert_eq!((fault.cause, fault.pc, fault.tval), (24, f + 4, SP0 - 2032));
    assert_eq!(fault.regs[S1 as usize], 2, "the second call");
}

#[test]
fn a_handler_that_moves_sp_retries_the_instruction() {
    let main = w(cat(&[
        set_mtvec(HANDLER),
        li(SP, SP0),
        set_bound(BOUND),
        vec![i(Op::Addi, SP, SP, -2048)],
        exit_ok(),
    ]));
    let mut m = machine_ext(true, &main);
    // A fresh stack above the bound.
    load(
        &mut m,
        HANDLER,
        &cat(&[
            vec![i(Op::Addi, S1, S1, 1)],
            li(SP, 0x8002_0000),
            vec![sys(Op::Mret)],
        ]),
    );
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(S1 as usize), 1);
    assert_eq!(sp(&m), 0x8002_0000 - 2048);
}

#[test]
fn the_bound_applies_in_user_mode_and_is_machine_only() {
    let user = RAM + 0x400;
    let build = |user_code: Vec<Inst>| {
        let mut m = machine_ext(
            true,
            &w(cat(&[
                set_mtvec(HANDLER),
                li(SP, SP0),
                set_bound(BOUND),
                li(T1, user),
                vec![csrw(MEPC, T1), sys(Op::Mret)],
            ])),
        );
        load(
            &mut m,
            HANDLER,
            &cat(&[
                vec![csrr(A0, MCAUSE), csrr(A1, MSTATUS), csrr(A2, MTVAL)],
                exit_ok(),
            ]),
        );
        load(&mut m, user, &user_code);
        run_to_exit(&mut m, 0);
        m
    };
    let m = build(vec![i(Op::Addi, SP, SP, -2048)]);
    assert_eq!(m.reg(A0 as usize), 24);
    assert_eq!((m.reg(A1 as usize) >> 11) & 3, 0, "MPP = U");
    assert_eq!(m.reg(A2 as usize), SP0 - 2048);
    assert_eq!(sp(&m), SP0);
    assert_eq!(m.mode(), Mode::Machine);
    // U-mode cannot read or write it.
    let m = build(vec![csrr(A3, MSTACKBOUND)]);
    assert_eq!(m.reg(A0 as usize), 2);
    let m = build(vec![csrw(MSTACKBOUND, ZERO)]);
    assert_eq!(m.reg(A0 as usize), 2);
}

#[test]
fn a_handler_whose_first_instruction_crosses_is_a_double_fault() {
    let mut m = machine_ext(
        true,
        &w(cat(&[
            set_mtvec(HANDLER),
            li(SP, SP0),
            set_bound(BOUND),
            vec![sys(Op::Ecall)],
        ])),
    );
    load(&mut m, HANDLER, &[i(Op::Addi, SP, SP, -2048)]);
    let f = fault(m.run());
    assert_eq!(f.kind, FaultKind::DoubleFault);
    assert_eq!((f.cause, f.pc, f.tval), (24, HANDLER, SP0 - 2048));
    assert_eq!(f.stack_bound, Some(BOUND));
}

#[test]
fn a_bound_of_zero_never_traps() {
    // sp wraps through 0 and the top of memory with the extension on and the bound 0.
    let m = {
        let mut m = machine_ext(
            true,
            &w(cat(&[
                set_bound(0),
                vec![
                    i(Op::Addi, SP, ZERO, 16),
                    i(Op::Addi, SP, SP, -32),
                    i(Op::Addi, SP, SP, 16),
                    i(Op::Addi, SP, SP, 1),
                    sys(Op::Ebreak),
                ],
            ])),
        );
        run_to_ebreak(&mut m);
        m
    };
    assert_eq!(sp(&m), 1);
}

/// Instructions that write rd from registers and immediates, by category.
const RR: [Op; 18] = [
    Op::Add,
    Op::Sub,
    Op::Sll,
    Op::Slt,
    Op::Sltu,
    Op::Xor,
    Op::Srl,
    Op::Sra,
    Op::Or,
    Op::And,
    Op::Mul,
    Op::Mulh,
    Op::Mulhsu,
    Op::Mulhu,
    Op::Div,
    Op::Divu,
    Op::Rem,
    Op::Remu,
];
const RI: [Op; 9] = [
    Op::Addi,
    Op::Slti,
    Op::Sltiu,
    Op::Xori,
    Op::Ori,
    Op::Andi,
    Op::Slli,
    Op::Srli,
    Op::Srai,
];
const LOADS: [Op; 5] = [Op::Lb, Op::Lh, Op::Lw, Op::Lbu, Op::Lhu];

/// `op rd, ...` with operands a1 = a, a2 = b, the 12-bit `imm` (a shift amount for shifts,
/// an offset from DATA holding `a` for loads, the upper immediate for lui/auipc).
fn one(op: Op, rd: u8, imm: i32) -> Inst {
    if RR.contains(&op) {
        r(op, rd, A1, A2)
    } else if matches!(op, Op::Slli | Op::Srli | Op::Srai) {
        i(op, rd, A1, imm & 31)
    } else if RI.contains(&op) {
        i(op, rd, A1, imm)
    } else if LOADS.contains(&op) {
        i(op, rd, A3, imm & 3 & !(width(op) - 1))
    } else {
        Inst::new(op, rd, 0, 0, imm << 12)
    }
}

fn width(op: Op) -> i32 {
    match op {
        Op::Lb | Op::Lbu => 1,
        Op::Lh | Op::Lhu => 2,
        _ => 4,
    }
}

/// Runs `op rd, ...` (rd = a0 on the plain path, sp on the checked path under bound 1) and
/// returns the outcome and rd.
fn run_one(op: Op, rd: u8, a: u32, b: u32, imm: i32) -> (RunOutcome, u32) {
    let prog = w(cat(&[
        set_bound(if rd == SP { 1 } else { 0 }),
        li(A1, a),
        li(A2, b),
        li(A3, DATA),
        vec![one(op, rd, imm), sys(Op::Ebreak)],
    ]));
    let mut m = machine_ext(true, &prog);
    m.write_debug(DATA, &a.to_le_bytes()).unwrap();
    let o = m.run();
    let v = m.reg(rd as usize);
    (o, v)
}

fn all_ops() -> Vec<Op> {
    let mut ops = RR.to_vec();
    ops.extend(RI);
    ops.extend(LOADS);
    ops.extend([Op::Lui, Op::Auipc]);
    ops
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// With the bound armed, a write of sp runs outside the hot loop (`spbound::sp_write`); it
    /// computes what the ordinary hot loop computes for any other register (a result of 0 is
    /// below bound 1 and traps instead).
    #[test]
    fn checked_sp_writes_compute_what_the_hot_loop_does(
        k in 0usize..34,
        a in prop_oneof![any::<u32>(), Just(0u32), Just(u32::MAX), Just(0x8000_0000u32)],
        b in prop_oneof![any::<u32>(), Just(0u32), Just(u32::MAX), Just(1u32)],
        imm in -2048i32..2048,
    ) {
        let op = all_ops()[k];
        let (plain_outcome, want) = run_one(op, A0, a, b, imm);
        prop_assert!(matches!(plain_outcome, RunOutcome::Fault(ref f) if f.cause == 3));
        let (outcome, got) = run_one(op, SP, a, b, imm);
        match outcome {
            RunOutcome::Fault(f) if f.cause == 3 => prop_assert_eq!(got, want, "{:?}", op),
            RunOutcome::Fault(f) if f.cause == 24 => {
                prop_assert_eq!(want, 0, "{:?}: only 0 is below bound 1", op);
                prop_assert_eq!(f.tval, 0);
            }
            other => prop_assert!(false, "{:?}: {:?}", op, other),
        }
    }
}

#[test]
fn all_ops_has_every_op() {
    assert_eq!(all_ops().len(), 34);
}
