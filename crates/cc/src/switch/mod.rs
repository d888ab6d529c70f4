//! Compiler-driven context switching (paper 002; docs/ccs.md): the preemption state of every
//! instruction over the whole program ([`live`]) and the switch points and blocks of every
//! loop ([`points`]), reported per task by [`switch_report`].

pub mod closed;
pub mod live;
pub mod points;
pub mod rename;
pub mod table;

use crate::program::Program;
use crate::refs::address_refs;
use cactus_asm::AsmFile;
use live::{names, Root, StateLiveness, FULL_STATE};
use points::loop_switches;
use serde::Serialize;

/// One task's entry, as the manifest names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskEntry {
    /// The task's name.
    pub task: String,
    /// Its entry function.
    pub entry: String,
    /// The manifest's `stack_calls` of the task: for a function (or `*`, any function) whose
    /// indirect calls the analysis cannot follow, the functions they reach in this task. A
    /// function without an entry keeps the conservative answer (every function whose address
    /// is taken), so an empty map changes nothing.
    pub calls: std::collections::BTreeMap<String, Vec<String>>,
}

/// One loop of a task's code with its switch point and block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopRow {
    /// The function (`unit:name`).
    pub function: String,
    /// The loop header's label.
    pub header: String,
    /// Nesting depth (1 = outermost).
    pub depth: usize,
    /// Instructions in the loop.
    pub insts: usize,
    /// The switch point: the instruction's text (the state is taken right before it).
    pub point: String,
    /// Registers saved at the switch point (sp included, gp/tp never).
    pub point_regs: Vec<&'static str>,
    /// Registers saved for the switch block (the union over its instructions).
    pub block_regs: Vec<&'static str>,
    /// The most registers live at any instruction of the loop.
    pub max_live: u32,
    /// Longest run of the loop's instructions before the point is reached (None: a cycle of
    /// the loop avoids the point).
    pub deferral: Option<u32>,
    /// Whether the loop calls anything (callees not counted in `deferral`).
    pub calls: bool,
}

impl LoopRow {
    /// The share of the full state (29 registers) the switch point does not save, in percent.
    pub fn point_reduction_pct(&self) -> f64 {
        reduction(self.point_regs.len())
    }
    /// The same for the switch block.
    pub fn block_reduction_pct(&self) -> f64 {
        reduction(self.block_regs.len())
    }
}

fn reduction(saved: usize) -> f64 {
    let full = FULL_STATE.len() as f64;
    100.0 * (full - saved as f64) / full
}

/// The loops of one task's code: its entry and everything it calls (through pointers: every
/// address-taken function), the kernel library and the generated glue left out.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskSwitches {
    /// The task.
    pub task: String,
    /// Its entry function.
    pub entry: String,
    /// Whether the entry was analysed as a task entry (needs nothing kept when it returns):
    /// false when the program also takes its address outside `glue` or calls it.
    pub entry_root: bool,
    /// Its loops.
    pub loops: Vec<LoopRow>,
    /// Why the program is not a closed world (docs/ccs.md, "Closed-world indirect calls"):
    /// then every address-taken function is an ABI root. None when it is closed.
    pub open_world: Option<String>,
}

/// Units whose origin starts with this are the kernel library's (`cactus_firmware::assembly`):
/// kernel code runs with interrupts masked or is the kernel's own business, so its loops are
/// not reported.
pub const KERNEL_PREFIX: &str = "kernel-";

/// The functions `f` reaches by direct calls and, through a call by pointer, the targets the
/// task's `calls` name for the calling function, or else every function whose address the
/// program takes (from task code in a closed world: those the task units and the glue name,
/// [`closed::ClosedWorld::targets`]).
fn reachable(
    prog: &Program,
    world: &closed::ClosedWorld,
    f: usize,
    calls: &std::collections::BTreeMap<String, Vec<String>>,
) -> std::collections::BTreeSet<usize> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        if !seen.insert(g) {
            continue;
        }
        stack.extend(prog.graph.callees(g));
        if prog.graph.calls[g]
            .iter()
            .any(|e| e.target == cactus_asm::callgraph::Target::Indirect)
        {
            let name = prog.funcs[g].func.name.as_str();
            if let Some(targets) = calls.get(name).or_else(|| calls.get("*")) {
                stack.extend(targets.iter().filter_map(|t| prog.graph.find(t)));
            } else if world.feeds.contains(&g) {
                stack.extend(world.targets.iter().copied());
            } else {
                stack.extend(prog.address_taken.iter().copied());
            }
        }
    }
    seen
}

/// Why a report cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwitchError {
    /// A task's entry is defined in no unit.
    #[error("task {task}: entry {entry} is not defined in the task's sources")]
    NoEntry {
        /// The task.
        task: String,
        /// The missing function.
        entry: String,
    },
    /// The mutation test's range cannot be mutated.
    #[error("{0}")]
    Mutate(String),
}

/// The whole-program analysis behind [`switch_report`] and [`table::switch_table`]: the
/// program, the state of every instruction, and per task (in `tasks` order) its entry, whether
/// the entry was analysed as a task entry, and the functions of its code (kernel library and
/// glue left out).
pub(crate) struct Analysis {
    pub(crate) prog: Program,
    pub(crate) live: StateLiveness,
    pub(crate) tasks: Vec<(usize, bool, Vec<usize>)>,
    pub(crate) closed: closed::ClosedWorld,
}

pub(crate) fn analyse(
    files: &[AsmFile],
    tasks: &[TaskEntry],
    glue: Option<usize>,
) -> Result<Analysis, SwitchError> {
    let prog = Program::build(files);
    let mut roots = Vec::new();
    let mut entries = Vec::new();
    for t in tasks {
        let f = prog
            .graph
            .find(&t.entry)
            .ok_or_else(|| SwitchError::NoEntry {
                task: t.task.clone(),
                entry: t.entry.clone(),
            })?;
        let referenced_elsewhere = files.iter().enumerate().any(|(u, file)| {
            Some(u) != glue
                && address_refs(file)
                    .iter()
                    .any(|(_, name)| *name == prog.funcs[f].func.name)
        });
        let pure = prog.callers[f].is_empty() && !referenced_elsewhere;
        roots.push((f, if pure { Root::TaskEntry } else { Root::Abi }));
        entries.push((f, pure));
    }
    let entry_set = roots.iter().map(|&(f, _)| f).collect();
    let closed = closed::closed_world(files, &prog, glue, &entry_set);
    let live = StateLiveness::compute(files, &prog, &roots, &closed);
    let tasks = entries
        .into_iter()
        .zip(tasks)
        .map(|((f, pure), t)| {
            let funcs: Vec<usize> = reachable(&prog, &closed, f, &t.calls)
                .into_iter()
                .filter(|&g| Some(prog.funcs[g].unit) != glue || g == f)
                .filter(|&g| !files[prog.funcs[g].unit].origin.starts_with(KERNEL_PREFIX))
                .collect();
            (f, pure, funcs)
        })
        .collect();
    Ok(Analysis {
        prog,
        live,
        tasks,
        closed,
    })
}

/// The switch points and blocks of every loop reachable from each task's entry. `glue` is the
/// index of the generated unit whose task table takes the entries' addresses (its references
/// do not make an entry an ABI root), if any.
pub fn switch_report(
    files: &[AsmFile],
    tasks: &[TaskEntry],
    glue: Option<usize>,
) -> Result<Vec<TaskSwitches>, SwitchError> {
    let Analysis {
        prog,
        live,
        tasks: analysed,
        closed,
    } = analyse(files, tasks, glue)?;
    let origins: Vec<String> = files.iter().map(|f| f.origin.clone()).collect();
    Ok(tasks
        .iter()
        .zip(analysed)
        .map(|(t, (_, pure, funcs))| {
            let loops = loop_switches(files, &prog, &live, &funcs)
                .into_iter()
                .map(|l| {
                    let file = &files[prog.funcs[l.func].unit];
                    LoopRow {
                        function: prog.label(l.func, &origins),
                        header: l.header,
                        depth: l.depth,
                        insts: l.insts,
                        point: file.entries[l.point].item.to_string().trim().to_string(),
                        point_regs: names(l.point_state),
                        block_regs: names(l.block_state),
                        max_live: l.max_state.len(),
                        deferral: l.deferral,
                        calls: l.calls,
                    }
                })
                .collect();
            TaskSwitches {
                task: t.task.clone(),
                entry: t.entry.clone(),
                entry_root: pure,
                loops,
                open_world: closed.off.clone(),
            }
        })
        .collect())
}
