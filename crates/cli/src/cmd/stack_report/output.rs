//! The per-task rows of `cactus stack-report MANIFEST` as a table (with `--path`, each task's
//! worst-case call path under it) and as JSON.

use super::depth_json;
use super::irq::{level_name, IrqStack, NESTED_FRAME};
use super::tasks::TaskRow;
use crate::report::text_table::{Align, TextTable};
use cactus_analysis::{Depth, Step};
use serde_json::{json, Value};

/// Whether `budget` covers `depth`: None when the depth has no bound.
pub(super) fn covers(budget: u32, depth: &Depth) -> Option<bool> {
    match depth {
        Depth::Bounded(n) => Some(*n <= budget),
        Depth::Unbounded(_) => None,
    }
}

/// The table: task, the function analysed (with the manifest's entry when it is a wrapper's
/// callee), budget, covered, depth; under an unbounded row how to bound it, and with `paths`
/// every bounded row's call path.
pub(super) fn print_rows(rows: &[TaskRow], paths: bool) {
    print!("{}", rows_table(rows, paths));
}

/// The text `print_rows` prints.
fn rows_table(rows: &[TaskRow], paths: bool) -> String {
    let mut t = TextTable::new(
        0,
        &[
            ("task", Align::Left),
            ("entry", Align::Left),
            ("budget", Align::Right),
            ("covered", Align::Left),
            ("depth", Align::Left),
        ],
    );
    let tw = rows
        .iter()
        .map(|r| r.task.chars().count())
        .max()
        .unwrap_or(0)
        .max("task".len());
    for r in rows {
        let covered = match covers(r.budget, &r.depth) {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "unknown",
        };
        t.row([
            r.task.clone(),
            entry_text(r),
            r.budget.to_string(),
            covered.to_string(),
            r.depth.to_string(),
        ]);
        if let Some(h) = &r.hint {
            t.line(format!("{:tw$}  to bound it: {h}", ""));
        }
        if paths && !r.path.is_empty() {
            path_lines(&mut t, r);
        }
    }
    t.render()
}

/// `fw_run_x (calls x)` for a wrapper, else the entry.
fn entry_text(r: &TaskRow) -> String {
    if r.analysed == r.entry {
        r.entry.clone()
    } else {
        format!("{} (calls {})", r.analysed, r.entry)
    }
}

/// The worst-case call path of `r`, as free lines under its row: a title, then a small table
/// of its own (offset, function, frame).
fn path_lines(t: &mut TextTable, r: &TaskRow) {
    t.line(format!(
        "  worst-case path of {} (offset below the entry sp, frame):",
        r.task
    ));
    let mut steps = TextTable::headless(4, &[Align::Right, Align::Left, Align::Left]);
    for s in &r.path {
        steps.row([s.offset.to_string(), s.function.clone(), step_note(s)]);
    }
    if !r.trap.1.is_empty() {
        // Under the functions, sizing no column.
        let ow = r.path.iter().map(|s| s.offset.to_string().len()).max();
        steps.line(format!(
            "{:ow$}  + {} on the task stack at any instruction ({})",
            "",
            r.trap.0,
            r.trap.1,
            ow = ow.unwrap_or(0)
        ));
    }
    for line in steps.render().lines() {
        t.line(line);
    }
}

fn step_note(s: &Step) -> String {
    let mut note = if s.machine {
        format!("{} (machine code, whole depth)", s.frame)
    } else {
        format!("{}", s.frame)
    };
    if s.indirect {
        note += ", through an annotated indirect call";
    }
    note
}

/// One row as `{task, entry, analysed_entry, budget, depth, covered, trap_entry, path, hint}`.
pub(super) fn row_json(r: &TaskRow) -> Value {
    json!({
        "task": r.task,
        "entry": r.entry,
        "analysed_entry": r.analysed,
        "budget": r.budget,
        "depth": depth_json(&r.depth),
        "covered": covers(r.budget, &r.depth),
        "trap_entry": { "name": r.trap.1, "bytes": r.trap.0 },
        "path": r.path.iter().map(|s| json!({
            "function": s.function,
            "offset": s.offset,
            "frame": s.frame,
            "machine_code": s.machine,
            "indirect": s.indirect,
        })).collect::<Vec<_>>(),
        "hint": r.hint,
    })
}

/// The interrupt stack's line under the task table: the deepest chain's bound against the
/// kernel stack, each level's figures, and (with `paths`) the outermost level's path.
pub(super) fn print_irq(irq: &IrqStack, paths: bool) {
    let chain: Vec<String> = irq.chain.iter().map(|&p| level_name(p)).collect();
    println!(
        "interrupt stack: {} for the deepest nesting chain ({}) of kernel.kstack {}, under \
         the kernel's own work there (docs/interrupts.md)",
        irq.depth,
        chain.join(" < "),
        irq.kstack
    );
    for l in &irq.levels {
        println!(
            "  {} ({}): outermost {}, nested {} (with the {NESTED_FRAME} bytes irq.S saves)",
            level_name(l.priority),
            l.handlers.join(", "),
            l.outermost,
            l.nested
        );
    }
    if !irq.kernel_call.1.is_empty() {
        println!(
            "  each level includes a kernel call from its handler: {} ({})",
            irq.kernel_call.0, irq.kernel_call.1
        );
    }
    if paths && !irq.path.is_empty() {
        println!("  worst-case path of the outermost level (offset below the kernel stack's top, frame):");
        let mut steps = TextTable::headless(4, &[Align::Right, Align::Left, Align::Left]);
        for s in &irq.path {
            steps.row([s.offset.to_string(), s.function.clone(), step_note(s)]);
        }
        print!("{}", steps.render());
    }
}

/// The interrupt stack as JSON: `{depth, kstack, chain, kernel_call, levels, path}`.
pub(super) fn irq_json(irq: &IrqStack) -> Value {
    json!({
        "depth": depth_json(&irq.depth),
        "kstack": irq.kstack,
        "chain": irq.chain,
        "kernel_call": { "function": irq.kernel_call.1, "depth": depth_json(&irq.kernel_call.0) },
        "levels": irq.levels.iter().map(|l| json!({
            "priority": l.priority,
            "handlers": l.handlers,
            "outermost": depth_json(&l.outermost),
            "nested": depth_json(&l.nested),
        })).collect::<Vec<_>>(),
        "path": irq.path.iter().map(|s| json!({
            "function": s.function,
            "offset": s.offset,
            "frame": s.frame,
            "machine_code": s.machine,
            "indirect": s.indirect,
        })).collect::<Vec<_>>(),
    })
}
