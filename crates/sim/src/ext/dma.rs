//! The DMA engine behind `dma_copy(dst, src, len)` (paper section IV-D). Synchronous: the
//! store that starts a copy performs all of it and stalls the hart for the copy's bus time,
//! so every run is deterministic and no completion needs polling.
//!
//! Registers (aligned 32-bit accesses only; docs/profiles.md, "DMA registers"):
//! SRC `+0x0`, DST `+0x4`, LEN `+0x8` (read/write); CTRL/STATUS `+0xC` (a write with bit 0 set
//! starts the copy, other writes do nothing; reads return bit 1 = the last start was refused,
//! bit 0 = busy, always 0); LAST_CYCLES `+0x10` (read-only: the stall of the last copy).
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
/// STATUS bit: the last start was refused (bad range).
pub const DMA_STATUS_ERROR: u32 = 2;

/// The DMA engine's registers.
#[derive(Clone, Debug, Default)]
pub(crate) struct Dma {
    /// Base of the register window.
    pub(crate) base: u32,
    pub(crate) src: u32,
    pub(crate) dst: u32,
    pub(crate) len: u32,
    pub(crate) error: bool,
    pub(crate) last_cycles: u32,
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
    /// Reads register `off` (None: not a register or not an aligned word).
    pub(crate) fn read(&self, off: u32) -> Option<u32> {
        match off {
            DMA_SRC => Some(self.src),
            DMA_DST => Some(self.dst),
            DMA_LEN => Some(self.len),
            DMA_CTRL => Some(if self.error { DMA_STATUS_ERROR } else { 0 }),
            DMA_LAST_CYCLES => Some(self.last_cycles),
            _ => None,
        }
    }

    /// Writes register `off`: Some(true) if the write starts a copy, None if `off` is not a
    /// writable register.
    pub(crate) fn write(&mut self, off: u32, value: u32) -> Option<bool> {
        match off {
            DMA_SRC => self.src = value,
            DMA_DST => self.dst = value,
            DMA_LEN => self.len = value,
            DMA_CTRL => return Some(value & 1 != 0),
            _ => return None,
        }
        Some(false)
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
    use super::{copy, copy_cost, Dma, DMA_CTRL, DMA_LEN};
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
        assert_eq!(d.write(DMA_LEN, 64), Some(false));
        assert_eq!(d.read(DMA_LEN), Some(64));
        assert_eq!(d.write(DMA_CTRL, 2), Some(false));
        assert_eq!(d.write(DMA_CTRL, 1), Some(true));
        assert_eq!(d.write(0x10, 1), None, "LAST_CYCLES is read-only");
        assert_eq!(d.read(0x14), None);
    }
}
