//! `cactus stack-report MANIFEST.toml`: compiles every C unit of a firmware (task sources and
//! the generated glue) to assembly with the firmware build's own flags and reports, per task,
//! the entry's worst-case stack depth against the manifest's stack budget.
//!
//! The kernel library's C sources are compiled too, with kernel/Makefile's own flags; its
//! hand-written assembly (`.S`: start-up, traps, context switch, the system-call entry
//! `port_syscall`) is not analysed, so a call into it makes an entry unbounded with the cause
//! `external callee NAME`.

use super::{depth_json, find};
use anyhow::{bail, Context, Result};
use cactus_analysis::{analyze, Depth, FunctionStack};
use cactus_asm::AsmFile;
use cactus_firmware::{assembly, find_root, toolchain::Toolchain, Manifest, Task};
use serde_json::json;
use std::path::Path;

/// Said once in every report (table and JSON).
const KERNEL_NOTE: &str = "kernel C sources are analysed with kernel/Makefile's flags; its \
                           assembly (.S) is not: calls into it are external callees";

/// Whether `budget` covers `depth`: None when the depth has no bound.
fn covers(budget: u32, depth: &Depth) -> Option<bool> {
    match depth {
        Depth::Bounded(n) => Some(*n <= budget),
        Depth::Unbounded(_) => None,
    }
}

/// The report of the firmware described by the manifest at `path`.
pub(super) fn report(path: &Path, entries: &[String], as_json: bool) -> Result<()> {
    let m = Manifest::load(path)?;
    let start = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let root = find_root(start)?;
    let dir = tempfile::tempdir().context("creating a directory for the assembly")?;
    let files = assembly(&m, &root, &Toolchain::default(), dir.path())
        .with_context(|| format!("compiling {} to assembly", path.display()))?;
    let mut parsed = Vec::new();
    for f in &files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        parsed.push(AsmFile::parse(&text, &name)?);
    }
    let report = analyze(&parsed);
    let mut rows: Vec<(&Task, &FunctionStack)> = Vec::new();
    for t in &m.tasks {
        let Some(f) = find(&report, &t.entry) else {
            bail!(
                "{}: task {}: entry {} is not defined in the task's sources",
                path.display(),
                t.name,
                t.entry
            );
        };
        rows.push((t, f));
    }
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
            "tasks": rows.iter().map(|(t, f)| json!({
                "task": t.name,
                "entry": t.entry,
                "budget": t.stack,
                "depth": depth_json(&f.depth),
                "covered": covers(t.stack, &f.depth),
            })).collect::<Vec<_>>(),
            "entries": extra.iter().map(|f| json!({
                "name": f.name,
                "depth": depth_json(&f.depth),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
        return Ok(());
    }
    print_tasks(&rows);
    println!("note: {KERNEL_NOTE}");
    for f in extra {
        println!("entry {}: {}", f.name, f.depth);
    }
    Ok(())
}

fn print_tasks(rows: &[(&Task, &FunctionStack)]) {
    let width = |get: fn(&Task) -> &str, title: &str| {
        rows.iter()
            .map(|(t, _)| get(t).len())
            .max()
            .unwrap_or(0)
            .max(title.len())
    };
    let tw = width(|t| &t.name, "task");
    let ew = width(|t| &t.entry, "entry");
    println!(
        "{:<tw$}  {:<ew$}  {:>6}  {:<7}  depth",
        "task", "entry", "budget", "covered"
    );
    for (t, f) in rows {
        let covered = match covers(t.stack, &f.depth) {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "unknown",
        };
        println!(
            "{:<tw$}  {:<ew$}  {:>6}  {:<7}  {}",
            t.name, t.entry, t.stack, covered, f.depth
        );
    }
}
