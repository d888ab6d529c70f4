//! Memory-system mode: `attach` puts the units into memory, and, with caches, the run loop
//! executes one instruction per dispatch with its fetch charged first.
//!
//! With caches a fetch's cost depends on state that every fetch changes (the instruction
//! cache), so it cannot be part of a predecoded block's static cycles: every instruction is
//! charged its fetch time from the current state just before it runs, and runs alone through
//! the ordinary block executor (`limit` 1, no chaining). Blocks are still predecoded and
//! reused (decoding is not repeated). Events are checked before every instruction, so an
//! interrupt is taken before the first instruction that starts at or after it, as in the
//! fast loop. (Without caches the fetch costs are in the blocks, `fetch.rs`.)

use crate::ext::carousel::Carousel;
use crate::ext::Kind;
use crate::hart::exec::Bounds;
use crate::machine::{Machine, RunOutcome};
use crate::memory::{Memory, Region};
use crate::profile::MemoryRegion;

/// Name of the Carousel SPM window's region in statistics.
pub const SPM_REGION: &str = "carousel_spm";

/// Puts the memory system's pieces into `mem`: the Carousel SPM window as a region (so that
/// software, the DMA engine and the ELF loader reach it at its physical address) and the tags;
/// and turns the RAM fast path off, so that every load and store reaches the bus.
pub(crate) fn attach(mem: &mut Memory, carousel: Option<Carousel>) {
    if let Some(c) = carousel {
        mem.others.push(Region::new(&MemoryRegion {
            name: SPM_REGION.to_string(),
            base: c.spm_base,
            size: c.spm_size(),
            access: "rwx".to_string(),
            latency: 0,
            energy: 0.0,
        }));
        mem.carousel = Some(c);
    }
    mem.load_lim = [0; 5];
    mem.store_lim = [0; 5];
}

impl Machine {
    /// `run_budget` in memory-system mode.
    pub(crate) fn run_budget_ext(&mut self, mut budget: u64) -> Option<RunOutcome> {
        let mut first = true;
        while budget > 0 {
            if self.hart.cycle >= self.next_event {
                if let Some(o) = self.check_events() {
                    return Some(o);
                }
            }
            if !first && !self.breakpoints.is_empty() && self.breakpoints.contains(&self.hart.pc) {
                return Some(RunOutcome::Breakpoint { pc: self.hart.pc });
            }
            if !self.probes.is_empty() {
                self.probe_call();
            }
            first = false;
            let before = self.hart.instret;
            if let Some(o) = self.exec_one_ext() {
                return Some(o);
            }
            let done = self.hart.instret.wrapping_sub(before);
            budget = budget.saturating_sub(done.max(1));
        }
        None
    }

    /// Charges the fetch of the instruction at pc and runs it (or takes its trap). The
    /// instruction has started (events were checked), so nothing may cut it.
    pub(crate) fn exec_one_ext(&mut self) -> Option<RunOutcome> {
        self.dma_fetch_wait();
        let fetch = self.fetch_delta(self.hart.pc);
        self.hart.cycle = self.hart.cycle.wrapping_add(fetch);
        self.exec_block(&Bounds {
            limit: 1,
            next_event: u64::MAX,
            chain_until: 0,
        })
    }

    /// Stalls the hart until the DMA engine is idle if an outstanding copy uses the memory
    /// the instruction at pc is fetched from (ext/dma.rs); nothing otherwise.
    pub(crate) fn dma_fetch_wait(&mut self) {
        let wait = self.bus.dma_fetch_stall(self.hart.pc, self.hart.cycle);
        self.hart.cycle = self.hart.cycle.wrapping_add(wait);
    }

    /// Cycles the fetch at `pc` adds to the instruction's class cycles (its access time
    /// minus 1), through the tags; 0 if the fetch faults (the fault is charged as a trap).
    fn fetch_delta(&mut self, pc: u32) -> u64 {
        let len = match self.cache.lookup(pc) {
            // Predecoded (valid under the current tags: a tag write flushes): the length is
            // the distance to the next instruction.
            Some(id) => {
                let b = &self.cache.blocks[id as usize];
                let next = if b.body + u32::from(b.has_term) > 1 {
                    self.cache.insts[b.start as usize + 1].pc
                } else {
                    b.end_pc
                };
                next.wrapping_sub(pc)
            }
            None => {
                let mem = &self.bus.mem;
                let Some(lo) = mem.fetch_u16(pc) else {
                    return 0;
                };
                if lo & 3 != 3 {
                    2
                } else if mem.fetch_u16(pc.wrapping_add(2)).is_some() {
                    4
                } else {
                    return 0;
                }
            }
        };
        let Some(ext) = self.bus.ext.as_mut() else {
            return 0;
        };
        ext.access_time(self.bus.mem.carousel.as_ref(), pc, len, Kind::Fetch) - 1
    }
}
