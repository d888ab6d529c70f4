//! Memory-system extensions of issue #17 (the Carousel paper's prototype hardware, sections
//! IV-C, IV-E, VI-F), each configured by a profile table (docs/profiles.md):
//!
//! | file | unit | table |
//! |---|---|---|
//! | `bus_timing.rs` | external RAM bus: 49 cycles per transaction + 1 per 4 bytes, 64-byte maximum | `[external]` |
//! | `carousel.rs` | the Carousel translation unit: n tag registers over an SPM of n 2^x-byte blocks | `[carousel]` |
//! | `dma.rs` | the DMA engine behind `dma_copy`: synchronous or queued copies | `[dma]` |
//! | `fetch.rs` | the cost of an uncached access from the tags alone (fetch costs fixed per predecoded block) | |
//! | `cache.rs` | direct-mapped instruction and data caches (write-through or write-back) | `[cache]` |
//! | `spec.rs` | the TOML tables and their validation | |
//! | `wiring.rs` | how the bus routes data accesses and MMIO through the units | |
//! | `run.rs` | `attach` (SPM window, fast path off); the run loop with caches: one instruction at a time, fetch charged | |
//! | `stats.rs` | the counters reported as `Stats::memory_system` | |
//!
//! With an `[external]` table the machine runs in *memory-system mode*: the RAM fast path of
//! the hot loop is off (every load and store goes through the bus and `wiring.rs`). Without
//! caches a fetch's cost depends on the tags alone and is fixed in the predecoded blocks'
//! static cycles (`fetch.rs`; a tag write flushes them), so the chained hot loop runs as
//! usual. With caches the run loop executes one instruction per dispatch and charges its
//! fetch first ([`MemSystem::access_time`] of the instruction's bytes, `run.rs`), so a cache
//! eviction changes the cost of the very next fetch. Without the table nothing here is
//! constructed and the simulator runs exactly as before (docs/simulator-design.md,
//! "Memory-system extensions").
//!
//! The timing rule (docs/profiles.md): an instruction costs its class cycles plus, for its
//! fetch and for each data access it makes, the access time minus 1 (the class cycles assume
//! one-cycle local memory). Access times: SPM (Carousel block, SPM window, any other region)
//! 1; external RAM uncached, one transaction of the accessed bytes (a word or a 2-byte
//! compressed instruction: 49 + 1 = 50); through a cache as `cache.rs` says.

pub(crate) mod bus_timing;
pub(crate) mod cache;
pub(crate) mod carousel;
pub(crate) mod dma;
pub(crate) mod fetch;
pub(crate) mod run;
pub(crate) mod spec;
pub(crate) mod stats;
pub(crate) mod wiring;

use crate::profile::Profile;
use bus_timing::BusTiming;
use cache::Cache;
use carousel::Carousel;
use dma::Dma;
use fetch::Uncached;
use stats::MemSysStats;

/// What kind of access is being timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An instruction fetch.
    Fetch,
    /// A load (or the read of an AMO).
    Load,
    /// A store (or the write of an AMO).
    Store,
}

/// The extension units other than the Carousel tags (which live in `Memory`, because
/// instruction fetch reads through them) and their counters.
pub(crate) struct MemSystem {
    /// External RAM and the bus timing.
    pub(crate) plain: Uncached,
    pub(crate) icache: Option<Cache>,
    pub(crate) dcache: Option<Cache>,
    pub(crate) dma: Option<Dma>,
    /// Counters (the caches keep their own; fetches costed at predecode are counted by the
    /// block cache).
    pub(crate) stats: MemSysStats,
}

impl MemSystem {
    /// The memory system of `profile` and its Carousel unit, or None without `[external]`.
    pub(crate) fn new(profile: &Profile) -> Option<(MemSystem, Option<Carousel>)> {
        let e = profile.external()?;
        let region = profile.memory().iter().find(|r| r.name == e.region)?;
        let carousel = profile
            .carousel()
            .map(|c| Carousel::new(c, region.base, region.size));
        let cache = profile.cache();
        Some((
            MemSystem {
                plain: Uncached {
                    timing: BusTiming::new(e),
                    ext_base: region.base,
                    ext_size: region.size,
                },
                icache: cache.map(Cache::new),
                dcache: cache.map(Cache::new),
                dma: profile.dma().map(|d| Dma {
                    base: d.base,
                    depth: d.queue,
                    ..Dma::default()
                }),
                stats: MemSysStats::default(),
            },
            carousel,
        ))
    }

    /// True if there are caches: a fetch's cost then depends on state that every access
    /// changes, and the run loop charges each fetch as it happens (`run.rs`); otherwise
    /// fetch costs are fixed per predecoded block (`fetch.rs`).
    pub(crate) fn cached(&self) -> bool {
        self.icache.is_some() || self.dcache.is_some()
    }

    /// True if `addr..addr+len` lies in external RAM.
    #[inline]
    pub(crate) fn is_external(&self, addr: u32, len: u32) -> bool {
        self.plain.is_external(addr, len)
    }

    /// Cycles of an access of `len` (1..=4) bytes at CPU address `addr` (before Carousel
    /// translation), updating the caches and counters. Uncached: as [`Uncached::cost`].
    /// Cached (there is no Carousel then): split at line edges; each part inside external
    /// RAM costs what its cache says, any other part 1. Always at least 1.
    pub(crate) fn access_time(
        &mut self,
        car: Option<&Carousel>,
        addr: u32,
        len: u32,
        kind: Kind,
    ) -> u64 {
        let line = match (kind, &self.icache, &self.dcache) {
            (Kind::Fetch, Some(c), _) => c.line(),
            (Kind::Load | Kind::Store, _, Some(c)) => c.line(),
            _ => {
                let c = self.plain.cost(car, addr, len);
                let (spm, external) = match kind {
                    Kind::Fetch => (
                        &mut self.stats.spm_fetches,
                        &mut self.stats.external_fetches,
                    ),
                    _ => (&mut self.stats.spm_data, &mut self.stats.external_data),
                };
                *spm += u64::from(c.spm);
                *external += u64::from(c.external);
                self.stats.external_transactions += u64::from(c.external);
                self.stats.external_cycles += u64::from(c.bus_cycles);
                return u64::from(c.time);
            }
        };
        let mut time = 0;
        let mut a = addr;
        let end = u64::from(addr) + u64::from(len);
        while u64::from(a) < end {
            let piece = (line - (a & (line - 1))).min((end - u64::from(a)) as u32);
            time += if self.is_external(a, piece) {
                self.cached_time(a, piece, kind)
            } else {
                1
            };
            a = a.wrapping_add(piece);
            if a == 0 {
                break;
            }
        }
        time.max(1)
    }

    /// Time of `a..a+len` (inside one line of external RAM) through the kind's cache.
    fn cached_time(&mut self, a: u32, len: u32, kind: Kind) -> u64 {
        match kind {
            Kind::Fetch => self.stats.external_fetches += 1,
            _ => self.stats.external_data += 1,
        }
        let timing = self.plain.timing;
        let cost = match (kind, &mut self.icache, &mut self.dcache) {
            (Kind::Fetch, Some(c), _) => c.read(a, &timing),
            (Kind::Load, _, Some(c)) => c.read(a, &timing),
            (Kind::Store, _, Some(c)) => c.write(a, len, &timing),
            _ => {
                let t = timing.transaction(len);
                cache::Cost {
                    time: t,
                    transactions: 1,
                    bus_cycles: t,
                }
            }
        };
        self.stats.external_transactions += cost.transactions;
        self.stats.external_cycles += cost.bus_cycles;
        cost.time
    }

    /// The counters, with the caches' figures.
    pub(crate) fn report(&self) -> MemSysStats {
        MemSysStats {
            icache: self.icache.as_ref().map(|c| c.stats),
            dcache: self.dcache.as_ref().map(|c| c.stats),
            ..self.stats.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, MemSystem};
    use crate::profile::Profile;

    fn system(name: &str) -> (MemSystem, Option<super::Carousel>) {
        MemSystem::new(&Profile::builtin(name).unwrap()).unwrap()
    }

    #[test]
    fn uncached_external_accesses_cost_one_transaction_of_their_bytes() {
        let (mut m, car) = system("carousel-paper");
        let car = car.unwrap();
        assert_eq!(m.access_time(Some(&car), 0x8000_0000, 4, Kind::Load), 50);
        assert_eq!(m.access_time(Some(&car), 0x8000_0000, 2, Kind::Fetch), 50);
        assert_eq!(m.access_time(Some(&car), 0x8000_0001, 1, Kind::Store), 50);
        // A word straddling two unmapped Carousel blocks: still one transaction.
        assert_eq!(m.access_time(Some(&car), 0x8000_007E, 4, Kind::Fetch), 50);
        // Local memory: the OS scratchpad and the SPM window.
        assert_eq!(m.access_time(Some(&car), 0x2000_0000, 4, Kind::Load), 1);
        assert_eq!(m.access_time(Some(&car), 0x3000_0000, 4, Kind::Fetch), 1);
        assert_eq!(m.stats.external_transactions, 4);
        assert_eq!(m.stats.external_cycles, 200);
        assert_eq!((m.stats.external_fetches, m.stats.external_data), (2, 2));
    }

    #[test]
    fn carousel_hits_cost_one_cycle() {
        let (mut m, car) = system("carousel-paper");
        let mut car = car.unwrap();
        car.write_reg(0, 0x8000_0000).unwrap();
        assert_eq!(m.access_time(Some(&car), 0x8000_0010, 4, Kind::Load), 1);
        assert_eq!(m.access_time(Some(&car), 0x8000_0010, 4, Kind::Fetch), 1);
        assert_eq!(m.access_time(Some(&car), 0x8000_007E, 4, Kind::Fetch), 51);
        assert_eq!((m.stats.spm_fetches, m.stats.spm_data), (2, 1));
    }

    #[test]
    fn cached_accesses_split_at_lines_and_use_their_own_side() {
        let (mut m, car) = system("cache-wb");
        assert!(car.is_none());
        assert_eq!(m.access_time(None, 0x8000_0000, 4, Kind::Fetch), 53);
        assert_eq!(
            m.access_time(None, 0x8000_0000, 4, Kind::Load),
            53,
            "split caches"
        );
        assert_eq!(m.access_time(None, 0x8000_0004, 4, Kind::Fetch), 1);
        assert_eq!(
            m.access_time(None, 0x8000_000E, 4, Kind::Fetch),
            54,
            "hit + fill"
        );
        let r = m.report();
        assert_eq!(r.icache.unwrap().misses, 2);
        assert_eq!(r.dcache.unwrap().misses, 1);
        assert_eq!(
            m.access_time(None, 0x2000_0000, 4, Kind::Store),
            1,
            "OS SPM uncached"
        );
    }
}
