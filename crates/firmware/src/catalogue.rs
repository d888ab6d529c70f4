//! The workload catalogue: every manifest under `workloads/`, grouped by suite (the first
//! directory below `workloads/`), with its tasks, priorities, periods and stack budgets
//! (`cactus workloads list`).
//!
//! Guarantees: entries come sorted by path; every entry is a manifest that
//! [`crate::Manifest::load`] accepted (a broken manifest is an error naming it, not a
//! silently missing row); the size class is read from the manifest's `-DWL_SIZE=N` flag.

use crate::{Manifest, ManifestError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Why the catalogue could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    /// A directory under `workloads/` could not be listed.
    #[error("cannot read directory {path}: {source}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A manifest did not validate.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
}

/// Input size class of a workload firmware (`-DWL_SIZE=0` small, `1` full).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SizeClass {
    /// Small inputs (tests).
    Small,
    /// Full inputs (benchmarks).
    Full,
}

impl SizeClass {
    /// The lower-case name (`small`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small",
            SizeClass::Full => "full",
        }
    }

    /// The size class a manifest's flags select (the last `-DWL_SIZE=N`), if any.
    pub fn of_flags(flags: &[String]) -> Option<SizeClass> {
        flags
            .iter()
            .rev()
            .find_map(|f| match f.strip_prefix("-DWL_SIZE=") {
                Some("0") => Some(SizeClass::Small),
                Some("1") => Some(SizeClass::Full),
                _ => None,
            })
    }
}

/// One task of a catalogued manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskInfo {
    /// Task name.
    pub name: String,
    /// Entry function.
    pub entry: String,
    /// Priority (31 highest).
    pub priority: u8,
    /// Stack budget in bytes (guard included).
    pub stack: u32,
    /// Period in ms (periodic tasks).
    pub period_ms: Option<u32>,
}

/// One manifest of the catalogue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Suite: the first directory below `workloads/` (`mtss`, `ccs`, ...).
    pub suite: String,
    /// The manifest's path relative to `workloads/`.
    pub manifest: PathBuf,
    /// Firmware name.
    pub firmware: String,
    /// Size class, when the manifest sets `-DWL_SIZE`.
    pub size: Option<SizeClass>,
    /// Tasks in manifest order.
    pub tasks: Vec<TaskInfo>,
    /// Sum of the stack budgets, bytes.
    pub total_stack: u32,
}

impl Entry {
    /// Builds the entry of `manifest`, found at `rel` below the workloads directory.
    pub fn from_manifest(rel: &Path, manifest: &Manifest) -> Entry {
        let suite = rel
            .components()
            .next()
            .filter(|_| rel.components().count() > 1)
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let tasks: Vec<TaskInfo> = manifest
            .tasks
            .iter()
            .map(|t| TaskInfo {
                name: t.name.clone(),
                entry: t.entry.clone(),
                priority: t.priority,
                stack: t.stack,
                period_ms: t.period_ms,
            })
            .collect();
        Entry {
            suite,
            manifest: rel.to_path_buf(),
            firmware: manifest.name.clone(),
            size: SizeClass::of_flags(&manifest.cflags),
            total_stack: tasks.iter().map(|t| t.stack).sum(),
            tasks,
        }
    }
}

/// Every `.toml` file below `dir` (recursively), sorted.
pub fn manifest_paths(dir: &Path) -> Result<Vec<PathBuf>, CatalogueError> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let entries = std::fs::read_dir(&d).map_err(|source| CatalogueError::Io {
            path: d.clone(),
            source,
        })?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                pending.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The catalogue of every manifest below `workloads_dir`, sorted by path.
pub fn discover(workloads_dir: &Path) -> Result<Vec<Entry>, CatalogueError> {
    manifest_paths(workloads_dir)?
        .into_iter()
        .map(|p| {
            let m = Manifest::load(&p)?;
            let rel = p.strip_prefix(workloads_dir).unwrap_or(&p).to_path_buf();
            Ok(Entry::from_manifest(&rel, &m))
        })
        .collect()
}

/// Keeps the entries of `suite` (all when None) and of `size` (all when None).
pub fn select(entries: Vec<Entry>, suite: Option<&str>, size: Option<SizeClass>) -> Vec<Entry> {
    entries
        .into_iter()
        .filter(|e| suite.is_none_or(|s| e.suite == s))
        .filter(|e| size.is_none() || e.size == size)
        .collect()
}

/// The catalogue as a terminal table: one block per manifest, one line per task.
pub fn render(entries: &[Entry]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut suite = "";
    for e in entries {
        if e.suite != suite {
            suite = &e.suite;
            let n = entries.iter().filter(|x| x.suite == suite).count();
            let _ = writeln!(out, "suite {suite} ({n} manifests)");
        }
        let size = e.size.map_or("-", SizeClass::name);
        let _ = writeln!(
            out,
            "  {:<40} {:<26} size {:<5} {:>2} tasks  total stack {:>6} B",
            e.manifest.display(),
            e.firmware,
            size,
            e.tasks.len(),
            e.total_stack
        );
        for t in &e.tasks {
            let period = t.period_ms.map_or("-".to_string(), |p| format!("{p} ms"));
            let _ = writeln!(
                out,
                "      {:<16} prio {:>2}  stack {:>6} B  period {:>6}  {}",
                t.name, t.priority, t.stack, period, t.entry
            );
        }
    }
    out
}

#[cfg(test)]
mod tests;
