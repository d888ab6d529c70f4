//! The register-page extension (rmcs, paper 002's section 5 and Figure 12; docs/ccs.md
//! "rmcs", docs/simulator-design.md "Register-page extension"): a pool of extra physical
//! register pages, and one CSR that selects which physical page backs each mappable page of
//! the architectural register file.
//!
//! - A **page** is 8 registers: architectural page `p` is x(8p)..x(8p+7). Pages 1, 2 and 3
//!   (x8-x31: s0, s1, a0-a7, s2-s11, t3-t6) are mappable; page 0 (x0 the hardwired zero, ra,
//!   sp, gp, tp, t0-t2) never is: it holds the registers the kernel's trap entry needs before
//!   it can write the CSR (sp, gp, tp and its first scratch registers).
//! - The **pool** holds [`crate::MachineConfig::reg_pool_pages`] extra pages (1, 2 or 3: 25,
//!   50 or 75 % of the 32-entry file; at most [`MAX_POOL_PAGES`]); 0 turns the extension off,
//!   and [`MRFMAP`] is then an unimplemented CSR (an access is an illegal instruction).
//! - [`MRFMAP`] (custom machine-mode read/write): bits 4p-4..4p-1 are the **mapped page
//!   number** (MPN) of architectural page p (p = 1, 2, 3): 0 = the page's own registers of
//!   the base file, k = pool page k (1..=pool size). Bits above 11 must be 0. A write naming a
//!   pool page beyond the pool, naming one pool page for two architectural pages, or setting a
//!   bit above 11 is an **illegal instruction** (mcause 2, mepc = the `csrw`, mtval = the
//!   instruction) and changes nothing. Reset value 0: every page is the base file's.
//! - **Cost**: the write is one CSR instruction (the profile's `csr` class, 1 cycle on `mcu`):
//!   the hardware swaps the MPN registers that feed the register-address multiplexer, no data
//!   moves. A `csrrw rd, mrfmap, rs` returns the old mapping in rd, written under the new one.
//!
//! The model keeps the ISA-visible registers where the hot loop reads them (the hart's `x`
//! array) and, for every physical page not mapped now, its eight values here; a write of
//! `mrfmap` stores the visible contents of each page whose MPN changes into the page it was
//! mapped to and loads the newly mapped page's values. That is observably the multiplexer of
//! the paper's Figure 12 (each physical page keeps its values while unmapped) and leaves the
//! execute loop exactly as it is without the extension.

use serde::Serialize;

/// `mrfmap`: the MPNs of architectural pages 1-3 (custom machine-mode read/write).
pub const MRFMAP: u16 = 0x7CE;
/// Registers per page.
pub const PAGE_REGS: usize = 8;
/// The mappable architectural pages: 1, 2 and 3 (x8-x31).
pub const MAPPABLE_PAGES: usize = 3;
/// The largest pool the model offers (75 % of the 32-entry file).
pub const MAX_POOL_PAGES: u8 = 3;

/// The mapping write was refused (illegal instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadMap;

/// Statistics of the extension (present when it is configured).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RegPageStats {
    /// Pool pages configured.
    pub pool_pages: u8,
    /// `mrfmap` writes that changed the mapping.
    pub remaps: u64,
    /// `mrfmap` writes refused (illegal instruction).
    pub refused: u64,
}

/// The pool and the current mapping.
#[derive(Clone, Debug)]
pub(crate) struct RegPages {
    /// The mapping now (the `mrfmap` value).
    map: u32,
    /// The base file's own page p+1 while it is not mapped.
    base: [[u32; PAGE_REGS]; MAPPABLE_PAGES],
    /// The pool's pages (index k-1 for MPN k) while they are not mapped.
    pool: Vec<[u32; PAGE_REGS]>,
    stats: RegPageStats,
}

impl RegPages {
    /// A pool of `pages` pages (clamped to [`MAX_POOL_PAGES`]), every page the base file's.
    pub(crate) fn new(pages: u8) -> RegPages {
        let pages = pages.min(MAX_POOL_PAGES);
        RegPages {
            map: 0,
            base: [[0; PAGE_REGS]; MAPPABLE_PAGES],
            pool: vec![[0; PAGE_REGS]; usize::from(pages)],
            stats: RegPageStats {
                pool_pages: pages,
                ..Default::default()
            },
        }
    }

    /// The `mrfmap` value.
    pub(crate) fn mapping(&self) -> u32 {
        self.map
    }

    /// The MPN of mappable page `i` (0-based: architectural page i+1) in mapping `map`.
    fn mpn(map: u32, i: usize) -> usize {
        (map >> (4 * i) & 0xF) as usize
    }

    /// Checks a mapping: fields within the pool, no pool page twice, no bit above 11.
    fn check(&self, map: u32) -> Result<(), BadMap> {
        if map >> (4 * MAPPABLE_PAGES) != 0 {
            return Err(BadMap);
        }
        let mut used = 0u32;
        for i in 0..MAPPABLE_PAGES {
            let k = Self::mpn(map, i);
            if k == 0 {
                continue;
            }
            if k > self.pool.len() || used & (1 << k) != 0 {
                return Err(BadMap);
            }
            used |= 1 << k;
        }
        Ok(())
    }

    /// Writes `mrfmap` = `map` with the visible registers `x` (the hart's array): each page
    /// whose MPN changes is stored into the page it was mapped to and loaded from the newly
    /// mapped one. A refused mapping changes nothing.
    pub(crate) fn remap(&mut self, x: &mut [u32], map: u32) -> Result<(), BadMap> {
        if let Err(e) = self.check(map) {
            self.stats.refused += 1;
            return Err(e);
        }
        if map == self.map {
            return Ok(());
        }
        // Store every changing page first, then load: a page that moves from one
        // architectural page to another keeps its values.
        let changing: Vec<usize> = (0..MAPPABLE_PAGES)
            .filter(|&i| Self::mpn(self.map, i) != Self::mpn(map, i))
            .collect();
        for &i in &changing {
            let regs = &x[(i + 1) * PAGE_REGS..(i + 2) * PAGE_REGS];
            let k = Self::mpn(self.map, i);
            let slot = if k == 0 {
                &mut self.base[i]
            } else {
                &mut self.pool[k - 1]
            };
            slot.copy_from_slice(regs);
        }
        for &i in &changing {
            let k = Self::mpn(map, i);
            let slot = if k == 0 {
                &self.base[i]
            } else {
                &self.pool[k - 1]
            };
            x[(i + 1) * PAGE_REGS..(i + 2) * PAGE_REGS].copy_from_slice(slot);
        }
        self.map = map;
        self.stats.remaps += 1;
        Ok(())
    }

    /// The statistics so far.
    pub(crate) fn report(&self) -> RegPageStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::{BadMap, RegPages};

    /// A register array like the hart's, x[r] = 100 + r.
    fn regs() -> Vec<u32> {
        let mut x = vec![0u32; 256];
        for (r, v) in x.iter_mut().enumerate().take(32).skip(1) {
            *v = 100 + r as u32;
        }
        x
    }

    #[test]
    fn a_mapped_pool_page_hides_the_base_page_and_unmapping_brings_it_back() {
        let mut p = RegPages::new(2);
        let mut x = regs();
        // Map pool page 1 at architectural page 2 (x16-x23): fresh zeros appear there.
        p.remap(&mut x, 0x10).unwrap();
        assert_eq!(p.mapping(), 0x10);
        assert!(x[16..24].iter().all(|&v| v == 0));
        assert_eq!((x[15], x[24]), (115, 124), "other pages untouched");
        for (r, v) in x.iter_mut().enumerate().take(24).skip(16) {
            *v = 900 + r as u32;
        }
        // Unmap: the base file's values are back; remap: the pool page kept its values.
        p.remap(&mut x, 0).unwrap();
        assert_eq!(x[16..24], regs()[16..24]);
        p.remap(&mut x, 0x10).unwrap();
        assert_eq!(x[16], 916);
        assert_eq!(x[23], 923);
        assert_eq!(p.report().remaps, 3);
    }

    #[test]
    fn a_pool_page_moves_between_architectural_pages_with_its_values() {
        let mut p = RegPages::new(1);
        let mut x = regs();
        p.remap(&mut x, 0x1).unwrap(); // pool 1 at page 1 (x8-x15)
        x[8] = 7;
        p.remap(&mut x, 0x100).unwrap(); // pool 1 at page 3 (x24-x31), page 1 base again
        assert_eq!(x[8], 108, "page 1 is the base file's again");
        assert_eq!(x[24], 7, "the pool page carries its value to page 3");
        p.remap(&mut x, 0).unwrap();
        assert_eq!(x[..32], regs()[..32]);
    }

    #[test]
    fn pool_bounds_and_aliases_are_refused_and_change_nothing() {
        let mut p = RegPages::new(2);
        let mut x = regs();
        p.remap(&mut x, 0x21).unwrap();
        let before = x.clone();
        for bad in [0x3, 0x300, 0x11, 0x1000, 0x8000_0000, 0xF] {
            assert_eq!(p.remap(&mut x, bad), Err(BadMap), "{bad:#x}");
        }
        assert_eq!(x, before);
        assert_eq!(p.mapping(), 0x21);
        assert_eq!(p.report().refused, 6);
        // The largest pool the model offers is 3 pages.
        let mut q = RegPages::new(9);
        assert_eq!(q.report().pool_pages, 3);
        q.remap(&mut x, 0x321).unwrap();
        assert_eq!(q.remap(&mut x, 0x4), Err(BadMap));
    }
}
