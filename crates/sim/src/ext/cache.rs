//! A direct-mapped cache in front of external RAM, as a timing model (paper section VI-F,
//! Tables VI and VII). The simulated bytes always live in memory: with one bus master (the
//! hart; the DMA engine is not used with caches) the cache holds no data of its own, only
//! which lines it has and which are dirty, which is all that timing needs.
//!
//! Access times (cycles, one access inside one line; docs/profiles.md states the rule):
//! - hit (read, or write under write-back): 1;
//! - read miss: a line fill, one bus transaction of `line` bytes (16 bytes: 49 + 4 = 53),
//!   plus, under write-back, one more transaction of `line` bytes first if the evicted line
//!   is dirty;
//! - write-through store (hit or miss; a miss does not allocate): one bus transaction of the
//!   stored bytes (a word: 50), the core waits for it;
//! - write-back store miss: allocates like a read miss, then marks the line dirty.

use crate::ext::bus_timing::BusTiming;
use crate::ext::spec::{CacheSpec, WritePolicy};
use crate::ext::stats::CacheStats;

#[derive(Clone, Copy, Debug, Default)]
struct Line {
    /// `addr >> line_shift` of the cached line.
    tag: u32,
    valid: bool,
    dirty: bool,
}

/// What one access cost: its time and the bus traffic it caused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    /// Cycles the access takes (1 for a hit).
    pub(crate) time: u64,
    /// Bus transactions issued.
    pub(crate) transactions: u64,
    /// Cycles of those transactions.
    pub(crate) bus_cycles: u64,
}

/// One direct-mapped cache.
pub(crate) struct Cache {
    line_shift: u32,
    line: u32,
    lines: Vec<Line>,
    policy: WritePolicy,
    /// Hits, misses and write-backs so far.
    pub(crate) stats: CacheStats,
}

impl Cache {
    /// An empty (all invalid) cache of the given geometry; `policy` matters for writes only.
    pub(crate) fn new(spec: &CacheSpec) -> Cache {
        Cache {
            line_shift: spec.line.trailing_zeros(),
            line: spec.line,
            lines: vec![Line::default(); (spec.size / spec.line) as usize],
            policy: spec.policy,
            stats: CacheStats::default(),
        }
    }

    /// Line size in bytes.
    pub(crate) fn line(&self) -> u32 {
        self.line
    }

    fn slot(&mut self, addr: u32) -> (&mut Line, u32) {
        let tag = addr >> self.line_shift;
        let n = self.lines.len();
        (&mut self.lines[tag as usize % n], tag)
    }

    /// Brings the line of `addr` in (it missed): a write-back of the victim if dirty, then the
    /// fill. Returns the bus traffic.
    fn allocate(&mut self, addr: u32, bus: &BusTiming) -> Cost {
        let line = self.line;
        let (slot, tag) = self.slot(addr);
        let mut c = Cost::default();
        if slot.valid && slot.dirty {
            c.transactions += 1;
            c.bus_cycles += bus.transaction(line);
            self.stats.writebacks += 1;
        }
        let (slot, _) = self.slot(addr);
        *slot = Line {
            tag,
            valid: true,
            dirty: false,
        };
        c.transactions += 1;
        c.bus_cycles += bus.transaction(line);
        c.time = c.bus_cycles;
        c
    }

    fn hit(&mut self, addr: u32) -> bool {
        let (slot, tag) = self.slot(addr);
        let hit = slot.valid && slot.tag == tag;
        if hit {
            self.stats.hits += 1;
        } else {
            self.stats.misses += 1;
        }
        hit
    }

    /// A read (instruction fetch or load) of bytes inside the line of `addr`.
    pub(crate) fn read(&mut self, addr: u32, bus: &BusTiming) -> Cost {
        if self.hit(addr) {
            Cost {
                time: 1,
                ..Cost::default()
            }
        } else {
            self.allocate(addr, bus)
        }
    }

    /// A store of `len` bytes inside the line of `addr`.
    pub(crate) fn write(&mut self, addr: u32, len: u32, bus: &BusTiming) -> Cost {
        let hit = self.hit(addr);
        match self.policy {
            WritePolicy::WriteThrough => {
                let t = bus.transaction(len);
                Cost {
                    time: t,
                    transactions: 1,
                    bus_cycles: t,
                }
            }
            WritePolicy::WriteBack => {
                let c = if hit {
                    Cost {
                        time: 1,
                        ..Cost::default()
                    }
                } else {
                    self.allocate(addr, bus)
                };
                self.slot(addr).0.dirty = true;
                c
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cache;
    use crate::ext::bus_timing::BusTiming;
    use crate::ext::spec::{CacheSpec, WritePolicy};

    const BUS: BusTiming = BusTiming {
        transaction_cycles: 49,
        bytes_per_cycle: 4,
        max_transaction: 64,
    };

    fn cache(policy: WritePolicy) -> Cache {
        Cache::new(&CacheSpec {
            size: 1024,
            line: 16,
            ways: 1,
            policy,
        })
    }

    #[test]
    fn reads_miss_once_per_line_and_conflict_at_the_cache_size() {
        let mut c = cache(WritePolicy::WriteThrough);
        assert_eq!(c.read(0x8000_0000, &BUS).time, 53, "fill of 16 bytes");
        assert_eq!(c.read(0x8000_0004, &BUS).time, 1);
        assert_eq!(c.read(0x8000_000C, &BUS).time, 1);
        assert_eq!(c.read(0x8000_0010, &BUS).time, 53, "next line");
        // 0x8000_0400 maps to the same slot as 0x8000_0000 (1 KiB direct-mapped).
        assert_eq!(c.read(0x8000_0400, &BUS).time, 53);
        assert_eq!(c.read(0x8000_0000, &BUS).time, 53, "evicted");
        assert_eq!(c.read(0x8000_0014, &BUS).time, 1, "other slot untouched");
        assert_eq!(
            (c.stats.hits, c.stats.misses, c.stats.writebacks),
            (3, 4, 0)
        );
    }

    #[test]
    fn write_through_stores_always_pay_the_bus_and_never_allocate() {
        let mut c = cache(WritePolicy::WriteThrough);
        let miss = c.write(0x8000_0000, 4, &BUS);
        assert_eq!(
            (miss.time, miss.transactions),
            (50, 1),
            "store miss: one word"
        );
        assert_eq!(c.read(0x8000_0000, &BUS).time, 53, "no allocate on write");
        let hit = c.write(0x8000_0000, 4, &BUS);
        assert_eq!(hit.time, 50, "a store hit still waits for the bus");
        assert_eq!(c.write(0x8000_0000, 1, &BUS).time, 50, "a byte store too");
        assert_eq!(c.read(0x8000_0400, &BUS).time, 53, "evicts; nothing dirty");
        assert_eq!(
            (c.stats.hits, c.stats.misses, c.stats.writebacks),
            (2, 3, 0)
        );
    }

    #[test]
    fn write_back_allocates_and_writes_dirty_victims_back() {
        let mut c = cache(WritePolicy::WriteBack);
        let miss = c.write(0x8000_0000, 4, &BUS);
        assert_eq!((miss.time, miss.transactions), (53, 1), "allocate: a fill");
        assert_eq!(
            c.write(0x8000_0008, 4, &BUS).time,
            1,
            "hit, stays in the cache"
        );
        assert_eq!(c.read(0x8000_0004, &BUS).time, 1);
        // A conflicting read evicts the dirty line: write-back + fill.
        let evict = c.read(0x8000_0400, &BUS);
        assert_eq!((evict.time, evict.transactions), (106, 2));
        // The new line is clean: evicting it costs only the fill.
        assert_eq!(c.read(0x8000_0000, &BUS).time, 53);
        // A store miss onto a dirty line: write-back, fill.
        c.write(0x8000_0000, 4, &BUS);
        assert_eq!(c.write(0x8000_0800, 2, &BUS).time, 106);
        assert_eq!(c.stats.writebacks, 2);
        assert_eq!((c.stats.hits, c.stats.misses), (3, 4));
    }
}
