//! RV32C: the compressed forms, their own table, decoding, encoding and expansion to base
//! instructions.
//!
//! A [`CInst`] holds the operands the form's assembler syntax names, with the same
//! meaning as the expanded [`Inst`]'s fields: registers are full numbers (`x8`..`x15` for
//! the 3-bit fields), implicit registers (`sp`, `ra`, `x0`, the repeated `rd` of
//! two-address forms) are 0, and `imm` is the value the expanded instruction gets
//! (byte offsets, `c.lui`'s shifted value, shift amounts).

mod layout;
mod table;

use crate::error::{DecodeError, EncodeError};
use crate::op::{Inst, Op, Reg};
use layout::ImmLayout;
pub use table::{CFormat, COp};

/// A compressed instruction (see the module docs for field conventions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CInst {
    /// The compressed form.
    pub op: COp,
    /// Destination (also first source for two-address forms such as `c.addi`, `c.sub`).
    pub rd: Reg,
    /// Base or source register of `c.lw`, `c.sw`, `c.beqz`, `c.bnez`, `c.jr`, `c.jalr`.
    pub rs1: Reg,
    /// Second source register.
    pub rs2: Reg,
    /// Immediate, as in the expanded instruction.
    pub imm: i32,
}

/// Where a form keeps one register field in the halfword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegField {
    /// The form has no such operand.
    Absent,
    /// A 5-bit field whose low bit is at the given position.
    Full(u8),
    /// A 3-bit field (`x8`..`x15`) whose low bit is at the given position.
    Prime(u8),
}

impl RegField {
    fn extract(self, raw: u16) -> Reg {
        match self {
            RegField::Absent => 0,
            RegField::Full(at) => ((raw >> at) & 0x1f) as Reg,
            RegField::Prime(at) => ((raw >> at) & 0x7) as Reg + 8,
        }
    }

    fn pack(self, name: &'static str, field: &'static str, r: Reg) -> Result<u16, EncodeError> {
        let (ok, expected) = match self {
            RegField::Absent => (r == 0, "0 (implicit operand)"),
            RegField::Full(_) => (r < 32, "0..=31"),
            RegField::Prime(_) => ((8..16).contains(&r), "8..=15 (s0-s1, a0-a5)"),
        };
        if !ok {
            return Err(EncodeError::FieldOutOfRange {
                mnemonic: name,
                field,
                value: r.into(),
                expected,
            });
        }
        Ok(match self {
            RegField::Absent => 0,
            RegField::Full(at) => u16::from(r) << at,
            RegField::Prime(at) => u16::from(r - 8) << at,
        })
    }
}

/// An operand that must be nonzero for some forms.
#[derive(Clone, Copy)]
enum Operand {
    Imm,
    Rd,
    Rs1,
    Rs2,
}

/// Which operand must be nonzero for a form (else it is reserved, or another form).
fn nonzero_rule(op: COp) -> Option<(Operand, &'static str)> {
    Some(match op {
        COp::Addi4spn => (Operand::Imm, "nzuimm = 0 is reserved"),
        COp::Addi16sp => (Operand::Imm, "nzimm = 0 is reserved"),
        COp::Lui => (Operand::Imm, "nzimm = 0 is reserved"),
        COp::Lwsp => (Operand::Rd, "rd = x0 is reserved"),
        COp::Jr => (Operand::Rs1, "rs1 = x0 is reserved"),
        COp::Addi => (Operand::Rd, "rd = x0 is c.nop"),
        COp::Jalr => (Operand::Rs1, "rs1 = x0 is c.ebreak"),
        COp::Mv => (Operand::Rs2, "rs2 = x0 is c.jr"),
        COp::Add => (Operand::Rs2, "rs2 = x0 is c.jalr / c.ebreak"),
        _ => return None,
    })
}

fn violates_rule(c: &CInst) -> Option<&'static str> {
    let (operand, reason) = nonzero_rule(c.op)?;
    let zero = match operand {
        Operand::Imm => c.imm == 0,
        Operand::Rd => c.rd == 0,
        Operand::Rs1 => c.rs1 == 0,
        Operand::Rs2 => c.rs2 == 0,
    };
    if zero {
        return Some(reason);
    }
    (c.op == COp::Lui && c.rd == 2).then_some("rd = sp is c.addi16sp")
}

/// Most table rows sharing one (funct3, quadrant) pair (quadrant 1, funct3 100 has 7).
const BUCKET: usize = 8;
const EMPTY: u8 = u8::MAX;

/// Bucket of a halfword: `funct3 << 2 | quadrant`.
const fn bucket(raw: u16) -> usize {
    (((raw >> 13) << 2) | (raw & 3)) as usize
}

/// For each (funct3, quadrant), the table indices of its rows, in table order.
static BY_FUNCT3: [[u8; BUCKET]; 32] = build_index();

const fn build_index() -> [[u8; BUCKET]; 32] {
    let mut index = [[EMPTY; BUCKET]; 32];
    let mut count = [0usize; 32];
    let mut i = 0;
    while i < COp::ALL.len() {
        let op = COp::ALL[i];
        assert!(
            op as usize == i,
            "COp discriminants must follow table order"
        );
        assert!(
            op.mask_bits() & 0xe003 == 0xe003,
            "rows must fix funct3 and quadrant"
        );
        let b = bucket(op.match_bits());
        assert!(count[b] < BUCKET, "too many rows for one funct3");
        index[b][count[b]] = i as u8;
        count[b] += 1;
        i += 1;
    }
    index
}

/// Decodes a 16-bit compressed instruction. `Err` for the all-zero halfword, reserved
/// encodings, forms of other extensions (F/D loads and stores) and 32-bit encodings.
pub fn decode_compressed(raw: u16) -> Result<CInst, DecodeError> {
    let word = u32::from(raw);
    if raw & 3 == 3 {
        return Err(DecodeError::new(
            word,
            "not a compressed encoding (low bits are 0b11)",
        ));
    }
    if raw == 0 {
        return Err(DecodeError::new(word, "the all-zero halfword is illegal"));
    }
    let op = BY_FUNCT3[bucket(raw)]
        .iter()
        .take_while(|&&i| i != EMPTY)
        .map(|&i| COp::ALL[usize::from(i)])
        .find(|op| raw & op.mask_bits() == op.match_bits())
        .ok_or(DecodeError::new(
            word,
            "no RV32C instruction has this encoding",
        ))?;
    let f = op.format();
    let (rd, rs1, rs2) = f.regs();
    let c = CInst {
        op,
        rd: rd.extract(raw),
        rs1: rs1.extract(raw),
        rs2: rs2.extract(raw),
        imm: f.imm().map_or(0, |l| l.extract(raw)),
    };
    match violates_rule(&c) {
        Some(reason) => Err(DecodeError::new(word, reason)),
        None => Ok(c),
    }
}

/// Encodes a compressed instruction to its halfword. `Err` if a register is outside the
/// form's range (`x8`..`x15` for 3-bit fields), an implicit operand is nonzero, the
/// immediate does not fit, or the combination is reserved or belongs to another form.
/// For every `c` that encodes, `decode_compressed(encode_compressed(c)) == Ok(c)`.
pub fn encode_compressed(c: &CInst) -> Result<u16, EncodeError> {
    let name = c.op.mnemonic();
    let f = c.op.format();
    let (rd, rs1, rs2) = f.regs();
    let mut raw = c.op.match_bits();
    raw |= rd.pack(name, "rd", c.rd)?;
    raw |= rs1.pack(name, "rs1", c.rs1)?;
    raw |= rs2.pack(name, "rs2", c.rs2)?;
    raw |= pack_imm(name, f.imm(), c.imm)?;
    if let Some(reason) = violates_rule(c) {
        return Err(EncodeError::Reserved {
            mnemonic: name,
            reason,
        });
    }
    debug_assert_eq!(raw & c.op.mask_bits(), c.op.match_bits());
    Ok(raw)
}

fn pack_imm(name: &'static str, layout: Option<ImmLayout>, imm: i32) -> Result<u16, EncodeError> {
    match layout {
        None if imm == 0 => Ok(0),
        None => Err(EncodeError::FieldOutOfRange {
            mnemonic: name,
            field: "imm",
            value: imm.into(),
            expected: "0 (no immediate)",
        }),
        Some(l) if l.fits(imm) => Ok(l.pack(imm)),
        Some(l) => Err(EncodeError::FieldOutOfRange {
            mnemonic: name,
            field: "imm",
            value: imm.into(),
            expected: l.describe(),
        }),
    }
}

/// The compressed form of `inst`, if one exists: the first form in table order whose
/// expansion is exactly `inst` (e.g. `addi a0,zero,5` gives `c.li a0,5`). GNU as may pick
/// another form where several fit (`addi sp,sp,-16`), but every answer has the same
/// expansion and length.
pub fn compress(inst: &Inst) -> Option<CInst> {
    COp::ALL.iter().find_map(|&op| {
        let (rd, rs1, rs2) = op.format().regs();
        let pick = |field: RegField, r: Reg| if field == RegField::Absent { 0 } else { r };
        let imm = if op.format().imm().is_some() {
            inst.imm
        } else {
            0
        };
        // Two-address and implicit-register forms take their operands from the fields
        // the expansion uses; `c.beqz`/`c.bnez` keep the tested register in rs1.
        let c = CInst::new(
            op,
            pick(rd, inst.rd),
            pick(rs1, inst.rs1),
            pick(rs2, inst.rs2),
            imm,
        );
        (encode_compressed(&c).is_ok() && c.expand() == *inst).then_some(c)
    })
}

impl CInst {
    /// An instruction with the given form and operands.
    pub const fn new(op: COp, rd: Reg, rs1: Reg, rs2: Reg, imm: i32) -> Self {
        CInst {
            op,
            rd,
            rs1,
            rs2,
            imm,
        }
    }

    /// The base instruction this form stands for (as the RV32C spec defines it).
    pub fn expand(&self) -> Inst {
        let (rd, rs1, rs2, imm) = (self.rd, self.rs1, self.rs2, self.imm);
        let i = Inst::new;
        match self.op {
            COp::Addi4spn => i(Op::Addi, rd, 2, 0, imm),
            COp::Lw => i(Op::Lw, rd, rs1, 0, imm),
            COp::Sw => i(Op::Sw, 0, rs1, rs2, imm),
            COp::Nop => i(Op::Addi, 0, 0, 0, imm),
            COp::Addi => i(Op::Addi, rd, rd, 0, imm),
            COp::Jal => i(Op::Jal, 1, 0, 0, imm),
            COp::Li => i(Op::Addi, rd, 0, 0, imm),
            COp::Addi16sp => i(Op::Addi, 2, 2, 0, imm),
            COp::Lui => i(Op::Lui, rd, 0, 0, imm),
            COp::Srli => i(Op::Srli, rd, rd, 0, imm),
            COp::Srai => i(Op::Srai, rd, rd, 0, imm),
            COp::Andi => i(Op::Andi, rd, rd, 0, imm),
            COp::Sub => i(Op::Sub, rd, rd, rs2, 0),
            COp::Xor => i(Op::Xor, rd, rd, rs2, 0),
            COp::Or => i(Op::Or, rd, rd, rs2, 0),
            COp::And => i(Op::And, rd, rd, rs2, 0),
            COp::J => i(Op::Jal, 0, 0, 0, imm),
            COp::Beqz => i(Op::Beq, 0, rs1, 0, imm),
            COp::Bnez => i(Op::Bne, 0, rs1, 0, imm),
            COp::Slli => i(Op::Slli, rd, rd, 0, imm),
            COp::Lwsp => i(Op::Lw, rd, 2, 0, imm),
            COp::Jr => i(Op::Jalr, 0, rs1, 0, 0),
            COp::Mv => i(Op::Add, rd, 0, rs2, 0),
            COp::Ebreak => i(Op::Ebreak, 0, 0, 0, 0),
            COp::Jalr => i(Op::Jalr, 1, rs1, 0, 0),
            COp::Add => i(Op::Add, rd, rd, rs2, 0),
            COp::Swsp => i(Op::Sw, 0, 2, rs2, imm),
        }
    }
}
