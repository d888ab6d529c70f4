//! `cactus run --report FILE.html`: one self-contained HTML page of a run (inline SVG, no
//! script, nothing fetched): the run's figures, task states over time, the stack memory map
//! over time, stack use per task against its budget and static bound, cycles and energy per
//! task, the trap-duration histogram, and the per-task table. docs/cli.md "The HTML report"
//! shows one.

pub mod charts;
pub mod sweep;

use crate::trace::timeline::Timeline;
use cactus_sim::{Event, EventKind};
use charts::StackBar;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Everything the page shows.
pub struct RunPage<'a> {
    /// What ran (the ELF's or firmware's name).
    pub title: String,
    /// `cactus run`'s statistics object (`--stats json`).
    pub summary: &'a Value,
    /// The run's events.
    pub events: &'a [Event],
    /// Its timeline.
    pub timeline: &'a Timeline,
    /// Each task's static bound by name (empty: not analysed).
    pub bounds: BTreeMap<String, Option<u32>>,
}

/// The style both pages share: tables with figures right-aligned, scalable charts, legends.
const PAGE_STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:960px;color:#222}\
    table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\
    th{background:#f3f3f3}td:first-child{text-align:left}svg{max-width:100%;height:auto}\
    .legend span{display:inline-block;margin-right:1em}\
    .key{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}";

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page's HTML; a chart that cannot be drawn is replaced by a line saying why.
pub fn render(p: &RunPage<'_>) -> String {
    let s = &p.summary["stats"];
    let tasks = p.summary["firmware"]["tasks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut names = BTreeMap::new();
    for e in p.events {
        if let EventKind::TaskCreate { task, name, .. } = &e.kind {
            names.insert(*task, name.clone());
        }
    }
    let bars: Vec<StackBar> = tasks
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap_or("?").to_string();
            StackBar {
                budget: t["stack_budget"].as_u64().unwrap_or(0) as u32,
                high_water: t["stack_hwm"].as_u64().map(|v| v as u32),
                bound: p.bounds.get(&name).copied().flatten(),
                name,
            }
        })
        .collect();
    let figure = |title: &str, what: &str, chart: charts::ChartResult| -> String {
        match chart {
            Ok(svg) if !svg.is_empty() => {
                format!(
                    "<section><h2>{}</h2><p>{}</p>{svg}</section>\n",
                    esc(title),
                    esc(what)
                )
            }
            Ok(_) => format!(
                "<section><h2>{}</h2><p>Nothing to show in this run.</p></section>\n",
                esc(title)
            ),
            Err(e) => format!(
                "<section><h2>{}</h2><p>Not drawn: {}</p></section>\n",
                esc(title),
                esc(&e)
            ),
        }
    };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t}: cactus run</title><style>{PAGE_STYLE}</style></head><body>\n<h1>{t}</h1>\n",
        t = esc(&p.title)
    );
    let _ = writeln!(
        html,
        "<p>{} cycles ({:.6} s simulated at {} MHz), {} instructions, {:.1} µJ, exit code {}, {} oracle violation(s).</p>",
        s["cycles"],
        s["seconds"].as_f64().unwrap_or(0.0),
        p.timeline.clock_hz as f64 / 1e6,
        s["instructions"],
        s["energy_nj"].as_f64().unwrap_or(0.0) / 1000.0,
        p.summary["exit_code"],
        s["oracle_violations"],
    );
    html.push_str(&task_table(&tasks, s, &p.bounds));
    html.push_str(
        "<p class=\"legend\"><span><i class=\"key\" style=\"background:#2ea043\"></i>running</span>\
         <span><i class=\"key\" style=\"background:#f0be32\"></i>ready</span>\
         <span><i class=\"key\" style=\"background:#d2463c\"></i>blocked</span>\
         <span><i class=\"key\" style=\"background:#5a8cdc\"></i>sleeping</span>\
         <span><i class=\"key\" style=\"background:#969696\"></i>suspended</span></p>\n",
    );
    html.push_str(&figure(
        "Task states",
        "Each task's state over simulated time, from the kernel's task table read at every switch and mret.",
        charts::states(p.timeline),
    ));
    html.push_str(&figure(
        "Stack memory over time",
        "Which task owns which bytes of stack memory: its region, pages lent to it (MTSS), stacklets.",
        charts::stack_map(p.timeline, p.events, &names),
    ));
    html.push_str(&figure(
        "Stack use per task",
        "Budget, measured high water and (for a manifest) the static bound of cactus stack-report.",
        if bars.is_empty() {
            Ok(String::new())
        } else {
            charts::stack_use(&bars)
        },
    ));
    html.push_str(&figure(
        "Cycles and energy per task",
        "Each task's share of the run's cycles and of its energy (charged at the same task switches), and the rest: the start-up before the first switch and the idle time (asleep in wfi costs cycles, no energy).",
        if tasks.is_empty() {
            Ok(String::new())
        } else {
            charts::task_shares(&share_bars(&tasks, s))
        },
    ));
    html.push_str(&figure(
        "Trap durations",
        "Cycles from each trap's entry to its mret: kernel calls, ticks and interrupts with their switches.",
        charts::trap_histogram(p.timeline),
    ));
    html.push_str("</body></html>\n");
    html
}

/// The run's total cycles and energy (nJ) from the statistics object.
fn totals(stats: &Value) -> (f64, f64) {
    (
        stats["cycles"].as_f64().unwrap_or(0.0),
        stats["energy_nj"].as_f64().unwrap_or(0.0),
    )
}

/// `part` as a percentage of `whole`, or "-".
fn share(part: Option<f64>, whole: f64) -> String {
    match part {
        Some(p) if whole > 0.0 => format!("{:.1}%", p * 100.0 / whole),
        _ => "-".to_string(),
    }
}

/// The bars of the "Cycles and energy per task" chart: each task's shares, then the rest
/// (kernel and idle) as the last bar.
fn share_bars(tasks: &[Value], stats: &Value) -> Vec<charts::ShareBar> {
    let (cycles, energy) = totals(stats);
    let pct = |part: f64, whole: f64| {
        if whole > 0.0 {
            part * 100.0 / whole
        } else {
            0.0
        }
    };
    let mut bars: Vec<charts::ShareBar> = tasks
        .iter()
        .map(|t| charts::ShareBar {
            name: t["name"].as_str().unwrap_or("?").to_string(),
            cycles: pct(t["cycles"].as_f64().unwrap_or(0.0), cycles),
            energy: pct(t["energy_nj"].as_f64().unwrap_or(0.0), energy),
        })
        .collect();
    let (c, e) = bars
        .iter()
        .fold((0.0, 0.0), |(c, e), b| (c + b.cycles, e + b.energy));
    bars.push(charts::ShareBar {
        name: "kernel and idle".to_string(),
        cycles: (100.0 - c).max(0.0),
        energy: (100.0 - e).max(0.0),
    });
    bars
}

fn task_table(tasks: &[Value], stats: &Value, bounds: &BTreeMap<String, Option<u32>>) -> String {
    if tasks.is_empty() {
        return String::new();
    }
    let (cycles, energy) = totals(stats);
    let mut t = String::from(
        "<table><tr><th>task</th><th>priority</th><th>switches</th><th>cycles</th><th>share</th>\
         <th>energy µJ</th><th>share</th><th>instructions</th><th>budget</th><th>high water</th>\
         <th>static bound</th><th>ended</th></tr>\n",
    );
    let micro = |nj: Option<f64>| nj.map_or("-".to_string(), |v| format!("{:.3}", v / 1000.0));
    let cell = |v: &Value| match v {
        Value::Null => "-".to_string(),
        Value::String(s) => esc(s),
        other => other.to_string(),
    };
    for task in tasks {
        let name = task["name"].as_str().unwrap_or("?");
        let bound = bounds
            .get(name)
            .copied()
            .flatten()
            .map_or("-".to_string(), |b| b.to_string());
        let _ = writeln!(
            t,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(name),
            cell(&task["priority"]),
            cell(&task["switches"]),
            cell(&task["cycles"]),
            share(task["cycles"].as_f64(), cycles),
            micro(task["energy_nj"].as_f64()),
            share(task["energy_nj"].as_f64(), energy),
            cell(&task["instructions"]),
            cell(&task["stack_budget"]),
            cell(&task["stack_hwm"]),
            bound,
            cell(&task["exited"]),
        );
    }
    let task_cycles: f64 = tasks.iter().filter_map(|x| x["cycles"].as_f64()).sum();
    let task_energy: f64 = tasks.iter().filter_map(|x| x["energy_nj"].as_f64()).sum();
    let (rest_c, rest_e) = (
        (cycles - task_cycles).max(0.0),
        (energy - task_energy).max(0.0),
    );
    let _ = writeln!(
        t,
        "<tr><td>kernel and idle</td><td></td><td></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
         <td colspan=\"5\">outside any task (start-up, idle): {} µJ</td></tr>",
        rest_c,
        share(Some(rest_c), cycles),
        micro(Some(rest_e)),
        share(Some(rest_e), energy),
        micro(stats["energy_outside_tasks_nj"].as_f64()),
    );
    t.push_str("</table>\n");
    t
}
