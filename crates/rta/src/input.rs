//! Task sets as TOML: parsing (every error names the file, the line and the key) and writing
//! (what [`parse`] reads back to the same set). docs/rta.md describes the format:
//!
//! ```toml
//! [system]            # optional, every key optional
//! cs1 = 401           # CS¹, cycles (default 0)
//! cs2 = 387           # CS², cycles (default 0)
//! carousel_cs = 4321  # longest Carousel critical section (blocks all but the lowest task)
//! clock_hz = 100000000
//!
//! [[task]]
//! name = "a"
//! wcet = 3000         # C_i, cycles
//! period = 7000       # T_i
//! deadline = 7000     # D_i (default T_i, at most T_i)
//! priority = 3        # unique; higher number = higher priority
//! blocking = 0        # optional explicit B_i (else from the critical sections)
//! offset = 0          # optional, at most T_i (not used by the analysis)
//! [[task.critical]]   # optional critical sections (SRP)
//! resource = "uart"
//! cycles = 200
//! ```

use crate::model::{CriticalSection, SetError, System, Task, TaskSet};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A task-set file that cannot be read or does not describe a valid task set.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file cannot be read.
    #[error("cannot read task set {}: {error}", path.display())]
    Io {
        /// The path as given.
        path: PathBuf,
        /// The underlying error (part of the message, not the source, so it prints once).
        error: std::io::Error,
    },
    /// The file is malformed or fails a check.
    #[error("{file}{}: {}{problem}", line.map(|l| format!(":{l}")).unwrap_or_default(),
        if key.is_empty() { String::new() } else { format!("`{key}`: ") })]
    Invalid {
        /// The file's path.
        file: String,
        /// 1-based line of the offending value, when known.
        line: Option<usize>,
        /// Key path such as `task[1].period` (empty for the whole document).
        key: String,
        /// What is wrong.
        problem: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    #[serde(default)]
    system: Option<RawSystem>,
    #[serde(default)]
    task: Vec<RawTask>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    #[serde(default)]
    cs1: Option<Spanned<i64>>,
    #[serde(default)]
    cs2: Option<Spanned<i64>>,
    #[serde(default)]
    carousel_cs: Option<Spanned<i64>>,
    #[serde(default)]
    clock_hz: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTask {
    name: Spanned<String>,
    wcet: Spanned<i64>,
    period: Spanned<i64>,
    #[serde(default)]
    deadline: Option<Spanned<i64>>,
    priority: Spanned<i64>,
    #[serde(default)]
    blocking: Option<Spanned<i64>>,
    #[serde(default)]
    offset: Option<Spanned<i64>>,
    #[serde(default)]
    critical: Vec<RawCritical>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCritical {
    resource: Spanned<String>,
    cycles: Spanned<i64>,
}

/// Reads and parses the task set at `path`.
pub fn load(path: &Path) -> Result<TaskSet, InputError> {
    let text = std::fs::read_to_string(path).map_err(|error| InputError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    parse(&text, &path.display().to_string())
}

/// Parses `text` (the contents of `file`, named in errors) as a task set with unique
/// priorities.
pub fn parse(text: &str, file: &str) -> Result<TaskSet, InputError> {
    let cx = Cx { text, file };
    let raw: RawSet =
        serde_path_to_error::deserialize(toml::Deserializer::new(text)).map_err(|e| {
            let key = clean_key(&e.path().to_string());
            let inner = e.into_inner();
            cx.err(inner.span(), &key, inner.message().trim_end())
        })?;
    let system = match &raw.system {
        None => System::default(),
        Some(s) => System {
            cs1: cx.opt(&s.cs1, "system.cs1", 0)?.unwrap_or(0),
            cs2: cx.opt(&s.cs2, "system.cs2", 0)?.unwrap_or(0),
            carousel_cs: cx.opt(&s.carousel_cs, "system.carousel_cs", 0)?,
            clock_hz: cx.opt(&s.clock_hz, "system.clock_hz", 1)?,
        },
    };
    let mut tasks = Vec::with_capacity(raw.task.len());
    for (i, t) in raw.task.iter().enumerate() {
        let key = |k: &str| format!("task[{i}].{k}");
        let period = cx.int(&t.period, &key("period"), 1)?;
        let critical = t
            .critical
            .iter()
            .enumerate()
            .map(|(k, c)| {
                Ok(CriticalSection {
                    resource: c.resource.get_ref().clone(),
                    cycles: cx.int(&c.cycles, &key(&format!("critical[{k}].cycles")), 0)?,
                })
            })
            .collect::<Result<Vec<_>, InputError>>()?;
        let priority = cx.int(&t.priority, &key("priority"), 0)?;
        let priority = u32::try_from(priority).map_err(|_| {
            cx.at(
                &t.priority,
                &key("priority"),
                format!("{priority} does not fit 32 bits"),
            )
        })?;
        tasks.push(Task {
            name: t.name.get_ref().clone(),
            wcet: cx.int(&t.wcet, &key("wcet"), 1)?,
            period,
            deadline: cx.opt(&t.deadline, &key("deadline"), 1)?.unwrap_or(period),
            priority,
            blocking: cx.opt(&t.blocking, &key("blocking"), 0)?,
            offset: cx.opt(&t.offset, &key("offset"), 0)?.unwrap_or(0),
            critical,
        });
    }
    let set = TaskSet::new(system, tasks).map_err(|e| cx.set_error(&raw, e))?;
    set.require_unique_priorities()
        .map_err(|e| cx.set_error(&raw, e))?;
    Ok(set)
}

/// The set as TOML that [`parse`] reads back to an equal set.
pub fn to_toml(set: &TaskSet) -> String {
    #[derive(Serialize)]
    struct OutSet<'a> {
        system: &'a System,
        task: Vec<OutTask<'a>>,
    }
    #[derive(Serialize)]
    struct OutTask<'a> {
        name: &'a str,
        wcet: u64,
        period: u64,
        deadline: u64,
        priority: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        blocking: Option<u64>,
        offset: u64,
        #[serde(skip_serializing_if = "<[_]>::is_empty")]
        critical: &'a [CriticalSection],
    }
    let out = OutSet {
        system: set.system(),
        task: set
            .tasks()
            .iter()
            .map(|t| OutTask {
                name: &t.name,
                wcet: t.wcet,
                period: t.period,
                deadline: t.deadline,
                priority: t.priority,
                blocking: t.blocking,
                offset: t.offset,
                critical: &t.critical,
            })
            .collect(),
    };
    // Every value is a string or an integer below 2^63 (they came from TOML or the
    // generator's checked arithmetic), so serialization cannot fail.
    toml::to_string(&out).expect("a task set serializes to TOML")
}

struct Cx<'a> {
    text: &'a str,
    file: &'a str,
}

impl Cx<'_> {
    fn err(&self, span: Option<Range<usize>>, key: &str, problem: impl Into<String>) -> InputError {
        InputError::Invalid {
            file: self.file.to_string(),
            line: span.map(|s| {
                self.text[..s.start.min(self.text.len())]
                    .matches('\n')
                    .count()
                    + 1
            }),
            key: key.to_string(),
            problem: problem.into(),
        }
    }

    fn at<T>(&self, v: &Spanned<T>, key: &str, problem: impl Into<String>) -> InputError {
        self.err(Some(v.span()), key, problem)
    }

    /// A whole number of cycles at least `min`.
    fn int(&self, v: &Spanned<i64>, key: &str, min: u64) -> Result<u64, InputError> {
        let x = *v.get_ref();
        match u64::try_from(x) {
            Ok(u) if u >= min => Ok(u),
            _ => Err(self.at(v, key, format!("{x} is out of range (at least {min})"))),
        }
    }

    fn opt(
        &self,
        v: &Option<Spanned<i64>>,
        key: &str,
        min: u64,
    ) -> Result<Option<u64>, InputError> {
        v.as_ref().map(|v| self.int(v, key, min)).transpose()
    }

    /// A [`SetError`] located at the value it names.
    fn set_error(&self, raw: &RawSet, e: SetError) -> InputError {
        let Some(i) = e.task else {
            let span = match e.key.as_str() {
                "system.clock_hz" => raw
                    .system
                    .as_ref()
                    .and_then(|s| s.clock_hz.as_ref())
                    .map(Spanned::span),
                _ => None,
            };
            return self.err(span, &e.key, e.problem);
        };
        let t = &raw.task[i];
        let critical = |k: usize, cycles: bool| {
            t.critical.get(k).map(|c| {
                if cycles {
                    c.cycles.span()
                } else {
                    c.resource.span()
                }
            })
        };
        let span = match e.key.as_str() {
            "wcet" => Some(t.wcet.span()),
            "period" => Some(t.period.span()),
            "priority" => Some(t.priority.span()),
            "deadline" => t.deadline.as_ref().map(Spanned::span),
            "offset" => t.offset.as_ref().map(Spanned::span),
            k => k
                .strip_prefix("critical[")
                .and_then(|rest| rest.split_once(']'))
                .and_then(|(n, field)| critical(n.parse().ok()?, field == ".cycles")),
        }
        .unwrap_or_else(|| t.name.span());
        self.err(Some(span), &format!("task[{i}].{}", e.key), e.problem)
    }
}

/// A serde key path without toml's private `Spanned` segments ("." for the root becomes "").
fn clean_key(path: &str) -> String {
    if path == "." {
        return String::new();
    }
    path.split('.')
        .filter(|seg| !seg.starts_with("$__serde_spanned"))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests;
