//! Control-flow meaning of one instruction statement: fall-through, branch, jump, call,
//! tail call, return, indirect jump.

use cactus_isa::asm::{Expr, Imm, PseudoOp, Statement};
use cactus_isa::{Class, Op, Reg};

/// `ra`.
const RA: Reg = 1;

/// Who a call or tail call goes to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A symbol, written as in the source (`foo`, `memcpy`).
    Direct(String),
    /// Through a register.
    Indirect(Reg),
}

/// What a statement does to control flow.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// Continues with the next statement.
    Next,
    /// Conditional branch to a label; falls through otherwise.
    Branch(String),
    /// Unconditional jump to a label.
    Jump(String),
    /// Call; returns to the next statement.
    Call(Callee),
    /// Tail call: leaves the function.
    TailCall(Callee),
    /// Return (`ret`, `jr ra`, `mret`): leaves the function.
    Return,
    /// Jump through a register other than `ra` (jump table or indirect tail call).
    IndirectJump(Reg),
    /// A branch or jump with a numeric offset: its target is not a label the IR knows.
    /// `conditional` tells whether it may also fall through.
    Unknown {
        /// Whether the statement may fall through.
        conditional: bool,
    },
}

impl Flow {
    /// The control-flow meaning of `s`.
    pub fn of(s: &Statement) -> Flow {
        match s {
            Statement::Base(a) => base(a.op, a.rd, a.rs1, &a.imm),
            Statement::Compressed(c) => {
                let i = c.expand();
                base(i.op, i.rd, i.rs1, &Imm::Num(i.imm))
            }
            Statement::Pseudo(p) => {
                let target = || sym(&p.imm).map(|e| e.to_string());
                match p.op {
                    PseudoOp::Beqz
                    | PseudoOp::Bnez
                    | PseudoOp::Blez
                    | PseudoOp::Bgez
                    | PseudoOp::Bltz
                    | PseudoOp::Bgtz
                    | PseudoOp::Bgt
                    | PseudoOp::Ble
                    | PseudoOp::Bgtu
                    | PseudoOp::Bleu => target()
                        .map(Flow::Branch)
                        .unwrap_or(Flow::Unknown { conditional: true }),
                    PseudoOp::J => target()
                        .map(Flow::Jump)
                        .unwrap_or(Flow::Unknown { conditional: false }),
                    PseudoOp::Jal | PseudoOp::Call => {
                        Flow::Call(target().map_or(Callee::Indirect(0), Callee::Direct))
                    }
                    PseudoOp::Tail => {
                        Flow::TailCall(target().map_or(Callee::Indirect(0), Callee::Direct))
                    }
                    PseudoOp::Jr if p.rs1 == RA => Flow::Return,
                    PseudoOp::Jr => Flow::IndirectJump(p.rs1),
                    PseudoOp::Jalr => Flow::Call(Callee::Indirect(p.rs1)),
                    PseudoOp::Ret => Flow::Return,
                    _ => Flow::Next,
                }
            }
        }
    }

    /// Whether control may continue with the next statement.
    pub fn falls_through(&self) -> bool {
        match self {
            Flow::Next | Flow::Branch(_) | Flow::Call(_) => true,
            Flow::Unknown { conditional } => *conditional,
            _ => false,
        }
    }

    /// Whether the statement ends a basic block.
    pub fn ends_block(&self) -> bool {
        !matches!(self, Flow::Next | Flow::Call(_))
    }
}

/// The symbolic expression of an immediate, if it is one.
pub(crate) fn sym(imm: &Imm) -> Option<&Expr> {
    match imm {
        Imm::Sym(e) => Some(e),
        Imm::Num(_) => None,
    }
}

fn base(op: Op, rd: Reg, rs1: Reg, imm: &Imm) -> Flow {
    let label = sym(imm)
        .filter(|e| e.reloc.is_none())
        .map(|e| e.text.clone());
    match op.class() {
        Class::Branch => label
            .map(Flow::Branch)
            .unwrap_or(Flow::Unknown { conditional: true }),
        Class::Jump if op == Op::Jal => match (rd, label) {
            (0, Some(l)) => Flow::Jump(l),
            (0, None) => Flow::Unknown { conditional: false },
            (_, Some(l)) => Flow::Call(Callee::Direct(l)),
            (_, None) => Flow::Unknown { conditional: true },
        },
        Class::Jump => match (rd, rs1) {
            (0, RA) => Flow::Return,
            (0, r) => Flow::IndirectJump(r),
            (_, r) => Flow::Call(Callee::Indirect(r)),
        },
        _ if op == Op::Mret => Flow::Return,
        _ => Flow::Next,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(s: &str) -> Flow {
        Flow::of(&Statement::parse(s).unwrap())
    }

    #[test]
    fn classifies_gcc_control_flow() {
        assert_eq!(flow("bne a5,a4,.L3"), Flow::Branch(".L3".into()));
        assert_eq!(flow("beqz a0,.L2"), Flow::Branch(".L2".into()));
        assert_eq!(flow("j .L5"), Flow::Jump(".L5".into()));
        assert_eq!(flow("call foo"), Flow::Call(Callee::Direct("foo".into())));
        assert_eq!(
            flow("tail bar"),
            Flow::TailCall(Callee::Direct("bar".into()))
        );
        assert_eq!(flow("jalr a5"), Flow::Call(Callee::Indirect(15)));
        assert_eq!(flow("jr a5"), Flow::IndirectJump(15));
        assert_eq!(flow("ret"), Flow::Return);
        assert_eq!(flow("jr ra"), Flow::Return);
        assert_eq!(flow("mret"), Flow::Return);
        assert_eq!(flow("addi a0,a0,1"), Flow::Next);
        assert!(!flow("j .L5").falls_through());
        assert!(flow("call foo").falls_through());
    }
}
