//! One row per task of a firmware: the worst-case depth on its stack from what really runs
//! there. That is the function the generated task table starts (`fw_run_<task>` for a
//! periodic or delayed task, which calls the manifest's `entry`), then `cactus_task_exit`,
//! where an entry that returns goes (the kernel sets it as the first return address, at the
//! same `sp`), plus, at any instruction, the deepest of the routines that enter the kernel
//! from the task's stack (trap and timer entry, the interrupt entry when the firmware attaches
//! handlers; with `checks = "split"` the check slow path `port_split_request`), whose depths
//! on the task stack come from machine code.
//! The timer task (`[[timer]]`) runs `cactus_timer_task`, whose indirect calls go to the
//! manifest's timer callbacks. An SRP firmware's jobs and shared stack: `srp.rs`.

use anyhow::{anyhow, Result};
use cactus_analysis::machine::MachineDepth;
use cactus_analysis::{Annotations, Depth, EntryDepth, Program, Unbounded};
use cactus_cc::CheckMode;
use cactus_firmware::manifest::TimerTask;
use cactus_firmware::{codegen, Manifest};
use std::collections::BTreeMap;
use std::path::Path;

/// Where an entry that returns goes (kernel/core/task.c).
const TASK_EXIT: &str = "cactus_task_exit";
/// The timer task's entry (kernel/core/swtimer.c).
const TIMER_TASK_ENTRY: &str = "cactus_timer_task";
/// Routines that may run on a task's stack at any instruction (traps, the timer interrupt).
const TRAP_ENTRIES: [&str; 2] = ["port_trap_entry", "port_tick_entry"];
/// The external and software interrupts' entry when the firmware attaches handlers
/// (kernel/arch/rv32/irq.S; without handlers it is an alias of `port_trap_entry`).
const IRQ_ENTRY: &str = "port_irq_entry";
/// The slow path of a failed stack check in `checks = "split"` (kernel/arch/rv32/split.S).
const SPLIT_SLOW_PATH: &str = "port_split_request";

/// One task's result.
pub(super) struct TaskRow {
    /// Task name.
    pub task: String,
    /// The manifest's `entry`.
    pub entry: String,
    /// The function the task table starts, whose depth this is.
    pub analysed: String,
    /// Stack budget in bytes.
    pub budget: u32,
    /// Worst-case depth: the deepest path's, plus [`TaskRow::trap`] when bounded.
    pub depth: Depth,
    /// The deepest path (empty when unbounded).
    pub path: Vec<cactus_analysis::Step>,
    /// Bytes the kernel-entry routines may add at any instruction, and which one.
    pub trap: (u32, String),
    /// For an unbounded task: how to bound it.
    pub hint: Option<String>,
}

/// The rows of every task of `m` (manifest order, then the timer task) over `program`, whose
/// externals `machine` also serves the kernel-entry depths. Errors name the manifest and task:
/// an entry the assembly does not define, an annotation naming nothing.
pub(super) fn task_rows(
    path: &Path,
    m: &Manifest,
    program: &Program,
    machine: &BTreeMap<String, MachineDepth>,
) -> Result<Vec<TaskRow>> {
    let trap = trap_depth(m, machine);
    if let Some(srp) = &m.srp {
        return super::srp::rows(path, m, srp, program, &trap);
    }
    let mut rows = Vec::new();
    for t in &m.tasks {
        let ann = Annotations {
            calls: t.stack_calls.clone(),
            recursion: t.stack_recursion.clone(),
        };
        let analysed = codegen::table_entry(t);
        let what = if analysed == t.entry {
            format!("entry {}", t.entry)
        } else {
            format!("entry {}'s generated wrapper {analysed}", t.entry)
        };
        let e = run_on_stack(program, &analysed, &ann)
            .map_err(|e| anyhow!("{}: task {}: {e}", path.display(), t.name))?
            .ok_or_else(|| {
                anyhow!(
                    "{}: task {}: {what} is not defined in the firmware's C",
                    path.display(),
                    t.name
                )
            })?;
        rows.push(row(&t.name, &t.entry, analysed, t.stack, e, &trap));
    }
    if let Some(tt) = &m.timer_task {
        let mut callbacks: Vec<String> = m.timers.iter().map(|t| t.callback.clone()).collect();
        callbacks.sort();
        callbacks.dedup();
        let ann = Annotations {
            calls: BTreeMap::from([("*".to_string(), callbacks)]),
            recursion: BTreeMap::new(),
        };
        let e = run_on_stack(program, TIMER_TASK_ENTRY, &ann)
            .map_err(|e| anyhow!("{}: the timer task: {e}", path.display()))?
            .ok_or_else(|| anyhow!("{TIMER_TASK_ENTRY} is not defined in the kernel's C"))?;
        rows.push(row(
            TimerTask::NAME,
            TIMER_TASK_ENTRY,
            TIMER_TASK_ENTRY.to_string(),
            tt.stack,
            e,
            &trap,
        ));
    }
    Ok(rows)
}

pub(super) fn row(
    task: &str,
    entry: &str,
    analysed: String,
    budget: u32,
    e: EntryDepth,
    trap: &Result<(u32, String), Unbounded>,
) -> TaskRow {
    let (depth, path, trap) = match (e.depth, trap) {
        (Depth::Bounded(d), Ok((t, name))) => (Depth::Bounded(d + t), e.path, (*t, name.clone())),
        (Depth::Bounded(_), Err(why)) => (
            Depth::Unbounded(why.clone()),
            Vec::new(),
            (0, String::new()),
        ),
        (unbounded, Ok((t, name))) => (unbounded, e.path, (*t, name.clone())),
        (unbounded, Err(_)) => (unbounded, e.path, (0, String::new())),
    };
    let hint = match &depth {
        Depth::Unbounded(why) => hint(task, why),
        Depth::Bounded(_) => None,
    };
    TaskRow {
        task: task.to_string(),
        entry: entry.to_string(),
        analysed,
        budget,
        depth,
        path,
        trap,
        hint,
    }
}

/// `entry`'s depth, or that of [`TASK_EXIT`] where `entry` returns to, whichever is deeper
/// (both start at the same `sp`).
fn run_on_stack(
    program: &Program,
    entry: &str,
    ann: &Annotations,
) -> Result<Option<EntryDepth>, cactus_analysis::AnnotationError> {
    let Some(main) = program.entry(entry, ann)? else {
        return Ok(None);
    };
    let Some(exit) = program.entry(TASK_EXIT, ann)? else {
        return Ok(Some(main));
    };
    Ok(Some(match (&main.depth, &exit.depth) {
        (Depth::Bounded(a), Depth::Bounded(b)) if b > a => exit,
        (Depth::Bounded(_), Depth::Unbounded(_)) => exit,
        _ => main,
    }))
}

/// The deepest kernel-entry routine this firmware links, by its machine-code depth.
fn trap_depth(
    m: &Manifest,
    machine: &BTreeMap<String, MachineDepth>,
) -> Result<(u32, String), Unbounded> {
    let mut names: Vec<&str> = TRAP_ENTRIES.to_vec();
    if !m.interrupts.is_empty() {
        names.push(IRQ_ENTRY);
    }
    if m.kernel.checks == CheckMode::Split {
        names.push(SPLIT_SLOW_PATH);
    }
    let mut worst = (0, String::new());
    for name in names {
        match machine.get(name) {
            Some(MachineDepth::Bytes(d)) if worst.1.is_empty() || *d > worst.0 => {
                worst = (*d, name.to_string())
            }
            Some(MachineDepth::Bytes(_)) | None => {}
            Some(MachineDepth::Unbounded(reason)) => {
                return Err(Unbounded::Machine {
                    name: name.to_string(),
                    reason: reason.clone(),
                })
            }
        }
    }
    Ok(worst)
}

/// How to bound a task that is unbounded for `why`.
fn hint(task: &str, why: &Unbounded) -> Option<String> {
    Some(match why {
        Unbounded::Indirect { function } if task == TimerTask::NAME => format!(
            "{function} calls through a pointer that is not a [[timer]] callback; no annotation \
             applies to the timer task"
        ),
        Unbounded::Indirect { function } => format!(
            "list what {function}'s indirect calls may reach: in [[task]] {task}, \
             stack_calls = {{ {function} = [\"f\", ...] }}"
        ),
        Unbounded::Recursion(members) => format!(
            "give the most activations of one of {} at once: in [[task]] {task}, \
             stack_recursion = {{ {} = N }}",
            members.join(", "),
            members[0]
        ),
        Unbounded::Dynamic { function } => {
            format!("{function} allocates a variable-size frame (alloca/VLA): make it fixed")
        }
        Unbounded::External { name, .. } => {
            format!("no analysed code defines {name}: add its C source to the firmware")
        }
        Unbounded::Machine { .. } => return None,
    })
}
