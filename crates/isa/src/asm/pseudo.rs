//! Pseudo-instructions GCC emits: their own small table (mnemonic and operand shape), their
//! expansion to base instructions as GNU as performs it, and their register effects
//! (computed from the expansion, so they cannot drift from the base table).

use super::operand::Imm;
use super::shape::Kind::{self, *};
use super::{AsmError, Spelling};
use crate::encode;
use crate::op::{Inst, Op, Reg};
use crate::regs::RegSet;

macro_rules! pseudo_table {
    ($( $variant:ident => $mnemonic:literal, [$($kind:ident),*]; )*) => {
        /// Every pseudo-instruction the assembly layer understands.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum PseudoOp {
            $(
                #[doc = concat!("`", $mnemonic, "`")]
                $variant,
            )*
        }

        impl PseudoOp {
            /// Every pseudo-instruction, in table order.
            pub const ALL: &'static [PseudoOp] = &[$(PseudoOp::$variant),*];

            /// The mnemonic, e.g. `"beqz"`, `"zext.b"`.
            pub const fn mnemonic(self) -> &'static str {
                match self { $(PseudoOp::$variant => $mnemonic,)* }
            }

            /// Operand kinds in assembler order.
            pub(crate) const fn kinds(self) -> &'static [Kind] {
                match self { $(PseudoOp::$variant => &[$($kind),*],)* }
            }
        }
    };
}

pseudo_table! {
    Nop       => "nop",        [];
    Li        => "li",         [Rd, Imm32];
    La        => "la",         [Rd, Symbol];
    Lla       => "lla",        [Rd, Symbol];
    Mv        => "mv",         [Rd, Rs1];
    Not       => "not",        [Rd, Rs1];
    Neg       => "neg",        [Rd, Rs1];
    Seqz      => "seqz",       [Rd, Rs1];
    Snez      => "snez",       [Rd, Rs1];
    Sltz      => "sltz",       [Rd, Rs1];
    Sgtz      => "sgtz",       [Rd, Rs1];
    ZextB     => "zext.b",     [Rd, Rs1];
    Sgt       => "sgt",        [Rd, Rs1, Rs2];
    Sgtu      => "sgtu",       [Rd, Rs1, Rs2];
    Beqz      => "beqz",       [Rs1, Target];
    Bnez      => "bnez",       [Rs1, Target];
    Blez      => "blez",       [Rs1, Target];
    Bgez      => "bgez",       [Rs1, Target];
    Bltz      => "bltz",       [Rs1, Target];
    Bgtz      => "bgtz",       [Rs1, Target];
    Bgt       => "bgt",        [Rs1, Rs2, Target];
    Ble       => "ble",        [Rs1, Rs2, Target];
    Bgtu      => "bgtu",       [Rs1, Rs2, Target];
    Bleu      => "bleu",       [Rs1, Rs2, Target];
    J         => "j",          [Target];
    Jal       => "jal",        [Target];
    Call      => "call",       [Target];
    Tail      => "tail",       [Target];
    Jr        => "jr",         [Rs1];
    Jalr      => "jalr",       [Rs1];
    Ret       => "ret",        [];
    Csrr      => "csrr",       [Rd, Csr];
    Csrw      => "csrw",       [Csr, Rs1];
    Csrs      => "csrs",       [Csr, Rs1];
    Csrc      => "csrc",       [Csr, Rs1];
    Csrwi     => "csrwi",      [Csr, Uimm];
    Csrsi     => "csrsi",      [Csr, Uimm];
    Csrci     => "csrci",      [Csr, Uimm];
    Rdcycle   => "rdcycle",    [Rd];
    Rdtime    => "rdtime",     [Rd];
    Rdinstret => "rdinstret",  [Rd];
    Rdcycleh  => "rdcycleh",   [Rd];
    Rdtimeh   => "rdtimeh",    [Rd];
    Rdinstreth => "rdinstreth", [Rd];
    Fence     => "fence",      [];
    // GNU as's symbol forms of loads and stores (GCC emits them under -mcmodel=medany):
    // `lw rd,sym` is `auipc rd,%pcrel_hi(sym); lw rd,%pcrel_lo(..)(rd)`, and
    // `sw rs,sym,rt` is `auipc rt,%pcrel_hi(sym); sw rs,%pcrel_lo(..)(rt)`.
    LbSym     => "lb",         [Rd, Symbol];
    LhSym     => "lh",         [Rd, Symbol];
    LwSym     => "lw",         [Rd, Symbol];
    LbuSym    => "lbu",        [Rd, Symbol];
    LhuSym    => "lhu",        [Rd, Symbol];
    SbSym     => "sb",         [Rs2, Symbol, Rd];
    ShSym     => "sh",         [Rs2, Symbol, Rd];
    SwSym     => "sw",         [Rs2, Symbol, Rd];
}

impl PseudoOp {
    /// True for the pseudos whose operand is always a symbol (`la`, `lla`, the symbol forms
    /// of loads and stores): they have no numeric expansion.
    pub fn always_symbolic(self) -> bool {
        use PseudoOp as P;
        matches!(
            self,
            P::La
                | P::Lla
                | P::LbSym
                | P::LhSym
                | P::LwSym
                | P::LbuSym
                | P::LhuSym
                | P::SbSym
                | P::ShSym
                | P::SwSym
        )
    }

    /// The pseudo-instruction called `name`, if any.
    pub fn from_mnemonic(name: &str) -> Option<PseudoOp> {
        PseudoOp::ALL
            .iter()
            .copied()
            .find(|op| op.mnemonic() == name)
    }
}

/// A pseudo-instruction with its operands. Fields follow the operand kinds of its
/// [`PseudoOp`]: e.g. `mv rd,rs` uses `rd`, `rs1`; `bgt rs,rt,target` uses `rs1`, `rs2`,
/// `imm`; `csrw csr,rs` has the CSR number in `imm` and `rs` in `rs1`; `csrwi csr,uimm`
/// has the uimm in `rs1`. Unused fields are 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pseudo {
    /// The pseudo-operation.
    pub op: PseudoOp,
    /// Destination register.
    pub rd: Reg,
    /// First source register (or `csr*i` uimm).
    pub rs1: Reg,
    /// Second source register.
    pub rs2: Reg,
    /// Immediate, target, CSR number or symbol.
    pub imm: Imm,
    /// How the operands were written (printing only).
    pub spelling: Spelling,
}

/// Splits a 32-bit value into `(hi, lo)` with `hi` a multiple of 4096 and `lo` a signed
/// 12-bit value, `hi + lo == v` (mod 2^32), as `%hi`/`%lo` and `lui`+`addi` use.
pub fn split_hi_lo(v: i32) -> (i32, i32) {
    let hi = v.wrapping_add(0x800) & !0xfff;
    (hi, v.wrapping_sub(hi))
}

/// Placeholder value for a symbolic operand when only the expansion's shape matters;
/// chosen so that `li` with a symbol expands to `lui` + `addi` as GNU as does.
const SYMBOL_PLACEHOLDER: i32 = 0x1801;

impl Pseudo {
    /// The base instructions GNU as emits for this pseudo, given the value of its
    /// immediate. Symbols must have been replaced by `imm`.
    fn build(&self, imm: i32) -> Vec<Inst> {
        let (rd, rs, rt) = (self.rd, self.rs1, self.rs2);
        let i = Inst::new;
        let one = |inst: Inst| vec![inst];
        use PseudoOp as P;
        match self.op {
            P::Nop => one(Inst::NOP),
            P::Li if (-2048..2048).contains(&imm) => one(i(Op::Addi, rd, 0, 0, imm)),
            P::Li => {
                let (hi, lo) = split_hi_lo(imm);
                let mut v = vec![i(Op::Lui, rd, 0, 0, hi)];
                if lo != 0 {
                    v.push(i(Op::Addi, rd, rd, 0, lo));
                }
                v
            }
            P::La | P::Lla => vec![i(Op::Auipc, rd, 0, 0, 0), i(Op::Addi, rd, rd, 0, 0)],
            P::Mv => one(i(Op::Addi, rd, rs, 0, 0)),
            P::Not => one(i(Op::Xori, rd, rs, 0, -1)),
            P::Neg => one(i(Op::Sub, rd, 0, rs, 0)),
            P::Seqz => one(i(Op::Sltiu, rd, rs, 0, 1)),
            P::Snez => one(i(Op::Sltu, rd, 0, rs, 0)),
            P::Sltz => one(i(Op::Slt, rd, rs, 0, 0)),
            P::Sgtz => one(i(Op::Slt, rd, 0, rs, 0)),
            P::ZextB => one(i(Op::Andi, rd, rs, 0, 255)),
            P::Sgt => one(i(Op::Slt, rd, rt, rs, 0)),
            P::Sgtu => one(i(Op::Sltu, rd, rt, rs, 0)),
            P::Beqz => one(i(Op::Beq, 0, rs, 0, imm)),
            P::Bnez => one(i(Op::Bne, 0, rs, 0, imm)),
            P::Blez => one(i(Op::Bge, 0, 0, rs, imm)),
            P::Bgez => one(i(Op::Bge, 0, rs, 0, imm)),
            P::Bltz => one(i(Op::Blt, 0, rs, 0, imm)),
            P::Bgtz => one(i(Op::Blt, 0, 0, rs, imm)),
            P::Bgt => one(i(Op::Blt, 0, rt, rs, imm)),
            P::Ble => one(i(Op::Bge, 0, rt, rs, imm)),
            P::Bgtu => one(i(Op::Bltu, 0, rt, rs, imm)),
            P::Bleu => one(i(Op::Bgeu, 0, rt, rs, imm)),
            P::J => one(i(Op::Jal, 0, 0, 0, imm)),
            P::Jal => one(i(Op::Jal, 1, 0, 0, imm)),
            P::Call | P::Tail => {
                // NOTE: GNU as uses ra for `call` and t1 (x6) for `tail`.
                let (link, scratch) = if self.op == P::Call { (1, 1) } else { (0, 6) };
                let (hi, lo) = split_hi_lo(imm);
                vec![
                    i(Op::Auipc, scratch, 0, 0, hi),
                    i(Op::Jalr, link, scratch, 0, lo),
                ]
            }
            P::Jr => one(i(Op::Jalr, 0, rs, 0, 0)),
            P::Jalr => one(i(Op::Jalr, 1, rs, 0, 0)),
            P::Ret => one(i(Op::Jalr, 0, 1, 0, 0)),
            P::Csrr => one(i(Op::Csrrs, rd, 0, 0, imm)),
            P::Csrw => one(i(Op::Csrrw, 0, rs, 0, imm)),
            P::Csrs => one(i(Op::Csrrs, 0, rs, 0, imm)),
            P::Csrc => one(i(Op::Csrrc, 0, rs, 0, imm)),
            P::Csrwi => one(i(Op::Csrrwi, 0, rs, 0, imm)),
            P::Csrsi => one(i(Op::Csrrsi, 0, rs, 0, imm)),
            P::Csrci => one(i(Op::Csrrci, 0, rs, 0, imm)),
            P::Rdcycle => one(i(Op::Csrrs, rd, 0, 0, 0xc00)),
            P::Rdtime => one(i(Op::Csrrs, rd, 0, 0, 0xc01)),
            P::Rdinstret => one(i(Op::Csrrs, rd, 0, 0, 0xc02)),
            P::Rdcycleh => one(i(Op::Csrrs, rd, 0, 0, 0xc80)),
            P::Rdtimeh => one(i(Op::Csrrs, rd, 0, 0, 0xc81)),
            P::Rdinstreth => one(i(Op::Csrrs, rd, 0, 0, 0xc82)),
            P::Fence => one(i(Op::Fence, 0, 0, 0, 0xff)),
            P::LbSym | P::LhSym | P::LwSym | P::LbuSym | P::LhuSym => {
                let load = match self.op {
                    P::LbSym => Op::Lb,
                    P::LhSym => Op::Lh,
                    P::LwSym => Op::Lw,
                    P::LbuSym => Op::Lbu,
                    _ => Op::Lhu,
                };
                vec![i(Op::Auipc, rd, 0, 0, 0), i(load, rd, rd, 0, 0)]
            }
            P::SbSym | P::ShSym | P::SwSym => {
                let store = match self.op {
                    P::SbSym => Op::Sb,
                    P::ShSym => Op::Sh,
                    _ => Op::Sw,
                };
                // The temporary is in `rd`, the stored value in `rs2`.
                vec![i(Op::Auipc, rd, 0, 0, 0), i(store, 0, rd, rt, 0)]
            }
        }
    }

    /// The base instructions this pseudo stands for. `Err` if an operand is symbolic
    /// (`la`, `lla` and the symbol forms of loads and stores always are) or a resulting field
    /// is out of range (e.g. a branch offset).
    pub fn expand(&self) -> Result<Vec<Inst>, AsmError> {
        let Imm::Num(v) = self.imm else {
            return Err(AsmError::Symbolic(self.to_string()));
        };
        if self.op.always_symbolic() {
            return Err(AsmError::Symbolic(self.to_string()));
        }
        let insts = self.build(v);
        for inst in &insts {
            encode(inst).map_err(|e| AsmError::Encode(self.to_string(), e))?;
        }
        Ok(insts)
    }

    /// Registers read before being written by the expansion (never `x0`).
    pub fn reads(&self) -> RegSet {
        self.effects().0
    }

    /// Registers written by the expansion (never `x0`), e.g. `ra` for `call`, `t1` for
    /// `tail`.
    pub fn writes(&self) -> RegSet {
        self.effects().1
    }

    fn effects(&self) -> (RegSet, RegSet) {
        let imm = match self.imm {
            Imm::Num(v) => v,
            Imm::Sym(_) => SYMBOL_PLACEHOLDER,
        };
        sequence_effects(&self.build(imm))
    }
}

/// Reads (before any write in the sequence) and writes of a straight-line sequence.
pub(crate) fn sequence_effects(insts: &[Inst]) -> (RegSet, RegSet) {
    let (mut reads, mut writes) = (RegSet::EMPTY, RegSet::EMPTY);
    for inst in insts {
        reads = reads.union(inst.reads().minus(writes));
        writes = writes.union(inst.writes());
    }
    (reads, writes)
}
