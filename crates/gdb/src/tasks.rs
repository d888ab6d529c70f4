//! The Cactus kernel's tasks as gdb threads: where the task table is (the ELF's `k_tasks` and
//! `port_current` symbols), how a TCB is laid out (the kernel's `.cactus.tasks` section, written
//! by `kernel/core/task.c`), and each task's name, state, priority and saved registers read
//! from guest memory.
//!
//! Guarantees: reading never changes the machine; a firmware without a Cactus kernel has no
//! [`TaskTable`] (the stub then shows one thread); a table that names memory the machine does
//! not map yields no tasks rather than garbage.

use cactus_sim::Machine;
use object::{Object, ObjectSection, ObjectSymbol};

/// The magic word starting the layout ("TASK", little-endian).
const MAGIC: u32 = 0x4b53_4154;
/// The newest layout version this reader understands (version 1, without `wait_on`, too).
const VERSION: u32 = 2;
/// Words in a version-1 layout (a version-2 one adds the offset of `wait_on`).
const WORDS: usize = 12;

/// A task's state as the kernel's `enum cactus_task_state` numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskState {
    /// On the ready queue (or running: the kernel marks the running task ready).
    Ready,
    /// Blocked on a kernel object.
    Blocked,
    /// Sleeping until a deadline.
    Sleeping,
    /// Suspended until resumed.
    Suspended,
}

impl TaskState {
    /// The live state numbered `n`; None for free and terminated slots.
    fn from_kernel(n: u8) -> Option<TaskState> {
        match n {
            1 | 2 => Some(TaskState::Ready),
            3 => Some(TaskState::Blocked),
            4 => Some(TaskState::Sleeping),
            5 => Some(TaskState::Suspended),
            _ => None,
        }
    }

    /// The word gdb shows (`ready`, `blocked`, `sleeping`, `suspended`).
    pub fn name(self) -> &'static str {
        match self {
            TaskState::Ready => "ready",
            TaskState::Blocked => "blocked",
            TaskState::Sleeping => "sleeping",
            TaskState::Suspended => "suspended",
        }
    }
}

/// One live task as read from guest memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// Its slot in the task table (the kernel's task id).
    pub id: u32,
    /// Its name (`?` when the name cannot be read).
    pub name: String,
    /// Its state.
    pub state: TaskState,
    /// Its effective priority.
    pub prio: u8,
    /// Its assigned priority (differs from `prio` while it inherits one).
    pub base_prio: u8,
    /// Address of its saved context.
    pub context: u32,
}

/// Where a firmware's task table is and how to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskTable {
    base: u32,
    current: u32,
    slots: u32,
    tcb_bytes: u32,
    ctx: u32,
    state: u32,
    prio: u32,
    base_prio: u32,
    desc: u32,
    name: u32,
    pc_slot: u32,
    tp_offset: u32,
    wait_on: Option<u32>,
}

/// Why an ELF's task table cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TaskTableError {
    /// The ELF does not parse.
    #[error("not an ELF file: {0}")]
    Elf(String),
    /// The `.cactus.tasks` section is not a layout this stub reads.
    #[error("the .cactus.tasks section is not a version-1 or -{VERSION} task layout ({0})")]
    Layout(String),
    /// The layout is there but a symbol the stub needs is not.
    #[error("the ELF has a task layout but no `{0}` symbol")]
    Symbol(&'static str),
}

impl TaskTable {
    /// The task table of the firmware in `elf`: None when it has no Cactus kernel (no
    /// `.cactus.tasks` section).
    pub fn from_elf(elf: &[u8]) -> Result<Option<TaskTable>, TaskTableError> {
        let file = object::File::parse(elf).map_err(|e| TaskTableError::Elf(e.to_string()))?;
        let Some(section) = file.section_by_name(".cactus.tasks") else {
            return Ok(None);
        };
        let data = section
            .data()
            .map_err(|e| TaskTableError::Layout(e.to_string()))?;
        if data.len() < WORDS * 4 {
            return Err(TaskTableError::Layout(format!("{} bytes", data.len())));
        }
        let w: Vec<u32> = data[..WORDS * 4]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if w[0] != MAGIC || !(1..=VERSION).contains(&w[1]) || (w[1] == 2 && data.len() < 52) {
            return Err(TaskTableError::Layout(format!(
                "magic {:#x}, version {}",
                w[0], w[1]
            )));
        }
        let symbol = |name: &'static str| {
            file.symbols()
                .find(|s| s.name() == Ok(name))
                .map(|s| s.address() as u32)
                .ok_or(TaskTableError::Symbol(name))
        };
        Ok(Some(TaskTable {
            base: symbol("k_tasks")?,
            current: symbol("port_current")?,
            slots: w[2],
            tcb_bytes: w[3],
            ctx: w[4],
            state: w[5],
            prio: w[6],
            base_prio: w[7],
            desc: w[8],
            name: w[9],
            pc_slot: w[10],
            tp_offset: w[11],
            wait_on: (w[1] >= 2)
                .then(|| u32::from_le_bytes([data[48], data[49], data[50], data[51]])),
        }))
    }

    /// The task slots the firmware has.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// The simulator's task probe for this table: it samples each TCB's state, priority,
    /// wait list and saved stack pointer during a run (`cactus run --trace`).
    pub fn probe(&self) -> cactus_sim::TaskProbe {
        cactus_sim::TaskProbe {
            table: self.base,
            slots: self.slots,
            tcb_bytes: self.tcb_bytes,
            state: self.state,
            prio: self.prio,
            wait_on: self.wait_on,
            sp: self.ctx + context_slot(2).unwrap_or(4),
        }
    }

    /// The live tasks (ready, blocked, sleeping, suspended), in slot order.
    pub fn tasks(&self, machine: &Machine) -> Vec<Task> {
        (0..self.slots)
            .filter_map(|id| self.task(machine, id))
            .collect()
    }

    /// Task `id` if it is live.
    pub fn task(&self, machine: &Machine, id: u32) -> Option<Task> {
        if id >= self.slots {
            return None;
        }
        let tcb = self.base.wrapping_add(id.wrapping_mul(self.tcb_bytes));
        let state = TaskState::from_kernel(read_u8(machine, tcb.wrapping_add(self.state))?)?;
        let desc = read_u32(machine, tcb.wrapping_add(self.desc))?;
        let name = read_u32(machine, desc.wrapping_add(self.name))
            .and_then(|p| read_c_string(machine, p))
            .unwrap_or_else(|| "?".to_string());
        Some(Task {
            id,
            name,
            state,
            prio: read_u8(machine, tcb.wrapping_add(self.prio))?,
            base_prio: read_u8(machine, tcb.wrapping_add(self.base_prio))?,
            context: tcb.wrapping_add(self.ctx),
        })
    }

    /// The task whose context `port_current` points at, if it is live: the one the CPU runs
    /// (or, in a trap, the one it interrupted). None before the first task runs and while the
    /// kernel idles.
    pub fn running(&self, machine: &Machine) -> Option<u32> {
        let current = read_u32(machine, self.current)?;
        let offset = current.checked_sub(self.base.wrapping_add(self.ctx))?;
        if offset % self.tcb_bytes != 0 {
            return None;
        }
        let id = offset / self.tcb_bytes;
        self.task(machine, id).map(|t| t.id)
    }

    /// The registers saved in `task`'s context as gdb numbers them (x0..x31, then pc): gp is
    /// the CPU's (it is the same for every task), tp is the value the kernel gives the task on
    /// resume, and a voluntary context (pc slot 0) shows pc = ra, where it resumes.
    pub fn registers(&self, machine: &Machine, task: &Task) -> [u32; 33] {
        let mut regs = [0u32; 33];
        for (n, reg) in regs.iter_mut().enumerate().take(32) {
            *reg = match context_slot(n) {
                Some(off) => read_u32(machine, task.context + off).unwrap_or(0),
                None if n == 3 => machine.reg(3),
                None if n == 4 => task.context.wrapping_add(self.tp_offset),
                None => 0,
            };
        }
        let pc = read_u32(machine, task.context + self.pc_slot).unwrap_or(0);
        regs[32] = if pc == 0 { regs[1] } else { pc };
        regs
    }

    /// Writes `regs` (x0..x31, pc) into `task`'s context; x0, gp and tp are not part of a
    /// context and are ignored. Returns false if the context is not writable.
    pub fn set_registers(&self, machine: &mut Machine, task: &Task, regs: &[u32; 33]) -> bool {
        let mut ok = true;
        for (n, value) in regs.iter().enumerate().take(32) {
            if let Some(off) = context_slot(n) {
                ok &= machine
                    .write_debug(task.context + off, &value.to_le_bytes())
                    .is_ok();
            }
        }
        ok & machine
            .write_debug(task.context + self.pc_slot, &regs[32].to_le_bytes())
            .is_ok()
    }
}

/// Offset of register xn in a saved context (layout version 1); None for x0, gp and tp.
fn context_slot(n: usize) -> Option<u32> {
    match n {
        1 | 2 => Some((n as u32 - 1) * 4),
        5..=31 => Some((n as u32 - 3) * 4),
        _ => None,
    }
}

fn read_u8(machine: &Machine, addr: u32) -> Option<u8> {
    let mut b = [0u8; 1];
    machine.read_debug(addr, &mut b).ok().map(|_| b[0])
}

fn read_u32(machine: &Machine, addr: u32) -> Option<u32> {
    let mut b = [0u8; 4];
    machine
        .read_debug(addr, &mut b)
        .ok()
        .map(|_| u32::from_le_bytes(b))
}

/// A NUL-terminated string of at most 64 bytes at `addr`.
fn read_c_string(machine: &Machine, addr: u32) -> Option<String> {
    let mut bytes = Vec::new();
    for i in 0..64 {
        let b = read_u8(machine, addr.wrapping_add(i))?;
        if b == 0 {
            return Some(String::from_utf8_lossy(&bytes).into_owned());
        }
        bytes.push(b);
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_slots_follow_the_port_layout() {
        assert_eq!(context_slot(0), None);
        assert_eq!(context_slot(1), Some(0), "ra");
        assert_eq!(context_slot(2), Some(4), "sp");
        assert_eq!(context_slot(3), None, "gp");
        assert_eq!(context_slot(4), None, "tp");
        assert_eq!(context_slot(5), Some(8), "t0");
        assert_eq!(context_slot(10), Some(28), "a0 (CTX_A0)");
        assert_eq!(context_slot(31), Some(112), "t6, just below the pc slot");
    }

    #[test]
    fn only_live_states_are_tasks() {
        assert_eq!(TaskState::from_kernel(0), None, "free");
        assert_eq!(TaskState::from_kernel(2), Some(TaskState::Ready), "running");
        assert_eq!(TaskState::from_kernel(5), Some(TaskState::Suspended));
        assert_eq!(TaskState::from_kernel(6), None, "exited");
    }

    #[test]
    fn an_elf_without_the_section_has_no_table_and_garbage_is_an_error() {
        assert!(matches!(
            TaskTable::from_elf(b"not an elf"),
            Err(TaskTableError::Elf(_))
        ));
    }
}
