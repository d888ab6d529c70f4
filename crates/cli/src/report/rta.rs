//! What `cactus rta` shows: the per-task table (as text or Markdown), the set's verdict and the
//! notes under it, the JSON document and the one-line summary; for a `--manifest` run also
//! what was measured per task and the check of the verdicts against the run's deadline misses.

use super::text_table::{Align, TextTable};
use cactus_rta::{Analysis, TaskResult, TaskSet};
use cactus_sim::jobs::Job;
use cactus_sweep::table::Table;
use serde_json::{json, Value};
use std::fmt::Write;

/// What a `--manifest` run measured for one periodic task.
pub struct Measured {
    /// Its finished jobs (the start delay's stretch left out).
    pub jobs: Vec<Job>,
    /// The run ended inside one of its jobs.
    pub unfinished: bool,
    /// Releases the generated wrapper counted.
    pub releases: Option<u32>,
    /// Deadline misses the generated wrapper counted (tasks with `deadline_ms` only).
    pub misses: Option<u32>,
}

impl Measured {
    /// The shortest job's execution time (0 without a job).
    pub fn bcet(&self) -> u64 {
        self.jobs.iter().map(|j| j.execution).min().unwrap_or(0)
    }

    /// The longest response from a wake-up to the job's end, if any job had a wake-up.
    pub fn max_response(&self) -> Option<u64> {
        self.jobs.iter().filter_map(|j| j.response).max()
    }

    /// Fewer finished jobs than releases (the unfinished one aside): a job that ended after
    /// its next release ran straight on into the next job and was measured with it.
    pub fn merged(&self) -> bool {
        self.releases.is_some_and(|r| {
            (self.jobs.len() as u64) < u64::from(r).saturating_sub(u64::from(self.unfinished))
        })
    }
}

/// The verdicts against the run.
pub struct Check {
    /// Deadline misses in the run, all tasks.
    pub misses: u64,
    /// Tasks the analysis calls schedulable that missed a deadline.
    pub contradicted: Vec<String>,
    /// Tasks the analysis calls schedulable whose longest observed response exceeds R_i.
    pub observed_above: Vec<String>,
    /// Tasks with jobs measured together ([`Measured::merged`]).
    pub merged: Vec<String>,
}

impl Check {
    /// Of `analysis` against `measured` (one per task, in order).
    pub fn new(analysis: &Analysis, measured: &[Measured]) -> Check {
        let pairs = || analysis.tasks.iter().zip(measured);
        let names = |keep: &dyn Fn(&TaskResult, &Measured) -> bool| -> Vec<String> {
            pairs()
                .filter(|(t, m)| keep(t, m))
                .map(|(t, _)| t.name.clone())
                .collect()
        };
        Check {
            misses: measured
                .iter()
                .filter_map(|m| m.misses)
                .map(u64::from)
                .sum(),
            contradicted: names(&|t, m| t.schedulable() && m.misses.is_some_and(|n| n > 0)),
            observed_above: names(&|t, m| {
                t.schedulable() && m.max_response().is_some_and(|r| r > t.response_cycles())
            }),
            merged: names(&|_, m| m.merged()),
        }
    }

    /// No contradiction.
    pub fn agree(&self) -> bool {
        self.contradicted.is_empty()
    }

    /// The check as JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "deadline_misses": self.misses,
            "contradicted": self.contradicted,
            "agree": self.agree(),
            "observed_response_above_analysis": self.observed_above,
            "jobs_measured_together": self.merged,
        })
    }
}

/// The analysis as JSON (the caller adds `source`, `generated`, `check`).
pub fn to_json(set: &TaskSet, a: &Analysis, measured: Option<&[Measured]>) -> Value {
    let s = set.system();
    let tasks: Vec<Value> = a
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut v = json!({
                "name": t.name, "priority": t.priority, "wcet": t.wcet, "period": t.period,
                "deadline": t.deadline, "blocking": t.blocking, "offset": set.tasks()[i].offset,
                "response_cycles": t.schedulable().then(|| t.response_cycles()),
                "first_above_deadline": (!t.schedulable()).then(|| t.response_cycles()),
                "slack_cycles": t.slack(), "schedulable": t.schedulable(),
                "iterations": t.iterations,
            });
            if let Some(m) = measured.map(|m| &m[i]) {
                v["measured"] = json!({
                    "jobs": m.jobs.len(), "unfinished": m.unfinished, "wcet": t.wcet,
                    "bcet": m.bcet(), "max_response": m.max_response(),
                    "releases": m.releases, "deadline_misses": m.misses,
                    "preemptions": m.jobs.iter().map(|j| u64::from(j.preemptions)).sum::<u64>(),
                });
            }
            v
        })
        .collect();
    json!({
        "equation": a.equation.number(),
        "cs1": a.cs1,
        "cs2": a.cs2,
        "carousel_cs": s.carousel_cs,
        "clock_hz": s.clock_hz,
        "utilisation": set.utilisation(),
        "schedulable": a.schedulable(),
        "worst_slack_cycles": a.worst_slack(),
        "tasks": tasks,
    })
}

/// The lines under the table: the set's verdict, then with a check its notes and result.
pub fn notes(set: &TaskSet, a: &Analysis, check: Option<&Check>) -> Vec<String> {
    let mut out = vec![format!(
        "set: {} by equation {} (cs1={} cs2={}{}), utilisation {:.3}",
        if a.schedulable() {
            "schedulable"
        } else {
            "UNSCHEDULABLE"
        },
        a.equation.number(),
        a.cs1,
        a.cs2,
        set.system()
            .carousel_cs
            .map(|c| format!(" carousel_cs={c}"))
            .unwrap_or_default(),
        set.utilisation()
    )];
    let Some(c) = check else { return out };
    out.push(
        "measured in the run: C is each task's longest job, BCET its shortest, observed R the \
         longest from a wake-up to the job's end, misses the deadlines the firmware counted missed"
            .to_string(),
    );
    for name in &c.merged {
        out.push(format!(
            "note: {name}: fewer jobs than releases: a job that ended after its next release ran on into the next one and was measured with it"
        ));
    }
    for name in &c.observed_above {
        out.push(format!(
            "note: {name} responded later in the run than its analysed R (blocking or interference the set does not describe?)"
        ));
    }
    for name in &c.contradicted {
        out.push(format!(
            "CONTRADICTED: {name} is schedulable by the analysis but missed a deadline in the run"
        ));
    }
    if c.agree() {
        out.push(format!(
            "check: no task the analysis calls schedulable missed a deadline in the run ({} misses in all)",
            c.misses
        ));
    }
    out
}

/// The one-line summary `rta: tasks=N schedulable=yes|no worst_slack_cycles=S` (then
/// `rejected=R` for a generated set, `misses=M agree=yes|no` with a check).
pub fn summary(a: &Analysis, rejected: Option<u64>, check: Option<&Check>) -> String {
    let mut s = format!(
        "rta: tasks={} schedulable={} worst_slack_cycles={}",
        a.tasks.len(),
        yes(a.schedulable()),
        a.worst_slack()
    );
    if let Some(r) = rejected {
        let _ = write!(s, " rejected={r}");
    }
    if let Some(c) = check {
        let _ = write!(s, " misses={} agree={}", c.misses, yes(c.agree()));
    }
    s
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The table's headings (`>`: a figures column) and rows.
pub fn rows(
    set: &TaskSet,
    a: &Analysis,
    measured: Option<&[Measured]>,
) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let clock = set.system().clock_hz;
    let mut head = vec![">prio", ">C", ">T", ">D", ">B", ">R"];
    head.insert(0, "task");
    if clock.is_some() {
        head.push(">R µs");
    }
    head.extend([">slack", "verdict"]);
    if measured.is_some() {
        head.extend([">jobs/releases", ">BCET", ">observed R", ">misses"]);
    }
    let mut rows = Vec::new();
    for (i, t) in a.tasks.iter().enumerate() {
        let above = if t.schedulable() { "" } else { ">" };
        let mut row = vec![
            t.name.clone(),
            t.priority.to_string(),
            t.wcet.to_string(),
            t.period.to_string(),
            t.deadline.to_string(),
            t.blocking.to_string(),
            format!("{above}{}", t.response_cycles()),
        ];
        if let Some(hz) = clock {
            let us = t.response_cycles() as f64 * 1e6 / hz as f64;
            row.push(format!("{above}{us:.1}"));
        }
        row.push(t.slack().to_string());
        row.push(
            if t.schedulable() {
                "ok"
            } else {
                "UNSCHEDULABLE"
            }
            .to_string(),
        );
        if let Some(m) = measured.map(|m| &m[i]) {
            let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            let releases = opt(m.releases.map(u64::from));
            row.push(format!("{}/{releases}", m.jobs.len()));
            row.push(m.bcet().to_string());
            row.push(opt(m.max_response()));
            row.push(opt(m.misses.map(u64::from)));
        }
        rows.push(row);
    }
    (head, rows)
}

/// The table as aligned text: a `>` before a title right-aligns its column.
pub fn plain(head: &[&str], rows: &[Vec<String>]) -> String {
    let columns: Vec<(&str, Align)> = head
        .iter()
        .map(|h| match h.strip_prefix('>') {
            Some(name) => (name, Align::Right),
            None => (*h, Align::Left),
        })
        .collect();
    let mut t = TextTable::new(0, &columns);
    for r in rows {
        t.row(r);
    }
    t.render()
}

/// The Markdown report of `--markdown`: the generating command first (docs/results/), what
/// was analysed, the table, the notes and the summary.
pub fn markdown(
    command: &str,
    source: &str,
    table: (Vec<&str>, Vec<Vec<String>>),
    notes: &[String],
    summary: &str,
) -> String {
    let mut t = Table::new(&table.0);
    for r in table.1 {
        t.row(r);
    }
    let mut out = format!(
        "<!-- generated by `{command}`; do not edit by hand -->\n\n\
         # Response-time analysis of {source}\n\n\
         Generated by `{command}` (docs/rta.md says how C, R and the measured columns are \
         obtained). Times in cycles; R is the worst-case response time by the equation named \
         below, `>X` the first iterate above the deadline of an unschedulable task; slack is \
         D − R.\n\n"
    );
    out.push_str(&t.render());
    out.push('\n');
    for n in notes {
        let _ = writeln!(out, "{n}\n");
    }
    let _ = writeln!(out, "`{summary}`");
    out
}
