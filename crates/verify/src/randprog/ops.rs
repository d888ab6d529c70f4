//! The instruction mix the generator draws from: operations by kind and edge values.

use cactus_isa::Op;

/// Values that break arithmetic corner cases: signed/unsigned extremes, zero and one.
pub(crate) const EDGE_VALUES: [u32; 10] = [
    0,
    1,
    2,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    0x8000_0001,
    0xffff_fffe,
    0x0000_ffff,
    0xffff_8000,
];

/// Register-register ALU operations.
pub(crate) const R_OPS: [Op; 10] = [
    Op::Add,
    Op::Sub,
    Op::Sll,
    Op::Slt,
    Op::Sltu,
    Op::Xor,
    Op::Srl,
    Op::Sra,
    Op::Or,
    Op::And,
];
/// Register-immediate ALU operations.
pub(crate) const I_OPS: [Op; 6] = [Op::Addi, Op::Slti, Op::Sltiu, Op::Xori, Op::Ori, Op::Andi];
/// Shifts by an immediate amount.
pub(crate) const SHIFT_OPS: [Op; 3] = [Op::Slli, Op::Srli, Op::Srai];
/// The M extension.
pub(crate) const M_OPS: [Op; 8] = [
    Op::Mul,
    Op::Mulh,
    Op::Mulhsu,
    Op::Mulhu,
    Op::Div,
    Op::Divu,
    Op::Rem,
    Op::Remu,
];
/// The A extension's AMOs.
pub(crate) const AMO_OPS: [Op; 9] = [
    Op::AmoswapW,
    Op::AmoaddW,
    Op::AmoxorW,
    Op::AmoandW,
    Op::AmoorW,
    Op::AmominW,
    Op::AmomaxW,
    Op::AmominuW,
    Op::AmomaxuW,
];
/// Zicsr operations, applied to `mscratch` (the one CSR whose value is entirely the
/// program's); for the `*i` forms the source register number is the immediate.
pub(crate) const CSR_OPS: [Op; 6] = [
    Op::Csrrw,
    Op::Csrrs,
    Op::Csrrc,
    Op::Csrrwi,
    Op::Csrrsi,
    Op::Csrrci,
];
/// The CSR number of `mscratch`.
pub(crate) const MSCRATCH: i32 = 0x340;
/// Conditional branches (written by mnemonic: their targets are labels).
pub(crate) const BRANCH_OPS: [&str; 6] = ["beq", "bne", "blt", "bge", "bltu", "bgeu"];
/// (operation, access width in bytes)
pub(crate) const LOADS: [(Op, u32); 5] = [
    (Op::Lb, 1),
    (Op::Lbu, 1),
    (Op::Lh, 2),
    (Op::Lhu, 2),
    (Op::Lw, 4),
];
pub(crate) const STORES: [(Op, u32); 3] = [(Op::Sb, 1), (Op::Sh, 2), (Op::Sw, 4)];
