//! The rendering of `cactus bench scaling`: one Markdown table of min / avg / max cycles per
//! operation and task count, the growth from the smallest to the largest count measured
//! beside the goal (at most 10 %), and the summary line.

use crate::scaling::events::Op;
use crate::scaling::ScalingRow;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::Table;
use cactus_sweep::{Meta, Summary, SweepReport};
use std::fmt::Write;

/// The goal: a figure at the largest count within this many percent of the smallest.
pub const GOAL_PCT: f64 = 10.0;
/// The count the issue asks for.
pub const GOAL_TASKS: usize = 256;

/// The average cycles of `op` in `row`, if measured.
fn avg(row: &ScalingRow, op: Op) -> Option<f64> {
    let c = row.costs.as_ref().ok()?;
    c.ops
        .iter()
        .find(|(o, _, _)| *o == op)
        .map(|(_, _, s)| s.avg)
}

/// (smallest, largest) task counts with measured rows.
fn ends(rows: &[ScalingRow]) -> Option<(&ScalingRow, &ScalingRow)> {
    let ok = || rows.iter().filter(|r| r.costs.is_ok());
    Some((ok().min_by_key(|r| r.tasks)?, ok().max_by_key(|r| r.tasks)?))
}

/// Growth of `op`'s average from the smallest to the largest measured count, percent.
pub fn growth(rows: &[ScalingRow], op: Op) -> Option<f64> {
    let (lo, hi) = ends(rows)?;
    if lo.tasks == hi.tasks {
        return None;
    }
    let (a, b) = (avg(lo, op)?, avg(hi, op)?);
    (a > 0.0).then(|| (b - a) * 100.0 / a)
}

/// The table of `rows` (in task-count order), with the growth and verdict columns.
pub fn table(rows: &[ScalingRow]) -> String {
    let mut rows: Vec<&ScalingRow> = rows.iter().collect();
    rows.sort_by_key(|r| r.tasks);
    let heads: Vec<String> = rows
        .iter()
        .map(|r| format!(">{} tasks: min / avg / max", r.tasks))
        .collect();
    let mut columns: Vec<&str> = vec!["operation (cycles)"];
    columns.extend(heads.iter().map(String::as_str));
    columns.extend([">growth", "goal ≤ 10 %"]);
    let mut t = Table::new(&columns);
    let owned: Vec<ScalingRow> = rows.iter().map(|r| (*r).clone()).collect();
    for op in Op::ALL {
        let mut cells = vec![op.name().to_string()];
        for r in &rows {
            cells.push(match &r.costs {
                Ok(c) => c
                    .ops
                    .iter()
                    .find(|(o, _, _)| *o == op)
                    .map(|(_, _, s)| format!("{} / {:.1} / {}", s.min, s.avg, s.max))
                    .unwrap_or_else(|| "-".into()),
                Err(_) => "failed".into(),
            });
        }
        let g = growth(&owned, op);
        cells.push(
            g.map(|g| format!("{g:+.1} %"))
                .unwrap_or_else(|| "-".into()),
        );
        cells.push(match g {
            Some(g) if g <= GOAL_PCT => "PASS".into(),
            Some(_) => "MISS".into(),
            None => "-".into(),
        });
        t.row(cells);
    }
    let mut out = t.render();
    let _ = writeln!(out);
    for r in &rows {
        match &r.costs {
            Ok(c) => {
                let _ = writeln!(
                    out,
                    "- {} tasks: {} samples per operation ({} dropped: an interrupt fell inside); \
                     {} of {} measured requests moved their frame; {} tasks blocked inside a \
                     moved frame.",
                    r.tasks, r.samples, c.interrupted, c.moved, c.requested, c.held
                );
            }
            Err(e) => {
                let _ = writeln!(out, "- {} tasks: FAILED: {e}", r.tasks);
            }
        }
    }
    if let Some((lo, hi)) = ends(&owned) {
        let _ = writeln!(
            out,
            "\nGrowth is (avg at {} tasks − avg at {} tasks) / avg at {} tasks.",
            hi.tasks, lo.tasks, lo.tasks
        );
        if hi.tasks < GOAL_TASKS {
            let _ = writeln!(
                out,
                "The largest count measured is {}, not {GOAL_TASKS}: growth is taken at {}.",
                hi.tasks, hi.tasks
            );
        }
    }
    out
}

/// How the figures are made.
fn reading(rows: &[ScalingRow]) -> String {
    let cal = rows
        .iter()
        .find_map(|r| r.costs.as_ref().ok().map(|c| c.marker_cycles))
        .map(|c| format!("{c} cycles"))
        .unwrap_or_else(|| "-".into());
    let profile = rows.first().map(|r| r.profile.as_str()).unwrap_or("-");
    format!(
        "One generated workload per task count (`bench/scaling/scaling.c`, manifests in \
         `build/bench/scaling/`), built with `stack = \"mtss\"`, `checks = \"mtss\"` and the \
         no-trace kernel, run on cactus-sim with profile `{profile}`. Four tasks measure; every \
         other task stays blocked for the whole run, half of them inside a frame moved to \
         another task's pages (holding borrowed pages), half asleep near the top of their \
         stacks (lenders, each with a holder's pages). Each figure is a difference of the \
         simulator's cycle stamps on trace-device markers minus a pair of marker stores \
         ({cal}, measured by the firmware); samples with an interrupt inside are dropped. \
         switch: `call cactus_yield` to the other task's first instruction after its yield; \
         request: the call of a function whose entry check fails to its first statement in \
         the lent pages (the marker's three operand loads included); return: its last \
         statement to the caller's first instruction, through the trampoline; handoff: `call \
         cactus_sem_give` to the woken higher-priority task's first instruction after its \
         take. docs/kernel.md, \"Scaling with the number of tasks\", explains the workload."
    )
}

/// The kernel's costs against the number of tasks.
pub struct Scaling;

impl Evaluation for Scaling {
    const NAME: &'static str = "scaling";
    const UNIT: &'static str = "task counts";
    type Row = ScalingRow;

    fn render(rows: &[ScalingRow], _meta: &Meta) -> SweepReport {
        let mut summary = Summary::new("scaling");
        for op in Op::ALL {
            summary.pct(&format!("{}_growth_pct", op.name()), growth(rows, op));
        }
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: table(rows),
            reading: reading(rows),
            note: " (simulated cycles only: the figures are deterministic; passed and failed \
                   count task counts)"
                .into(),
            passed,
            failed,
            summary,
        }
    }
}
