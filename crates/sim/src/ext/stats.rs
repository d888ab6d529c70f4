//! Counters of the memory-system extensions, reported as [`crate::Stats::memory_system`].

use serde::Serialize;

/// Hits, misses and write-backs of one cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CacheStats {
    /// Accesses (per line touched) found in the cache.
    pub hits: u64,
    /// Accesses not found (a fill, except for write-through stores, which do not allocate).
    pub misses: u64,
    /// Dirty lines written back on eviction (write-back policy only).
    pub writebacks: u64,
}

/// What the memory system did during a run. Present in [`crate::Stats`] when the profile has
/// an `[external]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemSysStats {
    /// Instruction fetches served by a Carousel SPM block (through a tag).
    pub spm_fetches: u64,
    /// Loads and stores served by a Carousel SPM block (through a tag).
    pub spm_data: u64,
    /// Instruction fetches that went to external RAM (uncached) or to the instruction cache.
    pub external_fetches: u64,
    /// Loads and stores that went to external RAM (uncached) or to the data cache.
    pub external_data: u64,
    /// Bus transactions the core caused (uncached accesses, line fills, write-backs,
    /// write-through stores); DMA transactions are counted separately.
    pub external_transactions: u64,
    /// Cycles of those transactions.
    pub external_cycles: u64,
    /// DMA copies started (including zero-length ones).
    pub dma_copies: u64,
    /// Bytes the DMA engine moved.
    pub dma_bytes: u64,
    /// Bus transactions of DMA copies.
    pub dma_transactions: u64,
    /// Cycles the hart stalled for DMA copies.
    pub dma_cycles: u64,
    /// Instruction cache, when configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icache: Option<CacheStats>,
    /// Data cache, when configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dcache: Option<CacheStats>,
}
