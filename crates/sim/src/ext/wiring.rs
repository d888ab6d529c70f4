//! How the bus routes loads and stores when the memory system is configured: the tag and
//! DMA register windows first, then Carousel translation of the CPU address to the physical
//! one (bytes), the ordinary region/device path at that address, and the access time of
//! the memory system added to the region's cycle delta. Page flags, the ownership oracle,
//! HTIF and events keep the CPU (logical) address.

use crate::bus::{Bus, Ctx, Exc, CAUSE_LOAD_FAULT, CAUSE_STORE_FAULT};
use crate::ext::dma::{copy, copy_cost, Start, DMA_CTRL};
use crate::ext::spec::{DMA_WINDOW, TAGS_WINDOW};
use crate::ext::Kind;
use crate::hart::codemap::CodeMap;

/// Why a DMA register write was refused.
enum Refused {
    /// Not a writable register.
    NotWritable,
    /// A copy whose range is bad: the first bad byte.
    BadRange(u32),
}

/// An extension register window an address falls in.
enum ExtWindow {
    Tags(u32),
    Dma(u32),
}

impl Bus {
    fn ext_window(&self, addr: u32) -> Option<ExtWindow> {
        if let Some(c) = &self.mem.carousel {
            let off = addr.wrapping_sub(c.tags_base);
            if off < TAGS_WINDOW {
                return Some(ExtWindow::Tags(off));
            }
        }
        let d = self.ext.as_ref()?.dma.as_ref()?;
        let off = addr.wrapping_sub(d.base);
        (off < DMA_WINDOW).then_some(ExtWindow::Dma(off))
    }

    /// The physical address of a data access, or the access fault of one that straddles a
    /// mapped and an unmapped Carousel block.
    fn phys(&self, addr: u32, width: u32, cause: u32) -> Result<u32, Exc> {
        match &self.mem.carousel {
            Some(c) => c.translate_range(addr, width).map_err(|_| (cause, addr)),
            None => Ok(addr),
        }
    }

    /// Cycle delta of the memory system for a data access that succeeded: its access time
    /// less one, plus the wait for the DMA engine if an outstanding copy uses the memory at
    /// physical `phys` (`dma.rs`).
    fn ext_delta(&mut self, addr: u32, phys: u32, width: u32, kind: Kind, now: u64) -> u64 {
        let Some(ext) = self.ext.as_mut() else {
            return 0;
        };
        let wait = ext.dma.as_ref().map_or(0, |d| d.access_stall(phys, now));
        ext.access_time(self.mem.carousel.as_ref(), addr, width, kind) - 1 + wait
    }

    /// True if the DMA engine has a copy outstanding at cycle `now` (the run loop then runs
    /// one instruction at a time and charges [`Bus::dma_fetch_stall`] before each).
    #[inline]
    pub(crate) fn dma_busy(&self, now: u64) -> bool {
        self.ext
            .as_ref()
            .and_then(|e| e.dma.as_ref())
            .is_some_and(|d| d.busy(now))
    }

    /// Cycles the fetch at CPU address `pc` waits at cycle `now` for the DMA engine: until it
    /// is idle if an outstanding copy uses the memory the fetch is served from, else 0.
    pub(crate) fn dma_fetch_stall(&self, pc: u32, now: u64) -> u64 {
        let Some(d) = self.ext.as_ref().and_then(|e| e.dma.as_ref()) else {
            return 0;
        };
        let phys = self.mem.carousel.as_ref().map_or(pc, |c| c.translate(pc));
        d.access_stall(phys, now)
    }

    /// A load in memory-system mode (alignment checked).
    pub(crate) fn ext_load(&mut self, addr: u32, width: u32, ctx: &Ctx) -> Result<(u32, u64), Exc> {
        if let Some(w) = self.ext_window(addr) {
            let fault = (CAUSE_LOAD_FAULT, addr);
            if width != 4 || addr & 3 != 0 {
                return Err(fault);
            }
            let v = match w {
                ExtWindow::Tags(off) => self
                    .mem
                    .carousel
                    .as_ref()
                    .and_then(|c| c.read_reg(off))
                    .map(|v| (v, 0)),
                ExtWindow::Dma(off) => self
                    .ext
                    .as_ref()
                    .and_then(|e| e.dma.as_ref()?.read(off, ctx.cycle)),
            };
            self.device_accesses += 1;
            return v
                .map(|(v, wait)| (v, self.device_delta().wrapping_add(wait)))
                .ok_or(fault);
        }
        let phys = self.phys(addr, width, CAUSE_LOAD_FAULT)?;
        let (v, delta) = self.load_at(phys, width, ctx)?;
        let ext = self.ext_delta(addr, phys, width, Kind::Load, ctx.cycle);
        Ok((v, delta.wrapping_add(ext)))
    }

    /// A store in memory-system mode (alignment checked). Ok((cycle delta, end block)).
    pub(crate) fn ext_store(
        &mut self,
        cache: &CodeMap,
        addr: u32,
        width: u32,
        value: u32,
        ctx: &Ctx,
    ) -> Result<(u64, bool), Exc> {
        if let Some(w) = self.ext_window(addr) {
            let fault = (CAUSE_STORE_FAULT, addr);
            if width != 4 || addr & 3 != 0 {
                return Err(fault);
            }
            let extra = match w {
                ExtWindow::Tags(off) => {
                    let c = self.mem.carousel.as_mut().ok_or(fault)?;
                    c.write_reg(off, value).map_err(|_| fault)?;
                    // Fetches through the old mapping may be predecoded.
                    self.code_dirty = true;
                    0
                }
                ExtWindow::Dma(off) => {
                    self.dma_write(cache, off, value, ctx.cycle)
                        .map_err(|r| match r {
                            Refused::NotWritable => fault,
                            Refused::BadRange(a) => (CAUSE_STORE_FAULT, a),
                        })?
                }
            };
            self.device_accesses += 1;
            return Ok((self.device_delta().wrapping_add(extra), true));
        }
        let phys = self.phys(addr, width, CAUSE_STORE_FAULT)?;
        let (delta, mut end) = self.store_at(cache, addr, phys, width, value, ctx)?;
        if let Some(c) = &self.mem.carousel {
            // Bytes of the SPM window may be predecoded under some tag's logical address.
            if c.any_used() && phys.wrapping_sub(c.spm_base) < c.spm_size() {
                self.code_dirty = true;
                end = true;
            }
        }
        let ext = self.ext_delta(addr, phys, width, Kind::Store, ctx.cycle);
        Ok((delta.wrapping_add(ext), end))
    }

    /// A write of DMA register `off` at cycle `now`; a start performs the copy and schedules
    /// its bus time (`dma.rs`). Ok(stall cycles).
    fn dma_write(
        &mut self,
        cache: &CodeMap,
        off: u32,
        value: u32,
        now: u64,
    ) -> Result<u64, Refused> {
        let Some(ext) = self.ext.as_mut() else {
            return Err(Refused::NotWritable);
        };
        let Some(dma) = ext.dma.as_mut() else {
            return Err(Refused::NotWritable);
        };
        let how = match dma.write(off, value) {
            None => return Err(Refused::NotWritable),
            Some(Start::No) => return Ok(0),
            Some(how) => how,
        };
        debug_assert_eq!(off, DMA_CTRL);
        let (src, dst, len) = (dma.src, dma.dst, dma.len);
        ext.stats.dma_copies += 1;
        if let Err(a) = copy(&mut self.mem, dst, src, len) {
            if let Some(d) = self.ext.as_mut().and_then(|e| e.dma.as_mut()) {
                d.error = true;
            }
            return Err(Refused::BadRange(a));
        }
        let Some(ext) = self.ext.as_mut() else {
            return Err(Refused::NotWritable);
        };
        let cost = copy_cost(
            &ext.plain.timing,
            len,
            ext.is_external(src, len),
            ext.is_external(dst, len),
        );
        ext.stats.dma_bytes += u64::from(len);
        ext.stats.dma_transactions += cost.transactions;
        ext.stats.dma_cycles += cost.cycles;
        let span = |a: u32| {
            self.mem.find(a, len.max(1)).map_or((0, 0), |(i, _)| {
                let r = &self.mem.region(i).spec;
                (r.base, r.size)
            })
        };
        let regions = [span(src), span(dst)];
        let mut stall = cost.cycles;
        if let Some(d) = ext.dma.as_mut() {
            d.error = false;
            d.last_cycles = u32::try_from(cost.cycles).unwrap_or(u32::MAX);
            stall = d.schedule(now, cost.cycles, how, regions);
        }
        // Predecoded code may have been overwritten: in the SPM window (under a tag) or at
        // its own address.
        let into_spm = self
            .mem
            .carousel
            .as_ref()
            .is_some_and(|c| dst.wrapping_sub(c.spm_base) < c.spm_size());
        if len > 0 && (into_spm || cache.covers(dst, len)) {
            self.code_dirty = true;
        }
        Ok(stall)
    }
}
