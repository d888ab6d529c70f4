//! Memory regions and the per-page flag table.
//!
//! Region 0 of the profile is the "RAM" with the fast path: one contiguous byte vector and one
//! bounds check per access. Other regions are searched linearly on the slow path. The page
//! flag table (one byte per 4 KiB page of the 4 GiB space) marks pages that need the slow path
//! on stores: pages holding predecoded code, oracle-registered stack bytes, the HTIF `tohost`
//! word, or an LR reservation. A store to an unflagged RAM page pays one table load.

use crate::error::MemError;
use crate::profile::MemoryRegion;

/// Page flag: predecoded instructions live on this page.
pub(crate) const PAGE_CODE: u8 = 1;
/// Page flag: the ownership oracle has registered bytes on this page.
pub(crate) const PAGE_ORACLE: u8 = 2;
/// Page flag: the HTIF `tohost` word is on this page.
pub(crate) const PAGE_HTIF: u8 = 4;
/// Page flag: the LR reservation is on this page.
pub(crate) const PAGE_RESV: u8 = 8;

/// Number of 4 KiB pages in the address space.
const NUM_PAGES: usize = 1 << 20;

/// One memory region with its bytes and access counters.
pub(crate) struct Region {
    pub(crate) spec: MemoryRegion,
    pub(crate) data: Vec<u8>,
    /// Data accesses that went through the slow path (region 0's fast-path accesses are
    /// derived from the class counts, see `stats`).
    pub(crate) slow_accesses: u64,
    /// `spec.access` contains `r`, `w`, `x` (decoded once: slow paths test them per access).
    pub(crate) read: bool,
    pub(crate) write: bool,
    pub(crate) exec: bool,
}

impl Region {
    pub(crate) fn new(spec: &MemoryRegion) -> Region {
        Region {
            spec: spec.clone(),
            data: vec![0; spec.size as usize],
            slow_accesses: 0,
            read: spec.allows('r'),
            write: spec.allows('w'),
            exec: spec.allows('x'),
        }
    }

    /// Offset of `addr..addr+len` inside this region, if it lies entirely inside.
    #[inline]
    pub(crate) fn offset(&self, addr: u32, len: u32) -> Option<usize> {
        let off = addr.wrapping_sub(self.spec.base);
        (u64::from(off) + u64::from(len) <= u64::from(self.spec.size)).then_some(off as usize)
    }
}

/// All memory of the machine plus the page flags.
pub(crate) struct Memory {
    /// Region 0 (fast path).
    pub(crate) ram: Region,
    /// `ram.base`, cached.
    pub(crate) ram_base: u32,
    /// For width w in bytes (index w), the largest `addr - ram_base` + 1 for a fast load;
    /// 0 if region 0 is not readable.
    pub(crate) load_lim: [u32; 5],
    /// Same for stores (0 if not writable).
    pub(crate) store_lim: [u32; 5],
    /// Regions 1.. of the profile.
    pub(crate) others: Vec<Region>,
    /// One byte of `PAGE_*` flags per 4 KiB page.
    pub(crate) flags: Vec<u8>,
    /// The Carousel tags, when configured: instruction fetch reads through them (loads and
    /// stores translate in `ext/wiring.rs`; debug accesses and the ELF loader do not).
    pub(crate) carousel: Option<crate::ext::carousel::Carousel>,
}

impl Memory {
    /// Builds zeroed memory for the profile's regions (at least one).
    pub(crate) fn new(regions: &[MemoryRegion]) -> Memory {
        let ram = Region::new(&regions[0]);
        let size = ram.spec.size;
        let lim = |ok: bool| {
            let mut l = [0u32; 5];
            for (w, slot) in l.iter_mut().enumerate().skip(1) {
                *slot = if ok {
                    size.saturating_sub(w as u32 - 1)
                } else {
                    0
                };
            }
            l
        };
        Memory {
            ram_base: ram.spec.base,
            load_lim: lim(ram.spec.allows('r')),
            store_lim: lim(ram.spec.allows('w')),
            ram,
            others: regions[1..].iter().map(Region::new).collect(),
            flags: vec![0; NUM_PAGES],
            carousel: None,
        }
    }

    /// Index of the region holding `addr..addr+len` (0 = ram, i+1 = others[i]).
    #[inline]
    pub(crate) fn find(&self, addr: u32, len: u32) -> Option<(usize, usize)> {
        if let Some(off) = self.ram.offset(addr, len) {
            return Some((0, off));
        }
        self.others
            .iter()
            .enumerate()
            .find_map(|(i, r)| r.offset(addr, len).map(|off| (i + 1, off)))
    }

    /// The region with index `i` as returned by [`Memory::find`].
    #[inline]
    pub(crate) fn region(&self, i: usize) -> &Region {
        if i == 0 {
            &self.ram
        } else {
            &self.others[i - 1]
        }
    }

    /// Mutable region by index.
    #[inline]
    pub(crate) fn region_mut(&mut self, i: usize) -> &mut Region {
        if i == 0 {
            &mut self.ram
        } else {
            &mut self.others[i - 1]
        }
    }

    /// Reads one byte without side effects (None if unmapped).
    pub(crate) fn peek_u8(&self, addr: u32) -> Option<u8> {
        let (i, off) = self.find(addr, 1)?;
        Some(self.region(i).data[off])
    }

    /// Reads a 16-bit instruction parcel for execution (None if unmapped or not executable),
    /// through the Carousel tags if any.
    #[inline]
    pub(crate) fn fetch_u16(&self, addr: u32) -> Option<u16> {
        let addr = match &self.carousel {
            Some(c) => c.translate(addr),
            None => addr,
        };
        let (i, off) = self.find(addr, 2)?;
        let r = self.region(i);
        if !r.exec {
            return None;
        }
        Some(u16::from_le_bytes([r.data[off], r.data[off + 1]]))
    }

    /// Debug read: fills `buf` from memory regions; Err names the first unmapped byte.
    pub(crate) fn read_debug(&self, addr: u32, buf: &mut [u8]) -> Result<(), MemError> {
        for (k, b) in buf.iter_mut().enumerate() {
            let a = addr.wrapping_add(k as u32);
            *b = self.peek_u8(a).ok_or(MemError { addr: a })?;
        }
        Ok(())
    }

    /// Debug write of `data` (all bytes checked before any is written).
    pub(crate) fn write_debug(&mut self, addr: u32, data: &[u8]) -> Result<(), MemError> {
        for k in 0..data.len() {
            let a = addr.wrapping_add(k as u32);
            self.find(a, 1).ok_or(MemError { addr: a })?;
        }
        for (k, &b) in data.iter().enumerate() {
            let a = addr.wrapping_add(k as u32);
            if let Some((i, off)) = self.find(a, 1) {
                self.region_mut(i).data[off] = b;
            }
        }
        Ok(())
    }

    /// Flag byte of the page holding `addr`.
    #[inline]
    pub(crate) fn page_flags(&self, addr: u32) -> u8 {
        self.flags[(addr >> 12) as usize]
    }

    /// Sets `flag` on every page overlapping `addr..addr+len`.
    pub(crate) fn set_flag(&mut self, addr: u32, len: u32, flag: u8) {
        if len == 0 {
            return;
        }
        let first = addr >> 12;
        let last = addr.wrapping_add(len - 1) >> 12;
        let mut p = first;
        loop {
            self.flags[p as usize] |= flag;
            if p == last {
                break;
            }
            p = p.wrapping_add(1) & 0xF_FFFF;
        }
    }

    /// Clears `flag` on the page with number `page`.
    pub(crate) fn clear_page_flag(&mut self, page: u32, flag: u8) {
        self.flags[page as usize] &= !flag;
    }
}
