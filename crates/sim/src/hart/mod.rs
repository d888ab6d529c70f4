//! The RV32IMAC hart: architectural registers, privilege, machine CSR state and counters.
//! Execution lives in `exec.rs` (hot loop over predecoded blocks), CSR access in `csr.rs`,
//! trap entry and `mret` in `trap.rs`, predecoding in `block.rs`.

pub(crate) mod amo;
pub(crate) mod block;
pub(crate) mod codemap;
pub(crate) mod counter;
pub(crate) mod csr;
pub(crate) mod exec;
pub(crate) mod hot;
pub(crate) mod masked;
pub(crate) mod pending_watch;
pub(crate) mod regpages;
pub(crate) mod spbound;
pub(crate) mod stackwin;
pub(crate) mod switchregs;
pub(crate) mod system;
pub(crate) mod trap;

use counter::Counter;
use serde::Serialize;

/// Privilege mode of the hart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Mode {
    /// U-mode (encoding 0).
    User,
    /// M-mode (encoding 3).
    Machine,
}

impl Mode {
    /// The 2-bit privilege encoding (0 or 3).
    pub fn bits(self) -> u32 {
        match self {
            Mode::User => 0,
            Mode::Machine => 3,
        }
    }
}

/// mstatus bits the hart implements.
pub(crate) const MSTATUS_MIE: u32 = 1 << 3;
pub(crate) const MSTATUS_MPIE: u32 = 1 << 7;
pub(crate) const MSTATUS_MPP: u32 = 3 << 11;
pub(crate) const MSTATUS_MPRV: u32 = 1 << 17;
pub(crate) const MSTATUS_TW: u32 = 1 << 21;

/// Interrupt bits in mie/mip.
pub(crate) const MIP_MSIP: u32 = 1 << 3;
pub(crate) const MIP_MTIP: u32 = 1 << 7;
pub(crate) const MIP_MEIP: u32 = 1 << 11;

/// Architectural state of hart 0.
pub(crate) struct Hart {
    /// x0..x31 plus a write sink at index 32; the rest is padding so that any u8 index is in
    /// bounds (the hot loop needs no bounds checks). x[0] is always 0.
    pub(crate) x: [u32; 256],
    pub(crate) pc: u32,
    pub(crate) mode: Mode,
    pub(crate) mstatus: u32,
    pub(crate) mtvec: u32,
    pub(crate) mepc: u32,
    pub(crate) mcause: u32,
    pub(crate) mtval: u32,
    pub(crate) mscratch: u32,
    pub(crate) mie: u32,
    pub(crate) mcounteren: u32,
    pub(crate) scounteren: u32,
    pub(crate) mcountinhibit: u32,
    pub(crate) menvcfg: u32,
    pub(crate) pmpcfg: [u32; 4],
    pub(crate) pmpaddr: [u32; 16],
    /// `mstackbound` (stack-bound extension; 0 = disabled, and always 0 without the
    /// extension): a write of x2 below it raises [`spbound::CAUSE_STACK_BOUND`].
    pub(crate) stack_bound: u32,
    /// Simulated cycles so far (the cost model's clock).
    pub(crate) cycle: u64,
    /// Instructions retired so far.
    pub(crate) instret: u64,
    /// `mcycle` on top of `cycle` (guest writes and `mcountinhibit.CY`).
    pub(crate) mcycle: Counter,
    /// `minstret` on top of `instret` (guest writes and `mcountinhibit.IR`).
    pub(crate) minstret: Counter,
    /// Between trap entry and `mret` (for the oracle).
    pub(crate) in_trap: bool,
    /// Set by trap entry, cleared when an instruction retires: an exception now is a double
    /// fault.
    pub(crate) just_trapped: bool,
}

impl Hart {
    /// A hart after reset: M-mode, pc 0, all registers 0.
    pub(crate) fn new() -> Hart {
        Hart {
            x: [0; 256],
            pc: 0,
            mode: Mode::Machine,
            mstatus: 0,
            mtvec: 0,
            mepc: 0,
            mcause: 0,
            mtval: 0,
            mscratch: 0,
            mie: 0,
            mcounteren: 0,
            scounteren: 0,
            mcountinhibit: 0,
            menvcfg: 0,
            pmpcfg: [0; 4],
            pmpaddr: [0; 16],
            stack_bound: 0,
            cycle: 0,
            instret: 0,
            mcycle: Counter::default(),
            minstret: Counter::default(),
            in_trap: false,
            just_trapped: false,
        }
    }

    /// Register `i` (x0 reads 0).
    #[inline]
    pub(crate) fn reg(&self, i: usize) -> u32 {
        if i == 0 || i > 31 {
            0
        } else {
            self.x[i]
        }
    }

    /// All 32 registers.
    pub(crate) fn regs(&self) -> [u32; 32] {
        let mut r = [0; 32];
        r[1..].copy_from_slice(&self.x[1..32]);
        r
    }
}
