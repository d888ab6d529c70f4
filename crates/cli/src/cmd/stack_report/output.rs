//! The per-task rows of `cactus stack-report MANIFEST` as a table (with `--path`, each task's
//! worst-case call path under it) and as JSON.

use super::depth_json;
use super::tasks::TaskRow;
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
    let entries: Vec<String> = rows.iter().map(entry_text).collect();
    let tw = rows
        .iter()
        .map(|r| r.task.len())
        .max()
        .unwrap_or(0)
        .max("task".len());
    let ew = entries
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max("entry".len());
    println!(
        "{:<tw$}  {:<ew$}  {:>6}  {:<7}  depth",
        "task", "entry", "budget", "covered"
    );
    for (r, entry) in rows.iter().zip(&entries) {
        let covered = match covers(r.budget, &r.depth) {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "unknown",
        };
        println!(
            "{:<tw$}  {:<ew$}  {:>6}  {:<7}  {}",
            r.task, entry, r.budget, covered, r.depth
        );
        if let Some(h) = &r.hint {
            println!("{:tw$}  to bound it: {h}", "");
        }
        if paths && !r.path.is_empty() {
            print_path(r);
        }
    }
}

/// `fw_run_x (calls x)` for a wrapper, else the entry.
fn entry_text(r: &TaskRow) -> String {
    if r.analysed == r.entry {
        r.entry.clone()
    } else {
        format!("{} (calls {})", r.analysed, r.entry)
    }
}

fn print_path(r: &TaskRow) {
    println!(
        "  worst-case path of {} (offset below the entry sp, frame):",
        r.task
    );
    for s in &r.path {
        println!("    {:>6}  {:<32}  {}", s.offset, s.function, step_note(s));
    }
    if !r.trap.1.is_empty() {
        println!(
            "    {:>6}  + {} on the task stack at any instruction ({})",
            "", r.trap.0, r.trap.1
        );
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
