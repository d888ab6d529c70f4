//! `cactus stack-report MANIFEST.toml`: compiles every C unit of a firmware (task sources and
//! the generated glue) to assembly with the firmware build's own flags and reports, per task,
//! the worst-case stack depth of what runs on its stack ([`task_rows`]: the generated wrapper,
//! the kernel code it calls, the kernel entries) against the manifest's stack budget.
//!
//! The kernel library's C sources are compiled too, with kernel/Makefile's own flags. Callees
//! the assembly does not define take their depth from machine code ([`machine`]): the kernel's
//! hand-written assembly (`.S`: the system-call entry `port_syscall`, `port_yield`, ...) from
//! the kernel library the firmware links, libgcc and picolibc from the toolchain's archives.
//! Routines that switch to the kernel stack declare their depth on the caller's stack in a
//! `.cactus.stack_depth` section, which the analysis checks against their code.

use super::irq::interrupt_stack;
use super::machine::machine_depths;
use super::output::{irq_json, print_irq, print_rows, row_json};
use super::tasks::task_rows;
use super::{depth_json, find};
use crate::cmd::firmware_asm::compile;
use anyhow::{bail, Result};
use cactus_analysis::machine::MachineDepth;
use cactus_analysis::{analyze_with_externals, FunctionStack, Program};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// Said once in every report (table and JSON).
const KERNEL_NOTE: &str = "C (tasks, glue, kernel with kernel/Makefile's flags) is analysed as \
                           assembly; kernel .S code and libgcc/picolibc from machine code; the \
                           fault and halt hooks (indirect calls in k_fault, k_halt, k_stop, \
                           k_stack_check_failed) count as 0, as in docs/kernel.md \"Footprint\"";

/// The report of the firmware described by the manifest at `path`: per task ([`task_rows`]),
/// then the machine-code callees used and each `--entry`; with `show_path`, each task's
/// worst-case call path under its row.
pub(super) fn report(
    path: &Path,
    entries: &[String],
    as_json: bool,
    show_path: bool,
) -> Result<()> {
    let fw = compile(path)?;
    let (m, root, tc, parsed) = (&fw.manifest, &fw.root, &fw.toolchain, &fw.files);
    let machine = machine_depths(m, root, tc, parsed)?;
    let report = analyze_with_externals(parsed, &machine.depths);
    let used = machine_callees(&report, &machine.depths);
    let program = Program::new(parsed, &machine.depths);
    let rows = task_rows(path, m, &program, &machine.depths)?;
    let irq = interrupt_stack(m, &program, report.iter().map(|f| f.name.as_str()))?;
    let mut extra = Vec::new();
    for name in entries {
        let Some(f) = find(&report, name) else {
            bail!("--entry {name}: no such function in {}", path.display());
        };
        extra.push(f);
    }
    if as_json {
        let doc = json!({
            "manifest": path.display().to_string(),
            "kernel": KERNEL_NOTE,
            "kernel_library": machine.kernel_library.display().to_string(),
            "machine_code": used.iter().map(|(n, d)| (n.to_string(), machine_json(d)))
                .collect::<Map<String, Value>>(),
            "tasks": rows.iter().map(row_json).collect::<Vec<_>>(),
            "interrupt_stack": irq.as_ref().map(irq_json),
            "entries": extra.iter().map(|f| json!({
                "name": f.name,
                "depth": depth_json(&f.depth),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    print_rows(&rows, show_path);
    if let Some(irq) = &irq {
        print_irq(irq, show_path);
    }
    println!("note: {KERNEL_NOTE}");
    if !used.is_empty() {
        let list: Vec<String> = used.iter().map(|(n, d)| format!("{n} {d}")).collect();
        println!("machine code: {}", list.join(", "));
    }
    for f in extra {
        println!("entry {}: {}", f.name, f.depth);
    }
    Ok(())
}

/// Each manifest task's worst-case stack depth (manifest order; the timer task is left out),
/// None where it has no static bound: the `depth` column of the report of [`report`].
pub(crate) fn task_bounds(path: &Path) -> Result<Vec<Option<u32>>> {
    let fw = compile(path)?;
    let (m, root, tc, parsed) = (&fw.manifest, &fw.root, &fw.toolchain, &fw.files);
    let machine = machine_depths(m, root, tc, parsed)?;
    let program = Program::new(parsed, &machine.depths);
    let rows = task_rows(path, m, &program, &machine.depths)?;
    Ok(rows
        .iter()
        .take(m.tasks.len())
        .map(|r| match r.depth {
            cactus_analysis::Depth::Bounded(n) => Some(n),
            cactus_analysis::Depth::Unbounded(_) => None,
        })
        .collect())
}

/// The static bound of all the stack memory the firmware's tasks use at once: under SRP the
/// shared stack's row, else every task's bound summed (the timer task's included); None when
/// any of them is unbounded.
pub(crate) fn total_bound(path: &Path) -> Result<Option<u32>> {
    let fw = compile(path)?;
    let (m, root, tc, parsed) = (&fw.manifest, &fw.root, &fw.toolchain, &fw.files);
    let machine = machine_depths(m, root, tc, parsed)?;
    let program = Program::new(parsed, &machine.depths);
    let rows = task_rows(path, m, &program, &machine.depths)?;
    let bound = |r: &super::tasks::TaskRow| match r.depth {
        cactus_analysis::Depth::Bounded(n) => Some(n),
        cactus_analysis::Depth::Unbounded(_) => None,
    };
    Ok(if m.srp.is_some() {
        rows.last().and_then(bound)
    } else {
        rows.iter().map(bound).sum()
    })
}

/// The callees of `report` that no analysed assembly defines but `depths` lists, with their
/// depths (by name).
fn machine_callees<'d>(
    report: &[FunctionStack],
    depths: &'d BTreeMap<String, MachineDepth>,
) -> BTreeMap<String, &'d MachineDepth> {
    let mut used = BTreeMap::new();
    for f in report {
        for callee in &f.callees {
            let name = callee.trim_end_matches(" (tail)");
            if find(report, name).is_none() {
                if let Some(d) = depths.get(name) {
                    used.insert(name.to_string(), d);
                }
            }
        }
    }
    used
}

/// `{"bounded": N}` or `{"unbounded": "reason"}`, as for assembly depths.
fn machine_json(d: &MachineDepth) -> Value {
    match d {
        MachineDepth::Bytes(n) => json!({ "bounded": n }),
        MachineDepth::Unbounded(why) => json!({ "unbounded": why }),
    }
}
