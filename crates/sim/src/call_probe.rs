//! Call probes ([`crate::MachineConfig::call_probes`]): every execution of an instruction at a
//! probed address (a function entry) is recorded as an [`EventKind::Call`] with `a0` and `a1`.
//! Blocks end before probed addresses, as before breakpoints, so the run loop sees every
//! arrival; recording costs the guest nothing (no cycle, no instruction).

use crate::events::EventKind;
use crate::machine::Machine;

impl Machine {
    /// Records the call if the hart is about to execute a probed address. An arrival is
    /// recorded once even when the run loop looks at it twice (a slice ending there).
    pub(crate) fn probe_call(&mut self) {
        let pc = self.hart.pc;
        if !self.probes.contains(&pc) || self.last_probe == Some((pc, self.hart.instret)) {
            return;
        }
        self.last_probe = Some((pc, self.hart.instret));
        let kind = EventKind::Call {
            a0: self.hart.reg(10),
            a1: self.hart.reg(11),
        };
        let ctx = self.ctx_now(pc);
        self.bus.record(&ctx, kind);
    }

    /// True when blocks must end at some addresses (breakpoints or call probes): the run loop
    /// then neither chains blocks nor lets one run across such an address.
    pub(crate) fn has_stops(&self) -> bool {
        !self.breakpoints.is_empty() || !self.probes.is_empty()
    }
}
