//! What the hot loop dispatches on: one [`Hot`] per predecoded instruction. It is the
//! instruction's own operation, or for the first of a *fused pair* (two adjacent body
//! instructions that GCC emits together all the time) an operation that executes both with a
//! single dispatch. The second instruction of a pair keeps its own entry, so that a run cut
//! between the two (a step, the end of a bounded run) and every slow path (traps, counters,
//! cost classes) still see one entry per instruction.

use cactus_isa::Op;

macro_rules! hot_ops {
    ($($name:ident),* $(,)?) => {
        /// A hot-loop operation (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub(crate) enum Hot {
            $(
                #[doc = concat!("`", stringify!($name), "` alone.")]
                $name,
            )*
            /// A block terminator (CSR, system, fence.i): never dispatched by the hot loop.
            Term,
            /// `add` then `bne` (the branch compares any registers, after the add).
            AddBne,
            /// `addi` then `bne`.
            AddiBne,
            /// `xor` then `bne`.
            XorBne,
            /// `add` then `beq`.
            AddBeq,
            /// `addi` then `beq`.
            AddiBeq,
            /// `addi` then `addi`.
            AddiAddi,
            /// `mul` then `add`.
            MulAdd,
            /// `lw` then `lw`.
            LwLw,
            /// `addi` then `lw`.
            AddiLw,
            /// `slli` then `add`.
            SlliAdd,
            /// `andi` then `sub` (`-(x & m)`, a branch-free mask).
            AndiSub,
            /// `srli` then `and`.
            SrliAnd,
            /// `srli` then `andi` (bit-field extract).
            SrliAndi,
            /// `slli` then `srli` (zero extension).
            SlliSrli,
            /// `slli` then `srai` (sign extension).
            SlliSrai,
            /// `lui` then `addi` (`li` of a 32-bit constant).
            LuiAddi,
        }

        /// The single-instruction hot operation of `op`.
        pub(crate) fn single(op: Op) -> Hot {
            match op {
                $(Op::$name => Hot::$name,)*
                _ => Hot::Term,
            }
        }
    };
}

hot_ops!(
    Lui, Auipc, Jal, Jalr, Beq, Bne, Blt, Bge, Bltu, Bgeu, Lb, Lh, Lw, Lbu, Lhu, Sb, Sh, Sw, Addi,
    Slti, Sltiu, Xori, Ori, Andi, Slli, Srli, Srai, Add, Sub, Sll, Slt, Sltu, Xor, Srl, Sra, Or,
    And, Fence, Mul, Mulh, Mulhsu, Mulhu, Div, Divu, Rem, Remu, LrW, ScW, AmoswapW, AmoaddW,
    AmoxorW, AmoandW, AmoorW, AmominW, AmomaxW, AmominuW, AmomaxuW,
);

/// The fused operation for body instructions `first` then `second`, if they form a pair.
pub(crate) fn fuse(first: Op, second: Op) -> Option<Hot> {
    Some(match (first, second) {
        (Op::Add, Op::Bne) => Hot::AddBne,
        (Op::Addi, Op::Bne) => Hot::AddiBne,
        (Op::Xor, Op::Bne) => Hot::XorBne,
        (Op::Add, Op::Beq) => Hot::AddBeq,
        (Op::Addi, Op::Beq) => Hot::AddiBeq,
        (Op::Addi, Op::Addi) => Hot::AddiAddi,
        (Op::Mul, Op::Add) => Hot::MulAdd,
        (Op::Lw, Op::Lw) => Hot::LwLw,
        (Op::Addi, Op::Lw) => Hot::AddiLw,
        (Op::Slli, Op::Add) => Hot::SlliAdd,
        (Op::Andi, Op::Sub) => Hot::AndiSub,
        (Op::Srli, Op::And) => Hot::SrliAnd,
        (Op::Srli, Op::Andi) => Hot::SrliAndi,
        (Op::Slli, Op::Srli) => Hot::SlliSrli,
        (Op::Slli, Op::Srai) => Hot::SlliSrai,
        (Op::Lui, Op::Addi) => Hot::LuiAddi,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{fuse, single, Hot};
    use cactus_isa::Op;

    #[test]
    fn singles_keep_their_operation_and_terminators_are_term() {
        assert_eq!(single(Op::Addi), Hot::Addi);
        assert_eq!(single(Op::AmomaxuW), Hot::AmomaxuW);
        assert_eq!(single(Op::Csrrw), Hot::Term);
        assert_eq!(single(Op::FenceI), Hot::Term);
        assert_eq!(single(Op::Ecall), Hot::Term);
    }

    #[test]
    fn only_listed_pairs_fuse() {
        assert_eq!(fuse(Op::Addi, Op::Bne), Some(Hot::AddiBne));
        assert_eq!(fuse(Op::Mul, Op::Add), Some(Hot::MulAdd));
        assert_eq!(fuse(Op::Bne, Op::Addi), None);
        assert_eq!(fuse(Op::Sw, Op::Sw), None);
    }
}
