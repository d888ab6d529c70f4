//! Zicsr: the CSRs the hart implements, their access rules and WARL behaviour. QEMU 7.2's
//! `virt` hart is the reference: where it differs from a minimal M+U hart in ways a program
//! can observe, we follow QEMU (documented in docs/simulator-design.md): `mepc` keeps bit 0 as
//! written, `mcountinhibit` stores every bit (CY and IR stop `mcycle` and `minstret`, see
//! `counter.rs`), `menvcfg` keeps bits 0x f1, and U-mode counter
//! reads need the bit in both `mcounteren` and `scounteren` (QEMU has S-mode; `scounteren` is
//! provided as plain storage for that purpose). Unknown CSRs, writes to read-only CSRs and
//! U-mode access to M-mode CSRs raise illegal instruction. PMP registers are storage only (no
//! checks are made). `mstackbound` exists only with the stack-bound extension (`spbound.rs`);
//! a CSR instruction with rd = sp is checked against it before the CSR is written.
//! `mswbound` and `mswdisp` exist only with the stack-window extension (`stackwin.rs`),
//! `mswtab`, `mswcount`, `mswbudget` and `mswmatch` only with the switch registers
//! (`switchregs.rs`), `mrfmap` only with the register-page extension (`regpages.rs`).

use crate::hart::block::X0_SINK;
use crate::hart::counter::Half;
use crate::hart::regpages::MRFMAP;
use crate::hart::spbound::MSTACKBOUND;
use crate::hart::stackwin::{MSWBOUND, MSWDISP};
use crate::hart::switchregs::{BadTable, MSWBUDGET, MSWCOUNT, MSWMATCH, MSWTAB};
use crate::hart::{
    Hart, Mode, MIP_MEIP, MIP_MSIP, MIP_MTIP, MSTATUS_MIE, MSTATUS_MPIE, MSTATUS_MPP, MSTATUS_MPRV,
    MSTATUS_TW,
};
use crate::machine::Machine;

/// misa: MXL=1 (32-bit), extensions A, C, I, M, U.
pub const MISA: u32 = 0x4000_0000 | 1 | (1 << 2) | (1 << 8) | (1 << 12) | (1 << 20);

/// `mcountinhibit` bits with an effect: CY stops `mcycle`, IR stops `minstret`.
const COUNTINHIBIT_CY: u32 = 1;
const COUNTINHIBIT_IR: u32 = 1 << 2;

const MSTATUS_WRITABLE: u32 = MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_MPRV | MSTATUS_TW;

impl Machine {
    /// mip as the hart sees it now (MEIP from the PLIC as of the last device sync, which the
    /// run loop makes at every UART arrival and device access).
    pub(crate) fn mip(&self) -> u32 {
        let mut v = 0;
        if self.bus.clint.msip {
            v |= MIP_MSIP;
        }
        if self.bus.clint.mtip(self.hart.cycle) {
            v |= MIP_MTIP;
        }
        if self.bus.plic.meip() {
            v |= MIP_MEIP;
        }
        v
    }

    fn mcycle(&self) -> u64 {
        self.hart.mcycle.value(self.hart.cycle)
    }

    fn minstret(&self) -> u64 {
        self.hart.minstret.value(self.hart.instret)
    }

    /// Reads CSR `num` without side effects (no privilege check). None if not implemented.
    pub(crate) fn csr_peek(&self, num: u16) -> Option<u32> {
        let h: &Hart = &self.hart;
        Some(match num {
            0x300 => h.mstatus,
            0x301 => MISA,
            0x304 => h.mie,
            0x305 => h.mtvec,
            0x106 => h.scounteren,
            0x306 => h.mcounteren,
            0x30A => h.menvcfg,
            0x310 | 0x31A => 0,
            0x320 => h.mcountinhibit,
            0x323..=0x33F => 0,
            0x340 => h.mscratch,
            0x341 => h.mepc,
            0x342 => h.mcause,
            0x343 => h.mtval,
            0x344 => self.mip(),
            0x3A0..=0x3A3 => h.pmpcfg[usize::from(num - 0x3A0)],
            0x3B0..=0x3BF => h.pmpaddr[usize::from(num - 0x3B0)],
            MSTACKBOUND if self.stack_bound_ext => h.stack_bound,
            MSWBOUND if self.stack_window_ext => self.bus.stack_window.bound,
            MSWDISP if self.stack_window_ext => self.bus.stack_window.disp,
            MSWTAB | MSWCOUNT | MSWBUDGET | MSWMATCH => return self.switch_csr_peek(num),
            MRFMAP => return self.reg_pages.as_ref().map(|p| p.mapping()),
            0xB00 | 0xC00 => self.mcycle() as u32,
            0xB80 | 0xC80 => (self.mcycle() >> 32) as u32,
            0xB02 | 0xC02 => self.minstret() as u32,
            0xB82 | 0xC82 => (self.minstret() >> 32) as u32,
            0xB03..=0xB1F | 0xB83..=0xB9F | 0xC03..=0xC1F | 0xC83..=0xC9F => 0,
            0xC01 => self.bus.clint.mtime(self.hart.cycle) as u32,
            0xC81 => (self.bus.clint.mtime(self.hart.cycle) >> 32) as u32,
            0xF11..=0xF15 => 0,
            _ => return None,
        })
    }

    /// True if the current mode may access CSR `num` (write = the instruction writes it).
    fn csr_allowed(&self, num: u16, write: bool) -> bool {
        let read_only = num >> 10 == 3;
        if write && read_only {
            return false;
        }
        if self.hart.mode == Mode::Machine {
            return true;
        }
        // U-mode: only user CSRs (bits 9:8 = 0), and counters need mcounteren and scounteren.
        if (num >> 8) & 3 != 0 {
            return false;
        }
        match num {
            0xC00..=0xC1F | 0xC80..=0xC9F => {
                let bit = (num & 0x1F) as u32;
                (self.hart.mcounteren & self.hart.scounteren) >> bit & 1 != 0
            }
            _ => true,
        }
    }

    /// Writes CSR `num` (already checked). `csr_cost` is the cycles this instruction adds,
    /// so that counters written here read back as written right after it.
    fn csr_write(&mut self, num: u16, v: u32, csr_cost: u64) {
        if num == MSTACKBOUND {
            // Reached only with the extension (csr_peek found the CSR).
            self.hart.stack_bound = v;
            self.arm_stack_bound();
            return;
        }
        // Reached only with the extension (csr_peek found the CSR). No block flush: aperture
        // accesses always take the bus path, which translates.
        if num == MSWBOUND {
            self.bus.stack_window.bound = v;
            return;
        }
        if num == MSWDISP {
            self.bus.stack_window.disp = v;
            return;
        }
        let h = &mut self.hart;
        match num {
            0x300 => {
                let mut v = v & MSTATUS_WRITABLE;
                if (v & MSTATUS_MPP) >> 11 != 3 {
                    v &= !MSTATUS_MPP;
                }
                h.mstatus = v;
                let at = self.hart.cycle + csr_cost;
                self.note_masked(at);
            }
            0x304 => h.mie = v & (MIP_MSIP | MIP_MTIP | MIP_MEIP),
            // Modes 2 and 3 are reserved: the write is ignored (QEMU does the same).
            0x305 if v & 3 < 2 => h.mtvec = v,
            0x106 => h.scounteren = v,
            0x306 => h.mcounteren = v,
            0x30A => h.menvcfg = v & 0xF1,
            0x320 => {
                h.mcountinhibit = v;
                let cycle_after = h.cycle.wrapping_add(csr_cost);
                h.mcycle
                    .set_inhibited(v & COUNTINHIBIT_CY != 0, cycle_after);
                let instret_after = h.instret + 1;
                h.minstret
                    .set_inhibited(v & COUNTINHIBIT_IR != 0, instret_after);
            }
            0x340 => h.mscratch = v,
            0x341 => h.mepc = v,
            0x342 => h.mcause = v,
            0x343 => h.mtval = v,
            0x3A0..=0x3A3 => h.pmpcfg[usize::from(num - 0x3A0)] = v,
            0x3B0..=0x3BF => h.pmpaddr[usize::from(num - 0x3B0)] = v,
            0xB00 | 0xB80 => {
                let half = if num == 0xB00 { Half::Low } else { Half::High };
                let before = h.cycle;
                h.mcycle
                    .write(half, v, before, before.wrapping_add(csr_cost));
            }
            0xB02 | 0xB82 => {
                let half = if num == 0xB02 { Half::Low } else { Half::High };
                let before = h.instret;
                h.minstret.write(half, v, before, before + 1);
            }
            // misa, mstatush, menvcfgh, mip, hpm counters/events: writes ignored (WARL).
            _ => {}
        }
    }

    /// Executes a CSR instruction writing register `rd` (the x0 sink for x0):
    /// `rd`/`src_is_zero_reg` decide whether the read/write happens. Returns the value for rd,
    /// or the fault: illegal instruction, or rd = sp with a value below the stack bound in
    /// force before the instruction (then the CSR is not written either).
    pub(crate) fn csr_op(
        &mut self,
        num: u16,
        kind: CsrKind,
        src: u32,
        rd: u8,
        src_is_zero_reg: bool,
        csr_cost: u64,
    ) -> Result<u32, CsrFault> {
        let writes = match kind {
            CsrKind::Write => true,
            CsrKind::Set | CsrKind::Clear => !src_is_zero_reg,
        };
        if !self.csr_allowed(num, writes) {
            return Err(CsrFault::Illegal);
        }
        let old = self.csr_peek(num).ok_or(CsrFault::Illegal)?;
        let reads = !(kind == CsrKind::Write && rd == X0_SINK);
        if rd == 2 && old < self.hart.stack_bound {
            return Err(CsrFault::StackBound(old));
        }
        if writes {
            let new = match kind {
                CsrKind::Write => src,
                CsrKind::Set => old | src,
                CsrKind::Clear => old & !src,
            };
            if num == MRFMAP {
                // Reached only with the extension (csr_peek found the CSR).
                self.reg_pages_write(new)?;
            } else if matches!(num, MSWTAB | MSWCOUNT | MSWBUDGET) {
                // Reached only with the extension (csr_peek found the CSR).
                self.switch_csr_write(num, new)
                    .map_err(|BadTable(a)| CsrFault::SwitchTable(a))?;
            } else {
                self.csr_write(num, new, csr_cost);
            }
        }
        Ok(if reads { old } else { 0 })
    }
}

impl Machine {
    /// A write of `mrfmap` (the register-page extension), out of line: the CSR path is
    /// inlined into the execute loop, which must not grow with the extension.
    #[cold]
    #[inline(never)]
    fn reg_pages_write(&mut self, map: u32) -> Result<(), CsrFault> {
        match self.reg_pages.as_mut() {
            Some(p) => p
                .remap(&mut self.hart.x, map)
                .map_err(|_| CsrFault::Illegal),
            None => Ok(()),
        }
    }
}

/// Why a CSR instruction did not retire.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CsrFault {
    /// Illegal instruction (unknown CSR, privilege, write to a read-only CSR).
    Illegal,
    /// rd = sp and the value read is below `mstackbound` (the value).
    StackBound(u32),
    /// A write of `mswcount` whose table was refused (the address for mtval).
    SwitchTable(u32),
}

/// The three CSR operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CsrKind {
    /// csrrw / csrrwi.
    Write,
    /// csrrs / csrrsi.
    Set,
    /// csrrc / csrrci.
    Clear,
}
