//! The check margin of each task's stack budget (docs/mtss.md, "The check margin in the
//! budgets"): the most bytes any stack check reachable from the task can demand beyond what
//! the measured high water already holds, from the pass report of a checked build (per
//! function: its effective size, the lowest byte of its frame it writes or takes the address
//! of, its dynamic-allocation demand, its callees by name and whether it calls through a
//! register) and the manifest's `stack_calls` annotations for the indirect calls.
//!
//! An entry check of f demands E(f) below f's entry `sp`: f's frame and the bytes of the
//! callees and library reserves rolled into its check, which may never be written (a callee
//! rolled by limited size need not run). When the check follows the frame's allocation, the
//! code after it reaches down to f's lowest store or local address W(f) on the path that uses
//! the frame, so the excess over the high water is E(f) − W(f); a check at the entry (before
//! the allocation, which an early return may skip) counts its whole E(f) (the pass reports
//! W = 0 for it). A dynamic-allocation check counts its whole demand below the `sp` after the
//! allocation. The margin is the largest excess over the code the task can run. Where that
//! code is not known (an indirect call no annotation lists), there is no margin: the budget
//! generator keeps its constant.

use crate::codegen;
use crate::manifest::Task;
use cactus_cc::{FunctionReport, Report};
use std::collections::{BTreeMap, BTreeSet};

/// Where a task the kernel starts goes when its entry returns (kernel/core/task.c): it runs
/// on the task's stack at the entry's `sp`.
pub const TASK_EXIT: &str = "cactus_task_exit";

/// Kernel functions whose indirect calls are the fault and halt hooks: they run on the kernel
/// stack after a fault, never on the task's (as for `cactus stack-report`, docs/kernel.md
/// "Footprint").
pub const HOOK_CALLERS: [&str; 4] = ["k_fault", "k_halt", "k_stop", "k_stack_check_failed"];

/// One task's margin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskMargin {
    /// The task's name.
    pub task: String,
    /// The largest excess (see the module documentation) of any check reachable from the
    /// task, rounded up to 16 bytes (the stack alignment); None when the reachable code is not
    /// known.
    pub margin: Option<u32>,
    /// The function whose check demands it (empty for a margin of 0), or why there is no
    /// margin.
    pub why: String,
}

/// The margin of every task of `tasks` (a manifest's, in its order) from `report`, the pass
/// report of a build of that manifest with checks (the functions of every unit, the kernel's
/// included).
pub fn task_margins(tasks: &[Task], report: &Report) -> Vec<TaskMargin> {
    let mut by_name: BTreeMap<&str, Vec<&FunctionReport>> = BTreeMap::new();
    for f in &report.functions {
        by_name.entry(f.name.as_str()).or_default().push(f);
    }
    tasks.iter().map(|t| task_margin(t, &by_name)).collect()
}

/// The margin of `t` over the report's functions by name (a name several units define, e.g.
/// a `static` function, stands for all of them).
fn task_margin(t: &Task, by_name: &BTreeMap<&str, Vec<&FunctionReport>>) -> TaskMargin {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let entry = codegen::table_entry(t);
    let mut todo: Vec<&str> = vec![entry.as_str(), TASK_EXIT];
    let mut best: (u32, &str) = (0, "");
    while let Some(name) = todo.pop() {
        if !seen.insert(name) {
            continue;
        }
        // A name no unit defines is uninstrumented code (libgcc, picolibc, the kernel's
        // assembly): its callers' checks cover its reserve.
        for f in by_name.get(name).into_iter().flatten() {
            let excess = excess(f);
            if excess > best.0 {
                best = (excess, f.name.as_str());
            }
            for c in &f.callees {
                todo.push(c.as_str());
            }
            if f.indirect && !HOOK_CALLERS.contains(&name) {
                let listed = t.stack_calls.get(name).or_else(|| t.stack_calls.get("*"));
                match listed {
                    Some(targets) => todo.extend(targets.iter().map(String::as_str)),
                    None => {
                        return TaskMargin {
                            task: t.name.clone(),
                            margin: None,
                            why: format!(
                                "{name} calls through a pointer and the task's stack_calls \
                                 does not list its targets"
                            ),
                        }
                    }
                }
            }
        }
    }
    TaskMargin {
        task: t.name.clone(),
        margin: Some(best.0.div_ceil(16) * 16),
        why: best.1.to_string(),
    }
}

/// What `f`'s checks may demand beyond what the high water holds: its rolled callees' and
/// reserves' bytes below its own frame (an entry check), or a dynamic-allocation check's
/// demand.
fn excess(f: &FunctionReport) -> u32 {
    let entry = if f.checked {
        f.effective.saturating_sub(f.lowest_write)
    } else {
        0
    };
    entry.max(f.dynamic_need)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A function with a 1000-byte frame whose check demands `excess` bytes more.
    fn func(name: &str, excess: u32, callees: &[&str], indirect: bool) -> FunctionReport {
        FunctionReport {
            unit: "u.s".into(),
            name: name.into(),
            frame: 1000,
            dynamic: false,
            effective: 1000 + excess,
            checked: excess > 0,
            rule: String::new(),
            sites: u32::from(excess > 0),
            dynamic_need: 0,
            lowest_write: 1000,
            callees: callees.iter().map(|s| s.to_string()).collect(),
            indirect,
            pinned: None,
        }
    }

    fn task(name: &str, entry: &str, calls: &[(&str, &[&str])]) -> Task {
        Task {
            name: name.into(),
            sources: vec![std::path::PathBuf::from("/a.c")],
            entry: entry.into(),
            priority: 1,
            stack: 1024,
            period_ms: None,
            deadline_ms: None,
            start_delay_ms: 0,
            on_fault: crate::manifest::FaultPolicy::Kill,
            arg: 0,
            start_suspended: false,
            cflags: vec![],
            include: vec![],
            stack_calls: calls
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
            stack_recursion: Default::default(),
        }
    }

    /// Task a (entry ea) with `calls` as its stack_calls, task b (entry eb) with none.
    fn manifest(calls: &[(&str, &[&str])]) -> Vec<Task> {
        vec![task("a", "ea", calls), task("b", "eb", &[])]
    }

    fn report() -> Report {
        Report {
            functions: vec![
                func("ea", 40, &["leaf", "memcpy"], true),
                func("leaf", 100, &[], false),
                func("deep", 300, &[], false),
                func("eb", 20, &["k_fault"], false),
                func("k_fault", 0, &[], true),
                func(TASK_EXIT, 50, &[], false),
            ],
            warnings: Vec::new(),
        }
    }

    #[test]
    fn the_largest_reachable_need_rounded_up() {
        let m = manifest(&[("ea", &["deep"])]);
        let got = task_margins(&m, &report());
        assert_eq!(got[0].margin, Some(304), "{got:?}");
        assert_eq!(got[0].why, "deep");
        // b reaches only itself, the hook caller (its pointer calls are not followed) and
        // the task exit.
        assert_eq!(got[1].margin, Some(64), "{got:?}");
        assert_eq!(got[1].why, TASK_EXIT);
    }

    #[test]
    fn unchecked_functions_count_nothing_and_dynamic_sites_their_demand() {
        let mut r = report();
        r.functions[1].checked = false; // leaf: rolled into its caller
        r.functions[0].dynamic_need = 200;
        let got = task_margins(&manifest(&[("ea", &[])]), &r);
        assert_eq!((got[0].margin, got[0].why.as_str()), (Some(208), "ea"));
    }

    #[test]
    fn an_unlisted_indirect_call_gives_no_margin() {
        let got = task_margins(&manifest(&[]), &report());
        assert_eq!(got[0].margin, None);
        assert!(
            got[0].why.contains("ea calls through a pointer"),
            "{}",
            got[0].why
        );
        assert_eq!(got[1].margin, Some(64));
    }
}
