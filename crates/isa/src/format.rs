//! Operand formats: for each, how the fields of [`Inst`] are extracted from and packed
//! into a 32-bit word. Together with a table row's match/mask this is the whole
//! encoding of an instruction.

use crate::error::EncodeError;
use crate::op::Inst;

/// The operand format of a base instruction. Decides bit layout, assembler syntax and
/// which registers are read and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `rd, imm20` (`lui`, `auipc`); writes rd.
    U,
    /// `rd, offset` (`jal`); writes rd.
    J,
    /// `rd, rs1, imm12` (ALU-immediate); reads rs1, writes rd.
    I,
    /// `rd, imm12(rs1)` (loads, `jalr`); reads rs1, writes rd.
    Load,
    /// `rd, rs1, shamt` (`slli`, `srli`, `srai`); reads rs1, writes rd.
    Shift,
    /// `rs1, rs2, offset` (branches); reads rs1 and rs2.
    B,
    /// `rs2, imm12(rs1)` (stores); reads rs1 and rs2.
    S,
    /// `rd, rs1, rs2`; reads rs1 and rs2, writes rd.
    R,
    /// `pred, succ` (`fence`); no registers.
    Fence,
    /// `fence.i`; no registers.
    FenceI,
    /// No operands (`ecall`, `ebreak`, `mret`, `wfi`).
    System,
    /// `rd, csr, rs1`; reads rs1, writes rd.
    Csr,
    /// `rd, csr, uimm5` (uimm in `rs1`); writes rd.
    CsrI,
    /// `rd, rs2, (rs1)` with aq/rl (`sc.w`, AMOs); reads rs1 and rs2, writes rd.
    Amo,
    /// `rd, (rs1)` with aq/rl (`lr.w`); reads rs1, writes rd.
    Lr,
}

/// Which of the `rd`, `rs1`, `rs2` fields a format encodes as registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// `rd` is a register field.
    pub rd: bool,
    /// `rs1` is a register field (for `CsrI` it holds the 5-bit uimm instead).
    pub rs1: bool,
    /// `rs2` is a register field.
    pub rs2: bool,
}

impl Format {
    /// Which register fields this format has.
    pub const fn fields(self) -> Fields {
        let (rd, rs1, rs2) = match self {
            Format::U | Format::J => (true, false, false),
            Format::I | Format::Load | Format::Shift | Format::Lr => (true, true, false),
            Format::B | Format::S => (false, true, true),
            Format::R | Format::Amo => (true, true, true),
            Format::Fence | Format::FenceI | Format::Csr | Format::CsrI => (true, true, false),
            Format::System => (false, false, false),
        };
        Fields { rd, rs1, rs2 }
    }

    /// Extracts `(rd, rs1, rs2, imm)` from a word already known to match this format.
    #[inline]
    pub(crate) const fn extract(self, raw: u32) -> (u8, u8, u8, i32) {
        let rd = ((raw >> 7) & 0x1f) as u8;
        let rs1 = ((raw >> 15) & 0x1f) as u8;
        let rs2 = ((raw >> 20) & 0x1f) as u8;
        let upper12 = ((raw >> 20) & 0xfff) as i32;
        match self {
            Format::U => (rd, 0, 0, (raw & 0xffff_f000) as i32),
            Format::J => (rd, 0, 0, imm_j(raw)),
            Format::I | Format::Load => (rd, rs1, 0, (raw as i32) >> 20),
            Format::Shift => (rd, rs1, 0, rs2 as i32),
            Format::B => (0, rs1, rs2, imm_b(raw)),
            Format::S => (0, rs1, rs2, imm_s(raw)),
            Format::R => (rd, rs1, rs2, 0),
            Format::Fence | Format::FenceI | Format::Csr | Format::CsrI => (rd, rs1, 0, upper12),
            Format::System => (0, 0, 0, 0),
            Format::Amo => (rd, rs1, rs2, ((raw >> 25) & 3) as i32),
            Format::Lr => (rd, rs1, 0, ((raw >> 25) & 3) as i32),
        }
    }

    /// Packs the fields of `inst` into the bits this format owns (everything outside the
    /// op's mask). Fields the format does not have must be zero.
    pub(crate) fn pack(self, inst: &Inst) -> Result<u32, EncodeError> {
        let name = inst.op.mnemonic();
        let f = self.fields();
        let reg = |field: &'static str, value: u8, present: bool| -> Result<u32, EncodeError> {
            let limit = if present { 31 } else { 0 };
            if value > limit {
                return Err(EncodeError::FieldOutOfRange {
                    mnemonic: name,
                    field,
                    value: value.into(),
                    expected: if present {
                        "0..=31"
                    } else {
                        "0 (field absent)"
                    },
                });
            }
            Ok(u32::from(value))
        };
        let rd = reg("rd", inst.rd, f.rd)? << 7;
        let rs1 = reg("rs1", inst.rs1, f.rs1)? << 15;
        let rs2 = reg("rs2", inst.rs2, f.rs2)? << 20;
        let imm = inst.imm;
        let bad = |expected: &'static str| EncodeError::FieldOutOfRange {
            mnemonic: name,
            field: "imm",
            value: imm.into(),
            expected,
        };
        let regs = rd | rs1 | rs2;
        let bits = match self {
            Format::U if imm & 0xfff == 0 => imm as u32,
            Format::U => return Err(bad("a multiple of 4096")),
            Format::J if imm & 1 == 0 && fits_signed(imm, 21) => pack_j(imm),
            Format::J => return Err(bad("an even value in -1048576..=1048574")),
            Format::I | Format::Load if fits_signed(imm, 12) => (imm as u32) << 20,
            Format::I | Format::Load => return Err(bad("-2048..=2047")),
            Format::Shift if (0..32).contains(&imm) => (imm as u32) << 20,
            Format::Shift => return Err(bad("0..=31")),
            Format::B if imm & 1 == 0 && fits_signed(imm, 13) => pack_b(imm),
            Format::B => return Err(bad("an even value in -4096..=4094")),
            Format::S if fits_signed(imm, 12) => pack_s(imm),
            Format::S => return Err(bad("-2048..=2047")),
            Format::R | Format::System if imm == 0 => 0,
            Format::R | Format::System => return Err(bad("0 (field absent)")),
            Format::Fence | Format::FenceI | Format::Csr | Format::CsrI
                if (0..4096).contains(&imm) =>
            {
                (imm as u32) << 20
            }
            Format::Fence | Format::FenceI | Format::Csr | Format::CsrI => {
                return Err(bad("0..=4095"))
            }
            Format::Amo | Format::Lr if (0..4).contains(&imm) => (imm as u32) << 25,
            Format::Amo | Format::Lr => return Err(bad("0..=3 ((aq << 1) | rl)")),
        };
        Ok(regs | bits)
    }
}

const fn fits_signed(v: i32, bits: u32) -> bool {
    let min = -(1i32 << (bits - 1));
    let max = (1i32 << (bits - 1)) - 1;
    v >= min && v <= max
}

const fn imm_s(raw: u32) -> i32 {
    (((raw as i32) >> 25) << 5) | ((raw >> 7) & 0x1f) as i32
}

const fn imm_b(raw: u32) -> i32 {
    let sign = ((raw as i32) >> 31) << 12;
    let b11 = ((raw >> 7) & 1) << 11;
    let b10_5 = ((raw >> 25) & 0x3f) << 5;
    let b4_1 = ((raw >> 8) & 0xf) << 1;
    sign | (b11 | b10_5 | b4_1) as i32
}

const fn imm_j(raw: u32) -> i32 {
    let sign = ((raw as i32) >> 31) << 20;
    let b19_12 = raw & 0x000f_f000;
    let b11 = ((raw >> 20) & 1) << 11;
    let b10_1 = ((raw >> 21) & 0x3ff) << 1;
    sign | (b19_12 | b11 | b10_1) as i32
}

fn pack_s(imm: i32) -> u32 {
    let v = imm as u32;
    ((v >> 5) & 0x7f) << 25 | (v & 0x1f) << 7
}

fn pack_b(imm: i32) -> u32 {
    let v = imm as u32;
    ((v >> 12) & 1) << 31 | ((v >> 5) & 0x3f) << 25 | ((v >> 1) & 0xf) << 8 | ((v >> 11) & 1) << 7
}

fn pack_j(imm: i32) -> u32 {
    let v = imm as u32;
    ((v >> 20) & 1) << 31 | ((v >> 1) & 0x3ff) << 21 | ((v >> 11) & 1) << 20 | (v & 0x000f_f000)
}
