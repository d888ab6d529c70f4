//! The simulation-only trace device at 0x0E00_0000 (docs/trace-device.md): registers, and the
//! application of committed events to the oracle, the task table and the event list.

use crate::bus::{Bus, Ctx, Pending};
use crate::events::{EventKind, NOBODY};
use crate::memory::PAGE_ORACLE;

/// Base address of the trace window.
pub const TRACE_BASE: u32 = 0x0E00_0000;
/// Size of the window.
pub const TRACE_SIZE: u32 = 0x1000;
/// Value of the ID register ("CTRC").
pub const TRACE_ID: u32 = 0x4354_5243;
/// Protocol version.
pub const TRACE_VERSION: u32 = 1;

/// Register state of the device.
pub(crate) struct TraceDevice {
    pub(crate) args: [u32; 4],
}

impl TraceDevice {
    /// A device with all arguments 0.
    pub(crate) fn new() -> TraceDevice {
        TraceDevice { args: [0; 4] }
    }
}

impl Bus {
    /// Reads trace register `off`. None if not an aligned 32-bit access.
    pub(crate) fn trace_read(&self, off: u32, width: u32, ctx: &Ctx) -> Option<u32> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        Some(match off {
            0x00 => TRACE_ID,
            0x04 => TRACE_VERSION,
            0x10..=0x1C => self.trace.args[((off - 0x10) / 4) as usize],
            0x24 => ctx.mcycle as u32,
            0x28 => (ctx.mcycle >> 32) as u32,
            0x2C => self.oracle.violations as u32,
            _ => 0,
        })
    }

    /// Writes trace register `off`. None if not an aligned 32-bit access.
    pub(crate) fn trace_write(
        &mut self,
        off: u32,
        width: u32,
        value: u32,
        ctx: &Ctx,
    ) -> Option<()> {
        if width != 4 || off & 3 != 0 {
            return None;
        }
        match off {
            0x10..=0x1C => self.trace.args[((off - 0x10) / 4) as usize] = value,
            0x20 => self.commit_event(value, ctx),
            _ => {}
        }
        Some(())
    }

    fn read_name(&self, addr: u32) -> String {
        let mut bytes = Vec::new();
        for k in 0..31 {
            match self.mem.peek_u8(addr.wrapping_add(k)) {
                Some(0) | None => break,
                Some(b) => bytes.push(b),
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn commit_event(&mut self, code: u32, ctx: &Ctx) {
        let [a0, a1, a2, a3] = self.trace.args;
        if !matches!(code, 4..=6 | 8) {
            self.loans.event(&self.mem);
        }
        let kind = match code {
            1 => {
                let name = self.read_name(a2);
                self.tasks.create(a0, a1, &name);
                EventKind::TaskCreate {
                    task: a0,
                    priority: a1,
                    name,
                }
            }
            2 => {
                self.tasks.switch_to(a0, ctx.cycle, ctx.instret);
                self.oracle.running = a0;
                EventKind::TaskSwitch { task: a0 }
            }
            3 => {
                self.tasks.exit(a0, a1);
                EventKind::TaskExit {
                    task: a0,
                    reason: a1,
                }
            }
            4 => {
                self.loans.assign(&self.mem, a0, a1, a2);
                self.oracle.assign(a0, a1, a2);
                self.mem.set_flag(a0, a1, PAGE_ORACLE);
                EventKind::RegionAssign {
                    base: a0,
                    size: a1,
                    owner: a2,
                }
            }
            5 => {
                self.loans.release(&self.mem, a0, a1);
                self.oracle.assign(a0, a1, NOBODY);
                self.mem.set_flag(a0, a1, PAGE_ORACLE);
                EventKind::RegionRelease { base: a0, size: a1 }
            }
            6 => {
                self.loans.lend(&self.mem, a0, a1, a2, a3);
                let moved = self.oracle.lend(a0, a1, a2, a3);
                self.tasks.lend(a2, a3, moved);
                EventKind::RegionLend {
                    base: a0,
                    size: a1,
                    lender: a2,
                    borrower: a3,
                    moved,
                }
            }
            7 => {
                self.tasks.hwm(a0, a1, a2);
                EventKind::StackHwm {
                    task: a0,
                    used: a1,
                    budget: a2,
                }
            }
            8 => {
                self.loans.overflow(&self.mem, a0, a3);
                self.tasks.overflow(a0, a3);
                EventKind::Overflow {
                    task: a0,
                    sp: a1,
                    requested: a2,
                    action: a3,
                }
            }
            9 => EventKind::Marker { id: a0, value: a1 },
            10 => {
                self.oracle.kernel_depth = self.oracle.kernel_depth.saturating_add(1);
                EventKind::KernelEnter
            }
            11 => {
                self.oracle.kernel_depth = self.oracle.kernel_depth.saturating_sub(1);
                EventKind::KernelLeave
            }
            12 => {
                self.oracle.isr_depth = self.oracle.isr_depth.saturating_add(1);
                EventKind::IsrEnter { source: a0 }
            }
            13 => {
                self.oracle.isr_depth = self.oracle.isr_depth.saturating_sub(1);
                EventKind::IsrLeave
            }
            _ => EventKind::Unknown {
                code,
                args: [a0, a1, a2, a3],
            },
        };
        self.markers += u64::from(code == 9);
        self.record(ctx, kind);
    }

    /// Records an event (if events are kept).
    /// With a task probe, a task switch is preceded by the samples of the tasks that changed
    /// (the one switched away from among them) and an `mret` followed by them.
    pub(crate) fn record(&mut self, ctx: &Ctx, kind: EventKind) {
        if !self.record_events {
            return;
        }
        let event = |kind| crate::events::Event {
            cycle: ctx.cycle,
            instret: ctx.instret,
            pc: ctx.pc,
            kind,
        };
        let Some(sampler) = self.task_sampler.as_mut() else {
            self.events.push(event(kind));
            return;
        };
        // A switch's samples come first (the state the task left in), an mret's after.
        match kind {
            EventKind::TaskSwitch { task } => {
                let samples = sampler.sample(&self.mem, Some(task));
                self.events.extend(samples.into_iter().map(event));
                self.events.push(event(kind));
            }
            EventKind::Mret { .. } => {
                let samples = sampler.sample(&self.mem, None);
                self.events.push(event(kind));
                self.events.extend(samples.into_iter().map(event));
            }
            _ => self.events.push(event(kind)),
        }
    }

    /// Runs the oracle on a store; returns false if the store must not happen (Stop mode).
    pub(crate) fn oracle_store(&mut self, addr: u32, width: u32, ctx: &Ctx) -> bool {
        if !self.oracle.checking(ctx.in_trap) {
            return true;
        }
        let Some(foreign) = self.oracle.check_store(addr, width) else {
            if self.loans.active() {
                self.loans.store(self.oracle.writer(), addr);
            }
            return true;
        };
        self.oracle.violations += 1;
        let task = self.oracle.writer();
        let v = crate::report::ViolationReport {
            pc: ctx.pc,
            addr,
            width,
            task,
            task_name: self.tasks.name(task),
            owner: foreign.owner,
            owner_name: self.tasks.name(foreign.owner),
            foreign_addr: foreign.addr,
            cycle: ctx.cycle,
            instret: ctx.instret,
        };
        self.record(
            ctx,
            EventKind::OracleViolation {
                addr,
                width,
                task,
                owner: foreign.owner,
            },
        );
        if self.violations.len() < crate::stats::MAX_LISTED_VIOLATIONS {
            self.violations.push(v.clone());
        }
        if self.oracle_stop {
            self.pending.get_or_insert(Pending::Violation(Box::new(v)));
            return false;
        }
        true
    }
}
