//! Running the machine on gdb's behalf: single steps, continues in bounded slices (so a
//! Ctrl-C from gdb is noticed), breakpoints, and the translation of a machine outcome into
//! the stop gdb is told about.

use crate::target::DebugTarget;
use crate::watch::{self, Watch};
use cactus_sim::{FaultKind, RunOutcome};
use gdbstub::common::Signal;
use gdbstub::stub::MultiThreadStopReason;

/// Instructions executed between two checks of the connection for a Ctrl-C while continuing.
pub const POLL_INTERVAL: u64 = 1 << 16;

/// What gdb asked the target to do on the next resume.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResumeMode {
    /// Execute one instruction (or take one trap), then stop.
    Step,
    /// Run until a breakpoint, an outcome, or data from gdb.
    Continue,
}

/// The result of letting the target run.
pub(crate) enum Progress {
    /// The target stopped; tell gdb why.
    Stopped(MultiThreadStopReason<u32>),
    /// gdb sent data (normally a Ctrl-C) while the target was running; it is paused.
    IncomingData,
}

/// The signal gdb is told about for an outcome that stops the guest without ending it:
/// SIGILL for an illegal instruction, SIGBUS for a misaligned access, SIGSEGV for an access
/// fault or an ownership-oracle violation, SIGTRAP for `ebreak`, SIGSYS for an `ecall` with no
/// handler, SIGABRT for a `wfi` deadlock or a reset request, SIGXCPU for the cycle limit;
/// SIGTRAP for a breakpoint and anything else.
pub fn signal_for(outcome: &RunOutcome) -> Signal {
    match outcome {
        RunOutcome::Fault(report)
            if matches!(report.kind, FaultKind::Deadlock | FaultKind::Reset) =>
        {
            Signal::SIGABRT
        }
        RunOutcome::Fault(report) => match report.cause {
            0 | 4 | 6 => Signal::SIGBUS,
            1 | 5 | 7 => Signal::SIGSEGV,
            2 => Signal::SIGILL,
            3 => Signal::SIGTRAP,
            8 | 9 | 11 => Signal::SIGSYS,
            // A write of sp below `mstackbound`: a stack overflow, as for a process.
            cactus_sim::CAUSE_STACK_BOUND => Signal::SIGSEGV,
            _ => Signal::SIGTRAP,
        },
        RunOutcome::CycleLimit(_) => Signal::SIGXCPU,
        RunOutcome::OracleViolation(_) => Signal::SIGSEGV,
        RunOutcome::Exited { .. } | RunOutcome::Breakpoint { .. } => Signal::SIGTRAP,
    }
}

/// The exit status gdb is told about: the guest's code, or 255 when it does not fit a byte.
fn exit_status(code: u32) -> u8 {
    u8::try_from(code).unwrap_or(u8::MAX)
}

impl DebugTarget<'_> {
    /// Lets the target run as gdb last asked. `incoming` reports whether gdb has sent data;
    /// it is polled every [`POLL_INTERVAL`] instructions while continuing.
    pub(crate) fn advance(&mut self, mut incoming: impl FnMut() -> bool) -> Progress {
        if let Some(signal) = self.pending_signal.take() {
            // gdb passes the signal of a fault stop back when the user continues: like a
            // process, the target dies of it.
            if let Some(outcome) = self.stopped_by.take() {
                self.final_outcome = Some(outcome);
                return Progress::Stopped(MultiThreadStopReason::Terminated(signal));
            }
        }
        self.stopped_by = None;
        match self.mode {
            ResumeMode::Step => match self.step_watched() {
                Ok(None) => Progress::Stopped(self.stopped_with(Signal::SIGTRAP)),
                Ok(Some(watch)) => Progress::Stopped(self.watch_stop(watch)),
                Err(outcome) => Progress::Stopped(self.stop_for(outcome)),
            },
            ResumeMode::Continue if !self.watches.is_empty() => {
                self.continue_watched(&mut incoming)
            }
            ResumeMode::Continue => self.continue_until_stop(&mut incoming),
        }
    }

    /// Runs one instruction; the watchpoint it triggered, if any, or the outcome that stopped
    /// the machine.
    fn step_watched(&mut self) -> Result<Option<Watch>, RunOutcome> {
        let access = watch::next_access(self.machine);
        if let Some(outcome) = self.machine.step() {
            return Err(outcome);
        }
        Ok(access.and_then(|a| watch::triggered(&self.watches, &a)))
    }

    /// Continue with watchpoints: one instruction at a time, stopping after an access to a
    /// watched range, at a breakpoint (not the one resumed at), at an outcome, or when gdb
    /// sends data (checked every [`POLL_INTERVAL`] instructions).
    fn continue_watched(&mut self, incoming: &mut dyn FnMut() -> bool) -> Progress {
        let mut since_poll = 0;
        let mut first = true;
        loop {
            if !first && self.breakpoints.contains(&self.machine.pc()) {
                return Progress::Stopped(MultiThreadStopReason::SwBreak(self.cpu_thread()));
            }
            first = false;
            match self.step_watched() {
                Err(outcome) => return Progress::Stopped(self.stop_for(outcome)),
                Ok(Some(watch)) => return Progress::Stopped(self.watch_stop(watch)),
                Ok(None) => {}
            }
            since_poll += 1;
            if since_poll == POLL_INTERVAL {
                since_poll = 0;
                if incoming() {
                    return Progress::IncomingData;
                }
            }
        }
    }

    /// The stop for a triggered watchpoint, in the thread the CPU runs.
    fn watch_stop(&self, watch: Watch) -> MultiThreadStopReason<u32> {
        MultiThreadStopReason::Watch {
            tid: self.cpu_thread(),
            kind: watch.kind,
            addr: watch.addr,
        }
    }

    fn continue_until_stop(&mut self, incoming: &mut dyn FnMut() -> bool) -> Progress {
        // gdb's breakpoints are set in the machine only while it continues, so that
        // `Machine::run_for` stops at them (never at the pc it resumes at, which runs even if
        // it carries a breakpoint); the ones the machine did not already have are removed
        // again before gdb hears of the stop.
        let installed: Vec<u32> = self
            .breakpoints
            .iter()
            .copied()
            .filter(|&pc| !self.machine.has_breakpoint(pc))
            .collect();
        for &pc in &installed {
            self.machine.add_breakpoint(pc);
        }
        let progress = loop {
            if let Some(outcome) = self.machine.run_for(POLL_INTERVAL) {
                break Progress::Stopped(self.stop_for(outcome));
            }
            if incoming() {
                break Progress::IncomingData;
            }
        };
        for &pc in &installed {
            self.machine.remove_breakpoint(pc);
        }
        progress
    }

    /// Records an outcome and turns it into the stop reported to gdb.
    fn stop_for(&mut self, outcome: RunOutcome) -> MultiThreadStopReason<u32> {
        match outcome {
            RunOutcome::Exited { code } => {
                self.final_outcome = Some(outcome);
                MultiThreadStopReason::Exited(exit_status(code))
            }
            RunOutcome::Breakpoint { .. } => MultiThreadStopReason::SwBreak(self.cpu_thread()),
            other => {
                let signal = signal_for(&other);
                self.stopped_by = Some(other);
                self.stopped_with(signal)
            }
        }
    }

    /// A stop with `signal` (SIGTRAP: a finished step). With tasks it names the thread the
    /// CPU now runs, so gdb follows a step or a fault into another task; without, it is the
    /// plain `S` reply of a one-thread target.
    pub(crate) fn stopped_with(&self, signal: Signal) -> MultiThreadStopReason<u32> {
        match (&self.tasks, signal) {
            (None, Signal::SIGTRAP) => MultiThreadStopReason::DoneStep,
            (None, _) => MultiThreadStopReason::Signal(signal),
            (Some(_), _) => MultiThreadStopReason::SignalWithThread {
                tid: self.cpu_thread(),
                signal,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{exit_status, signal_for};
    use cactus_sim::{FaultKind, FaultReport, Mode, RunOutcome};
    use gdbstub::common::Signal;

    fn fault(kind: FaultKind, cause: u32) -> RunOutcome {
        let report = FaultReport {
            kind,
            cause,
            cause_name: String::new(),
            pc: 0x8000_0000,
            tval: 0,
            stack_bound: None,
            mode: Mode::Machine,
            regs: [0; 32],
            cycles: 0,
            instret: 0,
        };
        match kind {
            FaultKind::CycleLimit => RunOutcome::CycleLimit(Box::new(report)),
            _ => RunOutcome::Fault(Box::new(report)),
        }
    }

    #[test]
    fn each_fault_maps_to_the_signal_a_process_would_get() {
        let cases = [
            (FaultKind::Unhandled, 2, Signal::SIGILL),
            (FaultKind::Unhandled, 4, Signal::SIGBUS),
            (FaultKind::Unhandled, 5, Signal::SIGSEGV),
            (FaultKind::DoubleFault, 7, Signal::SIGSEGV),
            (FaultKind::Unhandled, 3, Signal::SIGTRAP),
            (FaultKind::Unhandled, 11, Signal::SIGSYS),
            (FaultKind::Unhandled, 24, Signal::SIGSEGV),
            (FaultKind::Deadlock, 0, Signal::SIGABRT),
            (FaultKind::Reset, 0, Signal::SIGABRT),
            (FaultKind::CycleLimit, 0, Signal::SIGXCPU),
        ];
        for (kind, cause, signal) in cases {
            assert_eq!(
                signal_for(&fault(kind, cause)),
                signal,
                "{kind:?} cause {cause}"
            );
        }
    }

    #[test]
    fn exit_status_clamps_codes_beyond_a_byte() {
        assert_eq!(exit_status(0), 0);
        assert_eq!(exit_status(7), 7);
        assert_eq!(exit_status(255), 255);
        assert_eq!(exit_status(300), 255);
    }
}
