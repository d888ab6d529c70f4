//! The timer-pending watch ([`crate::MachineConfig::watch_timer_pending`]): with it on and
//! events recorded, every rise of the machine timer interrupt (MTIP set while `mie.MTIE` is
//! set) is recorded as an [`EventKind::TimerPending`] event at the first instruction boundary
//! at or after the rise, with the pc of the instruction that starts there and whether
//! interrupts were masked. A masked rise would otherwise leave no trace until the interrupt is
//! finally taken; the event names where it waited.
//!
//! Cost: none when the watch is off (one `Option` test in the run loop's event check, which
//! runs only at events, never per instruction). With it on, the run loop also stops at each
//! timer deadline while interrupts are masked, which cuts a block body exactly where an
//! interrupt would be taken, so cycles, instructions and every other event are unchanged.

use crate::events::EventKind;
use crate::hart::{Mode, MIP_MTIP, MSTATUS_MIE};
use crate::machine::Machine;

/// The watch's state: the rise last recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct PendingWatch {
    /// `pending_since` of the last recorded rise (a rise is recorded once).
    noted: Option<u64>,
}

impl Machine {
    /// The cycle the run loop must stop at for the watch: the timer deadline while MTIE is set
    /// and that rise is not yet recorded. None when the watch is off or nothing is due.
    pub(crate) fn watch_deadline(&self) -> Option<u64> {
        let watch = self.pending_watch.as_ref()?;
        if self.hart.mie & MIP_MTIP == 0 {
            return None;
        }
        let now = self.hart.cycle;
        match self.bus.clint.pending_since(now) {
            Some(since) if watch.noted == Some(since) => None,
            Some(_) => Some(now),
            None => self.bus.clint.timer_deadline(now),
        }
    }

    /// Records the current rise of MTIP if the watch is on, MTIE is set and the rise is not
    /// recorded yet. Called by the run loop's event check before it takes interrupts, so the
    /// event comes before the trap it leads to.
    pub(crate) fn note_timer_pending(&mut self) {
        if self.pending_watch.is_none() || self.hart.mie & MIP_MTIP == 0 {
            return;
        }
        let Some(since) = self.bus.clint.pending_since(self.hart.cycle) else {
            return;
        };
        let masked = self.hart.mode == Mode::Machine && self.hart.mstatus & MSTATUS_MIE == 0;
        let in_trap = self.hart.in_trap;
        if let Some(watch) = self.pending_watch.as_mut() {
            if watch.noted == Some(since) {
                return;
            }
            watch.noted = Some(since);
        }
        let ctx = self.ctx_now(self.hart.pc);
        self.bus.record(
            &ctx,
            EventKind::TimerPending {
                since,
                masked,
                in_trap,
            },
        );
    }
}
