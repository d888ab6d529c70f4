//! The switch-register extension (ccs-hw, paper 002's Figure 9; docs/simulator-design.md,
//! "Switch-register extension", docs/ccs.md "ccs-hw"): switch registers that hold the
//! firmware's switch ranges, and the deferral of the machine timer interrupt until the pc is
//! inside one of them or a budget of cycles has passed.
//!
//! The CSRs (custom machine-mode numbers; all four exist only with the extension,
//! [`crate::MachineConfig::switch_regs`], otherwise they are unimplemented CSRs and an access
//! is an illegal instruction):
//! - [`MSWTAB`] (read/write): the address of a table of 16-byte records
//!   `start, end (exclusive), routine, id` (the `.cactus.switch` layout), sorted by start.
//! - [`MSWCOUNT`] (read/write): a write of n loads the switch registers with the n records at
//!   `mswtab` (the boot code's n register-pair writes, as one instruction). The records must be
//!   readable memory, each `start < end`, sorted and disjoint, and n at most
//!   [`MAX_SWITCH_RANGES`]; otherwise the write raises [`CAUSE_SWITCH_TABLE`] with mtval = the
//!   offending record's address (or `mswtab` for a count beyond the registers), and the
//!   registers, the count and the deferral keep what they held. Reads return the count loaded.
//! - [`MSWBUDGET`] (read/write): the deferral budget in cycles; 0 (the reset value) disarms
//!   deferral.
//! - [`MSWMATCH`] (read-only): written by every trap entry. For a machine timer interrupt it is
//!   the `routine` word of the record whose range holds the interrupted pc (mepc), or 0 (no
//!   range: the budget expired, or deferral was not armed and the pc was outside every range);
//!   for every other trap 0. So the kernel knows which save routine to call without a lookup.
//!
//! Deferral: while the budget is nonzero, a machine timer interrupt that is pending and
//! enabled, with no higher-priority interrupt pending, is not taken at an instruction boundary
//! whose pc lies outside every range. It is taken before the first instruction whose pc lies in
//! a range (mswmatch = that range's routine), or at the first boundary at which `budget`
//! cycles have passed since the first boundary at which it would have been taken without the
//! extension (mswmatch = 0, a *budget expiry*). So a deferral lasts at most the budget plus
//! the cycles of the last instruction that started before the budget ran out, less one (a
//! division on the `mcu` profile: 37). Only the timer is deferred: external and
//! software interrupts are taken as without the extension. While an interrupt is deferred the
//! run loop stops before every instruction (one compare per instruction: the parallel
//! comparators of a hardware implementation), which costs host time only for the few cycles
//! a deferral lasts; without a budget nothing changes in the hot loop.
//!
//! Hardware cost of the model: one range comparator pair (two 32-bit magnitude comparators) and
//! three 32-bit registers (start, end, routine) per record, plus a priority encoder for the
//! match and a budget counter; the statistics report the records a firmware loads
//! ([`SwitchRegStats::records`]), the N a core needs for it.

use crate::hart::MIP_MTIP;
use crate::machine::Machine;
use serde::Serialize;

/// `mswtab`: the switch table's address (custom machine-mode read/write).
pub const MSWTAB: u16 = 0x7CB;
/// `mswcount`: a write loads the switch registers from the table (custom read/write).
pub const MSWCOUNT: u16 = 0x7CC;
/// `mswbudget`: the deferral budget in cycles, 0 = no deferral (custom read/write).
pub const MSWBUDGET: u16 = 0x7CD;
/// `mswmatch`: the matched record's routine or 0, set at every trap entry (custom
/// machine-mode read-only range 0xFC0-0xFFF).
pub const MSWMATCH: u16 = 0xFC8;
/// mcause of a refused switch-table load (the first code after the stack-bound's 24 and the
/// stack window's 25 in the range designated for custom use).
pub const CAUSE_SWITCH_TABLE: u32 = 26;
/// The most records the switch registers hold (the model's N).
pub const MAX_SWITCH_RANGES: u32 = 4096;
/// Bytes of one record.
pub const RECORD_BYTES: u32 = 16;

/// mcause of the machine timer interrupt.
const CAUSE_MTI: u32 = 0x8000_0007;

/// The extension's counters (in [`crate::Stats::switch_regs`] once a table is loaded or a
/// budget set).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SwitchRegStats {
    /// Records in the switch registers (the last load): the N of comparator pairs this
    /// firmware needs.
    pub records: u32,
    /// The deferral budget in cycles (the last write of `mswbudget`).
    pub budget: u32,
    /// Machine timer interrupts taken.
    pub timer_interrupts: u64,
    /// Of those, taken with a match (the pc in a range): at once or after a deferral.
    pub matched: u64,
    /// Timer interrupts that were deferred (not taken at the first boundary they could be).
    pub deferred: u64,
    /// Deferred interrupts taken because the budget expired (no match, full save).
    pub budget_expiries: u64,
    /// Deferrals that ended before the interrupt was taken: it stopped pending (the guest moved
    /// the compare value) or the guest wrote a budget of 0.
    pub cancelled: u64,
    /// Cycles of every deferral that ended in a taken interrupt, summed.
    pub deferral_cycles: u64,
    /// The longest of them.
    pub worst_deferral_cycles: u64,
    /// The longest deferral that ended in a range (the paper's deferral: to the switch point
    /// or block; at most the budget).
    pub worst_matched_deferral_cycles: u64,
}

impl SwitchRegStats {
    /// Average deferral in cycles over the deferred interrupts that were taken (0 if none).
    pub fn avg_deferral_cycles(&self) -> f64 {
        let taken = self.deferred - self.cancelled;
        if taken == 0 {
            0.0
        } else {
            self.deferral_cycles as f64 / taken as f64
        }
    }
}

/// The switch registers and the deferral state.
#[derive(Clone, Debug, Default)]
pub(crate) struct SwitchRegs {
    tab: u32,
    /// (start, end, routine), sorted and disjoint.
    ranges: Vec<(u32, u32, u32)>,
    budget: u32,
    matched: u32,
    /// The cycle at which the deferred timer interrupt could first have been taken.
    since: Option<u64>,
    /// Something was configured (the statistics are reported).
    used: bool,
    stats: SwitchRegStats,
}

/// Why a table load was refused: the address to report in mtval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BadTable(pub(crate) u32);

impl SwitchRegs {
    /// The routine of the range holding `pc`, if any.
    pub(crate) fn lookup(&self, pc: u32) -> Option<u32> {
        let i = self.ranges.partition_point(|r| r.0 <= pc);
        (i > 0 && pc < self.ranges[i - 1].1).then(|| self.ranges[i - 1].2)
    }

    /// Validates `records` (read from `tab`) and loads them. Nothing changes on Err.
    pub(crate) fn load(&mut self, tab: u32, records: &[[u32; 4]]) -> Result<(), BadTable> {
        let mut ranges = Vec::with_capacity(records.len());
        let mut prev_end = 0u32;
        for (i, r) in records.iter().enumerate() {
            let at = tab.wrapping_add(i as u32 * RECORD_BYTES);
            if r[0] >= r[1] || (i > 0 && r[0] < prev_end) {
                return Err(BadTable(at));
            }
            prev_end = r[1];
            ranges.push((r[0], r[1], r[2]));
        }
        self.ranges = ranges;
        self.stats.records = records.len() as u32;
        self.used = true;
        Ok(())
    }

    /// The statistics, when the guest configured the extension.
    pub(crate) fn report(&self) -> Option<SwitchRegStats> {
        self.used.then(|| self.stats.clone())
    }
}

impl Machine {
    /// Reads CSR `num` of the extension (None: not one of its CSRs, or no extension).
    pub(crate) fn switch_csr_peek(&self, num: u16) -> Option<u32> {
        let s = self.switch_regs.as_ref()?;
        Some(match num {
            MSWTAB => s.tab,
            MSWCOUNT => s.ranges.len() as u32,
            MSWBUDGET => s.budget,
            MSWMATCH => s.matched,
            _ => return None,
        })
    }

    /// Writes CSR `num` of the extension (found by [`Machine::switch_csr_peek`]). Err: a
    /// refused table load (the address for mtval).
    pub(crate) fn switch_csr_write(&mut self, num: u16, v: u32) -> Result<(), BadTable> {
        match num {
            MSWTAB => {
                if let Some(s) = self.switch_regs.as_mut() {
                    s.tab = v;
                }
            }
            MSWCOUNT => {
                let Some(tab) = self.switch_regs.as_ref().map(|s| s.tab) else {
                    return Ok(());
                };
                if v > MAX_SWITCH_RANGES {
                    return Err(BadTable(tab));
                }
                let mut records = Vec::with_capacity(v as usize);
                for i in 0..v {
                    let at = tab.wrapping_add(i * RECORD_BYTES);
                    if u64::from(tab) + u64::from((i + 1) * RECORD_BYTES) > 1 << 32 {
                        return Err(BadTable(at));
                    }
                    let mut buf = [0u8; RECORD_BYTES as usize];
                    self.bus
                        .mem
                        .read_debug(at, &mut buf)
                        .map_err(|_| BadTable(at))?;
                    let w =
                        |k: usize| u32::from_le_bytes([buf[k], buf[k + 1], buf[k + 2], buf[k + 3]]);
                    records.push([w(0), w(4), w(8), w(12)]);
                }
                if let Some(s) = self.switch_regs.as_mut() {
                    s.load(tab, &records)?;
                }
            }
            MSWBUDGET => {
                if let Some(s) = self.switch_regs.as_mut() {
                    s.budget = v;
                    s.stats.budget = v;
                    s.used = true;
                    if v == 0 && s.since.take().is_some() {
                        // Disarmed while an interrupt was deferred: it is taken as usual.
                        s.stats.cancelled += 1;
                    }
                }
            }
            // MSWMATCH is read-only (csr_allowed refuses writes).
            _ => {}
        }
        Ok(())
    }

    /// Whether the interrupt `cause` (what [`Machine::pending_interrupt`] chose) is deferred at
    /// this instruction boundary. Starts a deferral, or ends it when the pc is in a range or
    /// the budget has passed (the trap entry then accounts it).
    pub(crate) fn defer_interrupt(&mut self, cause: u32) -> bool {
        let pc = self.hart.pc;
        let now = self.hart.cycle;
        let Some(s) = self.switch_regs.as_mut() else {
            return false;
        };
        if cause != CAUSE_MTI || s.budget == 0 || s.lookup(pc).is_some() {
            return false;
        }
        match s.since {
            None => {
                s.since = Some(now);
                s.stats.deferred += 1;
                true
            }
            Some(since) => now.saturating_sub(since) < u64::from(s.budget),
        }
    }

    /// At a trap entry with `cause` at `epc`: sets `mswmatch` and accounts a deferral the
    /// trap ends.
    pub(crate) fn switch_regs_on_trap(&mut self, cause: u32, epc: u32) {
        let now = self.hart.cycle;
        let Some(s) = self.switch_regs.as_mut() else {
            return;
        };
        if cause != CAUSE_MTI {
            s.matched = 0;
            return;
        }
        let hit = s.lookup(epc);
        s.matched = hit.unwrap_or(0);
        s.stats.timer_interrupts += 1;
        if hit.is_some() {
            s.stats.matched += 1;
        }
        if let Some(since) = s.since.take() {
            let waited = now.saturating_sub(since);
            s.stats.deferral_cycles += waited;
            s.stats.worst_deferral_cycles = s.stats.worst_deferral_cycles.max(waited);
            if hit.is_none() {
                s.stats.budget_expiries += 1;
            } else {
                s.stats.worst_matched_deferral_cycles =
                    s.stats.worst_matched_deferral_cycles.max(waited);
            }
        }
    }

    /// At an event check that takes no timer interrupt: a deferral whose interrupt stopped
    /// pending (MTIP clear) is cancelled. While a deferral is open and the timer could be
    /// taken, the run loop must stop at the next instruction boundary: returns that cycle.
    pub(crate) fn switch_regs_next_stop(&mut self) -> Option<u64> {
        self.switch_regs.as_ref()?.since?;
        let timer = self.mip() & MIP_MTIP != 0;
        let takeable = self.pending_interrupt() == Some(CAUSE_MTI);
        let s = self.switch_regs.as_mut()?;
        if !timer {
            s.since = None;
            s.stats.cancelled += 1;
            return None;
        }
        // Masked or behind a higher interrupt: whatever unmasks it (a CSR write, mret) or ends
        // the other interrupt's handler makes the run loop look again.
        takeable.then(|| self.hart.cycle.wrapping_add(1))
    }
}

#[cfg(test)]
mod tests {
    use super::{BadTable, SwitchRegs};

    #[test]
    fn lookup_finds_the_range_holding_a_pc() {
        let mut s = SwitchRegs::default();
        s.load(0x100, &[[0x10, 0x18, 0xA0, 0], [0x20, 0x22, 0xB0, 1]])
            .unwrap();
        assert_eq!(s.lookup(0x10), Some(0xA0));
        assert_eq!(s.lookup(0x16), Some(0xA0));
        assert_eq!(s.lookup(0x18), None);
        assert_eq!(s.lookup(0x0F), None);
        assert_eq!(s.lookup(0x21), Some(0xB0));
        assert_eq!(s.lookup(0x22), None);
        assert_eq!(s.report().unwrap().records, 2);
    }

    #[test]
    fn malformed_tables_are_refused_and_change_nothing() {
        let mut s = SwitchRegs::default();
        s.load(0x100, &[[0x10, 0x18, 0xA0, 0]]).unwrap();
        // Empty range (record 1 at 0x110), overlap, unsorted.
        let bad = [
            vec![[0x10, 0x18, 0, 0], [0x20, 0x20, 0, 1]],
            vec![[0x10, 0x18, 0, 0], [0x14, 0x20, 0, 1]],
            vec![[0x30, 0x38, 0, 0], [0x10, 0x20, 0, 1]],
        ];
        for t in bad {
            assert_eq!(s.load(0x200, &t), Err(BadTable(0x210)), "{t:?}");
        }
        assert_eq!(s.lookup(0x10), Some(0xA0), "the old registers stay");
        assert_eq!(s.lookup(0x30), None);
    }
}
