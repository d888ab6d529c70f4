//! The gdbstub `Target` for a cactus-sim machine: registers, memory, resume, single step and
//! software breakpoints.

use crate::exec::ResumeMode;
use cactus_sim::{Machine, RunOutcome};
use gdbstub::common::Signal;
use gdbstub::target::ext::base::singlethread::{
    SingleThreadBase, SingleThreadResume, SingleThreadResumeOps, SingleThreadSingleStep,
    SingleThreadSingleStepOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, SwBreakpoint, SwBreakpointOps,
};
use gdbstub::target::{Target, TargetError, TargetResult};
use gdbstub_arch::riscv::reg::RiscvCoreRegs;
use gdbstub_arch::riscv::Riscv32;
use std::collections::BTreeSet;
use std::convert::Infallible;

/// A machine under a debugger's control. Holds the breakpoints gdb set and what gdb asked the
/// target to do next; the machine itself is only changed by gdb's requests.
pub struct DebugTarget<'m> {
    pub(crate) machine: &'m mut Machine,
    pub(crate) breakpoints: BTreeSet<u32>,
    pub(crate) mode: ResumeMode,
    /// The signal gdb resumed with, if any.
    pub(crate) pending_signal: Option<Signal>,
    /// The outcome (fault, cycle limit, violation) of the last stop, while gdb looks at it.
    pub(crate) stopped_by: Option<RunOutcome>,
    /// The outcome that ended the guest, once it has ended.
    pub(crate) final_outcome: Option<RunOutcome>,
}

impl<'m> DebugTarget<'m> {
    /// Wraps a machine (typically freshly loaded, stopped at its entry point).
    pub fn new(machine: &'m mut Machine) -> Self {
        DebugTarget {
            machine,
            breakpoints: BTreeSet::new(),
            mode: ResumeMode::Continue,
            pending_signal: None,
            stopped_by: None,
            final_outcome: None,
        }
    }

    /// The outcome that ended the guest during the session, if it ended.
    pub fn take_final_outcome(&mut self) -> Option<RunOutcome> {
        self.final_outcome.take()
    }
}

impl Target for DebugTarget<'_> {
    type Arch = Riscv32;
    type Error = Infallible;

    #[inline(always)]
    fn base_ops(&mut self) -> BaseOps<'_, Self::Arch, Self::Error> {
        BaseOps::SingleThread(self)
    }

    #[inline(always)]
    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadBase for DebugTarget<'_> {
    fn read_registers(&mut self, regs: &mut RiscvCoreRegs<u32>) -> TargetResult<(), Self> {
        for (i, x) in regs.x.iter_mut().enumerate() {
            *x = self.machine.reg(i);
        }
        regs.pc = self.machine.pc();
        Ok(())
    }

    fn write_registers(&mut self, regs: &RiscvCoreRegs<u32>) -> TargetResult<(), Self> {
        for (i, x) in regs.x.iter().enumerate() {
            self.machine.set_reg(i, *x);
        }
        self.machine.set_pc(regs.pc);
        Ok(())
    }

    /// Reads as many bytes as are mapped from `start` on; an unmapped first byte is an error.
    fn read_addrs(&mut self, start: u32, data: &mut [u8]) -> TargetResult<usize, Self> {
        if self.machine.read_debug(start, data).is_ok() {
            return Ok(data.len());
        }
        let mut done = 0;
        for (offset, byte) in data.iter_mut().enumerate() {
            let addr = start.wrapping_add(offset as u32);
            if self
                .machine
                .read_debug(addr, std::slice::from_mut(byte))
                .is_err()
            {
                break;
            }
            done += 1;
        }
        if done == 0 {
            return Err(TargetError::NonFatal);
        }
        Ok(done)
    }

    fn write_addrs(&mut self, start: u32, data: &[u8]) -> TargetResult<(), Self> {
        self.machine
            .write_debug(start, data)
            .map_err(|_| TargetError::NonFatal)
    }

    #[inline(always)]
    fn support_resume(&mut self) -> Option<SingleThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadResume for DebugTarget<'_> {
    fn resume(&mut self, signal: Option<Signal>) -> Result<(), Self::Error> {
        self.mode = ResumeMode::Continue;
        self.pending_signal = signal;
        Ok(())
    }

    #[inline(always)]
    fn support_single_step(&mut self) -> Option<SingleThreadSingleStepOps<'_, Self>> {
        Some(self)
    }
}

impl SingleThreadSingleStep for DebugTarget<'_> {
    fn step(&mut self, signal: Option<Signal>) -> Result<(), Self::Error> {
        self.mode = ResumeMode::Step;
        self.pending_signal = signal;
        Ok(())
    }
}

impl Breakpoints for DebugTarget<'_> {
    #[inline(always)]
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }
}

impl SwBreakpoint for DebugTarget<'_> {
    fn add_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        self.breakpoints.insert(addr);
        Ok(true)
    }

    fn remove_sw_breakpoint(&mut self, addr: u32, _kind: usize) -> TargetResult<bool, Self> {
        Ok(self.breakpoints.remove(&addr))
    }
}
