//! The per-task report printed after `cactus run MANIFEST.toml`: for every task of the
//! manifest, its priority, the cycles it ran and the energy it used (and their shares of the
//! run), how often it was
//! switched in, its stack high water against the manifest's budget, and, for periodic tasks,
//! releases and deadline misses (from the markers `cactus_fw_finish` commits); then every
//! `[[pool]]`'s block size, count and high water (most blocks in use at once, from the same
//! markers). The same rows go into the `--stats json` summary as its `firmware` object.

use super::text_table::{Align, TextTable};
use cactus_firmware::codegen::{
    MARKER_MISSES, MARKER_POOL_HWM, MARKER_RELEASES, MARKER_SRP, SRP_TASK_NAME,
};
use cactus_firmware::Manifest;
use cactus_sim::{Event, EventKind, Stats};
use serde::Serialize;
use serde_json::{json, Value};
use std::fmt::Write;

/// One task's figures; `None` where the run did not report them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TaskRow {
    /// Kernel task id (the task's index in the manifest).
    pub id: u32,
    /// Manifest name.
    pub name: String,
    /// Manifest priority.
    pub priority: u8,
    /// Cycles while the task was running.
    pub cycles: Option<u64>,
    /// Energy in nJ while the task was running (same boundaries as `cycles`).
    pub energy_nj: Option<f64>,
    /// Instructions retired while the task was running.
    pub instructions: Option<u64>,
    /// Times the task was switched in.
    pub switches: Option<u64>,
    /// The task's deepest stack use, bytes below the top of its own stack: the kernel's
    /// measurement or, under `mtss`, the simulator's with frames on loan if deeper
    /// (`cactus_sim::TaskStats::stack_hwm`); `None` when the kernel reported none (a run the
    /// kernel did not end, or a build without the trace device): unknown, never 0.
    pub stack_hwm: Option<u32>,
    /// The manifest's stack budget, bytes (guard included): the one budget every table, the
    /// JSON and `used` refer to.
    pub stack_budget: u32,
    /// Stack overflows the kernel caught for the task.
    pub overflows: Option<u64>,
    /// Stack bytes the task lent to others (MTSS), summed over loans.
    pub lent_bytes: Option<u64>,
    /// Stack bytes the task borrowed (MTSS), summed over loans.
    pub borrowed_bytes: Option<u64>,
    /// How the task ended (`returned`, `killed`, `faulted`), `None` while it was alive at the
    /// end of the run.
    pub exited: Option<String>,
    /// Periodic releases (periodic tasks only).
    pub releases: Option<u32>,
    /// Deadline misses (tasks with a deadline only).
    pub deadline_misses: Option<u32>,
}

/// One pool's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoolRow {
    /// Manifest name.
    pub name: String,
    /// Bytes per block (the manifest's, rounded up to a multiple of 4).
    pub block: u32,
    /// Blocks.
    pub count: u32,
    /// Most blocks in use at once; `None` when the run did not reach `cactus_fw_finish`.
    pub high_water: Option<u32>,
}

/// The pool rows of a firmware run, in manifest order.
pub fn pool_rows(manifest: &Manifest, events: &[Event]) -> Vec<PoolRow> {
    manifest
        .pools
        .iter()
        .enumerate()
        .map(|(i, p)| PoolRow {
            name: p.name.clone(),
            block: p.block_bytes(),
            count: p.count,
            high_water: marker(events, MARKER_POOL_HWM + i as u32),
        })
        .collect()
}

/// The rows of a firmware run, in manifest order. Task `i` of the manifest is kernel task id
/// `i` (the generated table creates them in order). Under the srp scheduler the tasks are jobs
/// of the one kernel task (the dispatcher): their rows carry their preemption level (as the
/// priority), releases and misses only, and one
/// more row, named `srp` with id = the number of jobs, is the dispatcher: cycles, switches and
/// the shared stack's high water against its size.
pub fn rows(manifest: &Manifest, stats: &Stats, events: &[Event]) -> Vec<TaskRow> {
    if let Some(srp) = &manifest.srp {
        return srp_rows(manifest, srp, stats, events);
    }
    manifest
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let id = i as u32;
            let st = stats.tasks.iter().find(|x| x.id == id);
            TaskRow {
                id,
                name: t.name.clone(),
                priority: t.priority,
                cycles: st.map(|x| x.cycles),
                energy_nj: st.map(|x| x.energy_nj),
                instructions: st.map(|x| x.instructions),
                switches: st.map(|x| x.switches),
                stack_hwm: st.filter(|x| x.hwm_samples > 0).map(|x| x.stack_hwm),
                stack_budget: t.stack,
                overflows: st.map(|x| x.overflows),
                lent_bytes: st.map(|x| x.lent_bytes),
                borrowed_bytes: st.map(|x| x.borrowed_bytes),
                exited: st.and_then(|x| x.exit_reason).map(exit_name),
                releases: marker(events, MARKER_RELEASES + id).filter(|_| t.period_ms.is_some()),
                deadline_misses: marker(events, MARKER_MISSES + id)
                    .filter(|_| t.deadline_ms.is_some()),
            }
        })
        .collect()
}

fn srp_rows(
    manifest: &Manifest,
    srp: &cactus_firmware::Srp,
    stats: &Stats,
    events: &[Event],
) -> Vec<TaskRow> {
    let mut rows: Vec<TaskRow> = manifest
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let id = i as u32;
            TaskRow {
                id,
                name: t.name.clone(),
                priority: srp.levels.get(i).copied().unwrap_or(t.priority),
                cycles: None,
                energy_nj: None,
                instructions: None,
                switches: None,
                stack_hwm: None,
                stack_budget: t.stack,
                overflows: None,
                lent_bytes: None,
                borrowed_bytes: None,
                exited: None,
                releases: marker(events, MARKER_RELEASES + id),
                deadline_misses: marker(events, MARKER_MISSES + id)
                    .filter(|_| t.deadline_ms.is_some()),
            }
        })
        .collect();
    // The dispatcher is kernel task 0.
    let st = stats.tasks.iter().find(|x| x.id == 0);
    rows.push(TaskRow {
        id: manifest.tasks.len() as u32,
        name: SRP_TASK_NAME.to_string(),
        priority: 1,
        cycles: st.map(|x| x.cycles),
        energy_nj: st.map(|x| x.energy_nj),
        instructions: st.map(|x| x.instructions),
        switches: st.map(|x| x.switches),
        stack_hwm: st.filter(|x| x.hwm_samples > 0).map(|x| x.stack_hwm),
        stack_budget: srp.stack,
        overflows: st.map(|x| x.overflows),
        lent_bytes: None,
        borrowed_bytes: None,
        exited: st.and_then(|x| x.exit_reason).map(exit_name),
        releases: None,
        deadline_misses: None,
    });
    rows
}

/// The SRP counters of a run (`{"stack", "stack_given", "dispatches", "preemptions"}`), or
/// null for the preemptive scheduler.
fn srp_json(manifest: &Manifest, events: &[Event]) -> Value {
    match &manifest.srp {
        None => Value::Null,
        Some(srp) => json!({
            "stack": srp.stack,
            "stack_given": srp.stack_given,
            "dispatches": marker(events, MARKER_SRP),
            "preemptions": marker(events, MARKER_SRP + 1),
        }),
    }
}

/// The rows as the `firmware` object of the `--stats json` summary:
/// `{"name", "stack", "checks", "target", "tick_hz", "tasks": [TaskRow...], "pools":
/// [PoolRow...]}`.
pub fn to_json(manifest: &Manifest, stats: &Stats, events: &[Event]) -> Value {
    json!({
        "name": manifest.name,
        "stack": manifest.kernel.stack.name(),
        "checks": manifest.kernel.checks.name(),
        "target": manifest.kernel.target.name(),
        "tick_hz": manifest.kernel.tick_hz,
        "scheduler": manifest.scheduler(),
        "srp": srp_json(manifest, events),
        "tasks": rows(manifest, stats, events),
        "pools": pool_rows(manifest, events),
    })
}

/// Renders the per-task table of a firmware run (figures the run did not report are `-`).
pub fn render(manifest: &Manifest, stats: &Stats, events: &[Event]) -> String {
    let mut out = String::new();
    let _ = write_report(&mut out, manifest, stats, &rows(manifest, stats, events));
    write_pools(&mut out, &pool_rows(manifest, events));
    out
}

/// The name of a TASK_EXIT reason.
pub fn exit_name(reason: u32) -> String {
    match reason {
        0 => "returned".to_string(),
        1 => "killed".to_string(),
        2 => "faulted".to_string(),
        r => format!("reason {r}"),
    }
}

/// The value of the last marker `id`, if the run committed one.
fn marker(events: &[Event], id: u32) -> Option<u32> {
    events.iter().rev().find_map(|e| match e.kind {
        EventKind::Marker { id: m, value } if m == id => Some(value),
        _ => None,
    })
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".to_string();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

/// `part` as a percentage of `whole` ("-" for a run without energy).
fn percent_f(part: f64, whole: f64) -> String {
    if whole <= 0.0 {
        return "-".to_string();
    }
    format!("{:.1}%", part * 100.0 / whole)
}

/// nJ as µJ with three decimals.
fn micro(nj: f64) -> String {
    format!("{:.3}", nj / 1000.0)
}

fn or_dash<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn write_report(out: &mut String, m: &Manifest, s: &Stats, rows: &[TaskRow]) -> std::fmt::Result {
    let scheduler = if m.srp.is_some() {
        "scheduler srp, "
    } else {
        ""
    };
    writeln!(
        out,
        "── firmware {} ({scheduler}stack {}, checks {}, target {}, {} Hz tick) ──",
        m.name,
        m.kernel.stack.name(),
        m.kernel.checks.name(),
        m.kernel.target.name(),
        m.kernel.tick_hz
    )?;
    use Align::{Left, Right};
    let mut t = TextTable::new(
        2,
        &[
            ("task", Left),
            ("prio", Right),
            ("cycles", Right),
            ("share", Right),
            ("energy µJ", Right),
            ("share", Right),
            ("instructions", Right),
            ("switches", Right),
            ("stack hwm/budget", Right),
            ("used", Right),
            ("ovf", Right),
            ("lent", Right),
            ("borrowed", Right),
            ("releases", Right),
            ("misses", Right),
            ("state", Left),
        ],
    );
    for r in rows {
        t.row([
            r.name.clone(),
            r.priority.to_string(),
            or_dash(r.cycles),
            r.cycles
                .map_or_else(|| "-".to_string(), |c| percent(c, s.cycles)),
            r.energy_nj.map_or_else(|| "-".to_string(), micro),
            r.energy_nj
                .map_or_else(|| "-".to_string(), |e| percent_f(e, s.energy_nj)),
            or_dash(r.instructions),
            or_dash(r.switches),
            format!(
                "{} / {}",
                r.stack_hwm
                    .map_or_else(|| "?".to_string(), |h| h.to_string()),
                r.stack_budget
            ),
            r.stack_hwm.map_or_else(
                || "?".to_string(),
                |h| percent(u64::from(h), u64::from(r.stack_budget)),
            ),
            or_dash(r.overflows),
            or_dash(r.lent_bytes),
            or_dash(r.borrowed_bytes),
            or_dash(r.releases),
            or_dash(r.deadline_misses),
            match (&r.exited, r.cycles) {
                (Some(how), _) => format!("exited: {how}"),
                (None, Some(_)) => "alive".to_string(),
                (None, None) => "-".to_string(),
            },
        ]);
    }
    let task_cycles: u64 = rows.iter().filter_map(|r| r.cycles).sum();
    let rest = s.cycles.saturating_sub(task_cycles);
    let task_energy: f64 = rows.iter().filter_map(|r| r.energy_nj).sum();
    let rest_energy = (s.energy_nj - task_energy).max(0.0);
    // The rest of the run, in the same columns; what it was made of on a line of its own
    // (it would widen the state column of every row).
    t.row([
        "kernel and idle".to_string(),
        String::new(),
        rest.to_string(),
        percent(rest, s.cycles),
        micro(rest_energy),
        percent_f(rest_energy, s.energy_nj),
    ]);
    t.line(format!(
        "  (kernel and idle: sleep in wfi: {} cycles; outside any task: {} µJ)",
        s.sleep_cycles,
        micro(s.energy_outside_tasks_nj)
    ));
    out.push_str(&t.render());
    if s.tasks.is_empty() {
        writeln!(
            out,
            "  (no task events: the firmware was built without the trace device; use target = \"sim\")"
        )?;
    }
    Ok(())
}

fn write_pools(out: &mut String, rows: &[PoolRow]) {
    if rows.is_empty() {
        return;
    }
    let mut t = TextTable::new(
        2,
        &[
            ("pool", Align::Left),
            ("block", Align::Right),
            ("count", Align::Right),
            ("high water", Align::Right),
        ],
    );
    for r in rows {
        t.row([
            r.name.clone(),
            r.block.to_string(),
            r.count.to_string(),
            or_dash(r.high_water),
        ]);
    }
    out.push_str(&t.render());
}

#[cfg(test)]
mod tests {
    use super::*;
    use cactus_firmware::{FaultPolicy, KernelOptions, StackStrategy, Target, Task};
    use cactus_sim::{ModeStats, TaskStats};
    use std::path::PathBuf;

    fn task(name: &str, period: Option<u32>) -> Task {
        Task {
            name: name.into(),
            sources: vec![],
            entry: "f".into(),
            priority: 4,
            stack: 1024,
            period_ms: period,
            deadline_ms: period,
            start_delay_ms: 0,
            on_fault: FaultPolicy::Kill,
            arg: 0,
            start_suspended: false,
            cflags: vec![],
            include: vec![],
            stack_calls: Default::default(),
            stack_recursion: Default::default(),
        }
    }

    fn event(id: u32, value: u32) -> Event {
        Event {
            cycle: 0,
            instret: 0,
            pc: 0,
            kind: EventKind::Marker { id, value },
        }
    }

    #[test]
    fn rows_show_cycles_share_stack_and_deadline_misses() {
        let m = Manifest {
            path: PathBuf::from("m.toml"),
            text: String::new(),
            name: "fw".into(),
            init: None,
            cflags: vec![],
            include: vec![],
            kernel: KernelOptions {
                stack: StackStrategy::Static,
                tick_hz: 1000,
                slice_ticks: 1,
                target: Target::Sim,
                pool_kib: None,
                ram_kib: None,
                kstack: None,
                checks: Default::default(),
                mtss_page: None,
                mtss_worst_case: false,
                stacklet_min: None,
                stacklet_cache: None,
                stacklet_learn: None,
                stack_bound: false,
                stacklet_pool: None,
                switch_check: true,
                variants: Vec::new(),
                preempt_traps: None,
                switch: Default::default(),
                switch_poison: None,
                switch_mutate: None,
                switch_budget: None,
                reg_pool: None,
                isolate: false,
                window: Default::default(),
                copier: None,
            },
            tasks: vec![task("periodic", Some(5)), task("worker", None)],
            interrupts: vec![],
            timers: vec![],
            timer_task: None,
            pools: vec![
                cactus_firmware::Pool {
                    name: "rx".into(),
                    block: 30,
                    count: 8,
                },
                cactus_firmware::Pool {
                    name: "tx".into(),
                    block: 64,
                    count: 4,
                },
            ],
            srp: None,
        };
        let stats = Stats {
            profile: "mcu".into(),
            instructions: 0,
            cycles: 1000,
            seconds: 0.0,
            energy_nj: 2000.0,
            classes: vec![],
            regions: vec![],
            device_accesses: 0,
            machine_mode: ModeStats::default(),
            user_mode: ModeStats::default(),
            traps_by_cause: Default::default(),
            interrupts: 0,
            plic_claims: 0,
            uart_input_left: 0,
            sleep_cycles: 600,
            oracle_violations: 0,
            violations: vec![],
            markers: 3,
            memory_system: None,
            switch_regs: None,
            reg_pages: None,
            energy_outside_tasks_nj: 100.0,
            tasks: vec![TaskStats {
                id: 0,
                cycles: 250,
                energy_nj: 300.0,
                switches: 7,
                stack_hwm: 256,
                hwm_samples: 1,
                ..TaskStats::default()
            }],
        };
        let events = [
            event(MARKER_RELEASES, 12),
            event(MARKER_MISSES, 3),
            event(MARKER_MISSES + 1, 9),
            event(MARKER_POOL_HWM + 1, 3),
        ];
        let text = render(&m, &stats, &events);
        let periodic: Vec<&str> = text.lines().nth(2).unwrap().split_whitespace().collect();
        assert_eq!(
            periodic,
            [
                "periodic", "4", "250", "25.0%", "0.300", "15.0%", "0", "7", "256", "/", "1024",
                "25.0%", "0", "0", "0", "12", "3", "alive"
            ]
        );
        // Names left-aligned, figures right-aligned under their titles.
        let (head, row) = (text.lines().nth(1).unwrap(), text.lines().nth(2).unwrap());
        assert!(
            head.starts_with("  task  ") && row.starts_with("  periodic  "),
            "{text}"
        );
        // The column (in characters: the header has a µ) where `w` ends.
        let end = |l: &str, w: &str| {
            let at = l.find(&format!(" {w} ")).unwrap();
            l[..at].chars().count() + 1 + w.chars().count()
        };
        assert_eq!(end(head, "cycles"), end(row, "250"), "{text}");
        assert_eq!(end(head, "switches"), end(row, "7"), "{text}");
        assert!(
            text.lines()
                .skip(1)
                .all(|l| !l.contains(['|', '─', '│', '+']) && !l.ends_with(' ')),
            "no borders, no trailing spaces: {text}"
        );
        let worker: Vec<&str> = text.lines().nth(3).unwrap().split_whitespace().collect();
        assert_eq!(
            worker,
            [
                "worker", "4", "-", "-", "-", "-", "-", "-", "?", "/", "1024", "?", "-", "-", "-",
                "-", "-", "-"
            ],
            "a task the run never reported: unknown high water, not 0"
        );
        let rest: Vec<&str> = text.lines().nth(4).unwrap().split_whitespace().collect();
        assert_eq!(
            rest[..7],
            ["kernel", "and", "idle", "750", "75.0%", "1.700", "85.0%"],
            "the rest of the cycles and of the energy: {text}"
        );
        assert!(text.contains("outside any task: 0.100 µJ"), "{text}");
        // Pool 0's marker is missing (shown as -); pool 1's says 3 blocks at most.
        let pools: Vec<Vec<&str>> = text
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("pool "))
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(pools.len(), 3, "{text}");
        assert_eq!(pools[1], ["rx", "32", "8", "-"]);
        assert_eq!(pools[2], ["tx", "64", "4", "3"]);
        let json = to_json(&m, &stats, &events);
        assert_eq!(json["tasks"][0]["energy_nj"], 300.0);
        assert!(json["tasks"][1]["energy_nj"].is_null());
        assert_eq!(json["pools"][0]["block"], 32);
        assert_eq!(json["pools"][1]["high_water"], 3);
    }
}
