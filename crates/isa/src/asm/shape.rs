//! Operand shapes: the ordered list of operand kinds each mnemonic takes, and how one
//! operand of each kind is parsed into, and printed from, instruction fields. Base formats,
//! compressed formats and pseudo-instructions all describe their syntax with these kinds,
//! so parsing and printing cannot disagree.

use super::csr_names::{csr_name, csr_number};
use super::operand::{parse_expr, parse_imm, parse_int, split_mem, Imm};
use super::print::{fence_set, write_rel};
use super::Spelling;
use crate::compressed::CFormat;
use crate::format::Format;
use crate::op::Reg;
use crate::regs::{parse_reg, reg_name};
use std::fmt::{self, Write};

/// One operand position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Register into `rd`.
    Rd,
    /// Register into `rs1`.
    Rs1,
    /// Register into `rs2`.
    Rs2,
    /// Signed immediate (or expression) into `imm`, printed in decimal.
    Imm,
    /// `li`'s value: like `Imm`, but also accepts `2^31..2^32` (wrapping, as GNU as does).
    Imm32,
    /// Like `Imm`, printed in hex (compressed shift amounts, as objdump prints them).
    HexImm,
    /// 20-bit upper immediate (`lui`, `auipc`, `c.lui`): `imm` holds it shifted left by 12.
    Hi20,
    /// `imm(rs1)`.
    Mem,
    /// `imm(sp)`: a compressed stack-relative address; the base is implicit.
    SpMem,
    /// `(rs1)` or `0(rs1)` (AMO, LR/SC addresses).
    AmoMem,
    /// Branch or jump target: `.+N`/`.-N` (pc-relative offset) or a symbolic expression.
    Target,
    /// A symbol (`la`, `lla`): always kept as an expression.
    Symbol,
    /// CSR name or number into `imm`.
    Csr,
    /// 5-bit unsigned immediate into `rs1` (`csrr*i`).
    Uimm,
    /// `fence` predecessor set into `imm` bits 7:4.
    Pred,
    /// `fence` successor set into `imm` bits 3:0.
    Succ,
    /// The literal register `sp` (implicit operand of `c.addi4spn`, `c.addi16sp`).
    Sp,
}

use Kind::*;

/// Operand values as the parser fills them and the printer reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fields {
    pub rd: Reg,
    pub rs1: Reg,
    pub rs2: Reg,
    pub imm: Imm,
    /// How the operands were written.
    pub spelling: Spelling,
}

impl Default for Fields {
    fn default() -> Self {
        Fields {
            rd: 0,
            rs1: 0,
            rs2: 0,
            imm: Imm::Num(0),
            spelling: Spelling::default(),
        }
    }
}

/// The operand kinds of a base format, in assembler order.
pub(crate) fn base_kinds(format: Format) -> &'static [Kind] {
    match format {
        Format::U => &[Rd, Hi20],
        Format::J => &[Rd, Target],
        Format::I | Format::Shift => &[Rd, Rs1, Imm],
        Format::Load => &[Rd, Mem],
        Format::B => &[Rs1, Rs2, Target],
        Format::S => &[Rs2, Mem],
        Format::R => &[Rd, Rs1, Rs2],
        Format::Fence => &[Pred, Succ],
        Format::FenceI | Format::System => &[],
        Format::Csr => &[Rd, Csr, Rs1],
        Format::CsrI => &[Rd, Csr, Uimm],
        Format::Amo => &[Rd, Rs2, AmoMem],
        Format::Lr => &[Rd, AmoMem],
    }
}

/// The operand kinds of a compressed format (`c.nop` takes its optional immediate
/// separately).
pub(crate) fn compressed_kinds(format: CFormat) -> &'static [Kind] {
    match format {
        CFormat::Ciw => &[Rd, Sp, Imm],
        CFormat::Cl => &[Rd, Mem],
        CFormat::Cs => &[Rs2, Mem],
        CFormat::CiNop | CFormat::CNone => &[],
        CFormat::Ci | CFormat::CbImm => &[Rd, Imm],
        CFormat::Cj => &[Target],
        CFormat::Ci16sp => &[Sp, Imm],
        CFormat::CiLui => &[Rd, Hi20],
        CFormat::CbShift | CFormat::CiShift => &[Rd, HexImm],
        CFormat::Ca | CFormat::Cr => &[Rd, Rs2],
        CFormat::Cb => &[Rs1, Target],
        CFormat::CiLwsp => &[Rd, SpMem],
        CFormat::CrJump => &[Rs1],
        CFormat::Css => &[Rs2, SpMem],
    }
}

/// Whether `s` is a hex literal (`0x..`, `-0x..`).
fn is_hex(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    (body.starts_with("0x") || body.starts_with("0X")) && parse_int(s).is_some()
}

fn reg(s: &str) -> Result<Reg, String> {
    parse_reg(s).ok_or_else(|| format!("`{s}` is not a register"))
}

const I32_RANGE: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);

fn fence_bits(s: &str) -> Result<i32, String> {
    let mut bits = 0;
    for c in s.chars() {
        let bit = match c {
            'i' => 8,
            'o' => 4,
            'r' => 2,
            'w' => 1,
            _ => return Err(format!("`{s}` is not a fence set (letters from `iorw`)")),
        };
        if bits & bit != 0 {
            return Err(format!("`{s}` repeats `{c}`"));
        }
        bits |= bit;
    }
    if bits == 0 {
        return Err("empty fence set".into());
    }
    Ok(bits)
}

/// Parses one operand of kind `kind` from `s` into `f`.
pub(crate) fn parse_operand(kind: Kind, s: &str, f: &mut Fields) -> Result<(), String> {
    let (lo, hi) = I32_RANGE;
    match kind {
        Rd => f.rd = reg(s)?,
        Rs1 => f.rs1 = reg(s)?,
        Rs2 => f.rs2 = reg(s)?,
        Imm | HexImm => {
            f.imm = parse_imm(s, lo, hi)?;
            f.spelling.hex |= kind == Imm && is_hex(s);
        }
        Imm32 => {
            f.imm = parse_imm(s, lo, i64::from(u32::MAX))?;
            f.spelling.hex |= is_hex(s);
        }
        Hi20 => {
            f.imm = match parse_imm(s, 0, 0xfffff)? {
                Imm::Num(v) => Imm::Num(((v as u32) << 12) as i32),
                sym => sym,
            }
        }
        Mem | SpMem | AmoMem => {
            let (off, base) = split_mem(s)
                .ok_or_else(|| format!("`{s}` is not an `offset(register)` operand"))?;
            f.rs1 = reg(base)?;
            if kind == SpMem && f.rs1 != 2 {
                return Err(format!("`{s}`: the base register must be sp"));
            }
            if kind == AmoMem {
                if !off.is_empty() && parse_int(off) != Some(0) {
                    return Err(format!("`{s}`: an atomic address takes no offset"));
                }
                f.spelling.zero_offset = !off.is_empty();
            } else {
                f.imm = if off.is_empty() {
                    Imm::Num(0)
                } else {
                    parse_imm(off, lo, hi)?
                };
                f.spelling.hex |= is_hex(off);
            }
        }
        Target => f.imm = parse_target(s)?,
        Symbol => f.imm = Imm::Sym(parse_expr(s)?),
        Csr => {
            let n = match csr_number(s) {
                Some(n) => i64::from(n),
                None => parse_int(s).ok_or_else(|| format!("`{s}` is not a CSR name or number"))?,
            };
            if !(0..4096).contains(&n) {
                return Err(format!("CSR number `{s}` is out of range 0..=4095"));
            }
            f.imm = Imm::Num(n as i32);
        }
        Uimm => match parse_int(s) {
            Some(v @ 0..=31) => f.rs1 = v as Reg,
            _ => return Err(format!("`{s}` is not an unsigned 5-bit immediate")),
        },
        Pred | Succ => {
            let bits = fence_bits(s)?;
            let old = f.imm.num_or_zero();
            let new = if kind == Pred {
                (old & !0xf0) | bits << 4
            } else {
                (old & !0xf) | bits
            };
            f.imm = Imm::Num(new);
        }
        Sp => {
            if reg(s)? != 2 {
                return Err(format!("`{s}`: this operand must be sp"));
            }
        }
    }
    Ok(())
}

/// Parses a branch/jump target: `.` / `.+N` / `.-N` are pc-relative numbers; anything else
/// (including a bare number, which GNU as reads as an absolute address) is an expression.
fn parse_target(s: &str) -> Result<Imm, String> {
    if s == "." {
        return Ok(Imm::Num(0));
    }
    if let Some(rest) = s.strip_prefix('.') {
        if rest.starts_with(['+', '-']) {
            if let Some(v) = parse_int(rest) {
                return i32::try_from(v)
                    .map(Imm::Num)
                    .map_err(|_| format!("`{s}` is out of range"));
            }
        }
    }
    parse_expr(s).map(Imm::Sym)
}

fn write_imm(out: &mut String, imm: &Imm, hex: bool) -> fmt::Result {
    match imm {
        Imm::Num(v) if hex && *v < 0 => write!(out, "-{:#x}", v.unsigned_abs()),
        Imm::Num(v) if hex => write!(out, "{v:#x}"),
        Imm::Num(v) => write!(out, "{v}"),
        Imm::Sym(e) => write!(out, "{e}"),
    }
}

/// Appends the operands of shape `kinds` (comma-separated, no spaces) to `out`.
pub(crate) fn print_operands(out: &mut String, kinds: &[Kind], f: &Fields) -> fmt::Result {
    for (i, &kind) in kinds.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match kind {
            Rd => out.push_str(reg_name(f.rd)),
            Rs1 => out.push_str(reg_name(f.rs1)),
            Rs2 => out.push_str(reg_name(f.rs2)),
            Imm32 if f.spelling.hex => match f.imm {
                // GNU as reads `li a0,0xffffffff` as -1; print it back the same way.
                Imm::Num(v) => write!(out, "{:#x}", v as u32)?,
                ref sym => write_imm(out, sym, false)?,
            },
            Imm | Imm32 | Symbol => write_imm(out, &f.imm, f.spelling.hex)?,
            HexImm => write_imm(out, &f.imm, true)?,
            Hi20 => match &f.imm {
                Imm::Num(v) => write!(out, "{:#x}", (*v as u32) >> 12)?,
                sym => write_imm(out, sym, false)?,
            },
            Mem => {
                write_imm(out, &f.imm, f.spelling.hex)?;
                write!(out, "({})", reg_name(f.rs1))?;
            }
            SpMem => {
                write_imm(out, &f.imm, false)?;
                out.push_str("(sp)");
            }
            AmoMem => {
                let zero = if f.spelling.zero_offset { "0" } else { "" };
                write!(out, "{zero}({})", reg_name(f.rs1))?;
            }
            Target => match &f.imm {
                Imm::Num(v) => write_rel(out, i64::from(*v))?,
                sym => write_imm(out, sym, false)?,
            },
            Csr => match f.imm.num().and_then(|n| u16::try_from(n).ok()) {
                Some(n) => match csr_name(n) {
                    Some(name) => out.push_str(name),
                    None => write!(out, "{n:#x}")?,
                },
                None => write_imm(out, &f.imm, false)?,
            },
            Uimm => write!(out, "{}", f.rs1)?,
            Pred => out.push_str(&fence_set(f.imm.num_or_zero() >> 4)),
            Succ => out.push_str(&fence_set(f.imm.num_or_zero())),
            Sp => out.push_str("sp"),
        }
    }
    Ok(())
}
