//! The rendering of `cactus bench latency`: the two distributions over every run, where the
//! interrupts became pending (by region and by function), the worst samples named, one row
//! per run, and the summary line
//! `latency: handler_p99_cycles=… handler_max_cycles=… task_p99_cycles=… task_max_cycles=…`.

use crate::latency::attribution::{FunctionStat, Region, RunLatency, Sample, WORST_KEPT};
use crate::latency::stats::{Histogram, Percentiles};
use crate::latency::LatencyRow;
use cactus_sweep::table::Table;
use cactus_sweep::{Meta, Summary, SweepReport};
use std::collections::BTreeMap;

/// Functions listed in the by-function table.
const FUNCTIONS_LISTED: usize = 15;
/// Lower bounds of the distribution table's ranges, cycles.
const BUCKETS: [u64; 9] = [0, 8, 16, 64, 128, 256, 512, 1024, 2048];

/// Every measured run's latencies together.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// Handler latency over every run.
    pub handler: Histogram,
    /// Task latency over every run.
    pub task: Histogram,
    /// The slowest samples by handler latency, slowest first.
    pub worst_handler: Vec<Sample>,
    /// The slowest samples by task latency, slowest first.
    pub worst_task: Vec<Sample>,
    /// Samples by function and region over every run, largest handler latency first.
    pub by_function: Vec<FunctionStat>,
}

/// Merges the measured runs of `rows` (failed rows are left out).
pub fn merge(rows: &[LatencyRow]) -> Merged {
    let runs: Vec<&RunLatency> = rows.iter().filter_map(|r| r.result.as_ref().ok()).collect();
    let mut m = Merged::default();
    let mut by: BTreeMap<(String, Region), FunctionStat> = BTreeMap::new();
    for r in &runs {
        m.handler = m.handler.merged(&r.handler);
        m.task = m.task.merged(&r.task);
        m.worst_handler.extend(r.worst_handler.iter().cloned());
        m.worst_task.extend(r.worst_task.iter().cloned());
        for f in &r.by_function {
            let e = by
                .entry((f.function.clone(), f.region))
                .or_insert_with(|| FunctionStat {
                    samples: 0,
                    max_handler: 0,
                    max_task: None,
                    ..f.clone()
                });
            e.samples += f.samples;
            e.max_handler = e.max_handler.max(f.max_handler);
            e.max_task = e.max_task.max(f.max_task);
        }
    }
    // Stable sorts: equal samples keep run order.
    m.worst_handler
        .sort_by_key(|s| std::cmp::Reverse(s.handler));
    m.worst_handler.truncate(WORST_KEPT);
    m.worst_task.sort_by_key(|s| std::cmp::Reverse(s.task));
    m.worst_task.truncate(WORST_KEPT);
    m.by_function = by.into_values().collect();
    m.by_function.sort_by(|a, b| {
        b.max_handler
            .cmp(&a.max_handler)
            .then(b.samples.cmp(&a.samples))
    });
    m
}

fn opt(v: Option<u64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

fn spread_cells(name: &str, p: Option<Percentiles>) -> Vec<String> {
    let mut cells = vec![name.to_string()];
    match p {
        Some(p) => cells.extend(
            [p.samples, p.min, p.median, p.p99, p.max]
                .iter()
                .map(u64::to_string),
        ),
        None => cells.extend(std::iter::repeat_n("-".to_string(), 5)),
    }
    cells
}

fn worst_table(title: &str, samples: &[Sample]) -> String {
    let mut t = Table::new(&[
        ">handler cycles",
        ">task cycles",
        "pending at",
        "where",
        "taken at (mepc)",
        ">seed",
    ]);
    for s in samples {
        t.row([
            s.handler.to_string(),
            opt(s.task),
            format!("`{}`", s.pending_at),
            s.region.describe().to_string(),
            format!("`{}`", s.taken_at),
            s.seed.to_string(),
        ]);
    }
    format!("{title}\n\n{}\n", t.render())
}

/// The Markdown tables of `rows` and `m` (their merge).
pub fn tables(rows: &[LatencyRow], m: &Merged) -> String {
    let mut out = String::new();
    let profile = rows.first().map(|r| r.profile.as_str()).unwrap_or("-");
    let mut t = Table::new(&[
        &format!("latency, cycles ({profile} profile)"),
        ">samples",
        ">min",
        ">median",
        ">p99",
        ">max",
    ]);
    t.row(spread_cells(
        "timer pending → first handler instruction (mtvec)",
        m.handler.percentiles(),
    ));
    t.row(spread_cells(
        "timer pending → woken task's first instruction",
        m.task.percentiles(),
    ));
    out.push_str(&format!("### Interrupt latency\n\n{}\n", t.render()));

    let mut t = Table::new(&["cycles", ">handler", ">task"]);
    let (hb, tb) = (m.handler.buckets(&BUCKETS), m.task.buckets(&BUCKETS));
    for (i, lo) in BUCKETS.iter().enumerate() {
        let range = match BUCKETS.get(i + 1) {
            Some(hi) => format!("{lo}–{}", hi - 1),
            None => format!("≥ {lo}"),
        };
        t.row([range, hb[i].to_string(), tb[i].to_string()]);
    }
    out.push_str(&format!(
        "### Distribution (samples per range)\n\n{}\n",
        t.render()
    ));

    let total = m.handler.samples().max(1) as f64;
    let mut regions: BTreeMap<Region, (u64, u64, Option<u64>)> = BTreeMap::new();
    for f in &m.by_function {
        let e = regions.entry(f.region).or_insert((0, 0, None));
        e.0 += f.samples;
        e.1 = e.1.max(f.max_handler);
        e.2 = e.2.max(f.max_task);
    }
    let mut t = Table::new(&[
        "where the interrupt became pending",
        ">samples",
        ">share",
        ">max handler",
        ">max task",
    ]);
    for (region, (n, h, k)) in &regions {
        t.row([
            region.describe().to_string(),
            n.to_string(),
            format!("{:.1} %", *n as f64 * 100.0 / total),
            h.to_string(),
            opt(*k),
        ]);
    }
    out.push_str(&format!(
        "### Where the interrupts became pending\n\n{}\n",
        t.render()
    ));

    let mut t = Table::new(&["function", "where", ">samples", ">max handler", ">max task"]);
    for f in m.by_function.iter().take(FUNCTIONS_LISTED) {
        t.row([
            format!("`{}`", f.function),
            f.region.describe().to_string(),
            f.samples.to_string(),
            f.max_handler.to_string(),
            opt(f.max_task),
        ]);
    }
    out.push_str(&format!(
        "### By function (the {} of {} with the largest handler latency)\n\n{}\n",
        FUNCTIONS_LISTED.min(m.by_function.len()),
        m.by_function.len(),
        t.render()
    ));
    out.push_str(&worst_table(
        "### The worst samples by handler latency",
        &m.worst_handler,
    ));
    out.push_str(&worst_table(
        "### The worst samples by task latency",
        &m.worst_task,
    ));

    let mut t = Table::new(&[
        ">run",
        ">seed",
        ">interrupts",
        ">handler p99",
        ">handler max",
        ">task p99",
        ">task max",
        "note",
    ]);
    for r in rows {
        match &r.result {
            Ok(l) => {
                let (h, k) = (l.handler.percentiles(), l.task.percentiles());
                t.row([
                    r.run.to_string(),
                    r.seed.to_string(),
                    l.handler.samples().to_string(),
                    opt(h.map(|p| p.p99)),
                    opt(h.map(|p| p.max)),
                    opt(k.map(|p| p.p99)),
                    opt(k.map(|p| p.max)),
                    if l.unpaired_wakes > 0 {
                        format!("{} wake-ups not paired", l.unpaired_wakes)
                    } else {
                        String::new()
                    },
                ]);
            }
            Err(e) => {
                t.row([
                    r.run.to_string(),
                    r.seed.to_string(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    format!("failed: {}", crate::elf_facts::first_line(e)),
                ]);
            }
        }
    }
    out.push_str(&format!("### Runs\n\n{}", t.render()));
    out
}

/// How to read the tables, with the worst samples named.
pub fn reading(m: &Merged) -> String {
    let mut s = String::from(
        "Each run is the firmware of `bench/latency/` with its own seed: a waker at priority \
         30 sleeps one tick at a time while lower-priority tasks do seeded random work \
         through the kernel's services, so the 10 kHz tick falls at a different point of \
         that work on every wake-up. *Pending* is the cycle mtime reached mtimecmp (MTIE \
         set), recorded by cactus-sim's timer-pending watch together with the instruction \
         it was reached at and whether interrupts were masked there. Handler latency ends at \
         the first instruction at mtvec (trap entry included); task latency at the woken \
         waker's first instruction after its `cactus_sleep` returns (the tick handler, the \
         scheduler, the context switch and the return path included). Percentiles are \
         nearest-rank over every interrupt of every run; *where* names the function the \
         interrupt became pending in: a masked kernel call, an application critical section \
         (`cactus_irq_save`), a trap handler still running, or enabled code (taken at the \
         next instruction boundary).",
    );
    if let Some(w) = m.worst_handler.first() {
        s.push_str(&format!(
            " The worst handler latency, {} cycles, became pending at `{}` ({}) and was \
             taken before `{}`.",
            w.handler,
            w.pending_at,
            w.region.describe(),
            w.taken_at
        ));
    }
    if let Some(w) = m.worst_task.first() {
        s.push_str(&format!(
            " The worst task latency, {} cycles, became pending at `{}` ({}).",
            opt(w.task),
            w.pending_at,
            w.region.describe()
        ));
    }
    s
}

/// The summary line's figures.
pub fn summary(m: &Merged) -> Summary {
    let (h, k) = (m.handler.percentiles(), m.task.percentiles());
    let mut s = Summary::new("latency");
    s.add("handler_p99_cycles", opt(h.map(|p| p.p99)))
        .add("handler_max_cycles", opt(h.map(|p| p.max)))
        .add("task_p99_cycles", opt(k.map(|p| p.p99)))
        .add("task_max_cycles", opt(k.map(|p| p.max)))
        .add("handler_median_cycles", opt(h.map(|p| p.median)))
        .add("task_median_cycles", opt(k.map(|p| p.median)))
        .add("interrupts", m.handler.samples())
        .add(
            "worst_at",
            m.worst_handler
                .first()
                .map(|w| w.pending_at.clone())
                .unwrap_or_else(|| "-".into()),
        );
    s
}

/// Worst-case interrupt latency.
pub struct Latency;

impl cactus_sweep::evaluation::Evaluation for Latency {
    const NAME: &'static str = "latency";
    const UNIT: &'static str = "runs";
    type Row = LatencyRow;

    fn render(rows: &[LatencyRow], _meta: &Meta) -> SweepReport {
        let m = merge(rows);
        let failed = rows.iter().filter(|r| r.result.is_err()).count();
        SweepReport {
            tables: tables(rows, &m),
            reading: reading(&m),
            note: format!(
                " (simulated cycles: deterministic for the seed; {} interrupts; passed and \
                 failed count the runs)",
                m.handler.samples()
            ),
            passed: rows.len() - failed,
            failed,
            summary: summary(&m),
        }
    }
}
