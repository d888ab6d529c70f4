//! The build-time refusal of SRP jobs that can block (docs/srp.md): under the srp scheduler
//! every task is a job that must run to completion on the shared stack, so `cactus build`
//! follows the firmware's whole-program call graph from every job's entry and refuses the
//! manifest when a path reaches a kernel call that can block or end the dispatcher, naming
//! the task, the call and the path. Indirect calls follow the task's `stack_calls`
//! annotations (a GCC clone such as `f.isra.0` takes `f`'s); an indirect call without one is
//! refused with the annotation to write.
//!
//! Guarantees: a manifest accepted here has no job from which a direct call path, or an
//! annotated indirect one, reaches a blocking call with a timeout that is not the constant
//! `CACTUS_NO_WAIT` (0) loaded right before the call in the same block. The check trusts the
//! annotations, as `cactus stack-report` does.

use crate::manifest::{Manifest, Task};
use cactus_asm::callgraph::Target;
use cactus_asm::file::Item;
use cactus_asm::{AsmFile, CallGraph};
use std::collections::BTreeMap;

/// Kernel calls a job must not make, with the argument register holding their timeout (None:
/// the call blocks or ends the caller whatever its arguments).
pub const BLOCKING_CALLS: &[(&str, Option<&str>)] = &[
    ("cactus_sleep", None),
    ("cactus_sleep_until", None),
    ("cactus_sem_take", Some("a1")),
    ("cactus_mutex_lock", Some("a1")),
    ("cactus_queue_send", Some("a2")),
    ("cactus_queue_recv", Some("a2")),
    ("cactus_pool_alloc_slow", Some("a1")),
    ("cactus_event_wait", Some("a3")),
    ("cactus_notify_wait", Some("a3")),
    ("cactus_notify_take", Some("a1")),
    ("cactus_task_exit", None),
    ("cactus_task_suspend", None),
    ("cactus_task_kill", None),
    ("cactus_task_restart", None),
];

/// SRP calls that may start other jobs (nested, through the kernel's dispatcher): their jobs
/// are checked from their own entries, so the walk does not descend into them.
pub const JOB_BOUNDARIES: &[&str] = &["cactus_srp_release", "cactus_srp_unlock"];

/// Why a job cannot run under SRP.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JobRefusal {
    /// A call path from the job reaches a blocking call.
    #[error(
        "task {task} cannot run under the srp scheduler: its job can block in {call} \
         (call path: {}); a job must run to completion: {}, or use kernel.scheduler = \
         \"preemptive\"",
        path.join(" -> "),
        advice(call)
    )]
    Blocks {
        /// The manifest task.
        task: String,
        /// The blocking kernel call.
        call: String,
        /// The functions from the job's entry to the call.
        path: Vec<String>,
    },
    /// An indirect call the analysis cannot resolve.
    #[error(
        "task {task}: the job's call path {} makes an indirect call in {function} that the \
         analysis cannot follow; name its targets in the task's stack_calls, e.g. \
         stack_calls = {{ {function} = [\"target_a\", \"target_b\"] }}",
        path.join(" -> ")
    )]
    Unresolved {
        /// The manifest task.
        task: String,
        /// The function with the indirect call.
        function: String,
        /// The functions from the job's entry to it.
        path: Vec<String>,
    },
    /// A unit's assembly could not be parsed for the call graph.
    #[error("cannot read the assembly of {unit} for the srp job check: {error}")]
    Parse {
        /// The unit.
        unit: String,
        /// The parser's message.
        error: String,
    },
    /// The job's entry function is defined in none of the firmware's C units.
    #[error("task {task}: its entry {entry} is defined in none of the firmware's C sources")]
    NoEntry {
        /// The manifest task.
        task: String,
        /// The entry named in the manifest.
        entry: String,
    },
}

/// What a job can do instead of `call`.
fn advice(call: &str) -> &'static str {
    match BLOCKING_CALLS.iter().find(|(name, _)| *name == call) {
        Some((_, Some(_))) => "make the call with CACTUS_NO_WAIT (it then never blocks)",
        Some((name, None)) if name.starts_with("cactus_sleep") => {
            "give the job a period_ms instead of sleeping"
        }
        _ => "return from the job instead (a job ends by returning; the dispatcher is the only kernel task)",
    }
}

/// Checks every job of the SRP manifest `m` over the firmware's C units as assembly `files`
/// (task sources, generated glue, kernel). Ok for a manifest without SRP.
pub fn check_jobs(m: &Manifest, files: &[AsmFile]) -> Result<(), JobRefusal> {
    if m.srp.is_none() {
        return Ok(());
    }
    let graph = CallGraph::build(files);
    let functions: Vec<_> = files.iter().map(|f| f.functions()).collect();
    for t in &m.tasks {
        check_job(t, files, &functions, &graph)?;
    }
    Ok(())
}

fn check_job(
    t: &Task,
    files: &[AsmFile],
    functions: &[Vec<cactus_asm::Function>],
    g: &CallGraph,
) -> Result<(), JobRefusal> {
    let blocking: BTreeMap<&str, Option<&str>> = BLOCKING_CALLS.iter().copied().collect();
    let Some(root) = g.find(&t.entry) else {
        return Err(JobRefusal::NoEntry {
            task: t.name.clone(),
            entry: t.entry.clone(),
        });
    };
    // Depth-first over the call graph, remembering each node's parent for the path.
    let mut parent: Vec<Option<usize>> = vec![None; g.nodes.len()];
    let mut seen = vec![false; g.nodes.len()];
    let mut stack = vec![root];
    seen[root] = true;
    let path_to = |n: usize, parent: &[Option<usize>]| {
        let mut p = vec![g.nodes[n].name.clone()];
        let mut at = n;
        while let Some(up) = parent[at] {
            p.push(g.nodes[up].name.clone());
            at = up;
        }
        p.reverse();
        p
    };
    while let Some(n) = stack.pop() {
        let name = g.nodes[n].name.as_str();
        let mut next: Vec<usize> = Vec::new();
        for edge in &g.calls[n] {
            let callee = match &edge.target {
                Target::Func(c) => g.nodes[*c].name.clone(),
                Target::External(c) => c.clone(),
                Target::Indirect => {
                    // GCC's clones (f.isra.0, f.constprop.0, f.part.0) take f's annotation.
                    let base = name.split('.').next().unwrap_or(name);
                    let targets = t
                        .stack_calls
                        .get(name)
                        .or_else(|| t.stack_calls.get(base))
                        .or_else(|| t.stack_calls.get("*"));
                    let Some(targets) = targets else {
                        return Err(JobRefusal::Unresolved {
                            task: t.name.clone(),
                            function: name.to_string(),
                            path: path_to(n, &parent),
                        });
                    };
                    for target in targets {
                        if let Some(&reg) = blocking.get(target.as_str()) {
                            let _ = reg; // through a pointer: no argument to look at
                            let mut path = path_to(n, &parent);
                            path.push(target.clone());
                            return Err(JobRefusal::Blocks {
                                task: t.name.clone(),
                                call: target.clone(),
                                path,
                            });
                        }
                        if let Some(c) = g.find(target) {
                            next.push(c);
                        }
                    }
                    continue;
                }
            };
            if let Some(&reg) = blocking.get(callee.as_str()) {
                let non_blocking = reg.is_some_and(|r| {
                    let file = &files[g.nodes[n].file];
                    let f = functions[g.nodes[n].file].iter().find(|f| f.name == name);
                    f.is_some_and(|f| zero_before(file, f.start, edge.entry, r))
                });
                if !non_blocking {
                    let mut path = path_to(n, &parent);
                    path.push(callee);
                    return Err(JobRefusal::Blocks {
                        task: t.name.clone(),
                        call: path.last().cloned().unwrap_or_default(),
                        path,
                    });
                }
                continue;
            }
            if JOB_BOUNDARIES.contains(&callee.as_str()) {
                continue;
            }
            if let Target::Func(c) = edge.target {
                next.push(c);
            }
        }
        for c in next {
            if !seen[c] {
                seen[c] = true;
                parent[c] = Some(n);
                stack.push(c);
            }
        }
    }
    Ok(())
}

/// Whether register `reg` holds the constant 0 at the call at entry `call` of `file`: the
/// last instruction before it, in the same basic block (no label or call in between), that
/// writes `reg` is `li reg,0` or `mv reg,zero`.
fn zero_before(file: &AsmFile, start: usize, call: usize, reg: &str) -> bool {
    let Some(r) = cactus_isa::parse_reg(reg) else {
        return false;
    };
    for i in (start..call).rev() {
        match &file.entries[i].item {
            Item::Label(_) => return false,
            Item::Inst(s) => {
                let text: String = s.to_string().split_whitespace().collect();
                if text.starts_with("call") || text.starts_with("jal") || text.starts_with("tail") {
                    return false;
                }
                if s.writes().contains(r) {
                    return text == format!("li{reg},0") || text == format!("mv{reg},zero");
                }
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str) -> AsmFile {
        AsmFile::parse(text, "t.s").unwrap()
    }

    fn func(name: &str, body: &str) -> String {
        format!("\t.globl\t{name}\n\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
    }

    #[test]
    fn a_zero_timeout_loaded_before_the_call_is_not_blocking() {
        let f = file(&func("j", "\tli\ta1,0\n\tcall\tcactus_sem_take\n\tret\n"));
        let fs = f.functions();
        assert!(zero_before(&f, fs[0].start, fs[0].start + 2, "a1"));
        let f = file(&func("j", "\tli\ta1,5\n\tcall\tcactus_sem_take\n\tret\n"));
        let fs = f.functions();
        assert!(!zero_before(&f, fs[0].start, fs[0].start + 2, "a1"));
        let f = file(&func(
            "j",
            "\tli\ta1,0\n.L2:\n\tcall\tcactus_sem_take\n\tret\n",
        ));
        let fs = f.functions();
        assert!(!zero_before(&f, fs[0].start, fs[0].start + 3, "a1"));
    }
}
