//! GNU assembler syntax for RV32IMAC: printing and parsing of base, compressed and
//! pseudo-instructions, with symbolic operands and relocation operators as GCC emits them.
//!
//! A [`Statement`] is one instruction as written in a `.s` file (no labels, directives or
//! comments: those belong to the assembly-file layer above). Printing follows GCC's
//! spelling (`addi a0,a1,4`, `lw a0,%lo(sym)(a5)`, `amoadd.w.aq a0,a4,0(a5)`), so
//! `parse(s).to_string() == s` for the lines GCC emits; see the crate's corpus test.

mod csr_names;
mod operand;
mod parse;
mod print;
mod pseudo;
mod shape;

pub use csr_names::{csr_name, csr_number, CSR_NAMES};
pub use operand::{Expr, Imm, Reloc};
pub use parse::{parse_line, parse_statement, parse_statements, Piece};
pub use pseudo::{split_hi_lo, Pseudo, PseudoOp};

use crate::compressed::CInst;
use crate::error::EncodeError;
use crate::op::{Inst, Op, Reg};
use crate::regs::RegSet;
use thiserror::Error;

/// A base instruction as written in assembly: like [`Inst`], but the immediate may be
/// symbolic. Numeric immediates follow [`Inst`]'s conventions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AsmInst {
    /// The operation.
    pub op: Op,
    /// Destination register.
    pub rd: Reg,
    /// First source register (or `csrr*i` uimm).
    pub rs1: Reg,
    /// Second source register.
    pub rs2: Reg,
    /// The immediate. For R-type `add` a symbol is the `%tprel_add(sym)` annotation of a
    /// TLS access, which adds no bits to the encoding.
    pub imm: Imm,
    /// How the operands were written (printing only; no effect on the encoding).
    pub spelling: Spelling,
}

impl AsmInst {
    /// The machine instruction, if every operand is known (the `%tprel_add` annotation
    /// does not count as unknown). `None` for symbolic operands.
    pub fn to_inst(&self) -> Option<Inst> {
        let imm = match (&self.imm, self.op.format()) {
            (Imm::Num(v), _) => *v,
            (Imm::Sym(e), crate::Format::R) if e.reloc == Some(Reloc::TprelAdd) => 0,
            (Imm::Sym(_), _) => return None,
        };
        Some(Inst::new(self.op, self.rd, self.rs1, self.rs2, imm))
    }

    /// The instruction with a placeholder for a symbolic immediate: registers are exact,
    /// the immediate is not.
    fn shape(&self) -> Inst {
        Inst::new(self.op, self.rd, self.rs1, self.rs2, self.imm.num_or_zero())
    }
}

impl From<Inst> for AsmInst {
    fn from(i: Inst) -> Self {
        AsmInst {
            op: i.op,
            rd: i.rd,
            rs1: i.rs1,
            rs2: i.rs2,
            imm: Imm::Num(i.imm),
            spelling: Spelling::default(),
        }
    }
}

/// Spelling choices GNU as accepts either way, remembered so that printing reproduces the
/// source exactly. The default is the canonical spelling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spelling {
    /// The immediate (or memory offset) was written in hex, as GCC writes `andi a5,a5,0xff`.
    pub hex: bool,
    /// An AMO / LR / SC address was written `0(rs1)` (as GCC 12 does) rather than `(rs1)`.
    pub zero_offset: bool,
}

/// One assembly instruction statement.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Statement {
    /// A base instruction (possibly with symbolic operands).
    Base(AsmInst),
    /// An explicit compressed instruction (`c.addi a0,1`); operands are numeric.
    Compressed(CInst),
    /// A pseudo-instruction, printed back as written.
    Pseudo(Pseudo),
}

impl Statement {
    /// Parses one statement (see [`parse_statement`]).
    pub fn parse(text: &str) -> Result<Statement, ParseError> {
        parse_statement(text)
    }

    /// The base instructions this statement stands for. `Err` if an operand is symbolic.
    pub fn expand(&self) -> Result<Vec<Inst>, AsmError> {
        match self {
            Statement::Base(a) => a
                .to_inst()
                .map(|i| vec![i])
                .ok_or_else(|| AsmError::Symbolic(a.to_string())),
            Statement::Compressed(c) => Ok(vec![c.expand()]),
            Statement::Pseudo(p) => p.expand(),
        }
    }

    /// Registers the statement reads (before writing them; never `x0`). Exact even when
    /// operands are symbolic, since registers never depend on immediates.
    pub fn reads(&self) -> RegSet {
        match self {
            Statement::Base(a) => a.shape().reads(),
            Statement::Compressed(c) => c.expand().reads(),
            Statement::Pseudo(p) => p.reads(),
        }
    }

    /// Registers the statement writes (never `x0`).
    pub fn writes(&self) -> RegSet {
        match self {
            Statement::Base(a) => a.shape().writes(),
            Statement::Compressed(c) => c.expand().writes(),
            Statement::Pseudo(p) => p.writes(),
        }
    }
}

/// Why a statement could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("cannot parse `{text}`: {reason}")]
pub struct ParseError {
    /// The statement text.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Why a statement could not be turned into machine instructions.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AsmError {
    /// An operand is a symbol; only the linker knows its value.
    #[error("`{0}` has a symbolic operand")]
    Symbolic(String),
    /// A field of the expansion does not fit.
    #[error("`{0}`: {1}")]
    Encode(String, EncodeError),
}
