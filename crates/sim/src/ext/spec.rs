//! Profile keys of the memory-system extensions (docs/profiles.md, "Memory-system
//! extensions"): `[external]` (the bus to external RAM), `[carousel]`, `[dma]` and `[cache]`.
//! [`check`] validates them against the profile's regions and the fixed device windows.

use serde::{Deserialize, Serialize};

/// Default physical base of the Carousel SPM window (`carousel.spm_base`).
pub const DEFAULT_SPM_BASE: u32 = 0x3000_0000;
/// Default base of the Carousel tag-register window (`carousel.tags_base`).
pub const DEFAULT_TAGS_BASE: u32 = 0x0F00_0000;
/// Default base of the DMA register window (`dma.base`).
pub const DEFAULT_DMA_BASE: u32 = 0x0F00_1000;
/// Bytes decoded by the tag window: r_0..r_63 at +4i, INFO at +0x100, SPM_BASE at +0x104.
pub const TAGS_WINDOW: u32 = 0x108;
/// Bytes decoded by the DMA window: SRC, DST, LEN, CTRL/STATUS, LAST_CYCLES, WAIT, COPIES.
pub const DMA_WINDOW: u32 = 0x1C;
/// Largest `dma.queue`.
pub const MAX_DMA_QUEUE: u32 = 64;
/// Largest `external.transaction_cycles` (keeps every access time and block cost in range).
pub const MAX_TRANSACTION_CYCLES: u32 = 1_000_000;
/// Largest `external.max_transaction` in bytes.
pub const MAX_TRANSACTION_BYTES: u32 = 4096;
/// Most Carousel blocks (the tag registers r_0..r_63 fit below INFO at +0x100).
pub const MAX_BLOCKS: u32 = 64;

/// `[external]`: which region sits behind the external bus, and the bus timing.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalSpec {
    /// Name of the `[[memory]]` region that is external RAM.
    pub region: String,
    /// Fixed cycles of every bus transaction (paper: 49; at most 1,000,000).
    pub transaction_cycles: u32,
    /// Bytes moved per further cycle, rounding up (paper: 4).
    pub bytes_per_cycle: u32,
    /// Largest transaction in bytes, 1..=4096; longer transfers are split (paper: 64).
    pub max_transaction: u32,
}

/// `[carousel]`: the Carousel unit (paper section IV-C).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CarouselSpec {
    /// n, the number of SPM blocks and tag registers (1..=64).
    pub blocks: u32,
    /// x: every block is 2^x bytes (2..=16).
    pub block_bits: u32,
    /// S, the physical base of the SPM window (aligned to 2^x).
    #[serde(default = "default_spm_base")]
    pub spm_base: u32,
    /// Base of the tag-register window (4-byte aligned).
    #[serde(default = "default_tags_base")]
    pub tags_base: u32,
}

/// `[dma]`: the DMA engine's register window.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DmaSpec {
    /// Base of the DMA register window (4-byte aligned).
    #[serde(default = "default_dma_base")]
    pub base: u32,
    /// Copies the engine's FIFO holds for queued starts (CTRL = 5), 0..=64; 0 (the default):
    /// every start is synchronous.
    #[serde(default)]
    pub queue: u32,
}

/// Write policy of the data cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WritePolicy {
    /// Every store goes to the bus (the core waits); a store miss does not allocate.
    WriteThrough,
    /// Stores mark the line dirty; a store miss allocates; dirty lines are written back when
    /// evicted.
    WriteBack,
}

/// `[cache]`: split instruction and data caches in front of external RAM.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CacheSpec {
    /// Bytes of each cache (instruction and data alike; a power of two).
    pub size: u32,
    /// Line size in bytes (a power of two, at least 4, at most `size` and
    /// `external.max_transaction`).
    pub line: u32,
    /// Associativity; only 1 (direct-mapped) is modelled.
    #[serde(default = "one")]
    pub ways: u32,
    /// Data-cache write policy.
    pub policy: WritePolicy,
}

fn default_spm_base() -> u32 {
    DEFAULT_SPM_BASE
}
fn default_tags_base() -> u32 {
    DEFAULT_TAGS_BASE
}
fn default_dma_base() -> u32 {
    DEFAULT_DMA_BASE
}
fn one() -> u32 {
    1
}

/// All extension tables of a profile (each optional).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ExtSpecs<'a> {
    pub(crate) external: Option<&'a ExternalSpec>,
    pub(crate) carousel: Option<&'a CarouselSpec>,
    pub(crate) dma: Option<&'a DmaSpec>,
    pub(crate) cache: Option<&'a CacheSpec>,
}

/// The extension windows that must stay clear of regions, devices and each other:
/// (key, base, size, name).
pub(crate) fn windows(s: &ExtSpecs) -> Vec<(&'static str, u32, u32, &'static str)> {
    let mut w = Vec::new();
    if let Some(c) = s.carousel {
        let spm = u64::from(c.blocks) << c.block_bits;
        w.push(("carousel.spm_base", c.spm_base, spm as u32, "Carousel SPM"));
        w.push((
            "carousel.tags_base",
            c.tags_base,
            TAGS_WINDOW,
            "Carousel tag registers",
        ));
    }
    if let Some(d) = s.dma {
        w.push(("dma.base", d.base, DMA_WINDOW, "DMA registers"));
    }
    w
}

/// Checks the extension tables. `regions` are the profile's (name, base, size); `devices`
/// the fixed device windows (base, size, name). Err((key, message)).
pub(crate) fn check(
    s: &ExtSpecs,
    regions: &[(String, u32, u32)],
    devices: &[(u32, u32, &str)],
) -> Result<(), (String, String)> {
    let bad = |k: &str, m: String| Err((k.to_string(), m));
    let need_external = |table: &str| -> Result<(), (String, String)> {
        if s.external.is_none() {
            return Err((
                table.to_string(),
                "needs an [external] table (the bus timing it uses)".into(),
            ));
        }
        Ok(())
    };
    if let Some(e) = s.external {
        if !regions.iter().any(|r| r.0 == e.region) {
            return bad(
                "external.region",
                format!("no [[memory]] region is named {:?}", e.region),
            );
        }
        if e.transaction_cycles > MAX_TRANSACTION_CYCLES {
            return bad(
                "external.transaction_cycles",
                format!("must be at most {MAX_TRANSACTION_CYCLES}"),
            );
        }
        if e.bytes_per_cycle == 0 {
            return bad("external.bytes_per_cycle", "must be greater than 0".into());
        }
        if e.max_transaction == 0 || e.max_transaction > MAX_TRANSACTION_BYTES {
            return bad(
                "external.max_transaction",
                format!("must be between 1 and {MAX_TRANSACTION_BYTES}"),
            );
        }
    }
    if let Some(c) = s.carousel {
        need_external("carousel")?;
        if c.blocks == 0 || c.blocks > MAX_BLOCKS {
            return bad(
                "carousel.blocks",
                format!("must be between 1 and {MAX_BLOCKS}"),
            );
        }
        if !(2..=16).contains(&c.block_bits) {
            return bad("carousel.block_bits", "must be between 2 and 16".into());
        }
        if c.spm_base & ((1 << c.block_bits) - 1) != 0 {
            return bad(
                "carousel.spm_base",
                format!(
                    "{:#010x} is not aligned to the block size {}",
                    c.spm_base,
                    1u32 << c.block_bits
                ),
            );
        }
        if c.tags_base & 3 != 0 {
            return bad("carousel.tags_base", "must be 4-byte aligned".into());
        }
    }
    if let Some(d) = s.dma {
        need_external("dma")?;
        if d.base & 3 != 0 {
            return bad("dma.base", "must be 4-byte aligned".into());
        }
        if d.queue > MAX_DMA_QUEUE {
            return bad("dma.queue", format!("must be at most {MAX_DMA_QUEUE}"));
        }
    }
    if let Some(c) = s.cache {
        need_external("cache")?;
        if s.carousel.is_some() {
            return bad("cache", "cannot be combined with [carousel]".into());
        }
        if c.ways != 1 {
            return bad(
                "cache.ways",
                "only direct-mapped caches (1) are modelled".into(),
            );
        }
        if !c.size.is_power_of_two() {
            return bad("cache.size", "must be a power of two".into());
        }
        let max = s.external.map_or(0, |e| e.max_transaction);
        if !c.line.is_power_of_two() || c.line < 4 || c.line > c.size || c.line > max {
            return bad(
                "cache.line",
                format!(
                    "must be a power of two between 4 and both cache.size ({}) and \
                     external.max_transaction ({max})",
                    c.size
                ),
            );
        }
    }
    let wins = windows(s);
    for (k, (key, base, size, name)) in wins.iter().enumerate() {
        if u64::from(*base) + u64::from(*size) > 1 << 32 {
            return bad(key, format!("the {name} window extends past 4 GiB"));
        }
        for (rname, rbase, rsize) in regions {
            if overlaps(*base, *size, *rbase, *rsize) {
                return bad(
                    key,
                    format!("the {name} window at {base:#010x} overlaps region {rname:?}"),
                );
            }
        }
        for (dbase, dsize, dname) in devices.iter().filter(|d| d.1 > 0) {
            if overlaps(*base, *size, *dbase, *dsize) {
                return bad(
                    key,
                    format!("the {name} window at {base:#010x} overlaps the {dname} window"),
                );
            }
        }
        for (_, obase, osize, oname) in wins.iter().take(k) {
            if overlaps(*base, *size, *obase, *osize) {
                return bad(
                    key,
                    format!("the {name} window at {base:#010x} overlaps the {oname} window"),
                );
            }
        }
    }
    Ok(())
}

fn overlaps(a: u32, asize: u32, b: u32, bsize: u32) -> bool {
    let (a, ae) = (u64::from(a), u64::from(a) + u64::from(asize));
    let (b, be) = (u64::from(b), u64::from(b) + u64::from(bsize));
    a < be && b < ae
}
