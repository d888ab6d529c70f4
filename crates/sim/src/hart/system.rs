//! Block terminators: CSR instructions, `ecall`, `ebreak`, `mret`, `wfi`, `fence.i`, and while
//! the stack bound is armed every write of sp (`spbound.rs`). They run outside the hot loop
//! with exact counters (the block body before them is already accounted).
//!
//! `wfi` never spins: if an enabled interrupt is pending it is a no-op; otherwise the hart
//! sleeps until the CLINT timer deadline (with MTIE) or the UART arrival (with MEIE) that makes
//! an enabled interrupt pending (cycles jump there). When neither can wake the hart the run
//! ends as [`FaultKind::Deadlock`]. In U-mode `wfi` is illegal (QEMU).

use crate::cost::CostClass;
use crate::hart::block::CInst;
use crate::hart::csr::{CsrFault, CsrKind};
use crate::hart::spbound::CAUSE_STACK_BOUND;
use crate::hart::switchregs::CAUSE_SWITCH_TABLE;
use crate::hart::{Mode, MIP_MEIP, MIP_MTIP};
use crate::machine::{Machine, RunOutcome};
use crate::report::FaultKind;
use cactus_isa::Op;

/// Illegal instruction.
const CAUSE_ILLEGAL: u32 = 2;

impl Machine {
    /// The sleep of a retired `wfi` at `pc`: returns at once if an enabled interrupt is
    /// pending; otherwise advances the cycles to the first timer deadline (with MTIE) or UART
    /// arrival (with MEIE) that makes one pending. Ends the run if nothing can (deadlock) or
    /// the wake-up lies beyond the cycle limit.
    fn sleep(&mut self, pc: u32) -> Option<RunOutcome> {
        loop {
            self.bus.sync_irq(self.hart.cycle);
            if self.mip() & self.hart.mie != 0 {
                return None;
            }
            let timer = (self.hart.mie & MIP_MTIP != 0)
                .then(|| self.bus.clint.timer_deadline(self.hart.cycle))
                .flatten();
            let arrival = (self.hart.mie & MIP_MEIP != 0)
                .then(|| self.bus.uart.next_arrival())
                .flatten();
            let Some(d) = timer.into_iter().chain(arrival).min() else {
                return Some(RunOutcome::Fault(self.fault_report(
                    FaultKind::Deadlock,
                    0,
                    0,
                    pc,
                )));
            };
            if let Some((stop, kind)) = self.sleep_limit(d) {
                self.sleep_cycles += stop - self.hart.cycle;
                self.hart.cycle = stop;
                return Some(self.limit_reached(kind));
            }
            self.sleep_cycles += d - self.hart.cycle;
            self.hart.cycle = d;
            if timer == Some(d) {
                return None;
            }
        }
    }

    /// Retires one terminator of `class` and moves to `next`.
    fn retire_one(&mut self, class: CostClass, next: u32) {
        self.hart.cycle += u64::from(self.class_cycles[class as usize]);
        self.hart.instret += 1;
        self.extra_counts[class as usize] += 1;
        self.hart.just_trapped = false;
        self.hart.pc = next;
    }

    /// The raw bits of the instruction at `pc` (for mtval on illegal instruction).
    fn raw_bits(&self, pc: u32) -> u32 {
        let lo = self.bus.mem.fetch_u16(pc).unwrap_or(0);
        if lo & 3 != 3 {
            return u32::from(lo);
        }
        let hi = self.bus.mem.fetch_u16(pc.wrapping_add(2)).unwrap_or(0);
        u32::from(lo) | u32::from(hi) << 16
    }

    fn illegal(&mut self, pc: u32) -> Option<RunOutcome> {
        let bits = self.raw_bits(pc);
        self.take_trap(CAUSE_ILLEGAL, bits, pc)
    }

    /// Executes terminator `ins`; `next` is the pc after it. Returns an outcome if the run
    /// ends.
    // Out of line: keeps exec_block (which holds the inlined hot loop) to the loop and its
    // bookkeeping, so that terminator code does not move the hot loop around
    // (docs/simulator-design.md, "Stack-bound extension").
    #[inline(never)]
    pub(crate) fn exec_terminator(&mut self, ins: CInst, next: u32) -> Option<RunOutcome> {
        let pc = ins.pc;
        self.hart.pc = pc;
        match ins.op {
            Op::Csrrw | Op::Csrrs | Op::Csrrc | Op::Csrrwi | Op::Csrrsi | Op::Csrrci => {
                let kind = match ins.op {
                    Op::Csrrw | Op::Csrrwi => CsrKind::Write,
                    Op::Csrrs | Op::Csrrsi => CsrKind::Set,
                    _ => CsrKind::Clear,
                };
                let imm_form = matches!(ins.op, Op::Csrrwi | Op::Csrrsi | Op::Csrrci);
                let src = if imm_form {
                    u32::from(ins.rs1)
                } else {
                    self.hart.reg(ins.rs1.into())
                };
                let cost = u64::from(self.class_cycles[CostClass::Csr as usize]);
                match self.csr_op(ins.imm as u16, kind, src, ins.rd, ins.rs1 == 0, cost) {
                    Ok(v) => {
                        self.hart.x[ins.rd as usize] = v;
                        self.retire_one(CostClass::Csr, next);
                        self.next_event = 0;
                        None
                    }
                    Err(CsrFault::Illegal) => self.illegal(pc),
                    Err(CsrFault::StackBound(v)) => self.take_trap(CAUSE_STACK_BOUND, v, pc),
                    Err(CsrFault::SwitchTable(a)) => self.take_trap(CAUSE_SWITCH_TABLE, a, pc),
                }
            }
            Op::Ecall => {
                let cause = if self.hart.mode == Mode::User { 8 } else { 11 };
                self.take_trap(cause, 0, pc)
            }
            Op::Ebreak => self.take_trap(3, 0, pc),
            Op::Mret => {
                if self.hart.mode != Mode::Machine {
                    return self.illegal(pc);
                }
                self.hart.cycle += u64::from(self.class_cycles[CostClass::Mret as usize]);
                self.hart.instret += 1;
                self.extra_counts[CostClass::Mret as usize] += 1;
                self.hart.just_trapped = false;
                self.do_mret();
                None
            }
            Op::Wfi => {
                // QEMU 7.2 (which has S-mode) makes wfi illegal in U-mode whatever TW says;
                // we follow it so the same ELF behaves the same.
                if self.hart.mode == Mode::User {
                    return self.illegal(pc);
                }
                self.retire_one(CostClass::System, next);
                self.next_event = 0;
                self.sleep(pc)
            }
            Op::FenceI => {
                self.retire_one(CostClass::Fence, next);
                self.cache.flush(&mut self.bus.mem);
                None
            }
            // A write of sp while the stack bound is armed (spbound.rs).
            _ if ins.rd == 2 => self.exec_sp_write(ins, next),
            _ => unreachable!("{:?} is not a block terminator", ins.op),
        }
    }
}
