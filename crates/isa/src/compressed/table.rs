//! The RV32C table: one row per compressed form with its mnemonic, format and match/mask.

use super::layout::{self, ImmLayout};
use super::RegField::{self, Absent, Full, Prime};

/// Layout of a compressed form's operands in the halfword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CFormat {
    /// `rd', nzuimm` (`c.addi4spn`).
    Ciw,
    /// `rd', uimm(rs1')` (`c.lw`).
    Cl,
    /// `rs2', uimm(rs1')` (`c.sw`).
    Cs,
    /// `imm` only, rd = 0 (`c.nop`).
    CiNop,
    /// `rd, simm6` (`c.addi`, `c.li`).
    Ci,
    /// `offset` (`c.j`, `c.jal`).
    Cj,
    /// `nzimm` scaled by 16 (`c.addi16sp`).
    Ci16sp,
    /// `rd, nzimm` shifted by 12 (`c.lui`).
    CiLui,
    /// `rd', shamt` (`c.srli`, `c.srai`).
    CbShift,
    /// `rd', simm6` (`c.andi`).
    CbImm,
    /// `rd', rs2'` (`c.sub`, `c.xor`, `c.or`, `c.and`).
    Ca,
    /// `rs1', offset` (`c.beqz`, `c.bnez`).
    Cb,
    /// `rd, shamt` (`c.slli`).
    CiShift,
    /// `rd, uimm(sp)` (`c.lwsp`).
    CiLwsp,
    /// `rs1` (`c.jr`, `c.jalr`).
    CrJump,
    /// `rd, rs2` (`c.mv`, `c.add`).
    Cr,
    /// No operands (`c.ebreak`).
    CNone,
    /// `rs2, uimm(sp)` (`c.swsp`).
    Css,
}

impl CFormat {
    /// Where `rd`, `rs1`, `rs2` live in the halfword.
    pub(crate) const fn regs(self) -> (RegField, RegField, RegField) {
        match self {
            CFormat::Ciw => (Prime(2), Absent, Absent),
            CFormat::Cl => (Prime(2), Prime(7), Absent),
            CFormat::Cs => (Absent, Prime(7), Prime(2)),
            CFormat::CiNop | CFormat::Cj | CFormat::Ci16sp | CFormat::CNone => {
                (Absent, Absent, Absent)
            }
            CFormat::Ci | CFormat::CiLui | CFormat::CiShift | CFormat::CiLwsp => {
                (Full(7), Absent, Absent)
            }
            CFormat::CbShift | CFormat::CbImm => (Prime(7), Absent, Absent),
            CFormat::Ca => (Prime(7), Absent, Prime(2)),
            CFormat::Cb => (Absent, Prime(7), Absent),
            CFormat::CrJump => (Absent, Full(7), Absent),
            CFormat::Cr => (Full(7), Absent, Full(2)),
            CFormat::Css => (Absent, Absent, Full(2)),
        }
    }

    /// The immediate's layout, if the form has one.
    pub(crate) const fn imm(self) -> Option<ImmLayout> {
        Some(match self {
            CFormat::Ciw => layout::CIW,
            CFormat::Cl | CFormat::Cs => layout::CLS,
            CFormat::CiNop | CFormat::Ci | CFormat::CbImm => layout::CI6,
            CFormat::Cj => layout::CJ,
            CFormat::Ci16sp => layout::C16SP,
            CFormat::CiLui => layout::CLUI,
            CFormat::CbShift | CFormat::CiShift => layout::SHAMT,
            CFormat::Cb => layout::CB,
            CFormat::CiLwsp => layout::LWSP,
            CFormat::Css => layout::SWSP,
            CFormat::Ca | CFormat::CrJump | CFormat::Cr | CFormat::CNone => return None,
        })
    }
}

macro_rules! compressed_table {
    ($( $variant:ident => $mnemonic:literal, $format:ident, $match:literal, $mask:literal; )*) => {
        /// Every RV32C form. Each expands to one base instruction ([`super::CInst::expand`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum COp {
            $(
                #[doc = concat!("`", $mnemonic, "`")]
                $variant,
            )*
        }

        impl COp {
            /// Every form, in table (and decode-priority) order.
            pub const ALL: &'static [COp] = &[$(COp::$variant),*];

            /// The mnemonic, e.g. `"c.addi4spn"`.
            pub const fn mnemonic(self) -> &'static str {
                match self { $(COp::$variant => $mnemonic,)* }
            }

            /// The operand layout.
            pub const fn format(self) -> CFormat {
                match self { $(COp::$variant => CFormat::$format,)* }
            }

            /// The bits fixed for this form.
            pub const fn match_bits(self) -> u16 {
                match self { $(COp::$variant => $match,)* }
            }

            /// Which bits of the halfword are fixed for this form.
            pub const fn mask_bits(self) -> u16 {
                match self { $(COp::$variant => $mask,)* }
            }
        }
    };
}

// NOTE: decoding takes the first matching row, so a special case (c.nop, c.addi16sp,
// c.jr, c.ebreak, c.jalr) must precede the general row it refines. Masks include
// shamt[5] (bit 12) for shifts, which RV32C reserves.
compressed_table! {
    Addi4spn => "c.addi4spn", Ciw,     0x0000, 0xe003;
    Lw       => "c.lw",       Cl,      0x4000, 0xe003;
    Sw       => "c.sw",       Cs,      0xc000, 0xe003;
    Nop      => "c.nop",      CiNop,   0x0001, 0xef83;
    Addi     => "c.addi",     Ci,      0x0001, 0xe003;
    Jal      => "c.jal",      Cj,      0x2001, 0xe003;
    Li       => "c.li",       Ci,      0x4001, 0xe003;
    Addi16sp => "c.addi16sp", Ci16sp,  0x6101, 0xef83;
    Lui      => "c.lui",      CiLui,   0x6001, 0xe003;
    Srli     => "c.srli",     CbShift, 0x8001, 0xfc03;
    Srai     => "c.srai",     CbShift, 0x8401, 0xfc03;
    Andi     => "c.andi",     CbImm,   0x8801, 0xec03;
    Sub      => "c.sub",      Ca,      0x8c01, 0xfc63;
    Xor      => "c.xor",      Ca,      0x8c21, 0xfc63;
    Or       => "c.or",       Ca,      0x8c41, 0xfc63;
    And      => "c.and",      Ca,      0x8c61, 0xfc63;
    J        => "c.j",        Cj,      0xa001, 0xe003;
    Beqz     => "c.beqz",     Cb,      0xc001, 0xe003;
    Bnez     => "c.bnez",     Cb,      0xe001, 0xe003;
    Slli     => "c.slli",     CiShift, 0x0002, 0xf003;
    Lwsp     => "c.lwsp",     CiLwsp,  0x4002, 0xe003;
    Jr       => "c.jr",       CrJump,  0x8002, 0xf07f;
    Mv       => "c.mv",       Cr,      0x8002, 0xf003;
    Ebreak   => "c.ebreak",   CNone,   0x9002, 0xffff;
    Jalr     => "c.jalr",     CrJump,  0x9002, 0xf07f;
    Add      => "c.add",      Cr,      0x9002, 0xf003;
    Swsp     => "c.swsp",     Css,     0xc002, 0xe003;
}

impl COp {
    /// The form whose mnemonic is `name` (exact, e.g. `"c.addi"`).
    pub fn from_mnemonic(name: &str) -> Option<COp> {
        COp::ALL.iter().copied().find(|op| op.mnemonic() == name)
    }
}
