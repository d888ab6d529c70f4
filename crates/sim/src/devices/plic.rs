//! The PLIC at 0x0C00_0000 as QEMU 7.2 `virt` has it for one hart with M and S contexts (hart
//! config "MS"): 96 sources (0 = "no interrupt"; pending and enable bits for 0..=95), 3
//! priority bits, source priorities at +4*src for sources 1..=96 (QEMU 7.2 decodes a 96th
//! register that no source uses; +0 reads 0), pending bits at +0x1000, context enables at
//! +0x2000 + 0x80*ctx, context threshold at +0x20_0000 + 0x1000*ctx and claim/complete 4 bytes
//! above it. Context 0 (M-mode) drives `mip.MEIP`; context 1 (S-mode on QEMU) keeps its
//! registers and can claim, but drives nothing (the hart has no S-mode).
//!
//! Only aligned 32-bit accesses are decoded (others are access faults, as on QEMU); inside the
//! window an undecoded word reads 0 and ignores writes. Priority and threshold writes keep the
//! low 3 bits (QEMU's WARL filter). Pending bits are read-only.
//!
//! Gateway, exactly QEMU 7.2's: each time a device re-evaluates its interrupt line with the
//! line high (QEMU's `qemu_irq_raise`), the source's pending bit is set; a low line leaves it
//! alone, and only a claim clears it. A claim returns the enabled pending source that is not in
//! service with the highest priority above the context's threshold (the lowest id among
//! equals), clears its pending bit and puts it in service until a complete names it. A raise
//! while in service sets the pending bit, which interrupts again after the complete; a
//! complete by itself does not re-sample the line.

/// Base address of the PLIC window.
pub const PLIC_BASE: u32 = 0x0C00_0000;
/// Size of the window: QEMU virt's PLIC aperture (`VIRT_PLIC_SIZE(VIRT_CPUS_MAX * 2)`).
pub const PLIC_SIZE: u32 = 0x60_0000;
/// Interrupt sources including source 0 (QEMU 7.2 `VIRT_IRQCHIP_NUM_SOURCES`).
pub const PLIC_SOURCES: u32 = 96;
/// Priority registers, at +4..=+0x180 (sources 1..=96).
const PRIORITY_REGS: u32 = PLIC_SOURCES;
/// The PLIC source the UART drives (QEMU virt's `UART0_IRQ`).
pub const UART_IRQ: u32 = 10;

/// Mask of the implemented priority bits (`VIRT_IRQCHIP_NUM_PRIO_BITS` = 3).
const PRIO_MASK: u32 = 7;
/// 32-bit words of one bit per source.
const WORDS: usize = PLIC_SOURCES.div_ceil(32) as usize;
/// Contexts: 0 = hart 0 M-mode, 1 = hart 0 S-mode.
const CONTEXTS: usize = 2;
const PENDING_BASE: u32 = 0x1000;
const ENABLE_BASE: u32 = 0x2000;
const ENABLE_STRIDE: u32 = 0x80;
const CONTEXT_BASE: u32 = 0x20_0000;
const CONTEXT_STRIDE: u32 = 0x1000;

/// PLIC state.
#[derive(Clone, Debug)]
pub(crate) struct Plic {
    /// Indexed by source; entry 0 is never used, entry 96 is the extra register.
    priority: [u32; PRIORITY_REGS as usize + 1],
    pending: [u32; WORDS],
    claimed: [u32; WORDS],
    enable: [[u32; WORDS]; CONTEXTS],
    threshold: [u32; CONTEXTS],
    /// Successful claims (a claim read that returned a source) so far.
    pub(crate) claims: u64,
}

fn bit(src: u32) -> (usize, u32) {
    ((src / 32) as usize, 1 << (src % 32))
}

impl Plic {
    /// A PLIC after reset: everything 0, every line low.
    pub(crate) fn new() -> Plic {
        Plic {
            priority: [0; PRIORITY_REGS as usize + 1],
            pending: [0; WORDS],
            claimed: [0; WORDS],
            enable: [[0; WORDS]; CONTEXTS],
            threshold: [0; CONTEXTS],
            claims: 0,
        }
    }

    /// A device raised the line of `src` (1..PLIC_SOURCES): sets its pending bit.
    pub(crate) fn raise(&mut self, src: u32) {
        let (w, m) = bit(src);
        self.pending[w] |= m;
    }

    /// The source context `ctx` would claim now (0 = none).
    fn best(&self, ctx: usize) -> u32 {
        let mut best = 0;
        let mut best_prio = self.threshold[ctx];
        for w in 0..WORDS {
            let mut cand = self.pending[w] & !self.claimed[w] & self.enable[ctx][w];
            while cand != 0 {
                let src = w as u32 * 32 + cand.trailing_zeros();
                cand &= cand - 1;
                let prio = self.priority[src as usize];
                if prio > best_prio {
                    best = src;
                    best_prio = prio;
                }
            }
        }
        best
    }

    /// True if context 0 has a claimable source: `mip.MEIP`.
    pub(crate) fn meip(&self) -> bool {
        self.best(0) != 0
    }

    /// Reads the word at `off`; None if the access is not an aligned word.
    pub(crate) fn read(&mut self, off: u32, width: u32) -> Option<u32> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        Some(match decode(off) {
            Reg::Priority(src) => self.priority[src as usize],
            Reg::Pending(w) => self.pending[w],
            Reg::Enable(ctx, w) => self.enable[ctx][w],
            Reg::Threshold(ctx) => self.threshold[ctx],
            Reg::Claim(ctx) => {
                let src = self.best(ctx);
                if src != 0 {
                    let (w, m) = bit(src);
                    self.pending[w] &= !m;
                    self.claimed[w] |= m;
                    self.claims += 1;
                }
                src
            }
            Reg::None => 0,
        })
    }

    /// Writes the word at `off`; None if the access is not an aligned word.
    pub(crate) fn write(&mut self, off: u32, width: u32, value: u32) -> Option<()> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        match decode(off) {
            Reg::Priority(src) => self.priority[src as usize] = value & PRIO_MASK,
            Reg::Enable(ctx, w) => self.enable[ctx][w] = value,
            Reg::Threshold(ctx) => self.threshold[ctx] = value & PRIO_MASK,
            Reg::Claim(_) if value < PLIC_SOURCES => {
                let (w, m) = bit(value);
                self.claimed[w] &= !m;
            }
            Reg::Pending(_) | Reg::Claim(_) | Reg::None => {}
        }
        Some(())
    }
}

/// A decoded register of the window.
enum Reg {
    Priority(u32),
    Pending(usize),
    Enable(usize, usize),
    Threshold(usize),
    Claim(usize),
    None,
}

fn decode(off: u32) -> Reg {
    if (4..=PRIORITY_REGS * 4).contains(&off) {
        return Reg::Priority(off / 4);
    }
    if let Some(w) = off.checked_sub(PENDING_BASE).map(|o| (o / 4) as usize) {
        if w < WORDS {
            return Reg::Pending(w);
        }
    }
    if let Some(o) = off.checked_sub(ENABLE_BASE) {
        let (ctx, w) = (
            (o / ENABLE_STRIDE) as usize,
            (o % ENABLE_STRIDE / 4) as usize,
        );
        if ctx < CONTEXTS && w < WORDS {
            return Reg::Enable(ctx, w);
        }
    }
    if let Some(o) = off.checked_sub(CONTEXT_BASE) {
        let ctx = (o / CONTEXT_STRIDE) as usize;
        if ctx < CONTEXTS {
            match o % CONTEXT_STRIDE {
                0 => return Reg::Threshold(ctx),
                4 => return Reg::Claim(ctx),
                _ => {}
            }
        }
    }
    Reg::None
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAIM0: u32 = CONTEXT_BASE + 4;

    fn plic_with(sources: &[(u32, u32)]) -> Plic {
        let mut p = Plic::new();
        let mut en = [0u32; WORDS];
        for &(src, prio) in sources {
            p.write(src * 4, 4, prio).unwrap();
            en[(src / 32) as usize] |= 1 << (src % 32);
        }
        for (w, v) in en.iter().enumerate() {
            p.write(ENABLE_BASE + 4 * w as u32, 4, *v).unwrap();
        }
        p
    }

    #[test]
    fn registers_read_back_with_warl_masks() {
        let mut p = Plic::new();
        p.write(0, 4, 3).unwrap();
        assert_eq!(p.read(0, 4), Some(0), "no priority register for source 0");
        p.write(4 * 10, 4, 0xFF).unwrap();
        assert_eq!(p.read(4 * 10, 4), Some(7), "3 priority bits");
        p.write(4 * 96, 4, 3).unwrap();
        assert_eq!(p.read(4 * 96, 4), Some(3), "QEMU 7.2's extra register");
        p.write(4 * 97, 4, 3).unwrap();
        assert_eq!(p.read(4 * 97, 4), Some(0), "beyond the priority registers");
        p.write(CONTEXT_BASE, 4, 9).unwrap();
        assert_eq!(p.read(CONTEXT_BASE, 4), Some(1));
        p.write(CONTEXT_BASE + 2 * CONTEXT_STRIDE, 4, 3).unwrap();
        assert_eq!(
            p.read(CONTEXT_BASE + 2 * CONTEXT_STRIDE, 4),
            Some(0),
            "no context 2"
        );
        p.write(ENABLE_BASE + 8, 4, 0xDEAD_BEEF).unwrap();
        assert_eq!(p.read(ENABLE_BASE + 8, 4), Some(0xDEAD_BEEF));
        p.write(ENABLE_BASE + 12, 4, 1).unwrap();
        assert_eq!(p.read(ENABLE_BASE + 12, 4), Some(0), "beyond 96 sources");
        p.write(ENABLE_BASE + ENABLE_STRIDE, 4, 0x400).unwrap();
        assert_eq!(
            p.read(ENABLE_BASE + ENABLE_STRIDE, 4),
            Some(0x400),
            "context 1"
        );
        assert_eq!(p.read(ENABLE_BASE, 4), Some(0));
        p.raise(10);
        p.write(PENDING_BASE, 4, 0).unwrap();
        assert_eq!(
            p.read(PENDING_BASE, 4),
            Some(1 << 10),
            "pending is read-only"
        );
        assert_eq!(p.read(4 * 10, 2), None, "halfword access");
        assert_eq!(p.write(4 * 10 + 1, 4, 0), None, "misaligned");
        assert_eq!(p.read(0x5F_FFFC, 4), Some(0), "undecoded word");
    }

    #[test]
    fn meip_needs_enable_priority_above_threshold() {
        let mut p = Plic::new();
        p.raise(10);
        assert!(!p.meip(), "not enabled, priority 0");
        p.write(ENABLE_BASE, 4, 1 << 10).unwrap();
        assert!(!p.meip(), "priority 0 never interrupts");
        p.write(40, 4, 2).unwrap();
        assert!(p.meip());
        p.write(CONTEXT_BASE, 4, 2).unwrap();
        assert!(!p.meip(), "priority must exceed the threshold");
        p.write(CONTEXT_BASE, 4, 1).unwrap();
        assert!(p.meip());
        p.write(ENABLE_BASE + ENABLE_STRIDE, 4, 1 << 10).unwrap();
        p.write(ENABLE_BASE, 4, 0).unwrap();
        assert!(!p.meip(), "context 1 does not drive MEIP");
    }

    #[test]
    fn claim_picks_highest_priority_then_lowest_id() {
        let mut p = plic_with(&[(3, 2), (10, 5), (33, 5), (40, 1)]);
        for s in [3, 10, 33, 40] {
            p.raise(s);
        }
        assert_eq!(p.read(CLAIM0, 4), Some(10));
        assert_eq!(p.read(CLAIM0, 4), Some(33));
        assert_eq!(p.read(CLAIM0, 4), Some(3));
        p.write(CONTEXT_BASE, 4, 1).unwrap();
        assert_eq!(p.read(CLAIM0, 4), Some(0), "40 is at the threshold");
        assert_eq!(
            p.read(PENDING_BASE, 4),
            Some(0),
            "claimed sources are not pending"
        );
        assert_eq!(
            p.read(PENDING_BASE + 4, 4),
            Some(1 << 8),
            "source 40 still pending"
        );
        assert_eq!(p.claims, 3);
        let c1 = CONTEXT_BASE + CONTEXT_STRIDE + 4;
        p.write(ENABLE_BASE + ENABLE_STRIDE + 4, 4, 1 << 8).unwrap();
        assert_eq!(
            p.read(c1, 4),
            Some(40),
            "context 1 claims with its own threshold"
        );
    }

    #[test]
    fn a_raise_in_service_interrupts_after_the_complete() {
        let mut p = plic_with(&[(10, 1)]);
        p.raise(10);
        assert_eq!(p.read(CLAIM0, 4), Some(10));
        assert!(!p.meip(), "in service");
        p.write(CLAIM0, 4, 10).unwrap();
        assert!(!p.meip(), "a complete alone does not re-sample the line");
        p.raise(10);
        assert_eq!(p.read(CLAIM0, 4), Some(10));
        p.raise(10);
        assert!(!p.meip(), "raised in service: waits for the complete");
        assert_eq!(p.read(PENDING_BASE, 4), Some(1 << 10));
        p.write(CLAIM0, 4, 10).unwrap();
        assert!(p.meip(), "pending again after the complete");
        p.write(CLAIM0, 4, 200).unwrap();
        assert!(p.meip(), "completing a non-source is ignored");
        assert_eq!(p.read(CLAIM0, 4), Some(10));
        assert_eq!(p.read(CLAIM0, 4), Some(0));
    }
}
