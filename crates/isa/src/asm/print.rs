//! Printing in GNU assembler syntax: ABI register names, no spaces after commas (as GCC
//! emits), `offset(reg)` memory operands, CSR names, `.aq`/`.rl` suffixes.
//!
//! Numeric branch and jump offsets print relative to the instruction, as `.+8` / `.-8`,
//! because GNU as reads a bare number there as an absolute address. Encodings GNU as has
//! no spelling for (e.g. `fence` with `rd != 0`) print as `.insn 0x...`.

use super::parse::Piece;
use super::pseudo::Pseudo;
use super::shape::{base_kinds, compressed_kinds, print_operands, Fields, Kind};
use super::{AsmInst, Imm, Spelling, Statement};
use crate::compressed::{CFormat, CInst};
use crate::format::Format;
use crate::op::{Inst, Op};
use crate::{encode, encode_compressed};
use std::fmt::{self, Display, Formatter, Write};

/// Writes a pc-relative offset as `.+N` / `.-N`.
pub(crate) fn write_rel(f: &mut impl Write, offset: i64) -> fmt::Result {
    if offset < 0 {
        write!(f, ".-{}", -offset)
    } else {
        write!(f, ".+{offset}")
    }
}

/// The `fence` operand spelling of a 4-bit pred/succ set (`iorw`, `rw`, ...).
pub(crate) fn fence_set(bits: i32) -> String {
    "iorw"
        .chars()
        .enumerate()
        .filter(|&(i, _)| bits & (8 >> i) != 0)
        .map(|(_, c)| c)
        .collect()
}

/// The `.aq` / `.rl` / `.aqrl` suffix for an AMO's `(aq << 1) | rl`.
fn aqrl_suffix(aqrl: i32) -> &'static str {
    match aqrl & 3 {
        0 => "",
        1 => ".rl",
        2 => ".aq",
        _ => ".aqrl",
    }
}

/// Whether GNU as has a mnemonic spelling for this instruction (else it prints as `.insn`).
fn has_spelling(inst: &Inst) -> bool {
    match inst.op {
        Op::Fence => {
            let (fm, pred, succ) = (inst.imm >> 8, (inst.imm >> 4) & 15, inst.imm & 15);
            let plain = fm == 0 && pred != 0 && succ != 0;
            inst.rd == 0 && inst.rs1 == 0 && (plain || inst.imm == 0x833)
        }
        Op::FenceI => inst.rd == 0 && inst.rs1 == 0 && inst.imm == 0,
        _ => true,
    }
}

fn write_statement(
    f: &mut Formatter<'_>,
    mnemonic: &str,
    kinds: &[Kind],
    fields: &Fields,
) -> fmt::Result {
    let mut out = String::from(mnemonic);
    if !kinds.is_empty() {
        out.push(' ');
        print_operands(&mut out, kinds, fields)?;
    }
    f.write_str(&out)
}

impl Display for AsmInst {
    /// GCC's spelling: `addi a0,a1,4`, `lw a0,%lo(sym)(a5)`, `beq a0,a1,.L3`,
    /// `csrrw a0,mstatus,a1`, `amoadd.w.aq a0,a2,(a1)`, `add a5,a5,tp,%tprel_add(x)`.
    /// Numeric instructions that do not encode print in Rust debug form.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let format = self.op.format();
        let mut fields = Fields {
            rd: self.rd,
            rs1: self.rs1,
            rs2: self.rs2,
            imm: self.imm.clone(),
            spelling: self.spelling,
        };
        if let Some(inst) = self.to_inst() {
            let Ok(word) = encode(&inst) else {
                return write!(f, "{self:?}");
            };
            if !has_spelling(&inst) {
                return write!(f, ".insn {word:#010x}");
            }
            if inst.op == Op::Fence && inst.imm == 0x833 {
                return f.write_str("fence.tso");
            }
        }
        let mut mnemonic = self.op.mnemonic().to_string();
        if matches!(format, Format::Amo | Format::Lr) {
            mnemonic.push_str(aqrl_suffix(self.imm.num_or_zero()));
            fields.imm = Imm::Num(0);
        }
        if format == Format::R {
            if let Imm::Sym(_) = self.imm {
                return write_statement(
                    f,
                    &mnemonic,
                    &[Kind::Rd, Kind::Rs1, Kind::Rs2, Kind::Imm],
                    &fields,
                );
            }
        }
        write_statement(f, &mnemonic, base_kinds(format), &fields)
    }
}

impl Display for Inst {
    /// GNU as syntax, e.g. `addi a0,a1,4`, `lw a0,8(sp)`, `beq a0,a1,.+8`,
    /// `csrrw a0,mstatus,a1`, `amoadd.w.aqrl a0,a2,(a1)`; see [`AsmInst`]'s `Display`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        AsmInst::from(*self).fmt(f)
    }
}

impl Display for CInst {
    /// The syntax `objdump -M no-aliases` uses (`c.addi a0,1`, `c.lw a0,4(a1)`,
    /// `c.slli a0,0x3`, `c.lui a0,0x1f`), except `c.nop` (`c.nop` or `c.nop 3`) and
    /// pc-relative targets (`c.j .+8`). Instructions that do not encode print in debug form.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if encode_compressed(self).is_err() {
            return write!(f, "{self:?}");
        }
        let kinds: &[Kind] = match self.op.format() {
            CFormat::CiNop if self.imm != 0 => &[Kind::Imm],
            format => compressed_kinds(format),
        };
        let fields = Fields {
            rd: self.rd,
            rs1: self.rs1,
            rs2: self.rs2,
            imm: Imm::Num(self.imm),
            spelling: Spelling::default(),
        };
        write_statement(f, self.op.mnemonic(), kinds, &fields)
    }
}

impl Display for Pseudo {
    /// The pseudo as written: `li a0,4096`, `call foo`, `bgt a0,a1,.L2`, `csrw mepc,a5`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let fields = Fields {
            rd: self.rd,
            rs1: self.rs1,
            rs2: self.rs2,
            imm: self.imm.clone(),
            spelling: self.spelling,
        };
        write_statement(f, self.op.mnemonic(), self.op.kinds(), &fields)
    }
}

impl Display for Statement {
    /// The statement in GCC's spelling (see the variants' `Display`).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Statement::Base(a) => a.fmt(f),
            Statement::Compressed(c) => c.fmt(f),
            Statement::Pseudo(p) => p.fmt(f),
        }
    }
}

impl Display for Piece {
    /// Labels as `name:` separated by spaces, then the statement (`1: lr.w a5,0(a0)`).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = self.labels.iter().map(|l| format!("{l}:")).collect();
        if let Some(s) = &self.statement {
            parts.push(s.to_string());
        }
        f.write_str(&parts.join(" "))
    }
}
