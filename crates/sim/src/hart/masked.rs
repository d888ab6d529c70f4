//! The longest interrupt-masked window: the cycles the hart spent in M-mode with
//! `mstatus.MIE` clear, from the change that masked interrupts (a CSR write or a trap entry)
//! to the one that unmasked them (a CSR write or an `mret`). Windows before interrupts are
//! first enabled (the boot) and a window still open when the run stops are not counted. An
//! interrupt that becomes pending in such a window waits for its end: the longest window bounds
//! the blocking B of a response-time analysis (`cactus bench carousel` draws its task sets
//! with it).

use crate::hart::{Mode, MSTATUS_MIE};
use crate::machine::Machine;

/// The watch's state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MaskedWatch {
    /// Interrupts have been enabled at least once.
    armed: bool,
    /// The cycle the open window began, if one is open.
    since: Option<u64>,
    /// The longest closed window, cycles.
    pub(crate) longest: u64,
}

impl Machine {
    /// Notes the interrupt mask after an instruction or trap that may have changed it, at
    /// `cycle`.
    pub(crate) fn note_masked(&mut self, cycle: u64) {
        let masked = self.hart.mode == Mode::Machine && self.hart.mstatus & MSTATUS_MIE == 0;
        let w = &mut self.masked;
        match (masked, w.since) {
            (true, None) if w.armed => w.since = Some(cycle),
            (false, since) => {
                w.armed = true;
                if let Some(s) = since {
                    w.longest = w.longest.max(cycle.saturating_sub(s));
                }
                w.since = None;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::hart::{Mode, MSTATUS_MIE};
    use crate::{Machine, MachineConfig, Profile};

    #[test]
    fn only_windows_after_the_first_enable_and_closed_ones_count() {
        let mut m = Machine::new(MachineConfig::new(Profile::default_mcu()));
        m.hart.mode = Mode::Machine;
        m.hart.mstatus = 0;
        m.note_masked(0); // the boot: not armed
        m.hart.mstatus = MSTATUS_MIE;
        m.note_masked(500);
        assert_eq!(m.masked.longest, 0, "the boot is not a window");
        m.hart.mstatus = 0;
        m.note_masked(600);
        m.hart.mstatus = MSTATUS_MIE;
        m.note_masked(640);
        m.hart.mstatus = 0;
        m.note_masked(700);
        m.hart.mstatus = MSTATUS_MIE;
        m.note_masked(710);
        assert_eq!(m.masked.longest, 40);
        m.hart.mstatus = 0;
        m.note_masked(800);
        m.note_masked(900); // still masked: the same window
        assert_eq!(m.masked.longest, 40, "an open window does not count");
        m.hart.mode = Mode::User; // a return to U-mode unmasks
        m.note_masked(1000);
        assert_eq!(m.longest_masked_window(), 200);
    }
}
