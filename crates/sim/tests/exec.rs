//! Execution of every RV32IMC computational instruction, loads/stores and control flow.

use crate::common::*;
use cactus_isa::Op;
use cactus_sim::{Misaligned, Profile, RunOutcome};

/// Runs `setup` (li's) then `ops`, then ebreak; returns the machine.
fn run(parts: &[Vec<cactus_isa::Inst>]) -> cactus_sim::Machine {
    let mut prog = cat(parts);
    prog.push(sys(Op::Ebreak));
    exec(&prog)
}

/// Result in a0 of `op a0, a1, a2` with a1 = x, a2 = y.
fn rr(op: Op, x: u32, y: u32) -> u32 {
    run(&[li(A1, x), li(A2, y), vec![r(op, A0, A1, A2)]]).reg(A0 as usize)
}

/// Result in a0 of `op a0, a1, imm` with a1 = x.
fn ri(op: Op, x: u32, imm: i32) -> u32 {
    run(&[li(A1, x), vec![i(op, A0, A1, imm)]]).reg(A0 as usize)
}

#[test]
fn alu_register_ops() {
    assert_eq!(rr(Op::Add, 0xFFFF_FFFF, 2), 1);
    assert_eq!(rr(Op::Sub, 1, 2), 0xFFFF_FFFF);
    assert_eq!(rr(Op::Sll, 1, 35), 8, "shift amount uses the low 5 bits");
    assert_eq!(rr(Op::Slt, 0xFFFF_FFFF, 0), 1);
    assert_eq!(rr(Op::Sltu, 0xFFFF_FFFF, 0), 0);
    assert_eq!(rr(Op::Xor, 0xF0F0, 0xFF00), 0x0FF0);
    assert_eq!(rr(Op::Srl, 0x8000_0000, 31), 1);
    assert_eq!(rr(Op::Sra, 0x8000_0000, 31), 0xFFFF_FFFF);
    assert_eq!(rr(Op::Or, 0xF0, 0x0F), 0xFF);
    assert_eq!(rr(Op::And, 0xF0, 0x3C), 0x30);
}

#[test]
fn alu_immediate_ops() {
    assert_eq!(ri(Op::Addi, 5, -6), 0xFFFF_FFFF);
    assert_eq!(ri(Op::Slti, 0xFFFF_FFFE, -1), 1);
    assert_eq!(
        ri(Op::Sltiu, 5, -1),
        1,
        "sltiu compares with the sign-extended immediate"
    );
    assert_eq!(ri(Op::Xori, 0x0F, -1), 0xFFFF_FFF0);
    assert_eq!(ri(Op::Ori, 0x100, 0x0F), 0x10F);
    assert_eq!(ri(Op::Andi, 0xFFFF_FFFF, 0x7F0), 0x7F0);
    assert_eq!(ri(Op::Slli, 3, 4), 48);
    assert_eq!(ri(Op::Srli, 0xFFFF_FFFF, 28), 0xF);
    assert_eq!(ri(Op::Srai, 0x8000_0010, 4), 0xF800_0001);
}

#[test]
fn lui_auipc() {
    let m = run(&[vec![
        cactus_isa::Inst::new(Op::Lui, A0, 0, 0, 0x1234_5000),
        cactus_isa::Inst::new(Op::Auipc, A1, 0, 0, 0x1000),
    ]]);
    assert_eq!(m.reg(A0 as usize), 0x1234_5000);
    assert_eq!(m.reg(A1 as usize), RAM + 4 + 0x1000);
}

#[test]
fn writes_to_x0_are_ignored() {
    let m = run(&[
        li(S0, RAM),
        vec![
            i(Op::Addi, ZERO, ZERO, 5),
            cactus_isa::Inst::new(Op::Lui, ZERO, 0, 0, 0x1000),
            i(Op::Addi, A0, ZERO, 0),
            i(Op::Lw, ZERO, S0, 0),
            r(Op::Mul, ZERO, S0, S0),
        ],
    ]);
    assert_eq!(m.reg(0), 0);
    assert_eq!(m.reg(A0 as usize), 0);
}

#[test]
fn multiply() {
    assert_eq!(rr(Op::Mul, 0xFFFF_FFFF, 0xFFFF_FFFF), 1);
    assert_eq!(rr(Op::Mul, 0x1234_5678, 0x10), 0x2345_6780);
    assert_eq!(
        rr(Op::Mulh, 0xFFFF_FFFF, 0xFFFF_FFFF),
        0,
        "(-1)*(-1) high word"
    );
    assert_eq!(rr(Op::Mulh, 0x8000_0000, 0x8000_0000), 0x4000_0000);
    assert_eq!(rr(Op::Mulh, 0x8000_0000, 1), 0xFFFF_FFFF);
    assert_eq!(rr(Op::Mulhu, 0xFFFF_FFFF, 0xFFFF_FFFF), 0xFFFF_FFFE);
    assert_eq!(
        rr(Op::Mulhsu, 0xFFFF_FFFF, 0xFFFF_FFFF),
        0xFFFF_FFFF,
        "-1 * (2^32-1)"
    );
    assert_eq!(rr(Op::Mulhsu, 0x8000_0000, 2), 0xFFFF_FFFF);
    assert_eq!(rr(Op::Mulhsu, 2, 0x8000_0000), 1);
}

#[test]
fn divide_edge_cases() {
    assert_eq!(rr(Op::Div, 7, 0), 0xFFFF_FFFF, "div by zero = -1");
    assert_eq!(rr(Op::Divu, 7, 0), 0xFFFF_FFFF, "divu by zero = 2^32-1");
    assert_eq!(rr(Op::Rem, 7, 0), 7, "rem by zero = dividend");
    assert_eq!(rr(Op::Remu, 7, 0), 7);
    assert_eq!(
        rr(Op::Div, 0x8000_0000, 0xFFFF_FFFF),
        0x8000_0000,
        "overflow"
    );
    assert_eq!(
        rr(Op::Rem, 0x8000_0000, 0xFFFF_FFFF),
        0,
        "overflow remainder"
    );
    assert_eq!(
        rr(Op::Div, (-7i32) as u32, 2),
        (-3i32) as u32,
        "rounds toward zero"
    );
    assert_eq!(
        rr(Op::Rem, (-7i32) as u32, 2),
        (-1i32) as u32,
        "sign of dividend"
    );
    assert_eq!(rr(Op::Divu, 0xFFFF_FFFE, 2), 0x7FFF_FFFF);
    assert_eq!(rr(Op::Remu, 0xFFFF_FFFF, 10), 5);
}

#[test]
fn loads_sign_and_zero_extend() {
    let data = RAM + 0x1000;
    let m = run(&[
        li(S0, data),
        li(T0, 0x8081_F2F3),
        vec![
            s(Op::Sw, T0, S0, 0),
            i(Op::Lb, A0, S0, 0),
            i(Op::Lbu, A1, S0, 0),
            i(Op::Lh, A2, S0, 2),
            i(Op::Lhu, A3, S0, 2),
            i(Op::Lw, A4, S0, 0),
            i(Op::Lb, A5, S0, 1),
        ],
    ]);
    assert_eq!(m.reg(A0 as usize), 0xFFFF_FFF3);
    assert_eq!(m.reg(A1 as usize), 0xF3);
    assert_eq!(m.reg(A2 as usize), 0xFFFF_8081);
    assert_eq!(m.reg(A3 as usize), 0x8081);
    assert_eq!(m.reg(A4 as usize), 0x8081_F2F3);
    assert_eq!(m.reg(A5 as usize), 0xFFFF_FFF2);
}

#[test]
fn stores_write_only_their_width() {
    let data = RAM + 0x1000;
    let mut m = run(&[
        li(S0, data),
        li(T0, 0xAABB_CCDD),
        vec![
            s(Op::Sw, ZERO, S0, 0),
            s(Op::Sb, T0, S0, 0),
            s(Op::Sh, T0, S0, 2),
            i(Op::Lw, A0, S0, 0),
        ],
    ]);
    assert_eq!(m.reg(A0 as usize), 0xCCDD_00DD);
    let mut buf = [0u8; 4];
    m.read_debug(data, &mut buf).unwrap();
    assert_eq!(u32::from_le_bytes(buf), 0xCCDD_00DD);
    m.write_debug(data, &[1, 2, 3, 4]).unwrap();
    m.read_debug(data, &mut buf).unwrap();
    assert_eq!(buf, [1, 2, 3, 4]);
}

#[test]
fn branches_taken_and_not_taken() {
    // For each branch: a0 counts taken branches. Each test: li a1,x; li a2,y; bXX a1,a2,+8;
    // addi a0,a0,0 (skipped when taken) ; (target) ... we count by adding 1 on fallthrough.
    let cases: [(Op, u32, u32, bool); 8] = [
        (Op::Beq, 3, 3, true),
        (Op::Bne, 3, 3, false),
        (Op::Blt, 0xFFFF_FFFF, 0, true),
        (Op::Bge, 0xFFFF_FFFF, 0, false),
        (Op::Bltu, 0xFFFF_FFFF, 0, false),
        (Op::Bgeu, 0xFFFF_FFFF, 0, true),
        (Op::Bge, 5, 5, true),
        (Op::Bltu, 1, 2, true),
    ];
    for (op, x, y, taken) in cases {
        let m = run(&[
            li(A1, x),
            li(A2, y),
            vec![
                b(op, A1, A2, 8),
                i(Op::Addi, A0, A0, 1),
                i(Op::Addi, A0, A0, 2),
            ],
        ]);
        let expect = if taken { 2 } else { 3 };
        assert_eq!(m.reg(A0 as usize), expect, "{op:?} {x:#x} {y:#x}");
    }
}

#[test]
fn backward_branch_loop_counts() {
    // a0 = 0; a1 = 100; loop: a0 += 3; a1 -= 1; bnez a1, loop
    let m = run(&[
        li(A1, 100),
        vec![
            i(Op::Addi, A0, A0, 3),
            i(Op::Addi, A1, A1, -1),
            b(Op::Bne, A1, ZERO, -8),
        ],
    ]);
    assert_eq!(m.reg(A0 as usize), 300);
    let st = m.stats();
    let count = |k: &str| st.classes.iter().find(|c| c.class == k).unwrap().count;
    assert_eq!(count("branch_taken"), 99);
    assert_eq!(count("branch_not_taken"), 1);
}

#[test]
fn jal_and_jalr_link_and_clear_bit0() {
    // 0: jal ra, +8 ; 4: ebreak ; 8: auipc t0,0 ; 12: addi t0,t0,13 ; 16: jalr a0, 0(t0) -> 21&~1=20
    // 20: ebreak
    let prog = vec![
        cactus_isa::Inst::new(Op::Jal, RA, 0, 0, 8),
        sys(Op::Ebreak),
        cactus_isa::Inst::new(Op::Auipc, T0, 0, 0, 0),
        i(Op::Addi, T0, T0, 13),
        i(Op::Jalr, A0, T0, 0),
        sys(Op::Ebreak),
    ];
    let mut m = machine(&prog);
    run_to_ebreak(&mut m);
    assert_eq!(m.pc(), RAM + 20);
    assert_eq!(m.reg(RA as usize), RAM + 4);
    assert_eq!(m.reg(A0 as usize), RAM + 20);
}

#[test]
fn compressed_instructions_execute() {
    // c.li a0, 5 (0x4515); c.addi a0, 3 (0x050d); c.mv a1, a0 (0x85aa); c.ebreak (0x9002)
    let mut m = cactus_sim::Machine::new(cactus_sim::MachineConfig::new(Profile::default_mcu()));
    let code: [u16; 4] = [0x4515, 0x050d, 0x85aa, 0x9002];
    let bytes: Vec<u8> = code.iter().flat_map(|h| h.to_le_bytes()).collect();
    m.write_debug(RAM, &bytes).unwrap();
    m.set_pc(RAM);
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), 8);
    assert_eq!(m.reg(A1 as usize), 8);
    assert_eq!(m.pc(), RAM + 6);
}

fn misaligned_prog() -> Vec<cactus_isa::Inst> {
    cat(&[
        li(S0, RAM + 0x1001),
        li(T0, 0x1122_3344),
        vec![
            s(Op::Sw, T0, S0, 0),
            i(Op::Lw, A0, S0, 0),
            i(Op::Lh, A1, S0, 0),
            sys(Op::Ebreak),
        ],
    ])
}

#[test]
fn misaligned_emulated() {
    let mut p = Profile::default_mcu();
    p.set_misaligned(Misaligned::Emulate);
    let mut m = machine_with(p, &misaligned_prog());
    run_to_ebreak(&mut m);
    assert_eq!(m.reg(A0 as usize), 0x1122_3344);
    assert_eq!(m.reg(A1 as usize), 0x3344);
}

#[test]
fn misaligned_traps_under_trap_policy() {
    let mut p = Profile::default_mcu();
    p.set_misaligned(Misaligned::Trap);
    let mut m = machine_with(p, &misaligned_prog());
    match m.run() {
        RunOutcome::Fault(f) => {
            assert_eq!(f.cause, 6, "store misaligned");
            assert_eq!(f.tval, RAM + 0x1001);
            assert_eq!(f.pc, RAM + 16);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn unmapped_and_readonly_accesses_fault() {
    let m = |prog: Vec<cactus_isa::Inst>| {
        let mut m = machine(&prog);
        match m.run() {
            RunOutcome::Fault(f) => (f.cause, f.tval),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        m(cat(&[li(S0, 0x4000_0000), vec![i(Op::Lw, A0, S0, 0)]])),
        (5, 0x4000_0000)
    );
    assert_eq!(
        m(cat(&[li(S0, 0x4000_0000), vec![s(Op::Sw, A0, S0, 4)]])),
        (7, 0x4000_0004)
    );
    // Jump to unmapped memory: instruction access fault with tval = target.
    assert_eq!(
        m(cat(&[li(S0, 0x4000_0000), vec![i(Op::Jalr, ZERO, S0, 0)]])),
        (1, 0x4000_0000)
    );
    // Trace device only accepts aligned words.
    assert_eq!(
        m(cat(&[li(S0, 0x0E00_0000), vec![i(Op::Lb, A0, S0, 0)]])),
        (5, 0x0E00_0000)
    );
    // CLINT only accepts words.
    assert_eq!(
        m(cat(&[li(S0, 0x0200_0000), vec![s(Op::Sb, A0, S0, 0)]])),
        (7, 0x0200_0000)
    );
}

#[test]
fn illegal_instruction_reports_bits() {
    let mut m = cactus_sim::Machine::new(cactus_sim::MachineConfig::new(Profile::default_mcu()));
    m.write_debug(RAM, &0xFFFF_FFFFu32.to_le_bytes()).unwrap();
    m.set_pc(RAM);
    match m.run() {
        RunOutcome::Fault(f) => {
            assert_eq!(f.cause, 2);
            assert_eq!(f.tval, 0xFFFF_FFFF);
            assert_eq!(f.pc, RAM);
            assert!(f.to_string().contains("illegal instruction"), "{f}");
        }
        other => panic!("{other:?}"),
    }
}
