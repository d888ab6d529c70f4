//! Test helpers: a tiny assembler over `cactus_isa::encode` and machine setup. Programs are
//! placed at the start of RAM and usually end with `ebreak`, which with mtvec == 0 ends the
//! run as an unhandled breakpoint (cause 3) so the test can inspect registers.
#![allow(dead_code)]

use cactus_isa::{encode, Inst, Op};
use cactus_sim::{FaultKind, FaultReport, Machine, MachineConfig, Profile, RunOutcome};

/// Start of RAM (QEMU virt).
pub const RAM: u32 = 0x8000_0000;

/// Register numbers by ABI name.
pub const ZERO: u8 = 0;
pub const RA: u8 = 1;
pub const SP: u8 = 2;
pub const T0: u8 = 5;
pub const T1: u8 = 6;
pub const T2: u8 = 7;
pub const S0: u8 = 8;
pub const S1: u8 = 9;
pub const A0: u8 = 10;
pub const A1: u8 = 11;
pub const A2: u8 = 12;
pub const A3: u8 = 13;
pub const A4: u8 = 14;
pub const A5: u8 = 15;

/// R-type `op rd, rs1, rs2`.
pub fn r(op: Op, rd: u8, rs1: u8, rs2: u8) -> Inst {
    Inst::new(op, rd, rs1, rs2, 0)
}

/// I-type `op rd, rs1, imm` (also loads `op rd, imm(rs1)` and shifts with imm = shamt).
pub fn i(op: Op, rd: u8, rs1: u8, imm: i32) -> Inst {
    Inst::new(op, rd, rs1, 0, imm)
}

/// S-type `op rs2, imm(rs1)`.
pub fn s(op: Op, rs2: u8, rs1: u8, imm: i32) -> Inst {
    Inst::new(op, 0, rs1, rs2, imm)
}

/// B-type `op rs1, rs2, offset`.
pub fn b(op: Op, rs1: u8, rs2: u8, off: i32) -> Inst {
    Inst::new(op, 0, rs1, rs2, off)
}

/// `csr* rd, csr, rs1` (or uimm for the *i forms).
pub fn csr(op: Op, rd: u8, num: u16, rs1: u8) -> Inst {
    Inst::new(op, rd, rs1, 0, i32::from(num))
}

/// `op rd, rs2, (rs1)` for AMOs / LR / SC.
pub fn amo(op: Op, rd: u8, rs1: u8, rs2: u8) -> Inst {
    Inst::new(op, rd, rs1, rs2, 0)
}

/// A system instruction without operands.
pub fn sys(op: Op) -> Inst {
    Inst::new(op, 0, 0, 0, 0)
}

/// `li rd, value` as lui + addi.
pub fn li(rd: u8, value: u32) -> Vec<Inst> {
    let lo = ((value & 0xFFF) as i32) << 20 >> 20;
    let hi = value.wrapping_sub(lo as u32) & 0xFFFF_F000;
    vec![
        Inst::new(Op::Lui, rd, 0, 0, hi as i32),
        i(Op::Addi, rd, rd, lo),
    ]
}

/// Encodes a program into little-endian bytes.
pub fn assemble(prog: &[Inst]) -> Vec<u8> {
    prog.iter()
        .flat_map(|inst| {
            encode(inst)
                .unwrap_or_else(|e| panic!("{inst:?}: {e}"))
                .to_le_bytes()
        })
        .collect()
}

/// A machine with `profile` running `prog` from RAM.
pub fn machine_with(profile: Profile, prog: &[Inst]) -> Machine {
    let mut m = Machine::new(MachineConfig::new(profile));
    load(&mut m, RAM, prog);
    m.set_pc(RAM);
    m
}

/// A machine with the default profile and the stack-window extension on or off (`ext`),
/// running `prog` from RAM, stopped after a million cycles.
pub fn machine_stack_window(ext: bool, prog: &[Inst]) -> Machine {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.stack_window = ext;
    cfg.max_cycles = Some(1_000_000);
    let mut m = Machine::new(cfg);
    load(&mut m, RAM, prog);
    m.set_pc(RAM);
    m
}

/// A machine with the default profile running `prog` from RAM.
pub fn machine(prog: &[Inst]) -> Machine {
    machine_with(Profile::default_mcu(), prog)
}

/// Writes `prog` at `addr`.
pub fn load(m: &mut Machine, addr: u32, prog: &[Inst]) {
    m.write_debug(addr, &assemble(prog))
        .expect("program fits in RAM");
}

/// Runs until the final `ebreak` (unhandled breakpoint); panics on any other outcome.
pub fn run_to_ebreak(m: &mut Machine) {
    match m.run() {
        RunOutcome::Fault(f) if f.kind == FaultKind::Unhandled && f.cause == 3 => {}
        other => panic!("expected the final ebreak, got {other:?}"),
    }
}

/// Runs `prog` (which must end in `ebreak`) and returns the machine.
pub fn exec(prog: &[Inst]) -> Machine {
    let mut m = machine(prog);
    run_to_ebreak(&mut m);
    m
}

/// Concatenates instruction groups.
pub fn cat(parts: &[Vec<Inst>]) -> Vec<Inst> {
    parts.concat()
}

/// Ends the run through the test finisher with exit code 0 (clobbers t5, t6... uses x30, x31).
pub fn exit_ok() -> Vec<Inst> {
    cat(&[
        li(31, 0x0010_0000),
        li(30, 0x5555),
        vec![s(Op::Sw, 30, 31, 0)],
    ])
}

/// Ends the run through the test finisher with exit code `code`.
pub fn exit_code(code: u32) -> Vec<Inst> {
    cat(&[
        li(31, 0x0010_0000),
        li(30, (code << 16) | 0x3333),
        vec![s(Op::Sw, 30, 31, 0)],
    ])
}

/// Runs and expects `Exited { code }`.
pub fn run_to_exit(m: &mut Machine, code: u32) {
    match m.run() {
        RunOutcome::Exited { code: c } if c == code => {}
        other => panic!("expected exit {code}, got {other:?}"),
    }
}

/// Address where tests place trap handlers.
pub const HANDLER: u32 = RAM + 0x800;

/// `li t0, HANDLER; csrw mtvec, t0` (3 instructions).
pub fn set_mtvec(value: u32) -> Vec<Inst> {
    cat(&[li(T0, value), vec![csr(Op::Csrrw, ZERO, 0x305, T0)]])
}

/// Commits trace event `code` with `args` through the trace device (docs/trace-device.md;
/// clobbers t1, t2).
pub fn trace_event(code: u32, args: &[u32]) -> Vec<Inst> {
    let mut v = li(T2, cactus_sim::TRACE_BASE);
    for (k, &a) in args.iter().enumerate() {
        v.extend(li(T1, a));
        v.push(s(Op::Sw, T1, T2, 0x10 + 4 * k as i32));
    }
    v.extend(li(T1, code));
    v.push(s(Op::Sw, T1, T2, 0x20));
    v
}

/// Machine-mode CSR numbers the tests read and write.
pub const MSTATUS: u16 = 0x300;
/// `mie`.
pub const MIE: u16 = 0x304;
/// `mscratch`.
pub const MSCRATCH: u16 = 0x340;
/// `mepc`.
pub const MEPC: u16 = 0x341;
/// `mcause`.
pub const MCAUSE: u16 = 0x342;
/// `mtval`.
pub const MTVAL: u16 = 0x343;
/// `mcycle`.
pub const MCYCLE: u16 = 0xB00;
/// `minstret`.
pub const MINSTRET: u16 = 0xB02;

/// `csrr rd, num`.
pub fn csrr(rd: u8, num: u16) -> Inst {
    csr(Op::Csrrs, rd, num, ZERO)
}

/// `csrw num, rs`.
pub fn csrw(num: u16, rs: u8) -> Inst {
    csr(Op::Csrrw, ZERO, num, rs)
}

/// The little-endian word at `addr`, read through the debug port.
pub fn word(m: &Machine, addr: u32) -> u32 {
    let mut b = [0u8; 4];
    m.read_debug(addr, &mut b).unwrap();
    u32::from_le_bytes(b)
}

/// The fault report of a run that must have ended in a fault.
pub fn fault(outcome: RunOutcome) -> Box<FaultReport> {
    match outcome {
        RunOutcome::Fault(f) => f,
        other => panic!("expected a fault, got {other:?}"),
    }
}

/// Programs the copy engine (devices/copier.rs) for a copy of `words` words from `src` to
/// `dst`: S0 = its base, T0 = `words`, SRC, DST and WORDS written; the caller writes GO.
pub fn copier_setup(src: u32, dst: u32, words: u32) -> Vec<Inst> {
    use cactus_sim::{COPIER_BASE, COPIER_DST, COPIER_SRC, COPIER_WORDS};
    cat(&[
        li(S0, COPIER_BASE),
        li(T0, src),
        vec![s(Op::Sw, T0, S0, COPIER_SRC as i32)],
        li(T0, dst),
        vec![s(Op::Sw, T0, S0, COPIER_DST as i32)],
        li(T0, words),
        vec![s(Op::Sw, T0, S0, COPIER_WORDS as i32)],
    ])
}
