//! The one instruction table. Every base instruction Cactus knows is one row here: its
//! `Op` variant, mnemonic, operand format, timing class and its match/mask bit patterns.
//! Decoding, encoding, assembler syntax and register read/write sets all derive from a
//! row's format, so adding an instruction means adding one row (and, for a new format,
//! one arm in `format.rs`-driven code).

use crate::format::Format;
use crate::op::Class;

/// Expands the table into the [`Op`] enum and the per-op lookup functions.
///
/// NOTE: the order of rows is the order of [`Op::ALL`]; decoding tries rows of the same
/// major opcode in this order, so a row whose pattern is a refinement of another (none at
/// present) must come first.
macro_rules! instruction_table {
    ($( $variant:ident => $mnemonic:literal, $format:ident, $class:ident, $match:literal, $mask:literal; )*) => {
        /// Every base (32-bit) operation of RV32IMA + Zicsr + Zifencei + `mret`/`wfi`.
        /// Compressed forms expand to these.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Op {
            $(
                #[doc = concat!("`", $mnemonic, "`")]
                $variant,
            )*
        }

        impl Op {
            /// Every operation, in table order.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];

            /// The assembler mnemonic, without `.aq`/`.rl` suffixes (e.g. `"lr.w"`, `"fence.i"`).
            pub const fn mnemonic(self) -> &'static str {
                match self { $(Op::$variant => $mnemonic,)* }
            }

            /// The operand format: which fields the encoding has and how they are written.
            pub const fn format(self) -> Format {
                match self { $(Op::$variant => Format::$format,)* }
            }

            /// The class used by the simulator's timing and energy model.
            pub const fn class(self) -> Class {
                match self { $(Op::$variant => Class::$class,)* }
            }

            /// The bits that are fixed for this operation (compare under [`Op::mask_bits`]).
            pub const fn match_bits(self) -> u32 {
                match self { $(Op::$variant => $match,)* }
            }

            /// Which bits of a word are fixed for this operation.
            pub const fn mask_bits(self) -> u32 {
                match self { $(Op::$variant => $mask,)* }
            }
        }
    };
}

instruction_table! {
    // RV32I
    Lui     => "lui",     U,      Alu,    0x0000_0037, 0x0000_007f;
    Auipc   => "auipc",   U,      Alu,    0x0000_0017, 0x0000_007f;
    Jal     => "jal",     J,      Jump,   0x0000_006f, 0x0000_007f;
    Jalr    => "jalr",    Load,   Jump,   0x0000_0067, 0x0000_707f;
    Beq     => "beq",     B,      Branch, 0x0000_0063, 0x0000_707f;
    Bne     => "bne",     B,      Branch, 0x0000_1063, 0x0000_707f;
    Blt     => "blt",     B,      Branch, 0x0000_4063, 0x0000_707f;
    Bge     => "bge",     B,      Branch, 0x0000_5063, 0x0000_707f;
    Bltu    => "bltu",    B,      Branch, 0x0000_6063, 0x0000_707f;
    Bgeu    => "bgeu",    B,      Branch, 0x0000_7063, 0x0000_707f;
    Lb      => "lb",      Load,   Load,   0x0000_0003, 0x0000_707f;
    Lh      => "lh",      Load,   Load,   0x0000_1003, 0x0000_707f;
    Lw      => "lw",      Load,   Load,   0x0000_2003, 0x0000_707f;
    Lbu     => "lbu",     Load,   Load,   0x0000_4003, 0x0000_707f;
    Lhu     => "lhu",     Load,   Load,   0x0000_5003, 0x0000_707f;
    Sb      => "sb",      S,      Store,  0x0000_0023, 0x0000_707f;
    Sh      => "sh",      S,      Store,  0x0000_1023, 0x0000_707f;
    Sw      => "sw",      S,      Store,  0x0000_2023, 0x0000_707f;
    Addi    => "addi",    I,      Alu,    0x0000_0013, 0x0000_707f;
    Slti    => "slti",    I,      Alu,    0x0000_2013, 0x0000_707f;
    Sltiu   => "sltiu",   I,      Alu,    0x0000_3013, 0x0000_707f;
    Xori    => "xori",    I,      Alu,    0x0000_4013, 0x0000_707f;
    Ori     => "ori",     I,      Alu,    0x0000_6013, 0x0000_707f;
    Andi    => "andi",    I,      Alu,    0x0000_7013, 0x0000_707f;
    Slli    => "slli",    Shift,  Alu,    0x0000_1013, 0xfe00_707f;
    Srli    => "srli",    Shift,  Alu,    0x0000_5013, 0xfe00_707f;
    Srai    => "srai",    Shift,  Alu,    0x4000_5013, 0xfe00_707f;
    Add     => "add",     R,      Alu,    0x0000_0033, 0xfe00_707f;
    Sub     => "sub",     R,      Alu,    0x4000_0033, 0xfe00_707f;
    Sll     => "sll",     R,      Alu,    0x0000_1033, 0xfe00_707f;
    Slt     => "slt",     R,      Alu,    0x0000_2033, 0xfe00_707f;
    Sltu    => "sltu",    R,      Alu,    0x0000_3033, 0xfe00_707f;
    Xor     => "xor",     R,      Alu,    0x0000_4033, 0xfe00_707f;
    Srl     => "srl",     R,      Alu,    0x0000_5033, 0xfe00_707f;
    Sra     => "sra",     R,      Alu,    0x4000_5033, 0xfe00_707f;
    Or      => "or",      R,      Alu,    0x0000_6033, 0xfe00_707f;
    And     => "and",     R,      Alu,    0x0000_7033, 0xfe00_707f;
    Fence   => "fence",   Fence,  Fence,  0x0000_000f, 0x0000_707f;
    // Zifencei
    FenceI  => "fence.i", FenceI, Fence,  0x0000_100f, 0x0000_707f;
    Ecall   => "ecall",   System, System, 0x0000_0073, 0xffff_ffff;
    Ebreak  => "ebreak",  System, System, 0x0010_0073, 0xffff_ffff;
    // Privileged
    Mret    => "mret",    System, System, 0x3020_0073, 0xffff_ffff;
    Wfi     => "wfi",     System, System, 0x1050_0073, 0xffff_ffff;
    // Zicsr
    Csrrw   => "csrrw",   Csr,    Csr,    0x0000_1073, 0x0000_707f;
    Csrrs   => "csrrs",   Csr,    Csr,    0x0000_2073, 0x0000_707f;
    Csrrc   => "csrrc",   Csr,    Csr,    0x0000_3073, 0x0000_707f;
    Csrrwi  => "csrrwi",  CsrI,   Csr,    0x0000_5073, 0x0000_707f;
    Csrrsi  => "csrrsi",  CsrI,   Csr,    0x0000_6073, 0x0000_707f;
    Csrrci  => "csrrci",  CsrI,   Csr,    0x0000_7073, 0x0000_707f;
    // M
    Mul     => "mul",     R,      Mul,    0x0200_0033, 0xfe00_707f;
    Mulh    => "mulh",    R,      Mul,    0x0200_1033, 0xfe00_707f;
    Mulhsu  => "mulhsu",  R,      Mul,    0x0200_2033, 0xfe00_707f;
    Mulhu   => "mulhu",   R,      Mul,    0x0200_3033, 0xfe00_707f;
    Div     => "div",     R,      Div,    0x0200_4033, 0xfe00_707f;
    Divu    => "divu",    R,      Div,    0x0200_5033, 0xfe00_707f;
    Rem     => "rem",     R,      Div,    0x0200_6033, 0xfe00_707f;
    Remu    => "remu",    R,      Div,    0x0200_7033, 0xfe00_707f;
    // A
    LrW      => "lr.w",      Lr,  Amo,    0x1000_202f, 0xf9f0_707f;
    ScW      => "sc.w",      Amo, Amo,    0x1800_202f, 0xf800_707f;
    AmoswapW => "amoswap.w", Amo, Amo,    0x0800_202f, 0xf800_707f;
    AmoaddW  => "amoadd.w",  Amo, Amo,    0x0000_202f, 0xf800_707f;
    AmoxorW  => "amoxor.w",  Amo, Amo,    0x2000_202f, 0xf800_707f;
    AmoandW  => "amoand.w",  Amo, Amo,    0x6000_202f, 0xf800_707f;
    AmoorW   => "amoor.w",   Amo, Amo,    0x4000_202f, 0xf800_707f;
    AmominW  => "amomin.w",  Amo, Amo,    0x8000_202f, 0xf800_707f;
    AmomaxW  => "amomax.w",  Amo, Amo,    0xa000_202f, 0xf800_707f;
    AmominuW => "amominu.w", Amo, Amo,    0xc000_202f, 0xf800_707f;
    AmomaxuW => "amomaxu.w", Amo, Amo,    0xe000_202f, 0xf800_707f;
}
