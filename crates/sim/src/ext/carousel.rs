//! The Carousel translation unit (paper section IV-C): n tag registers r_0..r_{n-1}, each
//! UNUSED or naming one 2^x-byte block of external RAM by its base address. A CPU address A
//! whose high part `A >> x` equals a used tag r_i is served from SPM block i at physical
//! `S + 2^x·i + (A mod 2^x)`; every other address passes through unchanged. When two tags
//! hold the same block, the lowest index wins (a parallel comparator with a priority encoder).
//!
//! The register window (docs/profiles.md, "Carousel registers"): r_i at `+4i` reads the
//! block's base address or [`UNUSED`]; INFO at `+0x100` reads `n | x << 8`; SPM_BASE at
//! `+0x104` reads S. Only aligned 32-bit accesses are decoded.

use crate::ext::spec::CarouselSpec;

/// The value of an unused tag register (reads), and the value that unmaps a block (writes).
/// Its low bits are set, so it is never a block base address.
pub const UNUSED: u32 = 0xFFFF_FFFF;
/// Offset of the read-only INFO register (`n | x << 8`) in the tag window.
pub const TAG_INFO: u32 = 0x100;
/// Offset of the read-only SPM_BASE register (S) in the tag window.
pub const TAG_SPM_BASE: u32 = 0x104;

/// The tag registers and the geometry of the SPM.
#[derive(Clone, Debug)]
pub(crate) struct Carousel {
    /// x: blocks are `1 << shift` bytes.
    pub(crate) shift: u32,
    /// S.
    pub(crate) spm_base: u32,
    /// Base of the tag window.
    pub(crate) tags_base: u32,
    /// `A >> x` of the mapped block per register, None = UNUSED.
    tags: Vec<Option<u32>>,
    /// Tag writes must name a block inside `ext_base..ext_base + ext_size` (external RAM).
    ext_base: u32,
    ext_size: u32,
    /// Count of used registers (0 = translation is the identity).
    used: usize,
}

/// Why a tag write was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadTag;

impl Carousel {
    /// All registers UNUSED; tags may name blocks of external RAM `ext_base..+ext_size`.
    pub(crate) fn new(spec: &CarouselSpec, ext_base: u32, ext_size: u32) -> Carousel {
        Carousel {
            shift: spec.block_bits,
            spm_base: spec.spm_base,
            tags_base: spec.tags_base,
            tags: vec![None; spec.blocks as usize],
            ext_base,
            ext_size,
            used: 0,
        }
    }

    /// Block size 2^x in bytes.
    pub(crate) fn block_size(&self) -> u32 {
        1 << self.shift
    }

    /// Bytes of the SPM window (n · 2^x).
    pub(crate) fn spm_size(&self) -> u32 {
        (self.tags.len() as u32) << self.shift
    }

    /// True if some register is not UNUSED.
    #[inline]
    pub(crate) fn any_used(&self) -> bool {
        self.used > 0
    }

    /// The register whose tag matches `addr`, if any (lowest index first).
    #[inline]
    pub(crate) fn lookup(&self, addr: u32) -> Option<usize> {
        if self.used == 0 {
            return None;
        }
        let hi = addr >> self.shift;
        self.tags.iter().position(|&t| t == Some(hi))
    }

    /// The physical address the CPU address `addr` is served from.
    #[inline]
    pub(crate) fn translate(&self, addr: u32) -> u32 {
        match self.lookup(addr) {
            Some(i) => {
                self.spm_base + ((i as u32) << self.shift) + (addr & (self.block_size() - 1))
            }
            None => addr,
        }
    }

    /// The physical address of the access `addr..addr+len` (len 1..=4), Err if it straddles
    /// two blocks that are not both unmapped (its bytes would come from two places).
    pub(crate) fn translate_range(&self, addr: u32, len: u32) -> Result<u32, BadTag> {
        let last = addr.wrapping_add(len - 1);
        if addr >> self.shift == last >> self.shift {
            return Ok(self.translate(addr));
        }
        if self.lookup(addr).is_none() && self.lookup(last).is_none() {
            Ok(addr)
        } else {
            Err(BadTag)
        }
    }

    /// Reads the register at `off` in the tag window (None: not a register).
    pub(crate) fn read_reg(&self, off: u32) -> Option<u32> {
        if off & 3 != 0 {
            return None;
        }
        match off {
            TAG_INFO => Some(self.tags.len() as u32 | self.shift << 8),
            TAG_SPM_BASE => Some(self.spm_base),
            _ => {
                let t = self.tags.get((off / 4) as usize)?;
                Some(t.map_or(UNUSED, |hi| hi << self.shift))
            }
        }
    }

    /// Writes tag register r_i at `off`: [`UNUSED`] unmaps it, a block-aligned address of
    /// external RAM maps it. Err for anything else (not a tag register, a read-only register,
    /// an unaligned address, an address outside external RAM); nothing changes then.
    pub(crate) fn write_reg(&mut self, off: u32, value: u32) -> Result<(), BadTag> {
        if off & 3 != 0 {
            return Err(BadTag);
        }
        let i = (off / 4) as usize;
        if i >= self.tags.len() {
            return Err(BadTag);
        }
        let new = if value == UNUSED {
            None
        } else {
            let size = self.block_size();
            let inside = value & (size - 1) == 0
                && value.wrapping_sub(self.ext_base) < self.ext_size
                && u64::from(value - self.ext_base) + u64::from(size) <= u64::from(self.ext_size);
            if !inside {
                return Err(BadTag);
            }
            Some(value >> self.shift)
        };
        let old = std::mem::replace(&mut self.tags[i], new);
        self.used = self.used + usize::from(new.is_some()) - usize::from(old.is_some());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Carousel, TAG_INFO, TAG_SPM_BASE, UNUSED};
    use crate::ext::spec::CarouselSpec;

    /// The paper's geometry: n = 16, x = 7, S = 0x3000_0000, external RAM at 0x8000_0000.
    fn paper() -> Carousel {
        let spec = CarouselSpec {
            blocks: 16,
            block_bits: 7,
            spm_base: 0x3000_0000,
            tags_base: 0x0F00_0000,
        };
        Carousel::new(&spec, 0x8000_0000, 0x0800_0000)
    }

    #[test]
    fn unused_registers_translate_nothing() {
        let c = paper();
        assert!(!c.any_used());
        for r in 0..16 {
            assert_eq!(c.read_reg(4 * r), Some(UNUSED));
        }
        assert_eq!(c.translate(0x8000_0100), 0x8000_0100);
        assert_eq!(c.lookup(0x8000_0100), None);
        assert_eq!(c.read_reg(TAG_INFO), Some(16 | 7 << 8));
        assert_eq!(c.read_reg(TAG_SPM_BASE), Some(0x3000_0000));
        assert_eq!(c.read_reg(4 * 16), None, "r_16 does not exist");
        assert_eq!(c.read_reg(2), None, "unaligned");
    }

    #[test]
    fn a_tag_write_maps_the_whole_block_and_only_it() {
        let mut c = paper();
        c.write_reg(4 * 3, 0x8000_0400).unwrap();
        assert!(c.any_used());
        assert_eq!(c.read_reg(12), Some(0x8000_0400));
        // Every byte of 0x8000_0400..0x8000_0480 goes to block 3 = S + 3 * 128.
        assert_eq!(c.translate(0x8000_0400), 0x3000_0180);
        assert_eq!(c.translate(0x8000_047F), 0x3000_01FF);
        assert_eq!(c.lookup(0x8000_0444), Some(3));
        // Neighbours miss.
        assert_eq!(c.translate(0x8000_03FC), 0x8000_03FC);
        assert_eq!(c.translate(0x8000_0480), 0x8000_0480);
        // Remapping r_3 moves the window; UNUSED unmaps it.
        c.write_reg(12, 0x8000_0800).unwrap();
        assert_eq!(c.translate(0x8000_0400), 0x8000_0400);
        assert_eq!(c.translate(0x8000_0804), 0x3000_0184);
        c.write_reg(12, UNUSED).unwrap();
        assert!(!c.any_used());
        assert_eq!(c.translate(0x8000_0804), 0x8000_0804);
    }

    #[test]
    fn the_lowest_register_wins_a_duplicate_tag() {
        let mut c = paper();
        c.write_reg(4 * 9, 0x8000_0000).unwrap();
        c.write_reg(4 * 2, 0x8000_0000).unwrap();
        assert_eq!(c.translate(0x8000_0010), 0x3000_0110);
        c.write_reg(4 * 2, UNUSED).unwrap();
        assert_eq!(c.translate(0x8000_0010), 0x3000_0490);
    }

    #[test]
    fn bad_tag_writes_are_refused_and_change_nothing() {
        let mut c = paper();
        c.write_reg(0, 0x8000_0080).unwrap();
        for (off, value) in [
            (0, 0x8000_0081),       // not block-aligned
            (0, 0x2000_0000),       // not external RAM
            (0, 0x87FF_FF80 + 128), // past the end of external RAM
            (4 * 16, 0x8000_0000),  // no r_16
            (TAG_INFO, 0),          // read-only
            (TAG_SPM_BASE, 0),      // read-only
            (1, 0x8000_0000),       // unaligned register offset
        ] {
            assert!(c.write_reg(off, value).is_err(), "{off:#x} <- {value:#x}");
        }
        assert_eq!(c.read_reg(0), Some(0x8000_0080));
        c.write_reg(4, 0x87FF_FF80).unwrap();
        assert_eq!(
            c.read_reg(4),
            Some(0x87FF_FF80),
            "the last block of external RAM"
        );
    }

    #[test]
    fn a_straddling_access_is_refused_only_when_a_side_is_mapped() {
        let mut c = paper();
        assert_eq!(c.translate_range(0x8000_007E, 4), Ok(0x8000_007E));
        c.write_reg(0, 0x8000_0000).unwrap();
        assert!(c.translate_range(0x8000_007E, 4).is_err());
        assert_eq!(c.translate_range(0x8000_007C, 4), Ok(0x3000_007C));
    }
}
