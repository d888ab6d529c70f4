//! The CLINT at 0x0200_0000 (QEMU virt's ACLINT layout for hart 0): `msip` at +0,
//! `mtimecmp` at +0x4000 (two words), `mtime` at +0xBFF8 (two words). Only aligned 32-bit
//! accesses are decoded. `mtime` is derived from simulated cycles:
//! `mtime = cycles * timebase_hz / clock_hz + offset` (the offset absorbs guest writes).
//! Like QEMU 7.2, `mtimecmp` resets to 0, so MTIP is pending from reset until the guest
//! programs a later compare value.
//!
//! With a [`TimerJitter`], each value the guest programs into `mtimecmp` raises MTIP a
//! seeded number of cycles late (`mtime` itself is not changed): the same firmware is
//! preempted at other instructions, run after run, deterministically per seed.

use crate::config::TimerJitter;

/// Base address of the CLINT window.
pub const CLINT_BASE: u32 = 0x0200_0000;
/// Size of the window.
pub const CLINT_SIZE: u32 = 0x1_0000;

/// CLINT state.
pub(crate) struct Clint {
    pub(crate) msip: bool,
    pub(crate) mtimecmp: u64,
    offset: u64,
    /// Cycle of the last write to `mtimecmp` or `mtime` (for interrupt latency).
    armed_at: u64,
    clock_hz: u64,
    timebase_hz: u64,
    /// Cycles MTIP rises after `mtime` reaches `mtimecmp` (drawn at each `mtimecmp` write).
    delay: u64,
    jitter: Option<Jitter>,
}

/// The seeded source of [`Clint::delay`]s.
struct Jitter {
    state: u64,
    max_cycles: u64,
}

impl Jitter {
    /// The next delay, uniform in `0..=max_cycles` (splitmix64).
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        z % (self.max_cycles + 1)
    }
}

impl Clint {
    /// A CLINT after reset for the given clocks (both nonzero).
    pub(crate) fn new(clock_hz: u64, timebase_hz: u64) -> Clint {
        Clint {
            msip: false,
            mtimecmp: 0,
            offset: 0,
            armed_at: 0,
            clock_hz,
            timebase_hz,
            delay: 0,
            jitter: None,
        }
    }

    /// The same CLINT whose timer interrupts come late by seeded delays (None: on time).
    pub(crate) fn with_jitter(mut self, jitter: Option<TimerJitter>) -> Clint {
        self.jitter = jitter.map(|j| Jitter {
            state: j.seed,
            max_cycles: j.max_cycles,
        });
        self
    }

    /// `mtime` at `cycle`.
    #[inline]
    pub(crate) fn mtime(&self, cycle: u64) -> u64 {
        let t = u128::from(cycle) * u128::from(self.timebase_hz) / u128::from(self.clock_hz);
        (t as u64).wrapping_add(self.offset)
    }

    /// True if MTIP is set at `cycle` (`mtime` reached `mtimecmp` at least the current delay
    /// ago).
    pub(crate) fn mtip(&self, cycle: u64) -> bool {
        cycle >= self.delay && self.mtime(cycle - self.delay) >= self.mtimecmp
    }

    /// The first cycle >= `now` at which MTIP is set, or None if it never will be (the
    /// deadline does not fit in 64 bits of cycles).
    pub(crate) fn timer_deadline(&self, now: u64) -> Option<u64> {
        if self.mtip(now) {
            return Some(now);
        }
        // Ticks (without offset) needed: mtimecmp - offset; with a wrapped offset this is
        // computed modulo 2^64 like the hardware comparison of the sum.
        let ticks = u128::from(self.mtimecmp.wrapping_sub(self.offset));
        let cycles = (ticks * u128::from(self.clock_hz)).div_ceil(u128::from(self.timebase_hz));
        let late = cycles + u128::from(self.delay);
        u64::try_from(late).ok().map(|c| c.max(now))
    }

    /// The cycle from which MTIP has been set without interruption by a CLINT write: the
    /// deadline, or the last write to `mtimecmp`/`mtime` if that made it pending at once.
    /// None if MTIP is not set at `now`.
    pub(crate) fn pending_since(&self, now: u64) -> Option<u64> {
        if !self.mtip(now) {
            return None;
        }
        self.timer_deadline(0).map(|d| d.max(self.armed_at))
    }

    /// Reads the 32-bit register at `off`; None if the access is not an aligned word.
    pub(crate) fn read(&self, off: u32, width: u32, cycle: u64) -> Option<u32> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        Some(match off {
            0 => u32::from(self.msip),
            0x4000 => self.mtimecmp as u32,
            0x4004 => (self.mtimecmp >> 32) as u32,
            0xBFF8 => self.mtime(cycle) as u32,
            0xBFFC => (self.mtime(cycle) >> 32) as u32,
            _ => 0,
        })
    }

    /// Writes the register at `off`; None if the access is not an aligned word.
    pub(crate) fn write(&mut self, off: u32, width: u32, value: u32, cycle: u64) -> Option<()> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        if matches!(off, 0x4000 | 0x4004 | 0xBFF8 | 0xBFFC) {
            self.armed_at = cycle;
        }
        match off {
            0 => self.msip = value & 1 != 0,
            0x4000 => {
                self.mtimecmp = (self.mtimecmp & !0xFFFF_FFFF) | u64::from(value);
                self.draw_delay();
            }
            0x4004 => {
                self.mtimecmp = (self.mtimecmp & 0xFFFF_FFFF) | (u64::from(value) << 32);
                self.draw_delay();
            }
            0xBFF8 | 0xBFFC => {
                let now = self.mtime(cycle);
                let new = if off == 0xBFF8 {
                    (now & !0xFFFF_FFFF) | u64::from(value)
                } else {
                    (now & 0xFFFF_FFFF) | (u64::from(value) << 32)
                };
                self.offset = self.offset.wrapping_add(new.wrapping_sub(now));
            }
            _ => {}
        }
        Some(())
    }
}

impl Clint {
    /// A new delay for the compare value just written (none without jitter).
    fn draw_delay(&mut self) {
        if let Some(j) = &mut self.jitter {
            self.delay = j.next();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtime_follows_cycles_and_deadline_is_exact() {
        let mut c = Clint::new(100_000_000, 10_000_000);
        assert_eq!(c.mtime(999), 99);
        assert!(
            c.mtip(0),
            "mtimecmp resets to 0: MTIP pending from reset (QEMU)"
        );
        c.write(0x4000, 4, 1000, 0).unwrap();
        c.write(0x4004, 4, 0, 0).unwrap();
        assert_eq!(c.timer_deadline(0), Some(10_000));
        assert!(!c.mtip(9_999));
        assert!(c.mtip(10_000));
        assert_eq!(c.timer_deadline(20_000), Some(20_000), "already pending");
        // Writing mtime moves the offset: mtime = 500 at cycle 0 -> deadline after 500 ticks.
        c.write(0xBFF8, 4, 500, 0).unwrap();
        assert_eq!(c.read(0xBFF8, 4, 0), Some(500));
        assert_eq!(c.timer_deadline(0), Some(5_000));
        assert_eq!(c.read(0x4000, 2, 0), None, "halfword access");
        c.write(0, 4, 3, 0).unwrap();
        assert!(c.msip);
        assert_eq!(c.read(0, 4, 0), Some(1));
    }

    #[test]
    fn odd_clock_ratio_rounds_the_deadline_up() {
        let mut c = Clint::new(3, 2);
        c.write(0x4000, 4, 5, 0).unwrap();
        // mtime(c) = c * 2 / 3 >= 5 first at c = 8 (16 / 3 = 5).
        assert_eq!(c.timer_deadline(0), Some(8));
        assert!(!c.mtip(7));
        assert!(c.mtip(8));
    }

    #[test]
    fn jitter_delays_the_interrupt_by_a_seeded_amount() {
        let deadline = |seed| {
            let mut c = Clint::new(100_000_000, 10_000_000).with_jitter(Some(TimerJitter {
                seed,
                max_cycles: 500,
            }));
            c.write(0x4000, 4, 1000, 0).unwrap();
            c.write(0x4004, 4, 0, 0).unwrap();
            let d = c.timer_deadline(0).unwrap();
            assert!(!c.mtip(d - 1) && c.mtip(d), "mtip rises at the deadline");
            assert_eq!(c.mtime(d), d / 10, "mtime itself is not delayed");
            d
        };
        let ds: Vec<u64> = (1..20).map(deadline).collect();
        assert!(ds.iter().all(|d| (10_000..=10_500).contains(d)), "{ds:?}");
        assert!(ds.iter().any(|&d| d != ds[0]), "seeds differ: {ds:?}");
        assert_eq!(deadline(7), deadline(7), "one seed, one delay");
    }
}
