//! Proptest strategies for valid base and compressed instructions, shared by the
//! round-trip tests.
#![allow(dead_code)]

use cactus_isa::{CFormat, CInst, COp, Format, Inst, Op};
use proptest::prelude::*;

fn reg() -> impl Strategy<Value = u8> {
    0u8..32
}

fn even(lo: i32, hi: i32) -> impl Strategy<Value = i32> {
    (lo / 2..=hi / 2).prop_map(|v| v * 2)
}

/// Any instruction that encodes, of the given op. `canonical` restricts `fence`/`fence.i`
/// to the encodings GNU as can spell.
pub fn inst_of(op: Op, canonical: bool) -> BoxedStrategy<Inst> {
    let mk = move |rd, rs1, rs2, imm| Inst {
        op,
        rd,
        rs1,
        rs2,
        imm,
    };
    match op.format() {
        Format::U => (reg(), 0u32..(1 << 20))
            .prop_map(move |(rd, v)| mk(rd, 0, 0, (v << 12) as i32))
            .boxed(),
        Format::J => (reg(), even(-(1 << 20), (1 << 20) - 2))
            .prop_map(move |(rd, imm)| mk(rd, 0, 0, imm))
            .boxed(),
        Format::I | Format::Load => (reg(), reg(), -2048i32..2048)
            .prop_map(move |(rd, rs1, imm)| mk(rd, rs1, 0, imm))
            .boxed(),
        Format::Shift => (reg(), reg(), 0i32..32)
            .prop_map(move |(rd, rs1, imm)| mk(rd, rs1, 0, imm))
            .boxed(),
        Format::B => (reg(), reg(), even(-4096, 4094))
            .prop_map(move |(rs1, rs2, imm)| mk(0, rs1, rs2, imm))
            .boxed(),
        Format::S => (reg(), reg(), -2048i32..2048)
            .prop_map(move |(rs1, rs2, imm)| mk(0, rs1, rs2, imm))
            .boxed(),
        Format::R => (reg(), reg(), reg())
            .prop_map(move |(rd, rs1, rs2)| mk(rd, rs1, rs2, 0))
            .boxed(),
        Format::Fence if canonical => prop_oneof![
            (1i32..16, 1i32..16).prop_map(move |(p, s)| mk(0, 0, 0, (p << 4) | s)),
            Just(mk(0, 0, 0, 0x833)),
        ]
        .boxed(),
        Format::FenceI if canonical => Just(mk(0, 0, 0, 0)).boxed(),
        Format::Fence | Format::FenceI | Format::Csr | Format::CsrI => (reg(), reg(), 0i32..4096)
            .prop_map(move |(rd, rs1, imm)| mk(rd, rs1, 0, imm))
            .boxed(),
        Format::System => Just(mk(0, 0, 0, 0)).boxed(),
        Format::Amo => (reg(), reg(), reg(), 0i32..4)
            .prop_map(move |(rd, rs1, rs2, imm)| mk(rd, rs1, rs2, imm))
            .boxed(),
        Format::Lr => (reg(), reg(), 0i32..4)
            .prop_map(move |(rd, rs1, imm)| mk(rd, rs1, 0, imm))
            .boxed(),
    }
}

/// Any base instruction that encodes (every op equally likely).
pub fn any_inst(canonical: bool) -> BoxedStrategy<Inst> {
    proptest::sample::select(Op::ALL)
        .prop_flat_map(move |op| inst_of(op, canonical))
        .boxed()
}

fn prime() -> impl Strategy<Value = u8> {
    8u8..16
}

fn multiple(lo: i32, hi: i32, step: i32) -> impl Strategy<Value = i32> {
    (lo / step..=hi / step).prop_map(move |v| v * step)
}

/// Any compressed instruction of form `op` that encodes (reserved and other-form
/// combinations filtered out).
pub fn cinst_of(op: COp) -> BoxedStrategy<CInst> {
    let mk = move |rd, rs1, rs2, imm| CInst {
        op,
        rd,
        rs1,
        rs2,
        imm,
    };
    let s = match op.format() {
        CFormat::Ciw => (prime(), multiple(4, 1020, 4))
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::Cl => (prime(), prime(), multiple(0, 124, 4))
            .prop_map(move |(rd, rs1, i)| mk(rd, rs1, 0, i))
            .boxed(),
        CFormat::Cs => (prime(), prime(), multiple(0, 124, 4))
            .prop_map(move |(rs2, rs1, i)| mk(0, rs1, rs2, i))
            .boxed(),
        CFormat::CiNop => (-32i32..32).prop_map(move |i| mk(0, 0, 0, i)).boxed(),
        CFormat::Ci => (reg(), -32i32..32)
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::Cj => even(-2048, 2046).prop_map(move |i| mk(0, 0, 0, i)).boxed(),
        CFormat::Ci16sp => multiple(-512, 496, 16)
            .prop_map(move |i| mk(0, 0, 0, i))
            .boxed(),
        CFormat::CiLui => (reg(), -32i32..32)
            .prop_map(move |(rd, v)| mk(rd, 0, 0, v << 12))
            .boxed(),
        CFormat::CbShift => (prime(), 0i32..32)
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::CbImm => (prime(), -32i32..32)
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::Ca => (prime(), prime())
            .prop_map(move |(rd, rs2)| mk(rd, 0, rs2, 0))
            .boxed(),
        CFormat::Cb => (prime(), even(-256, 254))
            .prop_map(move |(rs1, i)| mk(0, rs1, 0, i))
            .boxed(),
        CFormat::CiShift => (reg(), 0i32..32)
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::CiLwsp => (reg(), multiple(0, 252, 4))
            .prop_map(move |(rd, i)| mk(rd, 0, 0, i))
            .boxed(),
        CFormat::CrJump => reg().prop_map(move |rs1| mk(0, rs1, 0, 0)).boxed(),
        CFormat::Cr => (reg(), reg())
            .prop_map(move |(rd, rs2)| mk(rd, 0, rs2, 0))
            .boxed(),
        CFormat::CNone => Just(mk(0, 0, 0, 0)).boxed(),
        CFormat::Css => (reg(), multiple(0, 252, 4))
            .prop_map(move |(rs2, i)| mk(0, 0, rs2, i))
            .boxed(),
    };
    s.prop_filter("reserved or another form's encoding", |c| {
        cactus_isa::encode_compressed(c).is_ok()
    })
    .boxed()
}

/// Any compressed instruction that encodes (every form equally likely).
pub fn any_cinst() -> BoxedStrategy<CInst> {
    proptest::sample::select(COp::ALL)
        .prop_flat_map(cinst_of)
        .boxed()
}
