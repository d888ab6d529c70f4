//! `cactus stack-report` for an SRP firmware (`kernel.scheduler = "srp"`, docs/srp.md): one
//! row per job, from its entry (a job returns to the dispatcher, never to
//! `cactus_task_exit`), and a last row `srp`, the shared stack, computed from the code: the
//! dispatcher's own depth up to its call of a job, then for every preemption level (jobs nest
//! only at rising levels, so at most one job per level is on the stack) the deepest job of that
//! level, and for every level above the lowest the deepest way a job is started nested (from a
//! job through `cactus_srp_release`/`cactus_srp_unlock`, or from a trap: the kernel's frame
//! and the `port_srp_preempt` trampoline's call of `k_srp_preempted`), plus the deepest kernel-entry routine.

use super::tasks::{row, TaskRow};
use anyhow::{anyhow, Result};
use cactus_analysis::{Annotations, Depth, EntryDepth, Program, Unbounded};
use cactus_firmware::codegen::SRP_TASK_NAME;
use cactus_firmware::manifest::SRP_TRAP_FRAME as TRAP_FRAME;
use cactus_firmware::{Manifest, Srp};
use std::collections::BTreeMap;
use std::path::Path;

/// The dispatcher task's entry (kernel/core/srp.c).
const MAIN: &str = "cactus_srp_main";
/// The kernel function whose indirect call runs a job (kernel/core/srp.c).
const DISPATCH: &str = "dispatch";
/// The ways a job is started nested on a running one, with the bytes pushed before each: from
/// a job, and from a trap (the kernel's frame, then `port_srp_preempt`, whose first
/// instruction calls `k_srp_preempted` at the frame's sp).
const NESTED_STARTS: [(&str, u32); 3] = [
    ("cactus_srp_release", 0),
    ("cactus_srp_unlock", 0),
    ("k_srp_preempted", TRAP_FRAME),
];

/// The job rows and the shared stack's row of the SRP firmware `m`.
pub(super) fn rows(
    path: &Path,
    m: &Manifest,
    srp: &Srp,
    program: &Program,
    trap: &Result<(u32, String), Unbounded>,
) -> Result<Vec<TaskRow>> {
    let mut rows = Vec::new();
    for t in &m.tasks {
        // A job's own row stops where the dispatcher would start another job (that job's
        // frames are its own row's; the shared stack's row adds them up).
        let mut calls = t.stack_calls.clone();
        calls.entry(DISPATCH.to_string()).or_default();
        let ann = Annotations {
            calls,
            recursion: t.stack_recursion.clone(),
        };
        let e = program
            .entry(&t.entry, &ann)
            .map_err(|e| anyhow!("{}: task {}: {e}", path.display(), t.name))?
            .ok_or_else(|| {
                anyhow!(
                    "{}: task {}: entry {} is not defined in the firmware's C",
                    path.display(),
                    t.name,
                    t.entry
                )
            })?;
        rows.push(row(&t.name, &t.entry, t.entry.clone(), t.stack, e, trap));
    }
    let shared = shared_stack(m, srp, program, &rows)?;
    rows.push(row(
        SRP_TASK_NAME,
        MAIN,
        MAIN.to_string(),
        srp.stack,
        shared,
        trap,
    ));
    Ok(rows)
}

/// The depth of kernel routine `name` with the dispatcher's call of a job going nowhere.
fn kernel_depth(program: &Program, name: &str) -> Result<Depth> {
    let ann = Annotations {
        calls: BTreeMap::from([(DISPATCH.to_string(), Vec::new())]),
        recursion: BTreeMap::new(),
    };
    let e = program
        .entry(name, &ann)
        .map_err(|e| anyhow!("{name}: {e}"))?
        .ok_or_else(|| anyhow!("{name} is not defined in the firmware (no SRP kernel?)"))?;
    Ok(e.depth)
}

/// The shared stack's bound (without the kernel-entry routines, which [`row`] adds).
fn shared_stack(
    m: &Manifest,
    srp: &Srp,
    program: &Program,
    jobs: &[TaskRow],
) -> Result<EntryDepth> {
    let unbounded = |why: Unbounded| EntryDepth {
        depth: Depth::Unbounded(why),
        path: Vec::new(),
    };
    let base = match kernel_depth(program, MAIN)? {
        Depth::Bounded(d) => d,
        Depth::Unbounded(why) => return Ok(unbounded(why)),
    };
    let mut nested = 0;
    for (name, pushed) in NESTED_STARTS {
        match kernel_depth(program, name)? {
            Depth::Bounded(d) => nested = nested.max(d + pushed),
            Depth::Unbounded(why) => return Ok(unbounded(why)),
        }
    }
    // The deepest job of each level (job rows include the trap routine: take it back out).
    let mut levels: BTreeMap<u8, u32> = BTreeMap::new();
    for ((_, r), level) in m.tasks.iter().zip(jobs).zip(&srp.levels) {
        match &r.depth {
            Depth::Bounded(d) => {
                let own = d - r.trap.0;
                let e = levels.entry(*level).or_insert(0);
                *e = (*e).max(own);
            }
            Depth::Unbounded(why) => return Ok(unbounded(why.clone())),
        }
    }
    let jobs_sum: u32 = levels.values().sum();
    let starts = (levels.len() as u32).saturating_sub(1) * nested;
    Ok(EntryDepth {
        depth: Depth::Bounded(base + jobs_sum + starts),
        path: Vec::new(),
    })
}
