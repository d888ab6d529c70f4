//! Operation metadata beyond the table: classes, the decoded-instruction struct and
//! mnemonic lookup.

pub use crate::table::Op;

/// A register number `0..=31` (`x0`..`x31`).
pub type Reg = u8;

/// Instruction classes used by the simulator's timing and energy model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// `lui`, `auipc`, register and immediate ALU operations, shifts.
    Alu,
    /// Conditional branches.
    Branch,
    /// `jal`, `jalr`.
    Jump,
    /// Loads (`lb` .. `lhu`).
    Load,
    /// Stores (`sb`, `sh`, `sw`).
    Store,
    /// `mul`, `mulh`, `mulhsu`, `mulhu`.
    Mul,
    /// `div`, `divu`, `rem`, `remu`.
    Div,
    /// Zicsr instructions.
    Csr,
    /// `lr.w`, `sc.w` and the AMOs.
    Amo,
    /// `fence`, `fence.i`.
    Fence,
    /// `ecall`, `ebreak`, `mret`, `wfi`.
    System,
}

/// A decoded base instruction. Field conventions (fixed):
/// - `rd`, `rs1`, `rs2`: register numbers as encoded (0 where the format has no such field).
/// - `imm`: I-type (loads, ALU-immediate, `jalr`): sign-extended 12-bit. Shifts: the shamt
///   `0..=31`. S-type: sign-extended offset. B- and J-type: sign-extended, even byte offset.
///   U-type (`lui`/`auipc`): the value already shifted, i.e. `(imm20 << 12) as i32`.
///   CSR ops: the CSR number `0..=4095`; for `csrr*i` the 5-bit uimm is in `rs1`.
///   AMOs and LR/SC: `(aq << 1) | rl`; LR has `rs2 = 0`.
///   `fence`: `(fm << 8) | (pred << 4) | succ` (`rd`, `rs1` as encoded).
///   `fence.i`: the encoded 12-bit immediate, unsigned (normally 0).
///   `ecall`, `ebreak`, `mret`, `wfi`: all fields zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    /// The operation.
    pub op: Op,
    /// Destination register.
    pub rd: Reg,
    /// First source register (or the uimm of `csrr*i`).
    pub rs1: Reg,
    /// Second source register.
    pub rs2: Reg,
    /// Immediate, with the per-format meaning documented on [`Inst`].
    pub imm: i32,
}

impl Inst {
    /// An instruction with the given op and fields.
    pub const fn new(op: Op, rd: Reg, rs1: Reg, rs2: Reg, imm: i32) -> Self {
        Inst {
            op,
            rd,
            rs1,
            rs2,
            imm,
        }
    }

    /// The canonical `nop` (`addi x0, x0, 0`).
    pub const NOP: Inst = Inst::new(Op::Addi, 0, 0, 0, 0);
}

/// Result of decoding the bytes at pc: the base instruction and its length in bytes
/// (2 if it was a compressed form, else 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The (expanded) base instruction.
    pub inst: Inst,
    /// 2 for a compressed encoding, 4 otherwise.
    pub len: u8,
}

impl Op {
    /// The bytes a load, store, LR/SC or AMO accesses (1, 2 or 4); None for every other
    /// operation.
    pub const fn access_bytes(self) -> Option<u32> {
        match self {
            Op::Lb | Op::Lbu | Op::Sb => Some(1),
            Op::Lh | Op::Lhu | Op::Sh => Some(2),
            _ => match self.class() {
                Class::Load | Class::Store | Class::Amo => Some(4),
                _ => None,
            },
        }
    }

    /// The operation whose mnemonic is `name` (exact, lower case, no `.aq`/`.rl` suffix).
    pub fn from_mnemonic(name: &str) -> Option<Op> {
        Op::ALL.iter().copied().find(|op| op.mnemonic() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_bytes_of_every_memory_operation() {
        for op in Op::ALL {
            let expected = match op.mnemonic() {
                "lb" | "lbu" | "sb" => Some(1),
                "lh" | "lhu" | "sh" => Some(2),
                "lw" | "sw" | "lr.w" | "sc.w" => Some(4),
                m if m.starts_with("amo") => Some(4),
                _ => None,
            };
            assert_eq!(op.access_bytes(), expected, "{}", op.mnemonic());
        }
    }
}
