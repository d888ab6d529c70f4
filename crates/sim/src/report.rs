//! Reports for runs that end abnormally: [`FaultReport`] (unhandled exception, double fault,
//! cycle limit, deadlock, reset request) and [`ViolationReport`] (ownership oracle), each with a
//! readable multi-line `Display`.

use crate::hart::Mode;
use serde::Serialize;
use std::fmt;

/// ABI names of x0..x31.
pub const ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// Why a run ended with a [`FaultReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// An exception with no handler (mtvec == 0).
    Unhandled,
    /// An exception raised by the first instruction of the trap handler (at the trap target).
    DoubleFault,
    /// `max_cycles` reached.
    CycleLimit,
    /// `max_busy_cycles` reached: that many cycles ran without the hart asleep in `wfi` (the
    /// guest stopped making progress, or needs a higher limit).
    BusyLimit,
    /// `max_idle_cycles` reached: that many cycles were slept in `wfi` (the guest waits
    /// forever on a timer that keeps firing, or needs a higher limit).
    IdleLimit,
    /// `wfi` with no interrupt that could ever wake the hart (nothing enabled in mie that is
    /// pending or scheduled).
    Deadlock,
    /// The guest asked the test finisher for a reset (0x7777), which the simulator does not do.
    Reset,
}

/// Name of an mcause value.
pub fn cause_name(cause: u32) -> &'static str {
    if cause & 0x8000_0000 != 0 {
        return match cause & 0x7FFF_FFFF {
            3 => "machine software interrupt",
            7 => "machine timer interrupt",
            11 => "machine external interrupt",
            _ => "interrupt",
        };
    }
    match cause {
        0 => "instruction address misaligned",
        1 => "instruction access fault",
        2 => "illegal instruction",
        3 => "breakpoint",
        4 => "load address misaligned",
        5 => "load access fault",
        6 => "store/AMO address misaligned",
        7 => "store/AMO access fault",
        8 => "environment call from U-mode",
        11 => "environment call from M-mode",
        crate::hart::spbound::CAUSE_STACK_BOUND => "stack bound",
        crate::hart::stackwin::CAUSE_STACK_WINDOW => "stack window",
        crate::hart::switchregs::CAUSE_SWITCH_TABLE => "switch table",
        _ => "exception",
    }
}

/// Machine state when a run ended in a fault-like outcome.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FaultReport {
    /// What ended the run.
    pub kind: FaultKind,
    /// mcause value of the exception (0 for CycleLimit, Deadlock and Reset).
    pub cause: u32,
    /// Readable name of `cause` (or of the kind).
    pub cause_name: String,
    /// pc of the faulting instruction (or where the hart stopped).
    pub pc: u32,
    /// mtval value of the exception.
    pub tval: u32,
    /// For a stack-bound exception (cause 24): `mstackbound` at the fault; `tval` is the sp
    /// the instruction would have written. None for every other fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_bound: Option<u32>,
    /// Privilege mode at the fault.
    pub mode: Mode,
    /// x0..x31.
    pub regs: [u32; 32],
    /// Simulated cycles.
    pub cycles: u64,
    /// Instructions retired.
    pub instret: u64,
}

impl fmt::Display for FaultReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            FaultKind::Unhandled => "unhandled exception",
            FaultKind::DoubleFault => "double fault (exception at the trap handler entry)",
            FaultKind::CycleLimit => "cycle limit reached",
            FaultKind::BusyLimit => "busy-cycle limit reached: the guest ran this long without ending (no progress?)",
            FaultKind::IdleLimit => "idle-cycle limit reached: the guest slept this long in wfi without ending (waiting forever?)",
            FaultKind::Deadlock => "deadlock: wfi with no interrupt that can wake the hart",
            FaultKind::Reset => "guest requested a reset through the test finisher",
        };
        writeln!(f, "{what}")?;
        if matches!(self.kind, FaultKind::Unhandled | FaultKind::DoubleFault) {
            writeln!(f, "  cause: {} ({})", self.cause, self.cause_name)?;
            writeln!(f, "  tval:  {:#010x}", self.tval)?;
            if let Some(bound) = self.stack_bound {
                writeln!(
                    f,
                    "  stack bound: sp {:#010x} would be below mstackbound {bound:#010x}",
                    self.tval
                )?;
            }
        }
        writeln!(f, "  pc:    {:#010x} ({:?} mode)", self.pc, self.mode)?;
        writeln!(
            f,
            "  after {} instructions, {} cycles",
            self.instret, self.cycles
        )?;
        for row in 0..8 {
            let mut line = String::from(" ");
            for col in 0..4 {
                let i = row * 4 + col;
                line += &format!(" {:>4}={:#010x}", ABI_NAMES[i], self.regs[i]);
            }
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

/// An ownership-oracle violation: a checked store touched stack bytes of another owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ViolationReport {
    /// pc of the store.
    pub pc: u32,
    /// First byte of the store.
    pub addr: u32,
    /// Width of the store in bytes.
    pub width: u32,
    /// The running task.
    pub task: u32,
    /// Its name ("" if unknown).
    pub task_name: String,
    /// Owner of the first foreign byte (0xFFFF_FFFF = nobody: guard or released memory).
    pub owner: u32,
    /// The owner's name ("" if unknown or nobody).
    pub owner_name: String,
    /// The first foreign byte.
    pub foreign_addr: u32,
    /// Cycle of the store.
    pub cycle: u64,
    /// Instructions retired before the store.
    pub instret: u64,
}

fn task_label(id: u32, name: &str) -> String {
    match (id, name) {
        (crate::events::NOBODY, _) => "nobody".to_string(),
        (id, "") => format!("task {id}"),
        (id, name) => format!("task {id} ({name})"),
    }
}

impl fmt::Display for ViolationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "ownership violation")?;
        writeln!(
            f,
            "  {}-byte store at {:#010x} by pc {:#010x}",
            self.width, self.addr, self.pc
        )?;
        writeln!(f, "  running: {}", task_label(self.task, &self.task_name))?;
        writeln!(
            f,
            "  byte {:#010x} belongs to {}",
            self.foreign_addr,
            task_label(self.owner, &self.owner_name)
        )?;
        writeln!(
            f,
            "  after {} instructions, {} cycles",
            self.instret, self.cycle
        )
    }
}
