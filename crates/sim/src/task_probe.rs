//! The task probe: where a kernel keeps its task table, so that each task's state, priority,
//! wait object and saved stack pointer are read from guest memory at every task switch and
//! every `mret`, and recorded as [`crate::EventKind::TaskSample`] events when they change.
//! Reading costs the guest nothing (no cycle, no instruction); it only sees what the kernel
//! wrote, at the points where a kernel call or a trap has just finished.

use crate::events::EventKind;
use crate::memory::Memory;

/// Where the task control blocks are and how one is laid out (from the firmware's
/// `.cactus.tasks` section: `cactus_gdb::TaskTable::probe`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskProbe {
    /// Address of the first TCB (`k_tasks`).
    pub table: u32,
    /// TCBs in the table.
    pub slots: u32,
    /// Bytes per TCB.
    pub tcb_bytes: u32,
    /// Offset of the state byte in a TCB.
    pub state: u32,
    /// Offset of the (effective) priority byte.
    pub prio: u32,
    /// Offset of the wait-list pointer (None: not in the layout; recorded as 0).
    pub wait_on: Option<u32>,
    /// Offset of the saved stack pointer (in the TCB's context).
    pub sp: u32,
}

/// What one slot looked like at the last sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    state: u8,
    prio: u8,
    wait_on: u32,
    sp: u32,
}

/// The probe and the last values it saw.
pub(crate) struct TaskSampler {
    probe: TaskProbe,
    last: Vec<Slot>,
    running: Option<u32>,
}

impl TaskSampler {
    /// A sampler that has seen nothing yet (every slot free).
    pub(crate) fn new(probe: TaskProbe) -> TaskSampler {
        let slots = probe.slots.min(4096) as usize;
        TaskSampler {
            probe,
            last: vec![Slot::default(); slots],
            running: None,
        }
    }

    /// The samples due after a task switch to `task` (`switched`) or an `mret` (None): every
    /// slot whose state, priority or wait object changed, and the task switched away from
    /// (its saved stack pointer is new).
    pub(crate) fn sample(&mut self, mem: &Memory, switched: Option<u32>) -> Vec<EventKind> {
        let outgoing = match switched {
            Some(task) => self.running.replace(task),
            None => None,
        };
        let p = &self.probe;
        let mut out = Vec::new();
        for (id, last) in self.last.iter_mut().enumerate() {
            let tcb = p.table.wrapping_add((id as u32).wrapping_mul(p.tcb_bytes));
            let word = |off: u32| -> u32 {
                let a = tcb.wrapping_add(off);
                let b = |k: u32| u32::from(mem.peek_u8(a.wrapping_add(k)).unwrap_or(0));
                b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24
            };
            let now = Slot {
                state: mem.peek_u8(tcb.wrapping_add(p.state)).unwrap_or(0),
                prio: mem.peek_u8(tcb.wrapping_add(p.prio)).unwrap_or(0),
                wait_on: p.wait_on.map_or(0, word),
                sp: word(p.sp),
            };
            let changed =
                (now.state, now.prio, now.wait_on) != (last.state, last.prio, last.wait_on);
            let left = outgoing == Some(id as u32) && now.sp != last.sp;
            if changed || left {
                out.push(EventKind::TaskSample {
                    task: id as u32,
                    state: u32::from(now.state),
                    prio: u32::from(now.prio),
                    wait_on: now.wait_on,
                    sp: now.sp,
                });
            }
            *last = now;
        }
        out
    }
}
