//! The interrupt stack's bound for a firmware with `[[interrupt]]` handlers: handlers run on
//! the kernel stack (docs/interrupts.md), never on a task's, so their frames are bounded here,
//! over the deepest nesting chain, and no task row carries them.
//!
//! A chain starts with an outermost level entered from a task (irq.S switches to the kernel
//! stack and calls `k_irq_from_task`, whose handler call goes to one of that level's
//! handlers, then `k_irq_exit_to_task`); each PLIC priority above it may nest once (irq.S
//! pushes [`NESTED_FRAME`] bytes and calls `k_irq_dispatch`). The software interrupt ranks
//! below every PLIC source; a source nests only into a lower priority. A handler's kernel
//! calls run right there on the interrupt stack (`port_syscall_isr` calls the `sys_*`
//! function through a register), so every level adds the deepest `sys_*` function. The fault
//! and halt hooks are counted as 0 and `k_fault`'s one recursion (collateral damage) once, as
//! docs/kernel.md "Footprint" counts them.
//!
//! A direct handler (the software interrupt's, `direct = true`) is entered from its vector slot
//! with no kernel frame: its level's outermost depth is the handler's own, kernel calls
//! included, and no chain nests on top of it (it runs with interrupts masked).
//!
//! Not included: the kernel's own work on the same stack (docs/kernel.md "Footprint"), and the
//! kernel frames under a chain that starts in the idle loop (`k_idle` runs handlers on the
//! kernel stack, inside the scheduler's path).

use cactus_analysis::{Annotations, Depth, Program, Step};
use cactus_firmware::manifest::InterruptSource;
use cactus_firmware::Manifest;
use std::collections::BTreeMap;

/// What irq.S pushes on the kernel stack for a nested level (kernel/arch/rv32/irq.S).
pub(super) const NESTED_FRAME: u32 = 80;
/// The kernel stack's size without `kernel.kstack` (kernel/arch/rv32/link.ld).
const DEFAULT_KSTACK: u32 = 2048;
/// The outermost level's entry from a task, and what follows it (kernel/core/irq.c).
const OUTER: [&str; 2] = ["k_irq_from_task", "k_irq_exit_to_task"];
/// A nested level's dispatch.
const NESTED: &str = "k_irq_dispatch";
/// The functions whose calls through the handler table go to a level's handlers.
const DISPATCHERS: [&str; 7] = [
    "k_irq_from_task",
    "k_idle",
    "k_irq_dispatch",
    "run_external",
    "run_software",
    "idle_run",
    "idle_dispatch",
];
/// The functions whose calls through a register are the fault and halt hooks (counted as 0).
pub(super) const HOOK_CALLERS: [&str; 4] = ["k_fault", "k_halt", "k_stop", "k_stack_check_failed"];
/// A kernel call's implementation (`K_SYSCALL` functions, kernel/core).
const SYSCALL_PREFIX: &str = "sys_";

/// One priority level of handlers.
pub(super) struct Level {
    /// 0 for the software interrupt, else the PLIC priority.
    pub priority: u32,
    /// Its handlers.
    pub handlers: Vec<String>,
    /// Its depth as the outermost level (from a task), kernel calls included.
    pub outermost: Depth,
    /// Its depth as a nested level (the saved registers included), kernel calls included.
    pub nested: Depth,
}

/// The interrupt stack's bound.
pub(super) struct IrqStack {
    /// The deepest chain, or why it has none.
    pub depth: Depth,
    /// The kernel stack's size (`kernel.kstack`, or the default).
    pub kstack: u32,
    /// Priority levels, lowest first.
    pub levels: Vec<Level>,
    /// The priorities of the deepest chain, outermost first.
    pub chain: Vec<u32>,
    /// The deepest kernel call a handler may make, and which `sys_*` function it is.
    pub kernel_call: (Depth, String),
    /// The deepest path of the chain's outermost level.
    pub path: Vec<Step>,
}

/// The annotations of the kernel-stack analysis: `handlers` behind every dispatcher's
/// indirect call, hooks as 0, `k_fault` twice at most.
fn annotations(program: &Program, handlers: &[String]) -> Annotations {
    let mut calls = BTreeMap::new();
    for d in DISPATCHERS.iter().filter(|d| program.defines(d)) {
        calls.insert(d.to_string(), handlers.to_vec());
    }
    for h in HOOK_CALLERS.iter().filter(|h| program.defines(h)) {
        calls.insert(h.to_string(), Vec::new());
    }
    let mut recursion = BTreeMap::new();
    if program.defines("k_fault") {
        recursion.insert("k_fault".to_string(), 2);
    }
    Annotations { calls, recursion }
}

fn plus(a: &Depth, b: &Depth) -> Depth {
    match (a, b) {
        (Depth::Bounded(x), Depth::Bounded(y)) => Depth::Bounded(x + y),
        (Depth::Unbounded(w), _) | (_, Depth::Unbounded(w)) => Depth::Unbounded(w.clone()),
    }
}

/// The deepest of `names`' depths under `ann` (the first unbounded one wins), with its path.
fn deepest(
    program: &Program,
    names: &[&str],
    ann: &Annotations,
) -> anyhow::Result<(Depth, Vec<Step>, String)> {
    let mut best = (Depth::Bounded(0), Vec::new(), String::new());
    for name in names {
        let Some(e) = program.entry(name, ann)? else {
            continue;
        };
        match (&e.depth, &best.0) {
            (Depth::Unbounded(_), _) => return Ok((e.depth, e.path, name.to_string())),
            (Depth::Bounded(d), Depth::Bounded(b)) if best.2.is_empty() || d > b => {
                best = (e.depth, e.path, name.to_string())
            }
            _ => {}
        }
    }
    Ok(best)
}

/// The interrupt stack of `m` over `program` (`functions`: every function the program
/// defines, for the `sys_*` ones); None without `[[interrupt]]`.
pub(super) fn interrupt_stack<'f>(
    m: &Manifest,
    program: &Program,
    functions: impl Iterator<Item = &'f str>,
) -> anyhow::Result<Option<IrqStack>> {
    if m.interrupts.is_empty() {
        return Ok(None);
    }
    let mut by_priority: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for i in &m.interrupts {
        let p = match i.source {
            InterruptSource::Software => 0,
            InterruptSource::Plic(_) => i.priority,
        };
        by_priority.entry(p).or_default().push(i.handler.clone());
    }
    let hooks = annotations(program, &[]);
    let sys: Vec<&str> = functions
        .filter(|f| f.starts_with(SYSCALL_PREFIX))
        .collect();
    let (k_depth, _, k_name) = deepest(program, &sys, &hooks)?;
    let mut levels = Vec::new();
    let mut paths = Vec::new();
    // Per level: a direct handler, into which nothing nests.
    let mut masked = Vec::new();
    for (priority, mut handlers) in by_priority {
        handlers.sort();
        handlers.dedup();
        let ann = annotations(program, &handlers);
        // A direct handler (docs/interrupts.md) is entered from its vector with the interrupt
        // stack empty: its own frame is the level's (nothing nests into it).
        let direct: Vec<&str> = m
            .interrupts
            .iter()
            .filter(|i| i.direct && handlers.contains(&i.handler))
            .map(|i| i.handler.as_str())
            .collect();
        masked.push(!direct.is_empty());
        let (outer, path, _) = if direct.is_empty() {
            deepest(program, &OUTER, &ann)?
        } else {
            deepest(program, &direct, &ann)?
        };
        let (nested, _, _) = deepest(program, &[NESTED], &ann)?;
        levels.push(Level {
            priority,
            handlers,
            outermost: plus(&outer, &k_depth),
            nested: plus(&plus(&nested, &Depth::Bounded(NESTED_FRAME)), &k_depth),
        });
        paths.push(path);
    }
    // The deepest chain: an outermost level, then every level above it nested once (none
    // above a direct handler, which runs with interrupts masked).
    let mut best: Option<(Depth, usize)> = None;
    for i in 0..levels.len() {
        let mut d = levels[i].outermost.clone();
        let above = if masked[i] { &[][..] } else { &levels[i + 1..] };
        for l in above {
            d = plus(&d, &l.nested);
        }
        let better = match (&best, &d) {
            (None, _) => true,
            (Some((Depth::Unbounded(_), _)), _) => false,
            (_, Depth::Unbounded(_)) => true,
            (Some((Depth::Bounded(b), _)), Depth::Bounded(x)) => x > b,
        };
        if better {
            best = Some((d, i));
        }
    }
    let (depth, first) = best.expect("at least one level");
    let chain = if masked[first] {
        vec![levels[first].priority]
    } else {
        levels[first..].iter().map(|l| l.priority).collect()
    };
    let kernel_call = (k_depth, k_name);
    Ok(Some(IrqStack {
        depth,
        kstack: m.kernel.kstack.unwrap_or(DEFAULT_KSTACK),
        levels,
        chain,
        kernel_call,
        path: paths.swap_remove(first),
    }))
}

/// The level's name: `software` or `priority N`.
pub(super) fn level_name(priority: u32) -> String {
    if priority == 0 {
        "software".to_string()
    } else {
        format!("priority {priority}")
    }
}
