//! The gdbstub `Target` for a cactus-sim machine: registers, memory, resume, single step and
//! software breakpoints, with the firmware's tasks as threads.
//!
//! Threads: without a Cactus kernel the machine is thread 1. With one (a [`TaskTable`]), task
//! `id` is thread `id + 1`, shown with its name, state and priority; the CPU's registers belong
//! to the running task's thread, every other task's come from its saved context. While no task
//! runs (start-up, idle) the CPU is one more thread, `kernel`, numbered after the last slot.

use crate::exec::ResumeMode;
use crate::tasks::TaskTable;
use crate::watch::Watch;
use cactus_sim::{Machine, RunOutcome};
use gdbstub::common::Signal;
use gdbstub::common::Tid;
use gdbstub::target::ext::base::multithread::{
    MultiThreadBase, MultiThreadResume, MultiThreadResumeOps, MultiThreadSchedulerLocking,
    MultiThreadSchedulerLockingOps, MultiThreadSingleStep, MultiThreadSingleStepOps,
};
use gdbstub::target::ext::base::single_register_access::{
    SingleRegisterAccess, SingleRegisterAccessOps,
};
use gdbstub::target::ext::base::BaseOps;
use gdbstub::target::ext::breakpoints::{
    Breakpoints, BreakpointsOps, HwWatchpoint, HwWatchpointOps, SwBreakpoint, SwBreakpointOps,
    WatchKind,
};
use gdbstub::target::ext::thread_extra_info::{ThreadExtraInfo, ThreadExtraInfoOps};
use gdbstub::target::{Target, TargetError, TargetResult};
use gdbstub_arch::riscv::reg::id::RiscvRegId;
use gdbstub_arch::riscv::reg::RiscvCoreRegs;
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
    /// The firmware's task table, if it has a Cactus kernel.
    pub(crate) tasks: Option<TaskTable>,
    /// gdb's watchpoints (while any is set, continue runs one instruction at a time).
    pub(crate) watches: Vec<Watch>,
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
            tasks: None,
            watches: Vec::new(),
        }
    }

    /// The same target showing the tasks of `tasks` as threads.
    pub fn with_tasks(mut self, tasks: Option<TaskTable>) -> Self {
        self.tasks = tasks;
        self
    }

    /// The thread whose registers are the CPU's: the running task's, the `kernel` thread
    /// while no task runs, thread 1 without a task table.
    pub(crate) fn cpu_thread(&self) -> Tid {
        let n = match &self.tasks {
            None => 1,
            Some(t) => match t.running(self.machine) {
                Some(id) => id as usize + 1,
                None => t.slots() as usize + 1,
            },
        };
        Tid::new(n).expect("thread ids start at 1")
    }

    /// The live task behind thread `tid`, if it is one and not the CPU's.
    fn saved_task(&self, tid: Tid) -> Option<crate::tasks::Task> {
        if tid == self.cpu_thread() {
            return None;
        }
        let table = self.tasks.as_ref()?;
        table.task(self.machine, tid.get() as u32 - 1)
    }

    /// The outcome that ended the guest during the session, if it ended.
    pub fn take_final_outcome(&mut self) -> Option<RunOutcome> {
        self.final_outcome.take()
    }
}

impl Target for DebugTarget<'_> {
    type Arch = crate::arch::CactusRv32;
    type Error = Infallible;

    #[inline(always)]
    fn base_ops(&mut self) -> BaseOps<'_, Self::Arch, Self::Error> {
        BaseOps::MultiThread(self)
    }

    #[inline(always)]
    fn support_breakpoints(&mut self) -> Option<BreakpointsOps<'_, Self>> {
        Some(self)
    }
}

impl MultiThreadBase for DebugTarget<'_> {
    fn read_registers(
        &mut self,
        regs: &mut RiscvCoreRegs<u32>,
        tid: Tid,
    ) -> TargetResult<(), Self> {
        if let Some(task) = self.saved_task(tid) {
            let table = self.tasks.as_ref().expect("a task comes from a table");
            let saved = table.registers(self.machine, &task);
            regs.x.copy_from_slice(&saved[..32]);
            regs.pc = saved[32];
            return Ok(());
        }
        if tid != self.cpu_thread() {
            return Err(TargetError::NonFatal);
        }
        for (i, x) in regs.x.iter_mut().enumerate() {
            *x = self.machine.reg(i);
        }
        regs.pc = self.machine.pc();
        Ok(())
    }

    fn write_registers(&mut self, regs: &RiscvCoreRegs<u32>, tid: Tid) -> TargetResult<(), Self> {
        if let Some(task) = self.saved_task(tid) {
            let mut all = [0u32; 33];
            all[..32].copy_from_slice(&regs.x);
            all[32] = regs.pc;
            let table = self.tasks.as_ref().expect("a task comes from a table");
            return match table.set_registers(self.machine, &task, &all) {
                true => Ok(()),
                false => Err(TargetError::NonFatal),
            };
        }
        if tid != self.cpu_thread() {
            return Err(TargetError::NonFatal);
        }
        for (i, x) in regs.x.iter().enumerate() {
            self.machine.set_reg(i, *x);
        }
        self.machine.set_pc(regs.pc);
        Ok(())
    }

    fn list_active_threads(
        &mut self,
        thread_is_active: &mut dyn FnMut(Tid),
    ) -> Result<(), Self::Error> {
        let cpu = self.cpu_thread();
        let mut cpu_listed = false;
        if let Some(table) = &self.tasks {
            for task in table.tasks(self.machine) {
                let tid = Tid::new(task.id as usize + 1).expect("thread ids start at 1");
                cpu_listed |= tid == cpu;
                thread_is_active(tid);
            }
        }
        if !cpu_listed {
            thread_is_active(cpu);
        }
        Ok(())
    }

    #[inline(always)]
    fn support_thread_extra_info(&mut self) -> Option<ThreadExtraInfoOps<'_, Self>> {
        Some(self)
    }

    #[inline(always)]
    fn support_single_register_access(&mut self) -> Option<SingleRegisterAccessOps<'_, Tid, Self>> {
        Some(self)
    }

    /// Reads as many bytes as are mapped from `start` on; an unmapped first byte is an error.
    /// Memory is the same for every thread.
    fn read_addrs(&mut self, start: u32, data: &mut [u8], _tid: Tid) -> TargetResult<usize, Self> {
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

    fn write_addrs(&mut self, start: u32, data: &[u8], _tid: Tid) -> TargetResult<(), Self> {
        self.machine
            .write_debug(start, data)
            .map_err(|_| TargetError::NonFatal)
    }

    #[inline(always)]
    fn support_resume(&mut self) -> Option<MultiThreadResumeOps<'_, Self>> {
        Some(self)
    }
}

/// One register at a time (`p`/`P`): the integer registers and pc as [`MultiThreadBase`]
/// reads them, and the CSRs of [`crate::arch::CSRS`]: the CPU's, for the CPU's thread (read
/// only); a saved task has none of its own, so they read as unavailable there.
impl SingleRegisterAccess<Tid> for DebugTarget<'_> {
    fn read_register(
        &mut self,
        tid: Tid,
        reg: RiscvRegId<u32>,
        buf: &mut [u8],
    ) -> TargetResult<usize, Self> {
        let value = match reg {
            RiscvRegId::Gpr(_) | RiscvRegId::Pc => {
                let mut regs = RiscvCoreRegs::default();
                self.read_registers(&mut regs, tid)?;
                match reg {
                    RiscvRegId::Gpr(n) => regs.x[n as usize],
                    _ => regs.pc,
                }
            }
            RiscvRegId::Csr(n) if crate::arch::CSRS.contains(&n) => {
                if tid != self.cpu_thread() {
                    return Ok(0);
                }
                self.machine.csr(n).ok_or(TargetError::NonFatal)?
            }
            _ => return Err(TargetError::NonFatal),
        };
        let bytes = value.to_le_bytes();
        let n = bytes.len().min(buf.len());
        buf[..n].copy_from_slice(&bytes[..n]);
        Ok(n)
    }

    fn write_register(
        &mut self,
        tid: Tid,
        reg: RiscvRegId<u32>,
        val: &[u8],
    ) -> TargetResult<(), Self> {
        let value = u32::from_le_bytes(val.try_into().map_err(|_| TargetError::NonFatal)?);
        let mut regs = RiscvCoreRegs::default();
        self.read_registers(&mut regs, tid)?;
        match reg {
            RiscvRegId::Gpr(n) => regs.x[n as usize] = value,
            RiscvRegId::Pc => regs.pc = value,
            _ => return Err(TargetError::NonFatal),
        }
        self.write_registers(&regs, tid)
    }
}

impl ThreadExtraInfo for DebugTarget<'_> {
    /// `NAME, STATE, prio P` for a task (`prio P (base B)` while it inherits one), `kernel`
    /// for the CPU while no task runs, `cpu` without a task table.
    fn thread_extra_info(&self, tid: Tid, buf: &mut [u8]) -> Result<usize, Self::Error> {
        let text = match &self.tasks {
            None => "cpu".to_string(),
            Some(table) => match table.task(self.machine, tid.get() as u32 - 1) {
                None => "kernel".to_string(),
                Some(t) => {
                    let state = if tid == self.cpu_thread() {
                        "running"
                    } else {
                        t.state.name()
                    };
                    let mut s = format!("{}, {state}, prio {}", t.name, t.prio);
                    if t.prio != t.base_prio {
                        s.push_str(&format!(" (base {})", t.base_prio));
                    }
                    s
                }
            },
        };
        let n = text.len().min(buf.len());
        buf[..n].copy_from_slice(&text.as_bytes()[..n]);
        Ok(n)
    }
}

/// Resuming runs the one CPU: a continue or a step asked of any thread continues or steps the
/// machine (all-stop: every task stops when it stops).
impl MultiThreadResume for DebugTarget<'_> {
    fn resume(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    fn clear_resume_actions(&mut self) -> Result<(), Self::Error> {
        self.mode = ResumeMode::Continue;
        self.pending_signal = None;
        Ok(())
    }

    fn set_resume_action_continue(
        &mut self,
        _tid: Tid,
        signal: Option<Signal>,
    ) -> Result<(), Self::Error> {
        if signal.is_some() {
            self.pending_signal = signal;
        }
        Ok(())
    }

    #[inline(always)]
    fn support_single_step(&mut self) -> Option<MultiThreadSingleStepOps<'_, Self>> {
        Some(self)
    }

    #[inline(always)]
    fn support_scheduler_locking(&mut self) -> Option<MultiThreadSchedulerLockingOps<'_, Self>> {
        Some(self)
    }
}

/// gdb asks for scheduler locking when it steps one thread and resumes no other (`stepi`): a
/// step runs one instruction of the CPU either way. A continue cannot keep the kernel from
/// switching tasks, so the lock is accepted and the machine runs as it would.
impl MultiThreadSchedulerLocking for DebugTarget<'_> {
    fn set_resume_action_scheduler_lock(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

impl MultiThreadSingleStep for DebugTarget<'_> {
    fn set_resume_action_step(
        &mut self,
        _tid: Tid,
        signal: Option<Signal>,
    ) -> Result<(), Self::Error> {
        self.mode = ResumeMode::Step;
        if signal.is_some() {
            self.pending_signal = signal;
        }
        Ok(())
    }
}

impl Breakpoints for DebugTarget<'_> {
    #[inline(always)]
    fn support_sw_breakpoint(&mut self) -> Option<SwBreakpointOps<'_, Self>> {
        Some(self)
    }

    #[inline(always)]
    fn support_hw_watchpoint(&mut self) -> Option<HwWatchpointOps<'_, Self>> {
        Some(self)
    }
}

impl HwWatchpoint for DebugTarget<'_> {
    fn add_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        self.watches.push(Watch { addr, len, kind });
        Ok(true)
    }

    fn remove_hw_watchpoint(
        &mut self,
        addr: u32,
        len: u32,
        kind: WatchKind,
    ) -> TargetResult<bool, Self> {
        let found = self
            .watches
            .iter()
            .position(|w| *w == Watch { addr, len, kind });
        Ok(found.map(|i| self.watches.remove(i)).is_some())
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
