//! Events recorded during a run: trace-device events, traps and oracle violations. Each carries
//! the cycle, the retired-instruction count and the pc of the instruction that caused it.

use serde::{Deserialize, Serialize};

/// The "no task" id of the trace protocol.
pub const NOBODY: u32 = 0xFFFF_FFFF;

/// One recorded event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// `mcycle` (simulated cycles) when the event happened.
    pub cycle: u64,
    /// Instructions retired before the event.
    pub instret: u64,
    /// pc of the instruction that caused the event (the interrupted pc for interrupts).
    pub pc: u32,
    /// What happened.
    pub kind: EventKind,
}

impl Event {
    /// An event of `kind` at `cycle` caused by the instruction at `pc`, with no instructions
    /// counted (`instret` 0): what a test or a synthetic trace needs when only the time, the
    /// place and the kind matter.
    pub fn at(cycle: u64, pc: u32, kind: EventKind) -> Self {
        Event {
            cycle,
            instret: 0,
            pc,
            kind,
        }
    }
}

/// What an [`Event`] records. Serialized with a `type` tag in snake_case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// `TASK_CREATE`.
    TaskCreate {
        /// Task id.
        task: u32,
        /// Priority.
        priority: u32,
        /// Name read from guest memory (lossy UTF-8, at most 31 bytes).
        name: String,
    },
    /// `TASK_SWITCH` (`task` may be NOBODY).
    TaskSwitch {
        /// Task now running.
        task: u32,
    },
    /// `TASK_EXIT`.
    TaskExit {
        /// Task id.
        task: u32,
        /// 0 returned, 1 killed, 2 faulted.
        reason: u32,
    },
    /// `REGION_ASSIGN`.
    RegionAssign {
        /// First byte.
        base: u32,
        /// Bytes.
        size: u32,
        /// Owner (NOBODY = guard).
        owner: u32,
    },
    /// `REGION_RELEASE`.
    RegionRelease {
        /// First byte.
        base: u32,
        /// Bytes.
        size: u32,
    },
    /// `REGION_LEND`.
    RegionLend {
        /// First byte.
        base: u32,
        /// Bytes.
        size: u32,
        /// Lender task.
        lender: u32,
        /// Borrower task.
        borrower: u32,
        /// Bytes that actually moved (those owned by the lender).
        moved: u32,
    },
    /// `STACK_HWM`.
    StackHwm {
        /// Task id.
        task: u32,
        /// Bytes used (high water).
        used: u32,
        /// Budget in bytes.
        budget: u32,
    },
    /// `OVERFLOW`.
    Overflow {
        /// Task id.
        task: u32,
        /// sp at detection.
        sp: u32,
        /// Requested bytes.
        requested: u32,
        /// 0 killed, 1 restarted, 2 halted, 3 grown.
        action: u32,
    },
    /// `MARKER`.
    Marker {
        /// Marker id.
        id: u32,
        /// Value.
        value: u32,
    },
    /// `KERNEL_ENTER`.
    KernelEnter,
    /// `KERNEL_LEAVE`.
    KernelLeave,
    /// `ISR_ENTER`: an interrupt handler starts (the oracle checks its stores; it owns no
    /// stack byte).
    IsrEnter {
        /// The interrupt source it serves (0: the software interrupt).
        source: u32,
    },
    /// `ISR_LEAVE`: the handler returned.
    IsrLeave,
    /// An event code the protocol does not define.
    Unknown {
        /// The code written.
        code: u32,
        /// ARG0..ARG3 at that time.
        args: [u32; 4],
    },
    /// A trap was taken (exception or interrupt).
    Trap {
        /// mcause value.
        cause: u32,
        /// mtval value.
        tval: u32,
    },
    /// The machine timer interrupt became pending (MTIP rose while MTIE was set), recorded
    /// only with [`crate::MachineConfig::watch_timer_pending`]. The event's `cycle` and `pc`
    /// are those of the first instruction boundary at or after the rise (the instruction
    /// that starts there); one event per rise, before the trap it leads to.
    TimerPending {
        /// The cycle MTIP rose (the deadline, or the CLINT write that made it pending).
        since: u64,
        /// Interrupts were masked at that boundary (M-mode with `mstatus.MIE` clear).
        masked: bool,
        /// The hart was inside a trap handler (between trap entry and `mret`).
        in_trap: bool,
    },
    /// `mret` returned to `target` in `mode`.
    Mret {
        /// New pc.
        target: u32,
    },
    /// A task's state as the kernel's task table holds it, read by the task probe
    /// ([`crate::MachineConfig::task_probe`]) at a task switch (recorded just before the
    /// switch) or an `mret` (just after) when it changed (or, for the task switched away from,
    /// when its saved stack pointer did).
    TaskSample {
        /// Task id (slot).
        task: u32,
        /// The kernel's state number (1 ready, 2 running, 3 blocked, 4 sleeping, 5 suspended,
        /// 0 and 6.. not live).
        state: u32,
        /// Effective priority.
        prio: u32,
        /// The wait list the task is blocked on (0: none).
        wait_on: u32,
        /// The stack pointer saved in its context.
        sp: u32,
    },
    /// The energy `task` has used so far, recorded (with events kept) when it is switched
    /// away from, at the boundary its energy is charged at (docs/simulator-design.md,
    /// "Energy per task"); stamped like the TASK_SWITCH it follows.
    TaskEnergy {
        /// Task id.
        task: u32,
        /// Its energy so far, nJ.
        energy_nj: f64,
    },
    /// An ownership-oracle violation.
    OracleViolation {
        /// First byte of the store.
        addr: u32,
        /// Store width in bytes.
        width: u32,
        /// Running task.
        task: u32,
        /// Owner of the first foreign byte.
        owner: u32,
    },
    /// The hart reached one of [`crate::MachineConfig::call_probes`] (the event's pc) and
    /// executes it: a function entry, with its first two arguments.
    Call {
        /// `a0` there.
        a0: u32,
        /// `a1` there.
        a1: u32,
    },
}
