//! Trap entry, `mret`, interrupt selection and privilege-mode bookkeeping.
//!
//! Exceptions always go to `mtvec.BASE`; interrupts go to `BASE + 4 * code` when mtvec is in
//! vectored mode. An exception with mtvec == 0 ends the run as [`FaultKind::Unhandled`]; an
//! exception raised before any instruction of the handler retired ends it as
//! [`FaultKind::DoubleFault`]. Trap entry clears the LR reservation and costs `trap_entry`.

use crate::cost::CostClass;
use crate::events::EventKind;
use crate::hart::spbound::CAUSE_STACK_BOUND;
use crate::hart::MSTATUS_MPRV;
use crate::hart::{Mode, MIP_MEIP, MIP_MSIP, MIP_MTIP, MSTATUS_MIE, MSTATUS_MPIE, MSTATUS_MPP};
use crate::machine::{Machine, RunOutcome};
use crate::report::{cause_name, FaultKind, FaultReport};

/// mcause of the machine timer interrupt.
const CAUSE_MTI: u32 = 0x8000_0007;

impl Machine {
    /// Switches privilege mode, attributing the cycles and instructions since the last switch
    /// to the old mode.
    pub(crate) fn set_mode(&mut self, mode: Mode) {
        self.close_mode_interval();
        self.hart.mode = mode;
    }

    /// Adds the cycles/instructions since the last mode change to the current mode.
    pub(crate) fn close_mode_interval(&mut self) {
        let (c, i) = (self.hart.cycle, self.hart.instret);
        let slot = &mut self.mode_stats[usize::from(self.hart.mode == Mode::Machine)];
        slot.cycles += c.wrapping_sub(self.mode_since.0);
        slot.instructions += i - self.mode_since.1;
        self.mode_since = (c, i);
    }

    /// A fault-like report of the current state.
    pub(crate) fn fault_report(
        &self,
        kind: FaultKind,
        cause: u32,
        tval: u32,
        pc: u32,
    ) -> Box<FaultReport> {
        let name = match kind {
            FaultKind::Unhandled | FaultKind::DoubleFault => cause_name(cause).to_string(),
            FaultKind::CycleLimit => "cycle limit".to_string(),
            FaultKind::BusyLimit => "busy-cycle limit".to_string(),
            FaultKind::IdleLimit => "idle-cycle limit".to_string(),
            FaultKind::Deadlock => "deadlock".to_string(),
            FaultKind::Reset => "reset request".to_string(),
        };
        let stack_bound = (matches!(kind, FaultKind::Unhandled | FaultKind::DoubleFault)
            && cause == CAUSE_STACK_BOUND)
            .then_some(self.hart.stack_bound);
        Box::new(FaultReport {
            kind,
            cause,
            cause_name: name,
            pc,
            tval,
            stack_bound,
            mode: self.hart.mode,
            regs: self.hart.regs(),
            cycles: self.hart.cycle,
            instret: self.hart.instret,
        })
    }

    /// Takes a trap with `cause` (bit 31 set for interrupts) at `epc`. Returns an outcome if
    /// the run ends (no handler, double fault).
    pub(crate) fn take_trap(&mut self, cause: u32, tval: u32, epc: u32) -> Option<RunOutcome> {
        let interrupt = cause & 0x8000_0000 != 0;
        self.switch_regs_on_trap(cause, epc);
        if !interrupt {
            if self.hart.mtvec & !3 == 0 {
                self.hart.pc = epc;
                return Some(RunOutcome::Fault(self.fault_report(
                    FaultKind::Unhandled,
                    cause,
                    tval,
                    epc,
                )));
            }
            if self.hart.just_trapped {
                self.hart.pc = epc;
                return Some(RunOutcome::Fault(self.fault_report(
                    FaultKind::DoubleFault,
                    cause,
                    tval,
                    epc,
                )));
            }
        }
        if cause == CAUSE_MTI {
            if let Some(since) = self.bus.clint.pending_since(self.hart.cycle) {
                let latency = self.hart.cycle.saturating_sub(since);
                *self.timer_latency.entry(latency).or_insert(0) += 1;
            }
        }
        let h = &mut self.hart;
        h.mepc = epc;
        h.mcause = cause;
        h.mtval = tval;
        let mie = h.mstatus & MSTATUS_MIE != 0;
        h.mstatus &= !(MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP);
        if mie {
            h.mstatus |= MSTATUS_MPIE;
        }
        h.mstatus |= h.mode.bits() << 11;
        let base = h.mtvec & !3;
        h.pc = if interrupt && h.mtvec & 3 == 1 {
            base.wrapping_add(4 * (cause & 0x7FFF_FFFF))
        } else {
            base
        };
        h.in_trap = true;
        h.just_trapped = true;
        self.bus.clear_reservation();
        self.set_mode(Mode::Machine);
        self.note_masked(self.hart.cycle);
        self.hart.cycle += u64::from(self.class_cycles[CostClass::TrapEntry as usize]);
        self.extra_counts[CostClass::TrapEntry as usize] += 1;
        *self.traps_by_cause.entry(cause).or_insert(0) += 1;
        if interrupt {
            self.interrupts += 1;
        }
        let ctx = self.ctx_now(epc);
        self.bus.record(&ctx, EventKind::Trap { cause, tval });
        self.next_event = 0;
        None
    }

    /// Executes `mret` (M-mode only; the caller checked).
    pub(crate) fn do_mret(&mut self) {
        let h = &mut self.hart;
        let mpp = (h.mstatus & MSTATUS_MPP) >> 11;
        let new_mode = if mpp == 3 { Mode::Machine } else { Mode::User };
        let mpie = h.mstatus & MSTATUS_MPIE != 0;
        h.mstatus &= !(MSTATUS_MIE | MSTATUS_MPP);
        if mpie {
            h.mstatus |= MSTATUS_MIE;
        }
        h.mstatus |= MSTATUS_MPIE;
        if new_mode != Mode::Machine {
            h.mstatus &= !MSTATUS_MPRV;
        }
        // NOTE: mepc keeps bit 0 as written (like QEMU); the jump clears it like jalr.
        h.pc = h.mepc & !1;
        h.in_trap = false;
        self.set_mode(new_mode);
        self.note_masked(self.hart.cycle);
        self.next_event = 0;
        let ctx = self.ctx_now(self.hart.pc);
        let target = self.hart.pc;
        self.bus.record(&ctx, EventKind::Mret { target });
    }

    /// The interrupt to take now, if any (priority MEI > MSI > MTI).
    pub(crate) fn pending_interrupt(&self) -> Option<u32> {
        let enabled = self.hart.mode == Mode::User || self.hart.mstatus & MSTATUS_MIE != 0;
        if !enabled {
            return None;
        }
        let pend = self.mip() & self.hart.mie;
        [(MIP_MEIP, 11), (MIP_MSIP, 3), (MIP_MTIP, 7)]
            .into_iter()
            .find(|(bit, _)| pend & bit != 0)
            .map(|(_, code)| 0x8000_0000 | code)
    }

    /// Recomputes the cycle at which the run loop must next look at interrupts, UART arrivals
    /// or the limit.
    pub(crate) fn update_next_event(&mut self) {
        let mut ne = self.awake_limit().map_or(u64::MAX, |(max, _)| max);
        let enabled = self.hart.mode == Mode::User || self.hart.mstatus & MSTATUS_MIE != 0;
        if enabled {
            if self.bus.clint.msip && self.hart.mie & MIP_MSIP != 0 {
                ne = self.hart.cycle;
            }
            if self.bus.plic.meip() && self.hart.mie & MIP_MEIP != 0 {
                ne = self.hart.cycle;
            }
            if self.hart.mie & MIP_MTIP != 0 {
                if let Some(d) = self.bus.clint.timer_deadline(self.hart.cycle) {
                    ne = ne.min(d);
                }
            }
        }
        // Every UART arrival is an event, masked or not, so that device state (LSR, IIR, the
        // PLIC's pending bits, mip) is current at every instruction.
        if let Some(d) = self.bus.uart.next_arrival() {
            ne = ne.min(d);
        }
        if let Some(d) = self.watch_deadline() {
            ne = ne.min(d);
        }
        self.next_event = ne;
    }

    /// The run loop's check when the cycle counter reached `next_event`: cycle limit, then
    /// UART arrivals, then interrupts. Returns an outcome if the run ends.
    pub(crate) fn check_events(&mut self) -> Option<RunOutcome> {
        if let Some(o) = self.check_awake_limit() {
            return Some(o);
        }
        self.bus.sync_irq(self.hart.cycle);
        self.note_timer_pending();
        if let Some(cause) = self.pending_interrupt() {
            // The switch-register extension may defer the timer (hart/switchregs.rs).
            if !self.defer_interrupt(cause) {
                let pc = self.hart.pc;
                if let Some(o) = self.take_trap(cause, 0, pc) {
                    return Some(o);
                }
            }
        }
        self.update_next_event();
        if let Some(stop) = self.switch_regs_next_stop() {
            // The deferred timer keeps its deadline at or before now; every other event due
            // now was handled above, so the next stop is the next instruction boundary.
            self.next_event = stop;
        }
        None
    }
}
