//! Parsing of assembly statements: mnemonic lookup (base, `.aq`/`.rl` suffixes,
//! `fence.tso`, `.insn`, compressed, pseudo) and operand parsing by shape.

use super::operand::{parse_int, split_operands, Imm, Reloc};
use super::pseudo::{Pseudo, PseudoOp};
use super::shape::{base_kinds, compressed_kinds, parse_operand, Fields, Kind};
use super::{AsmInst, ParseError, Statement};
use crate::compressed::{encode_compressed, CFormat, CInst, COp};
use crate::decode::decode_base;
use crate::format::Format;
use crate::op::{Inst, Op};
use crate::{decode_compressed, encode};

/// Parses every `;`-separated statement of one line (GCC writes e.g.
/// `fence iorw,ow; amoadd.w.aq a0,a4,0(a5)` on one line). Empty pieces are skipped.
/// The line must hold no label, directive or comment.
pub fn parse_statements(line: &str) -> Result<Vec<Statement>, ParseError> {
    line.split(';')
        .filter(|s| !s.trim().is_empty())
        .map(parse_statement)
        .collect()
}

/// One `;`-separated piece of a line: local labels (`1:`, `.L3:`) followed by at most one
/// statement. GCC writes e.g. `1: lr.w a5,0(a0); bne a5,a1,1f; sc.w.aq a4,a2,0(a0); bnez
/// a4,1b; 1:` on one line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Labels defined before the statement, in order, without the `:`.
    pub labels: Vec<String>,
    /// The statement, if the piece has one.
    pub statement: Option<Statement>,
}

/// Parses a line of `;`-separated pieces, each optionally starting with labels. The line
/// must hold no directive or comment. Printing the pieces joined by `"; "` gives back GCC's
/// spelling.
pub fn parse_line(line: &str) -> Result<Vec<Piece>, ParseError> {
    let mut pieces = Vec::new();
    for raw in line.split(';') {
        let mut rest = raw.trim();
        let mut labels = Vec::new();
        while let Some((name, after)) = split_label(rest) {
            labels.push(name.to_string());
            rest = after.trim_start();
        }
        let statement = if rest.is_empty() {
            None
        } else {
            Some(parse_statement(rest)?)
        };
        if labels.is_empty() && statement.is_none() {
            continue;
        }
        pieces.push(Piece { labels, statement });
    }
    Ok(pieces)
}

/// Splits a leading `label:` off `s` (label: a symbol name or a decimal local label).
fn split_label(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || "_.$".contains(c)))?;
    let (name, rest) = s.split_at(end);
    let valid = !name.is_empty() && !name.starts_with('%');
    (valid && rest.starts_with(':')).then(|| (name, &rest[1..]))
}

/// Parses one instruction statement, e.g. `addi a0,a1,4`, `lw a5,%lo(x)(a5)`, `call foo`,
/// `c.addi a0,1`, `.insn 0x0ff5000f`. Registers may be ABI names, `fp` or `x0`..`x31`;
/// whitespace around operands is ignored. Numeric operands are range-checked.
pub fn parse_statement(text: &str) -> Result<Statement, ParseError> {
    let err = |reason: String| ParseError {
        text: text.trim().to_string(),
        reason,
    };
    let t = text.trim();
    let (mnemonic, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let ops = split_operands(rest);
    parse_parts(mnemonic, &ops).map_err(err)
}

fn parse_parts(mnemonic: &str, ops: &[&str]) -> Result<Statement, String> {
    if mnemonic == ".insn" {
        return parse_insn(ops);
    }
    if let Some(op) = COp::from_mnemonic(mnemonic) {
        return parse_compressed(op, ops).map(Statement::Compressed);
    }
    if mnemonic.starts_with("c.") {
        return Err(format!("unknown compressed instruction `{mnemonic}`"));
    }
    if mnemonic == "fence.tso" && ops.is_empty() {
        let inst = Inst::new(Op::Fence, 0, 0, 0, 0x833);
        return Ok(Statement::Base(inst.into()));
    }
    if let Some((op, aqrl)) = base_op(mnemonic) {
        let kinds = base_kinds(op.format());
        if ops.len() == kinds.len() {
            let base = parse_base(op, aqrl, kinds, ops);
            // `lw rd,sym` has a load's operand count: it is the symbol form when the address
            // is a plain symbol expression (a name first; no base register, no relocation).
            let plain = |o: &str| {
                let o = o.trim();
                o.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '.')
                    && !o.contains('(')
                    && !o.contains('%')
            };
            return match (base, PseudoOp::from_mnemonic(mnemonic)) {
                (Err(e), Some(p)) if ops.last().is_some_and(|o| plain(o)) => {
                    parse_pseudo(p, ops).map(Statement::Pseudo).map_err(|_| e)
                }
                (base, _) => base,
            };
        }
        if op == Op::Add && ops.len() == 4 {
            return parse_tprel_add(ops);
        }
        if op == Op::Jalr && ops.len() == 3 {
            return parse_base(op, 0, &[Kind::Rd, Kind::Rs1, Kind::Imm], ops);
        }
        if PseudoOp::from_mnemonic(mnemonic).is_none() {
            return Err(count_error(mnemonic, kinds.len(), ops.len()));
        }
    }
    if let Some(op) = PseudoOp::from_mnemonic(csr_immediate_alias(mnemonic, ops)) {
        return parse_pseudo(op, ops).map(Statement::Pseudo);
    }
    Err(format!("unknown instruction `{mnemonic}`"))
}

/// GNU as accepts `csrw csr,imm` (likewise `csrs`, `csrc`) for the immediate forms
/// `csrwi`/`csrsi`/`csrci`; such a line parses as the immediate form (and prints as it).
fn csr_immediate_alias<'a>(mnemonic: &'a str, ops: &[&str]) -> &'a str {
    let immediate = ops.len() == 2 && parse_int(ops[1].trim()).is_some();
    match mnemonic {
        "csrw" if immediate => "csrwi",
        "csrs" if immediate => "csrsi",
        "csrc" if immediate => "csrci",
        _ => mnemonic,
    }
}

fn count_error(mnemonic: &str, expected: usize, found: usize) -> String {
    format!("`{mnemonic}` takes {expected} operand(s), found {found}")
}

/// The base op of `mnemonic`, with the `(aq << 1) | rl` of an AMO suffix.
fn base_op(mnemonic: &str) -> Option<(Op, i32)> {
    if let Some(op) = Op::from_mnemonic(mnemonic) {
        return Some((op, 0));
    }
    for (suffix, aqrl) in [(".aqrl", 3), (".aq", 2), (".rl", 1)] {
        if let Some(op) = mnemonic.strip_suffix(suffix).and_then(Op::from_mnemonic) {
            if matches!(op.format(), Format::Amo | Format::Lr) {
                return Some((op, aqrl));
            }
        }
    }
    None
}

fn parse_fields(kinds: &[Kind], ops: &[&str]) -> Result<Fields, String> {
    let mut f = Fields::default();
    for (&kind, &text) in kinds.iter().zip(ops) {
        parse_operand(kind, text, &mut f)?;
    }
    Ok(f)
}

fn parse_base(op: Op, aqrl: i32, kinds: &[Kind], ops: &[&str]) -> Result<Statement, String> {
    let mut f = parse_fields(kinds, ops)?;
    if matches!(op.format(), Format::Amo | Format::Lr) {
        f.imm = Imm::Num(aqrl);
    }
    let a = AsmInst {
        op,
        rd: f.rd,
        rs1: f.rs1,
        rs2: f.rs2,
        imm: f.imm,
        spelling: f.spelling,
    };
    if let Some(inst) = a.to_inst() {
        encode(&inst).map_err(|e| e.to_string())?;
    }
    Ok(Statement::Base(a))
}

fn parse_tprel_add(ops: &[&str]) -> Result<Statement, String> {
    let Statement::Base(mut a) = parse_base(Op::Add, 0, base_kinds(Format::R), &ops[..3])? else {
        unreachable!("parse_base returns Base");
    };
    let mut f = Fields::default();
    parse_operand(Kind::Imm, ops[3], &mut f)?;
    match f.imm {
        Imm::Sym(e) if e.reloc == Some(Reloc::TprelAdd) => a.imm = Imm::Sym(e),
        _ => {
            return Err(format!(
                "`{}`: the fourth operand of add must be %tprel_add(...)",
                ops[3]
            ))
        }
    }
    Ok(Statement::Base(a))
}

fn parse_insn(ops: &[&str]) -> Result<Statement, String> {
    let [text] = ops else {
        return Err(count_error(".insn", 1, ops.len()));
    };
    let value = parse_int(text).ok_or_else(|| format!("`{text}`: .insn takes one number"))?;
    let word = u32::try_from(value).map_err(|_| format!("`{text}` is not a 32-bit value"))?;
    if word & 3 != 3 {
        let half =
            u16::try_from(word).map_err(|_| format!("`{text}`: compressed value over 16 bits"))?;
        return decode_compressed(half)
            .map(Statement::Compressed)
            .map_err(|e| e.to_string());
    }
    decode_base(word)
        .map(|i| Statement::Base(i.into()))
        .map_err(|e| e.to_string())
}

fn parse_compressed(op: COp, ops: &[&str]) -> Result<CInst, String> {
    let kinds: &[Kind] = match op.format() {
        CFormat::CiNop if ops.len() == 1 => &[Kind::Imm],
        f => compressed_kinds(f),
    };
    if ops.len() != kinds.len() {
        return Err(count_error(op.mnemonic(), kinds.len(), ops.len()));
    }
    let f = parse_fields(kinds, ops)?;
    let Imm::Num(imm) = f.imm else {
        return Err(format!("`{}` takes numeric operands only", op.mnemonic()));
    };
    let rs1 = if kinds.contains(&Kind::SpMem) {
        0
    } else {
        f.rs1
    };
    let c = CInst {
        op,
        rd: f.rd,
        rs1,
        rs2: f.rs2,
        imm,
    };
    encode_compressed(&c).map_err(|e| e.to_string())?;
    Ok(c)
}

fn parse_pseudo(op: PseudoOp, ops: &[&str]) -> Result<Pseudo, String> {
    let kinds = op.kinds();
    if ops.len() != kinds.len() {
        return Err(count_error(op.mnemonic(), kinds.len(), ops.len()));
    }
    let f = parse_fields(kinds, ops)?;
    let p = Pseudo {
        op,
        rd: f.rd,
        rs1: f.rs1,
        rs2: f.rs2,
        imm: f.imm,
        spelling: f.spelling,
    };
    if matches!(p.imm, Imm::Num(_)) && !op.always_symbolic() {
        p.expand().map_err(|e| e.to_string())?;
    }
    Ok(p)
}
