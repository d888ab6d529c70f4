//! The report: Tables 1-3 and the hot-split sweep beside the paper's figures, from the stored
//! rows alone, and the one-line summary.

use super::{on_off, Config, Experiment, PointResult, Run};
use cactus_sweep::table::Table;
use cactus_sweep::Summary;
use std::fmt::Write;

/// The paper's Table 2 (CoreMark iterations per second on a 168 MHz Cortex-M4): (configuration,
/// iterations/s). RWPI is the contiguous stack with RWPI relocation.
pub const PAPER_TABLE2: [(&str, f64); 5] = [
    ("contiguous (static)", 379.0),
    ("contiguous (RWPI)", 379.0),
    ("naive", 147.0),
    ("optimized", 357.0),
    ("check-only (OF check only)", 361.0),
];

/// The paper's Table 3 (CoreMark stack maximum size, bytes): contiguous, optimized, caller-save
/// r4/r5 (hypothetical), ideal ABI (hypothetical).
pub const PAPER_TABLE3: [(&str, u32); 4] = [
    ("contiguous", 468),
    ("optimized", 920),
    ("caller-save r4, r5 (hypothetical)", 856),
    ("ideal ABI (hypothetical)", 536),
];

/// The paper's bytes of overhead per stacklet: its implementation, and with the ideal ABI.
pub const PAPER_OVERHEAD: (u32, u32) = (60, 12);

/// The paper's Table 1: (task, max stack, allocated stack), bytes; and its claim that about
/// 500 bytes hold the four tasks' segmented stacks.
pub const PAPER_TABLE1: [(&str, u32, u32); 4] = [
    ("stabilizer", 384, 3600),
    ("sensors", 420, 2400),
    ("crtp_rx", 168, 2400),
    ("crtp_tx", 104, 1200),
];
/// The paper's segmented-stack memory for the four Crazyflie tasks, bytes.
pub const PAPER_CRAZYFLIE_BYTES: u32 = 500;

/// The Crazyflie-like point whose peak is the headline (`crazyflie_peak_bytes`): first
/// stacklets of this size, with the hot-split learning (the kernel's default; the cache stays
/// off, since a cached stacklet is held while its task blocks).
pub const CRAZYFLIE_HEADLINE_FIRST: u32 = 64;
/// The headline Crazyflie-like point's learning setting.
pub const CRAZYFLIE_HEADLINE_LEARN: bool = true;

fn coremark(rows: &[PointResult], config: Config) -> Option<&PointResult> {
    rows.iter()
        .find(|r| r.experiment == Experiment::Coremark { config })
}

fn coremark_run(rows: &[PointResult], config: Config) -> Option<&Run> {
    coremark(rows, config).and_then(|r| r.run.as_ref().ok())
}

/// Throughput of `config` as a percentage of the contiguous configuration's.
pub fn pct_of_contiguous(rows: &[PointResult], run: &Run) -> Option<f64> {
    let base = coremark_run(rows, Config::Contiguous)?.per_mcycle()?;
    Some(run.per_mcycle()? * 100.0 / base)
}

/// The optimized configuration's throughput as a percentage of the contiguous one's.
pub fn coremark_pct(rows: &[PointResult]) -> Option<f64> {
    pct_of_contiguous(rows, coremark_run(rows, Config::Optimized)?)
}

/// The measured heap bytes per linked stacklet beyond its frame.
pub fn stacklet_bytes(rows: &[PointResult]) -> Option<f64> {
    rows.iter()
        .filter(|r| r.experiment == Experiment::Overhead)
        .find_map(|r| r.run.as_ref().ok()?.overhead?.per_stacklet())
}

/// The headline Crazyflie-like point's peak of the core tasks' summed live stacklets.
pub fn crazyflie_peak(rows: &[PointResult]) -> Option<u32> {
    rows.iter()
        .filter(|r| {
            r.experiment
                == Experiment::Crazyflie {
                    first: Some(CRAZYFLIE_HEADLINE_FIRST),
                    learn: CRAZYFLIE_HEADLINE_LEARN,
                }
        })
        .find_map(|r| r.run.as_ref().ok()?.core_live_peak)
}

fn num(v: Option<f64>, decimals: usize) -> String {
    v.map_or("-".into(), |v| format!("{v:.decimals$}"))
}

fn bytes(v: Option<u32>) -> String {
    v.map_or("-".into(), |v| v.to_string())
}

/// A whole number without decimals, anything else with one.
fn whole_or_one(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The headline figures. `hybrid_prs_pct` is the `mtss+split` PRS of `hybrid` (the
/// parameters' `hybrid` object, [`super::hybrid_prs`]), `n/a` when the sweep was run without
/// one.
pub fn summary(rows: &[PointResult], hybrid: Option<&serde_json::Value>) -> Summary {
    let mut s = Summary::new("segmented");
    s.num("coremark_pct", coremark_pct(rows), 1)
        .add(
            "stacklet_bytes",
            stacklet_bytes(rows).map_or("-".into(), whole_or_one),
        )
        .add("crazyflie_peak_bytes", bytes(crazyflie_peak(rows)))
        .add(
            "hybrid_prs_pct",
            hybrid_pct(hybrid).map_or("n/a".into(), |p| format!("{p:.1}")),
        );
    s
}

fn hybrid_pct(hybrid: Option<&serde_json::Value>) -> Option<f64> {
    hybrid.and_then(|h| h["prs_hw_pct"].as_f64())
}

/// Every table (the hybrid's from `hybrid`, as in [`summary`]), then the failures.
pub fn markdown(rows: &[PointResult], hybrid: Option<&serde_json::Value>) -> String {
    let mut s = String::new();
    table2(&mut s, rows);
    table3(&mut s, rows);
    hot_split(&mut s, rows);
    table1(&mut s, rows);
    s.push_str("\n### MTSS + stacklet hybrid\n\n");
    match (hybrid, hybrid_pct(hybrid)) {
        (Some(h), Some(p)) => {
            let heaps = match h["stacklet_pool"].as_array() {
                Some(a) => {
                    let list: Vec<String> = a.iter().map(|b| b.to_string()).collect();
                    format!("each workload's best of {} bytes, refined to the smallest heap that keeps its PRS", list.join(", "))
                }
                None => format!("{} bytes", h["stacklet_pool"]),
            };
            let _ = writeln!(
                s,
                "`mtss+split` (MTSS loans, stacklets as the fallback from a heap carved out of the \
                 stack pool: {heaps}): PRS against the summed measured high water, the heap \
                 counted, **{p:.1} %** on average over {} workloads ({} failed), from the PRS \
                 sweep stored in `{}` (`cactus bench mtss prs --stack mtss+split`; its tables, \
                 docs/results/hybrid-prs.md, stand beside plain `mtss`'s in \
                 docs/results/mtss-prs.md). Issue goal: at least 30 % below the summed high \
                 water.",
                h["workloads"],
                h["failed"],
                h["store"].as_str().unwrap_or("?")
            );
        }
        _ => s.push_str(
            "Not measured in this run: `cactus bench segmented --hybrid-prs STORE` reads the \
             PRS of a `cactus bench mtss prs --stack mtss+split --json STORE` sweep; without \
             it the summary's `hybrid_prs_pct` is `n/a`, not a number.\n",
        ),
    }
    let failures: Vec<String> = rows
        .iter()
        .flat_map(|r| {
            let run = r
                .run
                .as_ref()
                .err()
                .map(|e| format!("{}: {e}", r.experiment.name()));
            let alloc = match &r.allocated_core_bytes {
                Some(Err(e)) => Some(format!("{}: allocated budgets: {e}", r.experiment.name())),
                _ => None,
            };
            run.into_iter().chain(alloc)
        })
        .collect();
    if !failures.is_empty() {
        s.push_str("\n### Failures (left out of every figure that needs them)\n\n");
        for f in failures {
            let _ = writeln!(s, "- {f}");
        }
    }
    s
}

fn paper_table2(config: Config) -> Option<f64> {
    let i = match config {
        Config::Contiguous => 0,
        Config::CheckOnly => 4,
        Config::Naive => 2,
        Config::Optimized => 3,
        Config::CheckOnlyBound | Config::HardwareBound => return None,
    };
    Some(PAPER_TABLE2[i].1)
}

fn table2(s: &mut String, rows: &[PointResult]) {
    s.push_str("### CoreMark-like throughput (Table 2)\n\n");
    let mut t = Table::new(&[
        "Configuration",
        ">Iterations",
        ">Worker cycles",
        ">Iterations / worker Mcycle",
        ">Of contiguous",
        ">Active cycles (whole run)",
        ">Iterations / active Mcycle",
        ">Stacklets linked",
        ">Paper: iterations / s",
        ">Paper: of contiguous",
    ]);
    for config in Config::ALL {
        let run = coremark_run(rows, config);
        let paper = paper_table2(config);
        t.row([
            config.name().to_string(),
            run.map_or("failed".into(), |r| r.iterations.to_string()),
            run.and_then(|r| r.task(super::points::WORKER))
                .map_or("-".into(), |w| w.cycles.to_string()),
            num(run.and_then(Run::per_mcycle), 2),
            run.and_then(|r| pct_of_contiguous(rows, r))
                .map_or("-".into(), |p| format!("{p:.1} %")),
            run.map_or("-".into(), |r| r.active_cycles.to_string()),
            num(run.and_then(Run::per_active_mcycle), 2),
            run.map_or("-".into(), |r| r.links.to_string()),
            paper.map_or("-".into(), |p| format!("{p:.0}")),
            paper.map_or("-".into(), |p| {
                format!("{:.1} %", p * 100.0 / PAPER_TABLE2[0].1)
            }),
        ]);
    }
    s.push_str(&t.render());
}

fn sum_hwm(run: &Run) -> Option<u32> {
    run.tasks.iter().map(|t| t.hwm).sum()
}

fn table3(s: &mut String, rows: &[PointResult]) {
    s.push_str("\n### CoreMark-like stack memory (Table 3)\n\n");
    let base = coremark_run(rows, Config::Contiguous);
    let base_worker = base.and_then(|r| r.task(super::points::WORKER)?.hwm);
    let mut t = Table::new(&[
        "Configuration",
        ">Worker stack / first stacklet (B)",
        ">Worker peak stack memory (B)",
        ">Of contiguous",
        ">Worker budget (B)",
        ">All tasks: peak stack memory, summed (B)",
        ">All tasks: heap peak (B)",
        ">All tasks: budgets (B)",
        ">Paper (B)",
    ]);
    for config in Config::ALL {
        let run = coremark_run(rows, config);
        let worker = run.and_then(|r| r.task(super::points::WORKER));
        let hwm = worker.and_then(|w| w.hwm);
        let paper = match config {
            Config::Contiguous => PAPER_TABLE3[0].1.to_string(),
            Config::Optimized => PAPER_TABLE3[1].1.to_string(),
            _ => "-".into(),
        };
        t.row([
            config.name().to_string(),
            bytes(worker.map(|w| w.stack)),
            bytes(hwm),
            match (hwm, base_worker) {
                (Some(h), Some(b)) if b > 0 => format!("{:.2}x", f64::from(h) / f64::from(b)),
                _ => "-".into(),
            },
            bytes(worker.map(|w| w.budget)),
            bytes(run.and_then(sum_hwm)),
            bytes(run.and_then(|r| r.heap_peak)),
            bytes(run.map(|r| r.tasks.iter().map(|t| t.budget).sum())),
            paper,
        ]);
    }
    s.push_str(&t.render());
    let _ = writeln!(
        s,
        "\nPaper, hypothetical ABIs: {} B with r4 and r5 caller-saved, {} B with the interrupt \
         frame off the task stack as well (ours saves context in the TCB and traps on a kernel \
         stack: that ABI).",
        PAPER_TABLE3[2].1, PAPER_TABLE3[3].1
    );
    s.push_str("\n### Overhead per stacklet\n\n");
    let mut t = Table::new(&[
        "Scenario",
        ">Stacklets linked",
        ">Heap growth (B)",
        ">Frame (B)",
        ">Stack parts (B)",
        ">Overhead per stacklet (B)",
        ">of which metadata (B)",
        ">Paper: ours / ideal ABI (B)",
    ]);
    for r in rows.iter().filter(|r| r.experiment == Experiment::Overhead) {
        let o = r.run.as_ref().ok().and_then(|r| r.overhead);
        t.row([
            "overhead.toml".to_string(),
            o.map_or("failed".into(), |o| o.links.to_string()),
            bytes(o.map(|o| o.heap_growth)),
            bytes(o.map(|o| o.frame)),
            bytes(o.map(|o| o.region_bytes)),
            o.and_then(|o| o.per_stacklet())
                .map_or("-".into(), whole_or_one),
            o.and_then(|o| o.metadata())
                .map_or("-".into(), whole_or_one),
            format!("{} / {}", PAPER_OVERHEAD.0, PAPER_OVERHEAD.1),
        ]);
    }
    s.push_str(&t.render());
}

fn hot_split(s: &mut String, rows: &[PointResult]) {
    s.push_str("\n### Hot split: run time against the worker's first stacklet\n\n");
    let mut firsts: Vec<u32> = Vec::new();
    let mut variants: Vec<(bool, bool)> = Vec::new();
    for r in rows {
        if let Experiment::HotSplit {
            first,
            cache,
            learn,
        } = r.experiment
        {
            if !firsts.contains(&first) {
                firsts.push(first);
            }
            if !variants.contains(&(cache, learn)) {
                variants.push((cache, learn));
            }
        }
    }
    firsts.sort_unstable();
    let name =
        |(c, l): (bool, bool)| format!("cache {}, learn {}", super::on_off(c), super::on_off(l));
    let mut columns = vec!["First stacklet (B)".to_string()];
    for &v in &variants {
        columns.push(format!(">{}: worker cycles", name(v)));
        columns.push(format!(">{}: links", name(v)));
        columns.push(format!(">{}: of contiguous", name(v)));
    }
    let refs: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut t = Table::new(&refs);
    for &first in &firsts {
        let mut cells = vec![first.to_string()];
        for &(cache, learn) in &variants {
            let run = rows
                .iter()
                .find(|r| {
                    r.experiment
                        == Experiment::HotSplit {
                            first,
                            cache,
                            learn,
                        }
                })
                .and_then(|r| r.run.as_ref().ok());
            cells.push(
                run.and_then(|r| r.task(super::points::WORKER))
                    .map_or("failed".into(), |w| w.cycles.to_string()),
            );
            cells.push(run.map_or("-".into(), |r| r.links.to_string()));
            cells.push(
                run.and_then(|r| pct_of_contiguous(rows, r))
                    .map_or("-".into(), |p| format!("{p:.1} %")),
            );
        }
        t.row(cells);
    }
    s.push_str(&t.render());
}

fn table1(s: &mut String, rows: &[PointResult]) {
    s.push_str("\n### Crazyflie-like core tasks (Table 1 and the 500-byte claim)\n\n");
    let contiguous = rows
        .iter()
        .find(|r| matches!(r.experiment, Experiment::Crazyflie { first: None, .. }))
        .and_then(|r| r.run.as_ref().ok());
    let segmented: Vec<(u32, bool, Result<&Run, &String>)> = rows
        .iter()
        .filter_map(|r| match r.experiment {
            Experiment::Crazyflie {
                first: Some(f),
                learn,
            } => Some((f, learn, r.run.as_ref())),
            _ => None,
        })
        .collect();
    let mut columns = vec![
        "Task".to_string(),
        ">Paper: max stack (B)".into(),
        ">Paper: allocated (B)".into(),
        ">Our budget (B)".into(),
        ">Contiguous high water (B)".into(),
    ];
    for (f, learn, _) in &segmented {
        columns.push(format!(
            ">Segmented, first {f} B, learning {}: peak (B)",
            on_off(*learn)
        ));
    }
    let refs: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut t = Table::new(&refs);
    for (task, max, alloc) in PAPER_TABLE1 {
        let c = contiguous.and_then(|r| r.task(task));
        let mut cells = vec![
            task.to_string(),
            max.to_string(),
            alloc.to_string(),
            bytes(c.map(|t| t.budget)),
            bytes(c.and_then(|t| t.hwm)),
        ];
        for (_, _, run) in &segmented {
            cells.push(bytes(run.as_ref().ok().and_then(|r| r.task(task)?.hwm)));
        }
        t.row(cells);
    }
    let core_sum = |r: &Run, f: fn(&super::TaskStack) -> Option<u32>| -> Option<u32> {
        super::CORE_TASKS
            .iter()
            .map(|n| r.task(n).and_then(f))
            .sum()
    };
    let mut cells = vec![
        "*Sum*".to_string(),
        PAPER_TABLE1.iter().map(|p| p.1).sum::<u32>().to_string(),
        PAPER_TABLE1.iter().map(|p| p.2).sum::<u32>().to_string(),
        bytes(contiguous.and_then(|r| core_sum(r, |t| Some(t.budget)))),
        bytes(contiguous.and_then(|r| core_sum(r, |t| t.hwm))),
    ];
    for (_, _, run) in &segmented {
        cells.push(bytes(
            run.as_ref().ok().and_then(|r| core_sum(r, |t| t.hwm)),
        ));
    }
    t.row(cells);
    s.push_str(&t.render());
    let allocated = rows
        .iter()
        .find_map(|r| r.allocated_core_bytes.as_ref()?.as_ref().ok().copied());
    s.push('\n');
    let mut t = Table::new(&[
        "Core tasks' stack memory",
        ">Bytes",
        ">Of the allocated stacks",
        ">Paper (B)",
    ]);
    let of_alloc = |v: Option<u32>| match (v, allocated) {
        (Some(v), Some(a)) if a > 0 => format!("{:.1} %", f64::from(v) * 100.0 / f64::from(a)),
        _ => "-".into(),
    };
    t.row([
        "allocated stacks (crazyflie-allocated budgets)".to_string(),
        bytes(allocated),
        of_alloc(allocated),
        PAPER_TABLE1.iter().map(|p| p.2).sum::<u32>().to_string(),
    ]);
    let hwm = contiguous.and_then(|r| core_sum(r, |t| t.hwm));
    t.row([
        "contiguous: summed high water".to_string(),
        bytes(hwm),
        of_alloc(hwm),
        "-".into(),
    ]);
    for (f, learn, run) in &segmented {
        let peak = run.as_ref().ok().and_then(|r| r.core_live_peak);
        let paper = if *f == CRAZYFLIE_HEADLINE_FIRST && *learn == CRAZYFLIE_HEADLINE_LEARN {
            format!("~{PAPER_CRAZYFLIE_BYTES}")
        } else {
            "-".into()
        };
        t.row([
            format!(
                "segmented, first stacklets {f} B, learning {}: peak of the summed live \
                 stacklets",
                on_off(*learn)
            ),
            match run {
                Ok(_) => bytes(peak),
                Err(e) => format!("failed: {e}"),
            },
            of_alloc(peak),
            paper,
        ]);
    }
    s.push_str(&t.render());
    peak_origin(s, &segmented);
}

/// Where each segmented row's peak of the summed live stacklets comes from: what each core
/// task held at that instant and what it was doing (from the trace).
fn peak_origin(s: &mut String, segmented: &[(u32, bool, Result<&Run, &String>)]) {
    let peaks: Vec<(u32, bool, &super::LivePeak)> = segmented
        .iter()
        .filter_map(|(f, l, r)| Some((*f, *l, r.as_ref().ok()?.core_peak_at.as_ref()?)))
        .collect();
    if peaks.is_empty() {
        return;
    }
    s.push_str("\nWhere the peak comes from (the first instant the sum reached it):\n\n");
    let mut t = Table::new(&[
        ">First stacklets (B)",
        "Learning",
        ">Cycle",
        "Task",
        "Doing",
        ">Stacklets held (first + linked)",
        ">Largest (B)",
        ">Bytes held",
        ">of which metadata (B)",
        ">Most held blocked in a kernel call, whole run (B)",
    ]);
    let meta = |h: &super::HeldAtPeak| h.stacklets * super::STACKLET_META;
    for (f, learn, p) in &peaks {
        for h in &p.tasks {
            t.row([
                f.to_string(),
                on_off(*learn).to_string(),
                p.cycle.to_string(),
                h.name.clone(),
                h.state.name().to_string(),
                h.stacklets.to_string(),
                h.largest.to_string(),
                h.bytes.to_string(),
                meta(h).to_string(),
                h.blocked_max.to_string(),
            ]);
        }
        let sum = |g: &dyn Fn(&super::HeldAtPeak) -> u32| -> String {
            p.tasks.iter().map(g).sum::<u32>().to_string()
        };
        t.row([
            f.to_string(),
            on_off(*learn).to_string(),
            p.cycle.to_string(),
            "*Sum*".into(),
            String::new(),
            sum(&|h| h.stacklets),
            String::new(),
            p.bytes.to_string(),
            sum(&meta),
            sum(&|h| h.blocked_max),
        ]);
    }
    s.push_str(&t.render());
    s.push('\n');
    for (f, learn, p) in &peaks {
        if let Some((floor, task)) = segmented
            .iter()
            .find(|(g, l, _)| g == f && l == learn)
            .and_then(|(_, _, r)| no_overlap_floor(r.as_ref().ok()?, p))
        {
            let _ = writeln!(
                s,
                "First stacklets {f} B, learning {}, if no task were ever preempted deep in an \
                 activation (one task at its own peak, every other one at the most it holds \
                 blocked): {floor} B, with {task} at its peak.\n",
                on_off(*learn)
            );
        }
    }
}

/// The least peak of the summed live stacklets a schedule without overlapping activations
/// could give: the largest, over the core tasks, of the task's own peak plus the other tasks'
/// most bytes held blocked in a kernel call; with the task that sets it.
fn no_overlap_floor(run: &Run, p: &super::LivePeak) -> Option<(u32, String)> {
    let blocked: u32 = p.tasks.iter().map(|h| h.blocked_max).sum();
    p.tasks
        .iter()
        .map(|h| {
            let own = run.task(&h.name)?.hwm?;
            Some((own + blocked - h.blocked_max, h.name.clone()))
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .max_by_key(|(b, _)| *b)
}

/// What the tables measure and how they differ from the paper.
pub const READING: &str = "**Evaluation.** `cactus bench segmented` (crates/bench/src/segmented) \
measures the `segmented` stack strategy (kernel/stack/segmented.c) the way the segmented-stack \
paper's section 7 does: CoreMark-like throughput and stack memory under six configurations \
(Tables 2 and 3), the heap bytes each linked stacklet costs beyond its frame, run time against \
the first stacklet's size (the hot split, Figure 2) and the Crazyflie-like core tasks' stack \
memory (Table 1 and the 500-byte claim). `--size small` (the `-small` workloads, 16 points, \
under a minute) makes this file; `--size full` (full inputs, the whole sweep, 62 points) is \
part of `make bench`. Every point is a build and a run on cactus-sim (`mcu` profile, the \
ownership oracle stopping the run at its first violation, exit code 0 and every program's own \
checksum line `ok` required); a failed point is listed under Failures and left out of every \
figure that needs it. Every figure is simulated and deterministic: the tables change only when \
the code they measure does. The summary line is `segmented: coremark_pct=... \
stacklet_bytes=... crazyflie_peak_bytes=... hybrid_prs_pct=...` (`n/a` unless the run read an \
`mtss+split` PRS store with `--hybrid-prs`).\n\n\
*Table 2* runs the CoreMark-like single-task workload (`workloads/coremark-like/\
coremark-single[-small].toml`: one iteration per 1 ms input chunk) six ways: *contiguous* \
(`stack = \"static\"`, `checks = \"none\"`), *check-only* (`stack = \"segmented\"`, `checks = \
\"split\"` with every rolling rule, every first stacklet the manifest budget, so nothing moves: \
the checks' cost alone), *naive* (segmented, a check in every function (rolling off), the \
worker `coremark0` starting with a 64-byte first stacklet, `stacklet_min = 64`, \
`stacklet_cache = false`, `stacklet_learn = false`: a stacklet per crossing) and *optimized* \
(segmented, split checks with every rolling rule, the worker's first stacklet small (the \
store's `optimized_first`), `stacklet_min = 64`, the cache and the learning on). The harness \
tasks (`feeder`, `coordinator`) keep their budgets; K of the rolling rule is pinned to the \
manifest's (10 % of its smallest budget), so a first stacklet changes nothing but the \
stacklet. Throughput is iterations per million cycles of the worker (the cycles while it ran, \
the kernel's linking and unlinking on its behalf included: the split slow path is a call in its \
context); *of contiguous* is that over the contiguous run's (the summary's `coremark_pct` is \
the optimized row's). The whole run's active cycles (simulated cycles minus cycles asleep in \
`wfi`) are shown beside it but not compared: they include start-up work that differs by \
strategy and is no part of a stack's cost (`static` paints its whole 48 KiB pool for the \
high-water measurement, a fixed cost that dominates the small size's 4 iterations). Builds \
with checks also compile with `-fno-ipa-ra` (so an entry check always finds a dead scratch \
register), so check-only and contiguous differ in code besides the checks. The paper's \
Table 2 is CoreMark iterations per second on a 168 MHz Cortex-M4 (its Rust and C \
implementation); RWPI relocation (paper: no cost) has no counterpart here. The two \
*hardware-bound* rows are check-only and optimized built with `kernel.stack_bound = true`: the \
kernel keeps cactus-sim's `mstackbound` CSR at the running stack's limit and `cactus cc \
--stack-bound` gives every entry check whose need is the function's first `sp` decrement no \
instruction (the hardware refuses the decrement, and that trap is the slow path); every \
function with a frame keeps a table entry there, rolled into its callers or not, each asking \
for its rolled effective size, and checks the bound cannot make (a frame allocated in two \
steps, a call into uninstrumented code) keep their instructions, at the function's entry. \
`stacklet_learn` selects the kernel's hot-split alleviation \
(`CACTUS_STACKLET_LEARN`): a kernel without it ignores the define, and then learn on and off \
measure the same.\n\n\
*Table 3*: a task's peak stack memory is, for `static`, its high water (the bytes of its stack \
ever written: what a contiguous stack must hold at least), and for `segmented` its peak block \
bytes held (first stacklet, linked and cached stacklets, metadata included: the task's \
STACK_HWM event, `cactus run`'s `stack hwm/budget` column), so check-only holds its whole first \
stacklet whatever it writes; *of contiguous* is the worker's over its contiguous high water; \
the heap peak is `cactus_stacklet_heap_peak` read from the kernel after the run (every task's \
stacklets at once). The paper's figures are the CoreMark task's stack maximum; its 60 bytes per \
stacklet are 36 of interrupt frame, 12 of metadata and 12 of spilled registers, 12 with an \
ideal ABI. Ours saves context in the TCB and traps on a kernel stack (that ideal ABI). \
*Overhead per stacklet* is measured by `bench/segmented/overhead.toml`: a recursion whose every \
level links a stacklet of its own (`stacklet_min = 64`, no cache, a check in every function); \
the task reads the kernel's count of heap bytes held (`cactus_stacklet_heap_bytes`) at the \
deepest level; the trace gives the links (OVERFLOW events) between the scenario's two markers, \
and a second task running the same recursion where nothing moves gives the frame's size (the \
difference of two levels' sp): overhead = (heap growth - links x frame) / links (the summary's \
`stacklet_bytes`), of which metadata = (heap growth - the stack parts the kernel assigned to \
the task) / links; the rest is padding: a 16-byte-aligned frame in a block of 16-byte \
granularity with 12 bytes of metadata leaves 4 bytes unused (block and frame are both \
multiples of 16, so their difference is 0 or at least 16 whatever the metadata: \
docs/segmented.md, \"Why not 12\").\n\n\
*Hot split*: the CoreMark-like workload (run time: the worker's cycles, as in Table 2) with \
the worker's first stacklet at each size (split checks, every rolling rule, \
`stacklet_min = 64`), with the cache and the learning off and on. The paper's Figure 2 is an \
x86-64 C++ loop under libgcc's segmented stacks with 4-128 KiB stacklets (60 % slower when a \
hot split strikes).\n\n\
*Table 1* runs the Crazyflie-like workload (`workloads/crazyflie-like/crazyflie[-small].toml`) \
contiguous, for each core task's measured high water, and segmented with the four core tasks' \
first stacklets at the sizes shown (`stacklet_min = 64`, no cache; the hot-split learning \
off and on; harness tasks `link` and `coordinator` at their budgets, not counted). The peak of the summed live stacklets \
is from the trace: every stack region the kernel assigns to one of the four tasks (a first \
stacklet at creation, a stacklet when it is linked) counts its block bytes (region + 12 \
metadata bytes) until it is released; the summary's `crazyflie_peak_bytes` is the 64-byte \
row with the learning (the kernel's default; the cache stays off because a cached stacklet is \
held while its task blocks, which raises the floor below). The allocated stacks are the `crazyflie-allocated` manifest's budgets (the FreeRTOS \
stacks of the paper's Table 1). The paper's Table 1 maxima come from static analysis of the \
firmware; its 500 bytes is its estimate for the four tasks' segmented stacks when they do not \
peak together; ours run under fixed priorities, where a low-priority task preempted deep in an \
activation holds its stacklets while the higher ones run theirs. *Where the peak comes from* is \
read from the same trace at the first event that reached the peak: each core task's live \
stacklets (its first one, whose size is the frame it blocks in once its outermost frame has \
replaced a first stacklet too small for it, and the linked ones), and what it was doing, from \
the task switches: *running*, *preempted by an interrupt* (switched out between an interrupt's \
trap and its `mret`) or *switched out in a kernel call* (it slept, blocked or woke a task that \
outranks it); of its bytes held, 12 a stacklet are metadata, the rest its stack parts (its \
frames, what is rolled into their checks, the blocks' rounding); the last column is the most the task held at any switch in one of its kernel \
calls over the run (where it blocks between activations). The line below it is what a schedule \
without overlapping activations could reach at best: the largest, over the core tasks, of the \
task's own peak plus the other tasks' most held blocked.";
