//! The cost of an uncached access (fetch or data) as a pure function of the Carousel tags:
//! a tag hit or any non-external address costs 1, external RAM one bus transaction of the
//! accessed bytes. Without caches nothing else changes an access's cost, so a fetch's cost is
//! fixed from the moment its block is predecoded until the next tag write (which flushes the
//! block cache): blocks carry it in their static cycles (`hart/block.rs`), and the hot loop
//! runs unchanged (docs/simulator-design.md, "Memory-system extensions").

use crate::ext::bus_timing::BusTiming;
use crate::ext::carousel::Carousel;

/// What one access costs and where it went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cost {
    /// Access time in cycles (at least 1).
    pub(crate) time: u32,
    /// Parts served by a Carousel block through a tag.
    pub(crate) spm: u32,
    /// Parts that went to external RAM (one transaction each).
    pub(crate) external: u32,
    /// Cycles of those transactions.
    pub(crate) bus_cycles: u32,
}

/// Running totals of [`Cost`]s (statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub(crate) spm: u64,
    pub(crate) external: u64,
    pub(crate) bus_cycles: u64,
}

impl Totals {
    /// Adds `times` accesses of `c`.
    pub(crate) fn add(&mut self, c: &Cost, times: u64) {
        self.spm += u64::from(c.spm) * times;
        self.external += u64::from(c.external) * times;
        self.bus_cycles += u64::from(c.bus_cycles) * times;
    }

    /// Adds other totals.
    pub(crate) fn merge(&mut self, o: &Totals) {
        self.spm += o.spm;
        self.external += o.external;
        self.bus_cycles += o.bus_cycles;
    }
}

/// External RAM and its bus: enough to cost an uncached access.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Uncached {
    pub(crate) timing: BusTiming,
    pub(crate) ext_base: u32,
    pub(crate) ext_size: u32,
}

impl Uncached {
    /// True if `addr..addr+len` lies in external RAM.
    #[inline]
    pub(crate) fn is_external(&self, addr: u32, len: u32) -> bool {
        let off = addr.wrapping_sub(self.ext_base);
        u64::from(off) + u64::from(len) <= u64::from(self.ext_size)
    }

    fn part(&self, car: Option<&Carousel>, a: u32, len: u32, c: &mut Cost) {
        if car.is_some_and(|car| car.lookup(a).is_some()) {
            c.time += 1;
            c.spm += 1;
        } else if self.is_external(a, len) {
            let t = self.timing.transaction(len) as u32;
            c.time += t;
            c.external += 1;
            c.bus_cycles += t;
        } else {
            c.time += 1;
        }
    }

    /// The cost of an access of `len` (1..=4) bytes at CPU address `addr`. It is split at
    /// the Carousel block edge only if a tag hits either end (bytes that all go to external
    /// RAM are one transaction).
    pub(crate) fn cost(&self, car: Option<&Carousel>, addr: u32, len: u32) -> Cost {
        let mut c = Cost::default();
        let car = car.filter(|c| c.any_used());
        let last = addr.wrapping_add(len - 1);
        match car {
            Some(k)
                if addr >> k.shift != last >> k.shift
                    && (k.lookup(addr).is_some() || k.lookup(last).is_some()) =>
            {
                let first = k.block_size() - (addr & (k.block_size() - 1));
                self.part(car, addr, first, &mut c);
                self.part(car, addr.wrapping_add(first), len - first, &mut c);
            }
            _ => self.part(car, addr, len, &mut c),
        }
        c
    }
}
