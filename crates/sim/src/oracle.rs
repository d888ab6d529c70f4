//! The ownership oracle (docs/trace-device.md): a shadow map from stack bytes to their owner
//! task, and the check applied to stores. The map is a set of disjoint intervals, so its size
//! depends on the number of regions, not their length (a guest registering all of RAM costs
//! one entry). Pages holding registered bytes are flagged in the memory's page table by the
//! caller, so stores elsewhere never reach this module.

use crate::events::NOBODY;
use std::collections::BTreeMap;

/// The writer of a store made by an interrupt handler: it owns no stack byte (no region is
/// ever assigned to it), so any store of a handler into stack memory is a violation.
pub(crate) const ISR: u32 = 0xFFFF_FFFE;

/// A store the oracle rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Foreign {
    /// First byte not owned by the running task.
    pub(crate) addr: u32,
    /// Its owner (NOBODY for a guard or released bytes).
    pub(crate) owner: u32,
}

/// Oracle state: the shadow map plus who is running.
pub(crate) struct Oracle {
    /// start -> (end exclusive, owner); intervals are disjoint.
    map: BTreeMap<u64, (u64, u32)>,
    /// Task named by the last TASK_SWITCH (NOBODY initially).
    pub(crate) running: u32,
    /// Open KERNEL_ENTER count.
    pub(crate) kernel_depth: u32,
    /// Open ISR_ENTER count: an interrupt handler runs, and it owns no stack byte.
    pub(crate) isr_depth: u32,
    /// Violations so far.
    pub(crate) violations: u64,
}

/// `[base, base + size)` as u64 bounds, cut at the top of the address space.
fn bounds(base: u32, size: u32) -> (u64, u64) {
    let start = u64::from(base);
    (start, (start + u64::from(size)).min(1 << 32))
}

impl Oracle {
    /// An oracle with nothing registered and nobody running.
    pub(crate) fn new() -> Oracle {
        Oracle {
            map: BTreeMap::new(),
            running: NOBODY,
            kernel_depth: 0,
            isr_depth: 0,
            violations: 0,
        }
    }

    /// Splits intervals so that `at` is an interval boundary (if it falls inside one).
    fn split_at(&mut self, at: u64) {
        let Some((&start, &(end, owner))) = self.map.range(..at).next_back() else {
            return;
        };
        if end > at {
            self.map.insert(start, (at, owner));
            self.map.insert(at, (end, owner));
        }
    }

    /// Starts of the intervals inside `[start, end)` after splitting at both ends.
    fn pieces(&mut self, start: u64, end: u64) -> Vec<u64> {
        self.split_at(start);
        self.split_at(end);
        self.map.range(start..end).map(|(&s, _)| s).collect()
    }

    /// Marks `[base, base+size)` as stack memory owned by `owner` (bytes past 4 GiB are cut
    /// off). The caller flags the pages.
    pub(crate) fn assign(&mut self, base: u32, size: u32, owner: u32) {
        let (start, end) = bounds(base, size);
        if start == end {
            return;
        }
        for s in self.pieces(start, end) {
            self.map.remove(&s);
        }
        self.map.insert(start, (end, owner));
    }

    /// Moves the bytes of `[base, base+size)` owned by `lender` to `borrower`; returns how
    /// many moved.
    pub(crate) fn lend(&mut self, base: u32, size: u32, lender: u32, borrower: u32) -> u32 {
        let (start, end) = bounds(base, size);
        let mut moved = 0u64;
        for s in self.pieces(start, end) {
            if let Some(iv) = self.map.get_mut(&s) {
                if iv.1 == lender {
                    iv.1 = borrower;
                    moved += iv.0 - s;
                }
            }
        }
        moved as u32
    }

    /// True if stores are checked now: no kernel section open, and either an interrupt
    /// handler runs (ISR_ENTER open: trap or not) or a task runs outside any trap handler.
    #[inline]
    pub(crate) fn checking(&self, in_trap: bool) -> bool {
        self.kernel_depth == 0 && (self.isr_depth > 0 || (self.running != NOBODY && !in_trap))
    }

    /// Who a checked store is made for: the running task, or [`ISR`] (nobody's bytes) while an
    /// interrupt handler runs.
    #[inline]
    pub(crate) fn writer(&self) -> u32 {
        if self.isr_depth > 0 {
            ISR
        } else {
            self.running
        }
    }

    /// The first byte of `[addr, addr+width)` that is stack memory not owned by the running
    /// task, if any.
    pub(crate) fn check_store(&self, addr: u32, width: u32) -> Option<Foreign> {
        let (start, end) = bounds(addr, width);
        let before = self.map.range(..start).next_back();
        let inside = self.map.range(start..end);
        before
            .filter(|(_, &(e, _))| e > start)
            .map(|(_, &(_, owner))| (start, owner))
            .into_iter()
            .chain(inside.map(|(&s, &(_, owner))| (s, owner)))
            .find(|&(_, owner)| owner != self.writer())
            .map(|(a, owner)| Foreign {
                addr: a as u32,
                owner,
            })
    }

    /// Owner of the stack byte at `addr` (None if not stack memory).
    #[cfg(test)]
    pub(crate) fn owner_of(&self, addr: u32) -> Option<u32> {
        let a = u64::from(addr);
        self.map
            .range(..=a)
            .next_back()
            .filter(|(_, &(e, _))| e > a)
            .map(|(_, &(_, o))| o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assign_check_lend() {
        let mut o = Oracle::new();
        o.assign(0x1000, 16, 1);
        o.assign(0x1010, 16, 2);
        o.running = 1;
        assert_eq!(o.check_store(0x1000, 4), None);
        assert_eq!(
            o.check_store(0x100E, 4),
            Some(Foreign {
                addr: 0x1010,
                owner: 2
            })
        );
        assert_eq!(o.check_store(0x2000, 4), None);
        assert_eq!(o.lend(0x1010, 8, 2, 1), 8);
        assert_eq!(o.check_store(0x1010, 8), None);
        assert_eq!(
            o.check_store(0x1016, 4),
            Some(Foreign {
                addr: 0x1018,
                owner: 2
            })
        );
        assert_eq!(o.lend(0x1010, 8, 3, 1), 0);
        assert_eq!(o.owner_of(0x1018), Some(2));
        assert_eq!(o.owner_of(0x1030), None);
        assert!(o.checking(false));
        assert!(!o.checking(true));
        o.isr_depth = 1;
        assert!(
            o.checking(true),
            "a handler's stores are checked inside its trap"
        );
        o.isr_depth = 0;
        o.kernel_depth = 1;
        assert!(!o.checking(false));
    }

    #[test]
    fn a_handler_owns_no_stack_byte() {
        let mut o = Oracle::new();
        o.assign(0x1000, 16, 1);
        o.running = 1;
        o.isr_depth = 1;
        assert_eq!(
            o.check_store(0x1000, 4),
            Some(Foreign {
                addr: 0x1000,
                owner: 1
            }),
            "the interrupted task's own stack is not the handler's"
        );
        assert_eq!(o.check_store(0x2000, 4), None, "outside the stacks");
        o.isr_depth = 0;
        assert_eq!(o.check_store(0x1000, 4), None);
    }

    #[test]
    fn reassign_replaces_and_huge_regions_are_cheap() {
        let mut o = Oracle::new();
        o.assign(0, u32::MAX, 7);
        o.assign(0x100, 0x10, 8);
        assert_eq!(o.owner_of(0xFF), Some(7));
        assert_eq!(o.owner_of(0x100), Some(8));
        assert_eq!(o.owner_of(0x110), Some(7));
        assert_eq!(o.owner_of(0xFFFF_FFFE), Some(7));
        assert_eq!(o.map.len(), 3);
        o.running = 7;
        assert_eq!(
            o.check_store(0xFC, 8),
            Some(Foreign {
                addr: 0x100,
                owner: 8
            })
        );
        assert_eq!(o.check_store(0xFFFF_FFFE, 4), None, "cut at 4 GiB");
    }
}
