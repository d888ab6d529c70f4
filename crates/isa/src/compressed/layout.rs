//! Bit layouts of the RV32C formats: where each immediate's bits sit in the halfword and
//! which register fields a format has. Shared by compressed decoding and encoding.

/// A run of immediate bits: halfword bits `hi..=lo` hold immediate bits starting at `dst`.
#[derive(Clone, Copy)]
pub(crate) struct Seg {
    hi: u8,
    lo: u8,
    dst: u8,
}

const fn seg(hi: u8, lo: u8, dst: u8) -> Seg {
    Seg { hi, lo, dst }
}

/// An immediate layout: its segments, total width, signedness and required alignment.
#[derive(Clone, Copy)]
pub(crate) struct ImmLayout {
    segs: &'static [Seg],
    /// Number of immediate bits (the top one is the sign for signed layouts).
    pub(crate) width: u8,
    pub(crate) signed: bool,
    /// Low bits that are always zero (the value must be a multiple of `1 << align`).
    pub(crate) align: u8,
}

impl ImmLayout {
    /// Gathers the immediate from `raw` (sign-extended if signed).
    pub(crate) fn extract(&self, raw: u16) -> i32 {
        let mut v: u32 = 0;
        for s in self.segs {
            let n = s.hi - s.lo + 1;
            let bits = (u32::from(raw) >> s.lo) & ((1 << n) - 1);
            v |= bits << s.dst;
        }
        if self.signed {
            let shift = 32 - u32::from(self.width);
            ((v << shift) as i32) >> shift
        } else {
            v as i32
        }
    }

    /// Whether `imm` fits this layout (range and alignment).
    pub(crate) fn fits(&self, imm: i32) -> bool {
        let w = u32::from(self.width);
        let in_range = if self.signed {
            let lim = 1i64 << (w - 1);
            (-lim..lim).contains(&i64::from(imm))
        } else {
            (0..(1i64 << w)).contains(&i64::from(imm))
        };
        in_range && imm & ((1 << self.align) - 1) == 0
    }

    /// Scatters `imm` (already checked with [`ImmLayout::fits`]) into halfword bits.
    pub(crate) fn pack(&self, imm: i32) -> u16 {
        let v = imm as u32;
        let mut raw: u32 = 0;
        for s in self.segs {
            let n = s.hi - s.lo + 1;
            raw |= ((v >> s.dst) & ((1 << n) - 1)) << s.lo;
        }
        raw as u16
    }

    /// Human-readable range for error messages.
    pub(crate) fn describe(&self) -> &'static str {
        match (self.width, self.signed, self.align) {
            (6, true, 0) => "-32..=31",
            (5, false, 0) => "0..=31",
            (10, false, 2) => "a multiple of 4 in 4..=1020",
            (7, false, 2) => "a multiple of 4 in 0..=124",
            (8, false, 2) => "a multiple of 4 in 0..=252",
            (12, true, 1) => "an even value in -2048..=2046",
            (9, true, 1) => "an even value in -256..=254",
            (10, true, 4) => "a nonzero multiple of 16 in -512..=496",
            (18, true, 12) => "a nonzero multiple of 4096 in -131072..=126976",
            _ => "a value the format can hold",
        }
    }
}

/// `c.addi4spn`: nzuimm[5:4|9:6|2|3] in bits 12:5.
pub(crate) const CIW: ImmLayout = ImmLayout {
    segs: &[seg(12, 11, 4), seg(10, 7, 6), seg(6, 6, 2), seg(5, 5, 3)],
    width: 10,
    signed: false,
    align: 2,
};
/// `c.lw` / `c.sw`: uimm[5:3] in 12:10, uimm[2|6] in 6:5.
pub(crate) const CLS: ImmLayout = ImmLayout {
    segs: &[seg(12, 10, 3), seg(6, 6, 2), seg(5, 5, 6)],
    width: 7,
    signed: false,
    align: 2,
};
/// CI signed 6-bit immediate: imm[5] in 12, imm[4:0] in 6:2.
pub(crate) const CI6: ImmLayout = ImmLayout {
    segs: &[seg(12, 12, 5), seg(6, 2, 0)],
    width: 6,
    signed: true,
    align: 0,
};
/// CI/CB shift amount: shamt[4:0] in 6:2 (shamt[5], bit 12, is fixed to 0 on RV32).
pub(crate) const SHAMT: ImmLayout = ImmLayout {
    segs: &[seg(6, 2, 0)],
    width: 5,
    signed: false,
    align: 0,
};
/// `c.j` / `c.jal`: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2.
pub(crate) const CJ: ImmLayout = ImmLayout {
    segs: &[
        seg(12, 12, 11),
        seg(11, 11, 4),
        seg(10, 9, 8),
        seg(8, 8, 10),
        seg(7, 7, 6),
        seg(6, 6, 7),
        seg(5, 3, 1),
        seg(2, 2, 5),
    ],
    width: 12,
    signed: true,
    align: 1,
};
/// `c.beqz` / `c.bnez`: offset[8|4:3] in 12:10, offset[7:6|2:1|5] in 6:2.
pub(crate) const CB: ImmLayout = ImmLayout {
    segs: &[
        seg(12, 12, 8),
        seg(11, 10, 3),
        seg(6, 5, 6),
        seg(4, 3, 1),
        seg(2, 2, 5),
    ],
    width: 9,
    signed: true,
    align: 1,
};
/// `c.addi16sp`: nzimm[9] in 12, nzimm[4|6|8:7|5] in 6:2.
pub(crate) const C16SP: ImmLayout = ImmLayout {
    segs: &[
        seg(12, 12, 9),
        seg(6, 6, 4),
        seg(5, 5, 6),
        seg(4, 3, 7),
        seg(2, 2, 5),
    ],
    width: 10,
    signed: true,
    align: 4,
};
/// `c.lui`: nzimm[17] in 12, nzimm[16:12] in 6:2 (the value is the shifted immediate).
pub(crate) const CLUI: ImmLayout = ImmLayout {
    segs: &[seg(12, 12, 17), seg(6, 2, 12)],
    width: 18,
    signed: true,
    align: 12,
};
/// `c.lwsp`: uimm[5] in 12, uimm[4:2|7:6] in 6:2.
pub(crate) const LWSP: ImmLayout = ImmLayout {
    segs: &[seg(12, 12, 5), seg(6, 4, 2), seg(3, 2, 6)],
    width: 8,
    signed: false,
    align: 2,
};
/// `c.swsp`: uimm[5:2|7:6] in 12:7.
pub(crate) const SWSP: ImmLayout = ImmLayout {
    segs: &[seg(12, 9, 2), seg(8, 7, 6)],
    width: 8,
    signed: false,
    align: 2,
};
