//! `mcycle` and `minstret` as the privileged spec defines them on top of the simulator's raw
//! clocks (simulated cycles, retired instructions), which only ever count up.
//!
//! - A CSR write is done *instead of* the writing instruction's increment: the value written
//!   is what the next instruction reads.
//! - On RV32 a write to either half is a write to the whole 64-bit counter: the other half is
//!   the value the writing instruction read (before its own increment), so
//!   `csrw minstret, t0; csrw minstreth, zero` leaves `minstret == t0`.
//! - While the counter's `mcountinhibit` bit is set it does not count. Like any CSR write,
//!   setting or clearing the bit takes effect after the writing instruction: the instruction
//!   that sets it still counts, the one that clears it does not.
//! - The counter is 64 bits and wraps from all-ones to zero.

/// One architectural counter derived from a raw clock: `raw + offset` while counting, a
/// frozen value while inhibited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counter {
    /// Value minus the raw clock while counting.
    offset: u64,
    /// The value while inhibited.
    frozen: Option<u64>,
}

/// Which 32-bit half of a counter a CSR names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Half {
    /// `mcycle`, `minstret`.
    Low,
    /// `mcycleh`, `minstreth`.
    High,
}

impl Counter {
    /// The counter's value when the raw clock reads `raw`.
    #[inline]
    pub(crate) fn value(self, raw: u64) -> u64 {
        self.frozen.unwrap_or(raw.wrapping_add(self.offset))
    }

    /// A CSR write of `v` to `half` by an instruction that starts at raw clock `before` and
    /// ends at `after`: the other half is taken from the value at `before`, and the new
    /// value holds at `after` (the instruction's own increment is replaced by the write).
    pub(crate) fn write(&mut self, half: Half, v: u32, before: u64, after: u64) {
        let cur = self.value(before);
        let new = match half {
            Half::Low => (cur & !0xFFFF_FFFF) | u64::from(v),
            Half::High => (cur & 0xFFFF_FFFF) | (u64::from(v) << 32),
        };
        match &mut self.frozen {
            Some(f) => *f = new,
            None => self.offset = new.wrapping_sub(after),
        }
    }

    /// Sets or clears inhibition by an instruction that ends at raw clock `after`.
    pub(crate) fn set_inhibited(&mut self, on: bool, after: u64) {
        match (on, self.frozen) {
            (true, None) => self.frozen = Some(self.value(after)),
            (false, Some(f)) => {
                self.offset = f.wrapping_sub(after);
                self.frozen = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_with_the_raw_clock() {
        let c = Counter::default();
        assert_eq!(c.value(0), 0);
        assert_eq!(c.value(41), 41);
    }

    #[test]
    fn write_replaces_the_increment() {
        let mut c = Counter::default();
        // An instruction from raw 10 to 11 writes 100: the next instruction reads 100.
        c.write(Half::Low, 100, 10, 11);
        assert_eq!(c.value(11), 100);
        assert_eq!(c.value(12), 101);
    }

    #[test]
    fn either_half_is_a_whole_counter_write() {
        let mut c = Counter::default();
        c.write(Half::Low, 7, 0, 1);
        // csrw minstreth, zero from raw 1 to 2: the low half is what that instruction read.
        c.write(Half::High, 0, 1, 2);
        assert_eq!(c.value(2), 7);
        c.write(Half::High, 5, 2, 3);
        assert_eq!(c.value(3), (5 << 32) | 7);
    }

    #[test]
    fn high_write_does_not_carry_the_low_half() {
        let mut c = Counter::default();
        c.write(Half::Low, u32::MAX, 0, 1);
        // Had the increment been applied first, the low half would have wrapped to 0.
        c.write(Half::High, 3, 1, 2);
        assert_eq!(c.value(2), (3 << 32) | 0xFFFF_FFFF);
        assert_eq!(c.value(3), 4 << 32);
    }

    #[test]
    fn wraps_from_all_ones() {
        let mut c = Counter::default();
        c.write(Half::Low, u32::MAX, 0, 1);
        c.write(Half::High, u32::MAX, 1, 2);
        assert_eq!(c.value(2), u64::MAX);
        assert_eq!(c.value(3), 0);
        assert_eq!(c.value(5), 2);
    }

    #[test]
    fn inhibit_freezes_and_resumes() {
        let mut c = Counter::default();
        c.set_inhibited(true, 10);
        assert_eq!(c.value(10), 10);
        assert_eq!(c.value(500), 10);
        c.write(Half::Low, 3, 500, 501);
        assert_eq!(c.value(900), 3);
        c.set_inhibited(false, 1000);
        assert_eq!(c.value(1000), 3);
        assert_eq!(c.value(1004), 7);
        // Setting it twice keeps the first frozen value.
        c.set_inhibited(true, 1010);
        c.set_inhibited(true, 2000);
        assert_eq!(c.value(3000), 13);
    }
}
