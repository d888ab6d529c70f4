//! The deepest stack use of tasks whose frames ran on MTSS loans (docs/mtss.md, "The high
//! water with moved frames"), measured by the simulator at no guest cost.
//!
//! The kernel's STACK_HWM of a task is a paint scan of its own region. Under `mtss` a frame
//! that does not fit runs in a block of another task's region (a loan), so that scan misses
//! the deepest frames of a borrower, and a lender's own earlier use of pages it lent is
//! painted over when they come back. This module measures both from what the trace device
//! and the stores already show:
//!
//! - a borrower's depth at a loan: its own region used down to the entry sp of its first
//!   moved frame, plus every outer block of its chain down to the entry sp of the next moved
//!   frame (the entry sps are read from the loan records the kernel keeps at each block's top,
//!   `struct loan` in kernel/stack/mtss.c, at the first trace event after the borrower's
//!   OVERFLOW), plus the block's own use: from its top down to
//!   the lowest byte the task stored into it (the record's 16 bytes at least). The chain is the
//!   loans the task holds at once, so the deepest such sum is the task's deepest use with
//!   frames on loan;
//! - a lender's use of pages before it lent them: when a block is lent, its lowest byte that
//!   is not the kernel's paint (0xA5; every page of a region is painted when it is allocated
//!   and when a loan of it comes back) is the lender's own deepest write there.
//!
//! Guarantees: every figure is a byte the task wrote (or the kernel wrote for it) at a depth
//! measured from its own region's top, so it never exceeds the task's real deepest use; a loan
//! whose record cannot be placed in its chain (a stacklet of `mtss+split` between two loans,
//! the worst-case mode's artificial region, which is assigned, not lent) is not counted.

use crate::events::NOBODY;
use crate::memory::Memory;
use std::collections::BTreeMap;

/// The byte the kernel paints free stack memory with (`PAINT` in kernel/stack/*.c).
pub(crate) const STACK_PAINT: u8 = 0xA5;
/// Bytes of the loan record at the top of every block (`REC` in kernel/stack/mtss.c); its
/// first word is the moved function's entry sp where it was called.
pub(crate) const LOAN_RECORD: u32 = 16;

/// Where a loan is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// REGION_LEND seen; the kernel has not written the record yet.
    Lent,
    /// The borrower's OVERFLOW (action 3, moved) seen: the record is written before the next
    /// trace event, so it is read then.
    Moving,
    /// Its depth at entry is known.
    Placed(u32),
    /// Its entry sp lies in no level of the chain: not counted.
    Lost,
}

/// One block a task holds on loan.
#[derive(Clone, Debug)]
struct Loan {
    lo: u32,
    hi: u32,
    stage: Stage,
    /// The lowest byte stored into the block so far.
    low: u32,
}

impl Loan {
    /// The task's depth at the block's deepest point, once placed.
    fn depth(&self) -> Option<u32> {
        match self.stage {
            Stage::Placed(base) => Some(base.saturating_add(self.hi - self.low)),
            _ => None,
        }
    }
}

/// Per-task loan chains and the deepest use measured.
#[derive(Default)]
pub(crate) struct LoanDepth {
    /// Each task's own stack region `[lo, hi)`: the first one assigned to it (until released).
    own: BTreeMap<u32, (u32, u32)>,
    /// Each borrower's open loans, oldest first.
    chains: BTreeMap<u32, Vec<Loan>>,
    /// Open loans of all tasks (stores are looked at only while some are open).
    open: usize,
    /// A loan waits for its record to be read.
    moving: bool,
    /// The deepest use measured per task (bytes below its own region's top).
    deepest: BTreeMap<u32, u32>,
}

impl LoanDepth {
    /// True while any task holds a loan (the store hook's fast exit).
    #[inline]
    pub(crate) fn active(&self) -> bool {
        self.open > 0
    }

    fn record(&mut self, task: u32, depth: u32) {
        let d = self.deepest.entry(task).or_insert(0);
        *d = (*d).max(depth);
    }

    /// Closes every open loan that overlaps `[base, base + size)` (the block went back to its
    /// lender or was released), counting its depth.
    fn close_overlapping(&mut self, base: u32, size: u32) {
        if self.open == 0 {
            return;
        }
        let end = u64::from(base) + u64::from(size);
        let mut closed = Vec::new();
        for (&task, chain) in self.chains.iter_mut() {
            chain.retain(|l| {
                let overlaps = u64::from(l.lo) < end && u64::from(base) < u64::from(l.hi);
                if overlaps {
                    closed.push((task, l.depth()));
                }
                !overlaps
            });
        }
        self.open -= closed.len();
        for (task, depth) in closed {
            if let Some(d) = depth {
                self.record(task, d);
            }
        }
    }

    /// REGION_ASSIGN: closes the loans of the range; the first region assigned to a task is
    /// its own (a lender's returned block and a stacklet lie inside or outside it and change
    /// nothing).
    pub(crate) fn assign(&mut self, mem: &Memory, base: u32, size: u32, owner: u32) {
        self.place(mem);
        self.close_overlapping(base, size);
        if owner != NOBODY && size > 0 {
            self.own
                .entry(owner)
                .or_insert((base, base.saturating_add(size)));
        }
    }

    /// REGION_RELEASE: closes the loans of the range and forgets every own region it touches
    /// (a task ended or restarted gets a new one).
    pub(crate) fn release(&mut self, mem: &Memory, base: u32, size: u32) {
        self.place(mem);
        self.close_overlapping(base, size);
        let end = u64::from(base) + u64::from(size);
        self.own
            .retain(|_, &mut (lo, hi)| !(u64::from(lo) < end && u64::from(base) < u64::from(hi)));
    }

    /// REGION_LEND of `[base, base + size)` from `lender` to `borrower`: the lender's own use
    /// of those pages (its lowest byte that is not paint) is measured, and the block joins the
    /// borrower's chain.
    pub(crate) fn lend(&mut self, mem: &Memory, base: u32, size: u32, lender: u32, borrower: u32) {
        self.place(mem);
        let hi = base.saturating_add(size);
        let lender_region = self.own.get(&lender).copied();
        if let Some((_, own_hi)) = lender_region.filter(|&(lo, top)| lo <= base && hi <= top) {
            if let Some(a) = (base..hi).find(|&a| mem.peek_u8(a).is_some_and(|b| b != STACK_PAINT))
            {
                self.record(lender, own_hi.saturating_sub(a));
            }
        }
        self.chains.entry(borrower).or_default().push(Loan {
            lo: base,
            hi,
            stage: Stage::Lent,
            low: hi.saturating_sub(LOAN_RECORD),
        });
        self.open += 1;
    }

    /// OVERFLOW: a moved frame (action 3) of `task` makes its newest loan's record readable
    /// from the next event on.
    pub(crate) fn overflow(&mut self, mem: &Memory, task: u32, action: u32) {
        self.place(mem);
        if action != 3 {
            return;
        }
        if let Some(l) = self.chains.get_mut(&task).and_then(|c| c.last_mut()) {
            if l.stage == Stage::Lent {
                l.stage = Stage::Moving;
                self.moving = true;
            }
        }
    }

    /// Any other event: reads the records written since the last one.
    pub(crate) fn event(&mut self, mem: &Memory) {
        self.place(mem);
    }

    /// Reads the record of every loan in `Moving` and places it in its chain: its entry sp
    /// lies in the block below it in the chain (or, for the first, in the task's own region),
    /// and the depth there is that level's depth at its top plus the bytes down to it.
    fn place(&mut self, mem: &Memory) {
        if !self.moving {
            return;
        }
        self.moving = false;
        for (task, chain) in self.chains.iter_mut() {
            for k in 0..chain.len() {
                if chain[k].stage != Stage::Moving {
                    continue;
                }
                let at = chain[k].hi.saturating_sub(LOAN_RECORD);
                let entry = (0..4).try_fold(0u32, |w, i| {
                    mem.peek_u8(at + i).map(|b| w | u32::from(b) << (8 * i))
                });
                let level = match k {
                    0 => self.own.get(task).map(|&(lo, hi)| (0, lo, hi)),
                    _ => match chain[k - 1].stage {
                        Stage::Placed(base) => Some((base, chain[k - 1].lo, chain[k - 1].hi)),
                        _ => None,
                    },
                };
                chain[k].stage = match (entry, level) {
                    (Some(e), Some((base, lo, hi))) if (lo..=hi).contains(&e) => {
                        Stage::Placed(base + (hi - e))
                    }
                    _ => Stage::Lost,
                };
            }
        }
    }

    /// A store at `addr` by `task` that the oracle allowed: lowers the low byte of the block
    /// of `task`'s chain it falls in. (No record is read here: under `checks = "split"` the
    /// kernel's slow path runs as a call, not a trap, so its own copy into the block comes
    /// through here before the record is written; the record is read at the next event, at
    /// the latest the `KERNEL_ENTER` of the repaint when the block comes back.)
    pub(crate) fn store(&mut self, task: u32, addr: u32) {
        let Some(chain) = self.chains.get_mut(&task) else {
            return;
        };
        if let Some(l) = chain.iter_mut().rev().find(|l| l.lo <= addr && addr < l.hi) {
            l.low = l.low.min(addr);
        }
    }

    /// The deepest use measured for each task so far, open loans included (bytes below the
    /// top of its own region).
    pub(crate) fn deepest(&self) -> BTreeMap<u32, u32> {
        let mut out = self.deepest.clone();
        for (&task, chain) in &self.chains {
            for d in chain.iter().filter_map(Loan::depth) {
                let e = out.entry(task).or_insert(0);
                *e = (*e).max(d);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::Memory;
    use crate::profile::Profile;

    /// The RAM base of the `mcu` profile.
    fn ram() -> u32 {
        Profile::builtin("mcu").unwrap().memory()[0].base
    }

    /// `mcu`'s memory with its first 8 KiB of RAM painted.
    fn memory() -> Memory {
        let mut m = Memory::new(Profile::builtin("mcu").unwrap().memory());
        m.write_debug(ram(), &[STACK_PAINT; 0x2000]).unwrap();
        m
    }

    fn put(m: &mut Memory, addr: u32, word: u32) {
        m.write_debug(addr, &word.to_le_bytes()).unwrap();
    }

    #[test]
    fn a_chain_of_two_loans_counts_its_own_region_and_both_blocks() {
        let mut m = memory();
        let ram = ram();
        let (b_lo, b_hi) = (ram + 0x1000, ram + 0x1400); // the borrower's region, task 1
        let (l_lo, l_hi) = (ram + 0x400, ram + 0x800); // the lender's, task 2
        let mut d = LoanDepth::default();
        d.assign(&m, b_lo, b_hi - b_lo, 1);
        d.assign(&m, l_lo, l_hi - l_lo, 2);
        // The lender once wrote 0x40 bytes above the bottom of the block it lends.
        put(&mut m, l_lo + 0x40, 7);
        d.lend(&m, l_lo, 0x100, 2, 1);
        assert_eq!(d.deepest()[&2], l_hi - (l_lo + 0x40));
        d.overflow(&m, 1, 3);
        // The first record: the moved function was called with sp 0x300 below the region top.
        d.store(1, l_lo + 0xF0); // the kernel's argument copy under split checks: no record yet
        put(&mut m, l_lo + 0x100 - 16, b_hi - 0x300);
        d.event(&m);
        d.store(1, l_lo + 0xA0);
        assert!(d.active());
        assert_eq!(d.deepest()[&1], 0x300 + 0x60);
        // A nested loan from another block of the lender, entered 0x50 below the first's top.
        d.lend(&m, l_lo + 0x100, 0x80, 2, 1);
        d.overflow(&m, 1, 3);
        put(&mut m, l_lo + 0x180 - 16, l_lo + 0x100 - 0x50);
        d.event(&m);
        d.store(1, l_lo + 0x140);
        assert_eq!(d.deepest()[&1], 0x300 + 0x50 + 0x40);
        // Both come back (newest first): the figures stay, nothing is open.
        d.assign(&m, l_lo + 0x100, 0x80, 2);
        d.assign(&m, l_lo, 0x100, 2);
        assert!(!d.active());
        assert_eq!(d.deepest()[&1], 0x390);
        assert_eq!(
            d.own[&2],
            (l_lo, l_hi),
            "a returned block is not a new own region"
        );
    }

    #[test]
    fn a_loan_from_an_ended_tasks_region_joins_the_borrowers_chain() {
        // MTSS lends the free pages of an ended task's region with lender NOBODY (its bytes
        // are nobody's): the block is placed in the borrower's chain like any loan, and its
        // release (the block going back to the dead region) closes it with its depth.
        let mut m = memory();
        let ram = ram();
        let (b_lo, b_hi) = (ram + 0x1000, ram + 0x1400);
        let (dead_lo, dead_hi) = (ram + 0x400, ram + 0x800);
        let mut d = LoanDepth::default();
        d.assign(&m, b_lo, b_hi - b_lo, 1);
        d.assign(&m, dead_lo, dead_hi - dead_lo, 2);
        d.release(&m, dead_lo, dead_hi - dead_lo); // task 2 ended
        d.lend(&m, dead_lo, 0x100, NOBODY, 1);
        d.overflow(&m, 1, 3);
        put(&mut m, dead_lo + 0x100 - 16, b_hi - 0x200);
        d.event(&m);
        d.store(1, dead_lo + 0x20);
        assert_eq!(d.deepest()[&1], 0x200 + 0xE0);
        assert_eq!(d.deepest().get(&NOBODY), None, "nobody is not a task");
        d.release(&m, dead_lo, 0x100);
        assert!(!d.active());
        assert_eq!(d.deepest()[&1], 0x2E0);
    }

    #[test]
    fn a_record_outside_the_chain_is_not_counted() {
        let m = memory();
        let ram = ram();
        let mut d = LoanDepth::default();
        d.assign(&m, ram + 0x1000, 0x400, 1);
        d.lend(&m, ram + 0x400, 0x100, 2, 1);
        d.overflow(&m, 1, 3);
        d.event(&m); // the record holds paint: no address in the borrower's region
        assert_eq!(d.deepest().get(&1), None);
        d.release(&m, ram + 0x400, 0x100);
        assert!(!d.active());
        assert_eq!(d.deepest().get(&1), None);
    }
}
