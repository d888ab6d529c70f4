//! The DMA engine behind `dma_copy(dst, src, len)` (paper section IV-D).
//!
//! Registers (aligned 32-bit accesses only; docs/profiles.md, "DMA registers"):
//! SRC `+0x0`, DST `+0x4`, LEN `+0x8` (read/write, kept between copies); CTRL/STATUS `+0xC`
//! (a write with bit 0 set starts a copy of the current SRC, DST, LEN, other writes do
//! nothing; reads return bit 1 = the last start was refused, bit 0 = busy); LAST_CYCLES
//! `+0x10` (read-only: the bus time of the last copy); WAIT `+0x14` (read-only: the read
//! completes when every copy has finished, and returns 0); COPIES `+0x18` (read-only: copies
//! started since reset, a performance counter).
//!
//! Two ways to start a copy, as a real engine's blocking and queued modes:
//! - **synchronous** (CTRL = 1): the store that starts the copy completes when it has
//!   finished, behind any queued copies; the hart stalls for the wait;
//! - **queued** (CTRL = 1 | 4, `[dma] queue = Q` > 0): the copy joins a FIFO of at most Q
//!   copies and the store completes at once (it stalls only while the FIFO is full, until the
//!   oldest copy finishes). The engine runs the copies one after another, each starting when
//!   the previous one ends, while the hart goes on (e.g. writing the next copy's registers).
//!
//! Honesty of the queued mode: the bytes move when the copy is started (in FIFO order, so the
//! result of a sequence of copies is the same), but while any copy is outstanding every access
//! of the hart (fetch, load or store) to a memory region an outstanding copy reads or writes
//! stalls until the engine is idle; nothing can observe the bytes before the bus would have
//! moved them. Accesses to other regions (the OS scratchpad holding the kernel) and to device
//! registers (tags, DMA) proceed. With Q = 0 the queued start is synchronous.
//!
//! Addresses are physical: the DMA engine does not see the Carousel tags (`close` copies
//! SPM block i to external address r_i). Source and destination must each lie inside one
//! memory region (external RAM, the Carousel SPM window, the OS scratchpad, ...); overlapping
//! ranges copy as if through a buffer (memmove).
//!
//! Cost: the copy is split into transactions of at most `max_transaction` bytes; each chunk
//! costs one bus transaction per side that is external RAM (external to SPM, 32 bytes: 57;
//! 64 bytes: 65; external to external: both), and when neither side is external one beat per
//! `bytes_per_cycle` bytes (SPM to SPM, 128 bytes: 32 cycles).

use std::collections::VecDeque;

use crate::ext::bus_timing::BusTiming;
use crate::memory::Memory;

/// Register offsets.
pub const DMA_SRC: u32 = 0x0;
/// Destination address register.
pub const DMA_DST: u32 = 0x4;
/// Length register (bytes).
pub const DMA_LEN: u32 = 0x8;
/// Control (write: bit 0 starts) / status (read: bit 1 error, bit 0 busy).
pub const DMA_CTRL: u32 = 0xC;
/// Cycles of the last copy (read-only).
pub const DMA_LAST_CYCLES: u32 = 0x10;
/// Read-only: the read completes when the engine is idle (returns 0).
pub const DMA_WAIT: u32 = 0x14;
/// Read-only: copies started since reset.
pub const DMA_COPIES: u32 = 0x18;
/// CTRL bit: start a copy.
pub const DMA_CTRL_START: u32 = 1;
/// CTRL bit (with START): queue the copy instead of waiting for it.
pub const DMA_CTRL_QUEUE: u32 = 4;
/// STATUS bit: the last start was refused (bad range).
pub const DMA_STATUS_ERROR: u32 = 2;
/// STATUS bit: copies are outstanding.
pub const DMA_STATUS_BUSY: u32 = 1;

/// The DMA engine's registers and its queue of outstanding copies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dma {
    /// Base of the register window.
    pub(crate) base: u32,
    /// Copies the FIFO holds (`[dma] queue`; 0: every start is synchronous).
    pub(crate) depth: u32,
    pub(crate) src: u32,
    pub(crate) dst: u32,
    pub(crate) len: u32,
    pub(crate) error: bool,
    pub(crate) last_cycles: u32,
    /// Copies started since reset.
    pub(crate) copies: u32,
    /// End cycles of the copies not yet finished at the last start, oldest first.
    pub(crate) ends: VecDeque<u64>,
    /// The cycle the last copy ends (the engine is idle from then on).
    pub(crate) busy_until: u64,
    /// Memory regions (base, size) the outstanding copies read or write.
    pub(crate) touched: Vec<(u32, u32)>,
}

/// What a start asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Not a start.
    No,
    /// Wait for the copy.
    Sync,
    /// Queue the copy.
    Queued,
}

/// A copy's cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DmaCost {
    /// Cycles the hart stalls.
    pub(crate) cycles: u64,
    /// Bus transactions with external RAM.
    pub(crate) transactions: u64,
}

impl Dma {
    /// Reads register `off` at cycle `now`: Some((value, stall cycles)), None if `off` is
    /// not a register. Only WAIT stalls (until the engine is idle).
    pub(crate) fn read(&self, off: u32, now: u64) -> Option<(u32, u64)> {
        let v = match off {
            DMA_SRC => self.src,
            DMA_DST => self.dst,
            DMA_LEN => self.len,
            DMA_CTRL => {
                let busy = if self.busy(now) { DMA_STATUS_BUSY } else { 0 };
                busy | if self.error { DMA_STATUS_ERROR } else { 0 }
            }
            DMA_LAST_CYCLES => self.last_cycles,
            DMA_WAIT => return Some((0, self.busy_until.saturating_sub(now))),
            DMA_COPIES => self.copies,
            _ => return None,
        };
        Some((v, 0))
    }

    /// Writes register `off`: what the write starts, None if `off` is not a writable
    /// register.
    pub(crate) fn write(&mut self, off: u32, value: u32) -> Option<Start> {
        match off {
            DMA_SRC => self.src = value,
            DMA_DST => self.dst = value,
            DMA_LEN => self.len = value,
            DMA_CTRL => {
                return Some(match (value & DMA_CTRL_START, value & DMA_CTRL_QUEUE) {
                    (0, _) => Start::No,
                    (_, 0) => Start::Sync,
                    _ => Start::Queued,
                })
            }
            _ => return None,
        }
        Some(Start::No)
    }

    /// True if a copy is outstanding at cycle `now`.
    #[inline]
    pub(crate) fn busy(&self, now: u64) -> bool {
        self.busy_until > now
    }

    /// Cycles an access of the hart to physical `addr` at cycle `now` waits: until the engine
    /// is idle if an outstanding copy uses the region of `addr`, else 0.
    pub(crate) fn access_stall(&self, addr: u32, now: u64) -> u64 {
        if !self.busy(now) {
            return 0;
        }
        let hit = self
            .touched
            .iter()
            .any(|&(base, size)| addr.wrapping_sub(base) < size);
        if hit {
            self.busy_until - now
        } else {
            0
        }
    }

    /// Schedules a copy of bus time `cost` started at cycle `now` that uses the regions
    /// `regions`; returns the cycles the starting store stalls. Sync (or a queue of depth 0):
    /// until the copy has finished, behind the outstanding ones. Queued: until the FIFO has
    /// room.
    pub(crate) fn schedule(
        &mut self,
        now: u64,
        cost: u64,
        how: Start,
        regions: [(u32, u32); 2],
    ) -> u64 {
        if !self.busy(now) {
            self.touched.clear();
        }
        let sync = how != Start::Queued || self.depth == 0;
        // The cycle the start is accepted: the FIFO has room (a synchronous start waits for
        // its own end below).
        let depth = self.depth as usize;
        let accepted = if !sync && self.ends.iter().filter(|&&e| e > now).count() >= depth {
            let live: Vec<u64> = self.ends.iter().copied().filter(|&e| e > now).collect();
            live[live.len() - depth]
        } else {
            now
        };
        while self.ends.front().is_some_and(|&e| e <= accepted) {
            self.ends.pop_front();
        }
        let end = accepted.max(self.busy_until) + cost;
        self.busy_until = end;
        self.copies = self.copies.wrapping_add(1);
        for r in regions {
            if r.1 > 0 && !self.touched.contains(&r) {
                self.touched.push(r);
            }
        }
        if sync {
            self.ends.clear();
            end - now
        } else {
            self.ends.push_back(end);
            accepted - now
        }
    }
}

/// The cost of copying `len` bytes; `src_ext`/`dst_ext`: that side is external RAM.
pub(crate) fn copy_cost(bus: &BusTiming, len: u32, src_ext: bool, dst_ext: bool) -> DmaCost {
    // Closed form over the chunks: `full` chunks of `max_transaction` bytes and the rest.
    let max = bus.max_transaction;
    let (full, rest) = (u64::from(len / max), len % max);
    let sides = u64::from(src_ext) + u64::from(dst_ext);
    let chunk = |bytes: u32| {
        if sides == 0 {
            bus.beats(bytes)
        } else {
            sides * bus.transaction(bytes)
        }
    };
    let mut c = DmaCost {
        cycles: full * chunk(max),
        transactions: full * sides,
    };
    if rest > 0 {
        c.cycles += chunk(rest);
        c.transactions += sides;
    }
    c
}

/// The first address of `addr..addr+len` that no single region holds with the rest, or None
/// if one region holds it all (len > 0).
fn bad_range(mem: &Memory, addr: u32, len: u32) -> Option<u32> {
    if mem.find(addr, len).is_some() {
        return None;
    }
    Some(match mem.find(addr, 1) {
        Some((i, _)) => {
            let r = &mem.region(i).spec;
            r.base.wrapping_add(r.size)
        }
        None => addr,
    })
}

/// Copies `len` bytes from `src` to `dst` (physical addresses). Err(address) names the first
/// byte of either range that is not in the same region as the range's start (or the start
/// itself if unmapped); nothing is written then.
pub(crate) fn copy(mem: &mut Memory, dst: u32, src: u32, len: u32) -> Result<(), u32> {
    if len == 0 {
        return Ok(());
    }
    if let Some(a) = bad_range(mem, src, len).or_else(|| bad_range(mem, dst, len)) {
        return Err(a);
    }
    let (si, so) = mem.find(src, len).ok_or(src)?;
    let (di, doff) = mem.find(dst, len).ok_or(dst)?;
    let n = len as usize;
    if si == di {
        mem.region_mut(si).data.copy_within(so..so + n, doff);
    } else {
        let tmp = mem.region(si).data[so..so + n].to_vec();
        mem.region_mut(di).data[doff..doff + n].copy_from_slice(&tmp);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{copy, copy_cost, Dma, Start, DMA_COPIES, DMA_CTRL, DMA_LEN, DMA_WAIT};
    use crate::ext::bus_timing::BusTiming;
    use crate::memory::Memory;
    use crate::profile::MemoryRegion;

    const BUS: BusTiming = BusTiming {
        transaction_cycles: 49,
        bytes_per_cycle: 4,
        max_transaction: 64,
    };

    #[test]
    fn copy_costs_follow_the_paper() {
        assert_eq!(copy_cost(&BUS, 32, true, false).cycles, 57);
        assert_eq!(copy_cost(&BUS, 64, false, true).cycles, 65);
        let block = copy_cost(&BUS, 128, true, false);
        assert_eq!((block.cycles, block.transactions), (130, 2));
        assert_eq!(copy_cost(&BUS, 100, true, false).cycles, 65 + 49 + 9);
        let odd = copy_cost(&BUS, 130, false, true);
        assert_eq!(
            (odd.cycles, odd.transactions),
            (65 + 65 + 50, 3),
            "64 + 64 + 2"
        );
        assert_eq!(copy_cost(&BUS, 65, true, false).cycles, 65 + 50);
        let few = BusTiming {
            transaction_cycles: 3,
            bytes_per_cycle: 8,
            max_transaction: 24,
        };
        assert_eq!(
            copy_cost(&few, 50, true, false).cycles,
            2 * (3 + 3) + (3 + 1)
        );
        assert_eq!(
            copy_cost(&BUS, 32, true, true).cycles,
            114,
            "both sides external"
        );
        let local = copy_cost(&BUS, 128, false, false);
        assert_eq!(
            (local.cycles, local.transactions),
            (32, 0),
            "SPM to SPM: beats"
        );
        assert_eq!(copy_cost(&BUS, 0, true, true).cycles, 0);
    }

    fn mem() -> Memory {
        let r = |name: &str, base, size| MemoryRegion {
            name: name.into(),
            base,
            size,
            access: "rwx".into(),
            latency: 0,
            energy: 0.0,
        };
        Memory::new(&[r("ram", 0x8000_0000, 0x1000), r("spm", 0x3000_0000, 0x800)])
    }

    #[test]
    fn copies_move_bytes_between_regions_and_within_one() {
        let mut m = mem();
        let data: Vec<u8> = (0..128).collect();
        m.write_debug(0x8000_0100, &data).unwrap();
        copy(&mut m, 0x3000_0080, 0x8000_0100, 128).unwrap();
        let mut got = vec![0; 128];
        m.read_debug(0x3000_0080, &mut got).unwrap();
        assert_eq!(got, data);
        // Overlapping, inside one region: memmove.
        copy(&mut m, 0x8000_0104, 0x8000_0100, 8).unwrap();
        m.read_debug(0x8000_0104, &mut got[..8]).unwrap();
        assert_eq!(&got[..8], &data[..8]);
    }

    #[test]
    fn bad_ranges_name_the_first_bad_byte_and_write_nothing() {
        let mut m = mem();
        m.write_debug(0x3000_0000, &[7; 4]).unwrap();
        assert_eq!(copy(&mut m, 0x3000_0000, 0x8000_0FF0, 32), Err(0x8000_1000));
        assert_eq!(copy(&mut m, 0x3000_0000, 0x4000_0000, 4), Err(0x4000_0000));
        assert_eq!(copy(&mut m, 0x3000_07F0, 0x8000_0000, 32), Err(0x3000_0800));
        assert_eq!(
            copy(&mut m, 0x3000_0000, 0xFFFF_FFF0, 0x20),
            Err(0xFFFF_FFF0)
        );
        let mut got = [0; 4];
        m.read_debug(0x3000_0000, &mut got).unwrap();
        assert_eq!(got, [7; 4]);
        assert_eq!(
            copy(&mut m, 0x5000_0000, 0x6000_0000, 0),
            Ok(()),
            "empty copy"
        );
    }

    #[test]
    fn registers_read_back_and_only_bit_0_starts() {
        let mut d = Dma::default();
        assert_eq!(d.write(DMA_LEN, 64), Some(Start::No));
        assert_eq!(d.read(DMA_LEN, 0), Some((64, 0)));
        assert_eq!(d.write(DMA_CTRL, 2), Some(Start::No));
        assert_eq!(
            d.write(DMA_CTRL, 4),
            Some(Start::No),
            "QUEUE alone starts nothing"
        );
        assert_eq!(d.write(DMA_CTRL, 1), Some(Start::Sync));
        assert_eq!(d.write(DMA_CTRL, 5), Some(Start::Queued));
        assert_eq!(d.write(0x10, 1), None, "LAST_CYCLES is read-only");
        assert_eq!(d.write(DMA_WAIT, 1), None, "WAIT is read-only");
        assert_eq!(d.write(DMA_COPIES, 1), None, "COPIES is read-only");
        assert_eq!(
            d.read(DMA_WAIT, 0),
            Some((0, 0)),
            "idle: WAIT does not stall"
        );
        assert_eq!(d.read(0x1C, 0), None);
    }

    const EXT: (u32, u32) = (0x8000_0000, 0x1000);
    const SPM: (u32, u32) = (0x3000_0000, 0x800);

    #[test]
    fn a_synchronous_start_stalls_for_its_copy_and_the_queued_ones_before_it() {
        let mut d = Dma {
            depth: 4,
            ..Dma::default()
        };
        assert_eq!(d.schedule(100, 130, Start::Sync, [EXT, SPM]), 130);
        assert!(!d.busy(230));
        assert_eq!(d.schedule(300, 130, Start::Queued, [EXT, SPM]), 0);
        // Behind the queued copy (ends at 430): 130 more.
        assert_eq!(
            d.schedule(310, 130, Start::Sync, [EXT, SPM]),
            430 + 130 - 310
        );
        assert_eq!(d.copies, 3);
        let mut sync = Dma::default();
        assert_eq!(
            sync.schedule(0, 130, Start::Queued, [EXT, SPM]),
            130,
            "queue = 0: a queued start is synchronous"
        );
    }

    #[test]
    fn queued_copies_run_back_to_back_and_a_full_fifo_stalls_the_start() {
        let mut d = Dma {
            depth: 2,
            ..Dma::default()
        };
        // Two copies fit: the starts return at once, the copies end at 130 and 260.
        assert_eq!(d.schedule(0, 130, Start::Queued, [EXT, SPM]), 0);
        assert_eq!(d.schedule(10, 130, Start::Queued, [EXT, SPM]), 0);
        assert_eq!(d.busy_until, 260);
        // The third waits until the first has ended (130), then runs after the second.
        assert_eq!(d.schedule(20, 130, Start::Queued, [EXT, SPM]), 110);
        assert_eq!(d.busy_until, 390);
        // After an idle gap a copy starts when it is queued.
        assert_eq!(d.schedule(1000, 130, Start::Queued, [EXT, SPM]), 0);
        assert_eq!(d.busy_until, 1130);
        // WAIT stalls until the engine is idle; STATUS reads busy until then.
        assert_eq!(d.read(DMA_WAIT, 1030), Some((0, 100)));
        assert_eq!(d.read(DMA_CTRL, 1030), Some((1, 0)));
        assert_eq!(d.read(DMA_CTRL, 1130), Some((0, 0)));
        assert_eq!(d.read(DMA_COPIES, 0), Some((4, 0)));
    }

    #[test]
    fn accesses_wait_only_for_regions_an_outstanding_copy_uses() {
        let mut d = Dma {
            depth: 4,
            ..Dma::default()
        };
        d.schedule(0, 130, Start::Queued, [EXT, SPM]);
        assert_eq!(d.access_stall(0x8000_0010, 30), 100, "external RAM");
        assert_eq!(d.access_stall(0x3000_0100, 129), 1, "Carousel SPM");
        assert_eq!(d.access_stall(0x2000_0000, 30), 0, "another region");
        assert_eq!(d.access_stall(0x8000_0010, 130), 0, "idle");
        // A later copy that uses only the OS scratchpad's region forgets the old ones.
        d.schedule(500, 32, Start::Queued, [(0x2000_0000, 0x100), SPM]);
        assert_eq!(d.access_stall(0x8000_0010, 510), 0);
        assert_eq!(d.access_stall(0x2000_0010, 510), 22);
    }
}
