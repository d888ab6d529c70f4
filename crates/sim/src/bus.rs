//! The system bus: routes data accesses that miss the RAM fast path to memory regions and
//! device windows, applies the page-flag slow paths for stores (code invalidation, oracle,
//! HTIF, LR reservation) and reports access faults as (cause, tval). It also wires the UART's
//! interrupt line to the PLIC and flags device accesses that may change a pending interrupt.

use crate::devices::clint::{Clint, CLINT_BASE, CLINT_SIZE};
use crate::devices::copier::{
    Copier, COPIER_BASE, COPIER_DST, COPIER_GO, COPIER_REFUSED, COPIER_SIZE, COPIER_SRC,
    COPIER_WORDS,
};
use crate::devices::finisher::{finisher_write, FinisherAction, FINISHER_BASE, FINISHER_SIZE};
use crate::devices::htif::htif_exit;
use crate::devices::plic::{Plic, PLIC_BASE, PLIC_SIZE, UART_IRQ};
use crate::devices::trace::{TraceDevice, TRACE_BASE, TRACE_SIZE};
use crate::devices::uart::{Uart, UART_BASE, UART_SIZE};
use crate::devices::DEVICE_LATENCY;
use crate::hart::codemap::CodeMap;
use crate::hart::stackwin::{StackWindow, CAUSE_STACK_WINDOW};
use crate::memory::{Memory, PAGE_CODE, PAGE_HTIF, PAGE_ORACLE, PAGE_RESV};
use crate::oracle::Oracle;
use crate::report::ViolationReport;
use crate::stats::TaskTable;

/// Load access fault.
pub(crate) const CAUSE_LOAD_FAULT: u32 = 5;
/// Store/AMO access fault.
pub(crate) const CAUSE_STORE_FAULT: u32 = 7;
/// Load address misaligned.
pub(crate) const CAUSE_LOAD_MISALIGNED: u32 = 4;
/// Store/AMO address misaligned.
pub(crate) const CAUSE_STORE_MISALIGNED: u32 = 6;

/// A synchronous exception: (mcause, mtval).
pub(crate) type Exc = (u32, u32);

/// Context of the instruction doing a slow-path access.
pub(crate) struct Ctx {
    /// Simulated cycle before this instruction.
    pub(crate) cycle: u64,
    /// Guest-visible mcycle.
    pub(crate) mcycle: u64,
    /// Instructions retired before this one.
    pub(crate) instret: u64,
    /// pc of the instruction.
    pub(crate) pc: u32,
    /// Inside a trap handler.
    pub(crate) in_trap: bool,
    /// Static cycles charged for this instruction (refunded for trace-device accesses).
    pub(crate) static_cost: u32,
}

/// Something that ends the run once the current instruction has retired.
#[derive(Clone, Debug)]
pub(crate) enum Pending {
    /// Finisher or HTIF exit.
    Exit(u32),
    /// Finisher reset request.
    Reset,
    /// Oracle violation under Stop.
    Violation(Box<ViolationReport>),
}

/// Which device window an address falls in.
enum Window {
    Uart(u32),
    Clint(u32),
    Plic(u32),
    Finisher(u32),
    Trace(u32),
    Copier(u32),
}

fn window(addr: u32) -> Option<Window> {
    let inside = |base: u32, size: u32| {
        let off = addr.wrapping_sub(base);
        (off < size).then_some(off)
    };
    if let Some(o) = inside(UART_BASE, UART_SIZE) {
        Some(Window::Uart(o))
    } else if let Some(o) = inside(CLINT_BASE, CLINT_SIZE) {
        Some(Window::Clint(o))
    } else if let Some(o) = inside(PLIC_BASE, PLIC_SIZE) {
        Some(Window::Plic(o))
    } else if let Some(o) = inside(FINISHER_BASE, FINISHER_SIZE) {
        Some(Window::Finisher(o))
    } else if let Some(o) = inside(COPIER_BASE, COPIER_SIZE) {
        Some(Window::Copier(o))
    } else {
        inside(TRACE_BASE, TRACE_SIZE).map(Window::Trace)
    }
}

/// Memory, devices and the oracle.
pub(crate) struct Bus {
    pub(crate) mem: Memory,
    pub(crate) uart: Uart,
    pub(crate) clint: Clint,
    pub(crate) plic: Plic,
    pub(crate) trace: TraceDevice,
    pub(crate) oracle: Oracle,
    pub(crate) oracle_stop: bool,
    pub(crate) tasks: TaskTable,
    /// The deepest stack use of tasks with frames on MTSS loans (`loan_depth.rs`).
    pub(crate) loans: crate::loan_depth::LoanDepth,
    pub(crate) tohost: Option<u32>,
    pub(crate) reservation: Option<u32>,
    pub(crate) record_events: bool,
    pub(crate) events: Vec<crate::events::Event>,
    pub(crate) violations: Vec<ViolationReport>,
    pub(crate) pending: Option<Pending>,
    /// A CLINT register changed, or a UART or PLIC access changed MEIP or the next UART
    /// arrival: the next-event cycle must be recomputed.
    pub(crate) irq_dirty: bool,
    /// A store hit predecoded code: the block cache must be flushed.
    pub(crate) code_dirty: bool,
    pub(crate) trace_loads: u64,
    pub(crate) trace_stores: u64,
    pub(crate) device_accesses: u64,
    pub(crate) markers: u64,
    /// `3`/`1` masks for words/halves under the trap policy, 0 under emulate.
    pub(crate) mis_mask: [u32; 5],
    pub(crate) ram_latency: u32,
    /// Reads the kernel's task table after task switches and `mret`s (with events kept).
    pub(crate) task_sampler: Option<crate::task_probe::TaskSampler>,
    /// The memory-system extensions (`[external]` and what builds on it), when configured:
    /// every load and store then goes through `ext/wiring.rs`.
    pub(crate) ext: Option<crate::ext::MemSystem>,
    /// The stack-window registers (`hart/stackwin.rs`; always off without the extension):
    /// every load and store that reaches the bus is translated through them first.
    pub(crate) stack_window: StackWindow,
    /// The stack-window extension's copy engine (`devices/copier.rs`; None without the
    /// extension).
    pub(crate) copier: Option<Copier>,
}

impl Bus {
    /// Cycle delta (relative to the static cost, which assumed region 0) of an access to
    /// region `i`.
    pub(crate) fn region_delta(&self, i: usize) -> u64 {
        u64::from(self.mem.region(i).spec.latency).wrapping_sub(u64::from(self.ram_latency))
    }

    pub(crate) fn device_delta(&self) -> u64 {
        u64::from(DEVICE_LATENCY).wrapping_sub(u64::from(self.ram_latency))
    }

    fn trace_delta(ctx: &Ctx) -> u64 {
        0u64.wrapping_sub(u64::from(ctx.static_cost))
    }

    /// A load of `width` bytes that missed the fast path, at a CPU address the stack window
    /// translates first (`hart/stackwin.rs`). Ok((value, cycle delta)).
    #[cold]
    pub(crate) fn load(&mut self, addr: u32, width: u32, ctx: &Ctx) -> Result<(u32, u64), Exc> {
        let addr = self
            .stack_window
            .translate(addr)
            .map_err(|a| (CAUSE_STACK_WINDOW, a))?;
        if addr & self.mis_mask[width as usize] != 0 {
            return Err((CAUSE_LOAD_MISALIGNED, addr));
        }
        if self.ext.is_some() {
            return self.ext_load(addr, width, ctx);
        }
        self.load_at(addr, width, ctx)
    }

    /// [`Bus::load`] at a physical address, alignment already checked.
    pub(crate) fn load_at(&mut self, addr: u32, width: u32, ctx: &Ctx) -> Result<(u32, u64), Exc> {
        if let Some((i, off)) = self.mem.find(addr, width) {
            let r = self.mem.region(i);
            if !r.read {
                return Err((CAUSE_LOAD_FAULT, addr));
            }
            let mut b = [0u8; 4];
            b[..width as usize].copy_from_slice(&r.data[off..off + width as usize]);
            if i != 0 {
                self.mem.region_mut(i).slow_accesses += 1;
            }
            return Ok((u32::from_le_bytes(b), self.region_delta(i)));
        }
        let fault = Err((CAUSE_LOAD_FAULT, self.fault_addr(addr)));
        let value = match window(addr) {
            Some(Window::Uart(off)) if off + width <= UART_SIZE => {
                self.irq_access(ctx.cycle, |bus| {
                    (0..width).fold(0u32, |v, k| {
                        v | u32::from(bus.uart.read_u8(off + k, ctx.cycle)) << (8 * k)
                    })
                })
            }
            Some(Window::Clint(off)) => match self.clint.read(off, width, ctx.cycle) {
                Some(v) => v,
                None => return fault,
            },
            Some(Window::Plic(off)) => {
                match self.irq_access(ctx.cycle, |bus| bus.plic.read(off, width)) {
                    Some(v) => v,
                    None => return fault,
                }
            }
            Some(Window::Finisher(_)) if width >= 2 => 0,
            Some(Window::Copier(off)) if off & 3 == 0 => {
                match self.copier.and_then(|c| c.read(off, width)) {
                    Some(v) => v,
                    None => return fault,
                }
            }
            Some(Window::Trace(off)) => {
                return match self.trace_read(off, width, ctx) {
                    Some(v) => {
                        self.trace_loads += 1;
                        Ok((v, Self::trace_delta(ctx)))
                    }
                    None => fault,
                }
            }
            _ => return fault,
        };
        self.device_accesses += 1;
        Ok((value, self.device_delta()))
    }

    /// A store of the low `width` bytes of `value` that missed the fast path, at a CPU address
    /// the stack window translates first (`hart/stackwin.rs`).
    /// Ok((cycle delta, end block)).
    #[cold]
    pub(crate) fn store(
        &mut self,
        cache: &CodeMap,
        addr: u32,
        width: u32,
        value: u32,
        ctx: &Ctx,
    ) -> Result<(u64, bool), Exc> {
        let addr = self
            .stack_window
            .translate(addr)
            .map_err(|a| (CAUSE_STACK_WINDOW, a))?;
        if addr & self.mis_mask[width as usize] != 0 {
            return Err((CAUSE_STORE_MISALIGNED, addr));
        }
        if self.ext.is_some() {
            return self.ext_store(cache, addr, width, value, ctx);
        }
        self.store_at(cache, addr, addr, width, value, ctx)
    }

    /// [`Bus::store`] of CPU address `addr` whose bytes live at physical `phys` (they differ
    /// only under a Carousel tag), alignment already checked. Page flags, the oracle, HTIF
    /// and the reservation see `addr`; the bytes and the device windows `phys`.
    pub(crate) fn store_at(
        &mut self,
        cache: &CodeMap,
        addr: u32,
        phys: u32,
        width: u32,
        value: u32,
        ctx: &Ctx,
    ) -> Result<(u64, bool), Exc> {
        if let Some((i, off)) = self.mem.find(phys, width) {
            if !self.mem.region(i).write {
                return Err((CAUSE_STORE_FAULT, addr));
            }
            let mut end = false;
            let flags = self.mem.page_flags(addr) | self.mem.page_flags(addr + width - 1);
            if flags & PAGE_RESV != 0 {
                if let Some(r) = self.reservation {
                    if u64::from(addr) < u64::from(r) + 4
                        && u64::from(r) < u64::from(addr) + u64::from(width)
                    {
                        self.clear_reservation();
                    }
                }
            }
            if flags & PAGE_ORACLE != 0 && !self.oracle_store(addr, width, ctx) {
                return Ok((self.region_delta(i), true));
            }
            if flags & PAGE_CODE != 0 && cache.covers(addr, width) {
                self.code_dirty = true;
                end = true;
            }
            if flags & PAGE_HTIF != 0 {
                if let Some(code) = htif_exit(self.tohost, addr, width, value) {
                    self.pending.get_or_insert(Pending::Exit(code));
                    end = true;
                }
            }
            let bytes = value.to_le_bytes();
            self.mem.region_mut(i).data[off..off + width as usize]
                .copy_from_slice(&bytes[..width as usize]);
            if i != 0 {
                self.mem.region_mut(i).slow_accesses += 1;
            }
            return Ok((self.region_delta(i), end));
        }
        let fault = Err((CAUSE_STORE_FAULT, self.fault_addr(phys)));
        match window(phys) {
            Some(Window::Uart(off)) if off + width <= UART_SIZE => {
                self.irq_access(ctx.cycle, |bus| {
                    for k in 0..width {
                        bus.uart
                            .write_u8(off + k, (value >> (8 * k)) as u8, ctx.cycle);
                    }
                });
            }
            Some(Window::Plic(off)) => {
                if self
                    .irq_access(ctx.cycle, |bus| bus.plic.write(off, width, value))
                    .is_none()
                {
                    return fault;
                }
            }
            Some(Window::Clint(off)) => {
                if self.clint.write(off, width, value, ctx.cycle).is_none() {
                    return fault;
                }
                self.irq_dirty = true;
            }
            Some(Window::Finisher(off)) if width >= 2 => match finisher_write(off, value) {
                Some(FinisherAction::Exit(code)) => {
                    self.pending.get_or_insert(Pending::Exit(code));
                }
                Some(FinisherAction::Reset) => {
                    self.pending.get_or_insert(Pending::Reset);
                }
                None => {}
            },
            Some(Window::Copier(off)) if width == 4 && off & 3 == 0 => {
                let Some(c) = self.copier.as_mut() else {
                    return fault;
                };
                match off {
                    COPIER_SRC => c.src = value,
                    COPIER_DST => c.dst = value,
                    COPIER_WORDS => c.words = value,
                    _ => {
                        debug_assert_eq!(off, COPIER_GO);
                        let (stall, end) = self.copy_words(cache, ctx);
                        self.device_accesses += 1;
                        return Ok((self.device_delta().wrapping_add(stall), end));
                    }
                }
            }
            Some(Window::Trace(off)) => {
                return match self.trace_write(off, width, value, ctx) {
                    Some(()) => {
                        self.trace_stores += 1;
                        // A committed TASK_SWITCH ends the block after this store, where
                        // the machine closes the task's energy interval (task_energy.rs).
                        let stop = self.pending.is_some() || self.tasks.energy.due();
                        Ok((Self::trace_delta(ctx), stop))
                    }
                    None => fault,
                };
            }
            _ => return fault,
        }
        self.device_accesses += 1;
        Ok((
            self.device_delta(),
            self.pending.is_some() || self.irq_dirty,
        ))
    }

    /// The copy engine's GO: moves WORDS words from SRC to DST (memmove), each destination
    /// word checked by the oracle as a store of the running code. Returns (stall cycles: one per
    /// word, end block); a refused copy writes nothing and stalls nothing.
    fn copy_words(&mut self, cache: &CodeMap, ctx: &Ctx) -> (u64, bool) {
        let Some(c) = self.copier else {
            return (0, false);
        };
        let len = u64::from(c.words) * 4;
        let inside = |mem: &Memory, a: u32, write: bool| {
            a & 3 == 0
                && len <= u64::from(u32::MAX)
                && mem
                    .find(a, len as u32)
                    .is_some_and(|(i, _)| !write || mem.region(i).write)
        };
        let ok =
            c.words == 0 || (inside(&self.mem, c.src, false) && inside(&self.mem, c.dst, true));
        if !ok {
            if let Some(c) = self.copier.as_mut() {
                c.last = COPIER_REFUSED;
            }
            return (0, false);
        }
        let mut end = false;
        if c.words > 0 {
            let (si, so) = self.mem.find(c.src, len as u32).unwrap_or((0, 0));
            let bytes = self.mem.region(si).data[so..so + len as usize].to_vec();
            let (di, doff) = self.mem.find(c.dst, len as u32).unwrap_or((0, 0));
            for k in 0..c.words {
                let addr = c.dst + 4 * k;
                let flags = self.mem.page_flags(addr);
                if flags & PAGE_ORACLE != 0 && !self.oracle_store(addr, 4, ctx) {
                    end = true;
                    continue;
                }
                if flags & PAGE_CODE != 0 && cache.covers(addr, 4) {
                    self.code_dirty = true;
                    end = true;
                }
                let o = doff + 4 * k as usize;
                let w = &bytes[4 * k as usize..4 * k as usize + 4];
                self.mem.region_mut(di).data[o..o + 4].copy_from_slice(w);
            }
            if let Some(r) = self.reservation {
                if u64::from(r) + 4 > u64::from(c.dst) && u64::from(r) < u64::from(c.dst) + len {
                    self.clear_reservation();
                }
            }
        }
        if let Some(c) = self.copier.as_mut() {
            c.last = c.words;
        }
        (u64::from(c.words), end || self.pending.is_some())
    }

    /// Delivers the UART input due by `cycle` and raises PLIC source 10 if the UART raised its
    /// line since the last call.
    pub(crate) fn sync_irq(&mut self, cycle: u64) {
        self.uart.sync(cycle);
        if std::mem::take(&mut self.uart.raised) {
            self.plic.raise(UART_IRQ);
        }
    }

    /// Runs a UART or PLIC access `f` at `cycle` between two [`Bus::sync_irq`] calls, and
    /// sets `irq_dirty` if it changed MEIP or the next UART arrival (a change that can make an
    /// interrupt pending sooner than the run loop expects).
    fn irq_access<T>(&mut self, cycle: u64, f: impl FnOnce(&mut Bus) -> T) -> T {
        self.sync_irq(cycle);
        let before = (self.plic.meip(), self.uart.next_arrival());
        let out = f(self);
        self.sync_irq(cycle);
        if (self.plic.meip(), self.uart.next_arrival()) != before {
            self.irq_dirty = true;
        }
        out
    }

    /// mtval for an access at `addr` that no region holds entirely: if it starts inside a
    /// region and runs past its end, the first byte past the end (the part that faulted,
    /// as QEMU reports it); otherwise `addr`.
    fn fault_addr(&self, addr: u32) -> u32 {
        match self.mem.find(addr, 1) {
            Some((i, _)) => {
                let r = &self.mem.region(i).spec;
                r.base.wrapping_add(r.size)
            }
            None => addr,
        }
    }

    /// Sets the LR reservation on the word at `addr`.
    pub(crate) fn set_reservation(&mut self, addr: u32) {
        self.clear_reservation();
        self.reservation = Some(addr);
        self.mem.set_flag(addr, 4, PAGE_RESV);
    }

    /// Drops the LR reservation.
    pub(crate) fn clear_reservation(&mut self) {
        if let Some(r) = self.reservation.take() {
            self.mem.clear_page_flag(r >> 12, PAGE_RESV);
            self.mem.clear_page_flag(r.wrapping_add(3) >> 12, PAGE_RESV);
        }
    }
}
