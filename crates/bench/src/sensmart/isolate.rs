//! The `isolate` part of `cactus bench sensmart` (docs/sensmart.md "Memory isolation"):
//!
//! - **attacks**: the attack suite (`tests/sensmart/attacks/attacks.toml`) built with
//!   `kernel.isolate` and without: with it every attack must end in the attacker's fault policy
//!   with the victim's memory unchanged (the victim prints `attacks_tried=N attacks_stopped=M`
//!   and PASS), without it none may be stopped (so the suite can fail);
//! - **cost**: each workload built with no pass, with `kernel.isolate` and, for scale, with
//!   `kernel.preempt_traps` (N = 256), run on cactus-sim: awake cycles, code bytes, checked
//!   sites, allowed slow-path entries, and whether the output is the same as without a pass.

use super::preempt::{
    self, build_and_run_oracle, build_and_run_with, geomean_pct, guest_lines, PreemptOptions, Ran,
};
use super::{Part, SensmartRow};
use crate::elf_facts::first_line;
use cactus_firmware::Overrides;
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The attack suite's manifest.
pub const ATTACKS: &str = "tests/sensmart/attacks/attacks.toml";

/// The cost of the pass on one workload, beside no pass and preempt-traps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Awake cycles without a pass.
    pub cycles_base: u64,
    /// With the isolate pass.
    pub cycles_isolate: u64,
    /// With the preempt-traps pass (N = 256).
    pub cycles_preempt: u64,
    /// Bytes of executable sections without a pass.
    pub code_base: u64,
    /// With the isolate pass (its kernel entries included).
    pub code_isolate: u64,
    /// With the preempt-traps pass.
    pub code_preempt: u64,
    /// Checked sites (`jal B,port_isolate_...` stubs in the instrumented assembly).
    pub sites: u32,
    /// Slow-path entries that were allowed in the run (`k_isolate_slow`).
    pub slow: u32,
}

/// The outcome of the attack suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attacks {
    /// Attacks tried (with the pass).
    pub tried: u32,
    /// Of them, ended in the attacker's fault policy with the victim intact.
    pub stopped: u32,
    /// Attacks stopped in the run without the pass (must be 0).
    pub stopped_without: u32,
}

/// The part's points: the attack suite, then one cost point per workload with static stacks.
pub fn points(o: &PreemptOptions) -> Vec<Point<'_, SensmartRow>> {
    let mut out = vec![Point::new(
        "isolate/attacks".to_string(),
        "attacks".to_string(),
        move |_, progress: &Progress| {
            let row = measure_attacks(o);
            if let Some(note) = &row.note {
                progress.note(&format!("cactus: isolate attacks: {note}"));
            }
            row
        },
    )];
    for m in workloads(o) {
        let name = Path::new(&m)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        out.push(Point::new(
            format!("isolate/cost/{name}"),
            format!("isolate cost {name}"),
            move |_, progress: &Progress| {
                let row = measure_cost(o, &m, &name);
                if let Some(note) = &row.note {
                    progress.note(&format!("cactus: isolate cost {}: {note}", row.name));
                }
                row
            },
        ));
    }
    out
}

/// The workloads of the cost rows at `small` (two light ones of the preempt part's, so the
/// whole bench stays under a minute).
pub const SMALL: [&str; 2] = [
    "workloads/coremark-like/coremark-single-small.toml",
    "workloads/mtss/network-small.toml",
];

/// The workloads of the cost rows: [`SMALL`] at `small`; at `full` the preempt part's
/// workloads that can be isolated (static stacks, not SRP).
pub fn workloads(o: &PreemptOptions) -> Vec<String> {
    if o.size == crate::Size::Small {
        return SMALL.iter().map(|s| s.to_string()).collect();
    }
    preempt::workloads(&o.root, o.size)
        .into_iter()
        .filter(|m| {
            cactus_firmware::Manifest::load(&o.root.join(m))
                .map(|mf| {
                    mf.kernel.stack == cactus_firmware::StackStrategy::Static && mf.srp.is_none()
                })
                .unwrap_or(true)
        })
        .collect()
}

fn row(name: &str) -> SensmartRow {
    SensmartRow::new(Part::Isolate, name)
}

fn isolated() -> Overrides {
    Overrides {
        isolate: true,
        ..Overrides::default()
    }
}

/// `(tried, stopped)` from the victim's `attacks_tried=N attacks_stopped=M` line.
pub fn parse_attacks(uart: &str) -> Option<(u32, u32)> {
    let line = uart.lines().find(|l| l.starts_with("attacks_tried="))?;
    let mut it = line.split_whitespace();
    let tried = it.next()?.strip_prefix("attacks_tried=")?.parse().ok()?;
    let stopped = it.next()?.strip_prefix("attacks_stopped=")?.parse().ok()?;
    Some((tried, stopped))
}

/// Runs the attack suite with and without the pass.
pub fn measure_attacks(o: &PreemptOptions) -> SensmartRow {
    let mut r = row("attacks");
    let on = match build_and_run_with(o, ATTACKS, &isolated()) {
        Ok(x) => x,
        Err(e) => {
            r.note = Some(format!("with the pass: {e}"));
            return r;
        }
    };
    // Without the pass the attacks write outside their memory: the oracle records, the run
    // goes on to the victim's verdict.
    let off = match build_and_run_oracle(
        o,
        ATTACKS,
        &Overrides::default(),
        cactus_sim::OracleMode::Record,
    ) {
        Ok(x) => x,
        Err(e) => {
            r.note = Some(format!("without the pass: {e}"));
            return r;
        }
    };
    let (Some((tried, stopped)), Some((_, stopped_without))) =
        (parse_attacks(&on.uart), parse_attacks(&off.uart))
    else {
        r.note = Some("no `attacks_tried=` line in the output".into());
        return r;
    };
    r.attacks = Some(Attacks {
        tried,
        stopped,
        stopped_without,
    });
    r.note = match (&on.exit, &off.exit) {
        (Ok(0), Ok(1)) if stopped == tried && stopped_without == 0 => None,
        (Ok(0), Ok(1)) => Some(format!(
            "{stopped} of {tried} stopped with the pass, {stopped_without} without"
        )),
        (Ok(c), _) if *c != 0 => Some(format!(
            "with the pass: exit code {c}: {stopped} of {tried} stopped"
        )),
        (Err(e), _) => Some(format!("with the pass: {e}")),
        (_, Ok(c)) => Some(format!("without the pass: exit code {c}, want 1")),
        (_, Err(e)) => Some(format!("without the pass: {e}")),
    };
    r.passed = r.note.is_none();
    r
}

/// Checked sites in a build's instrumented assembly.
fn count_sites(dir: &Path) -> u32 {
    let Ok(rd) = std::fs::read_dir(dir.join("asm")) else {
        return 0;
    };
    rd.filter_map(|e| e.ok())
        .filter(|e| !e.file_name().to_string_lossy().ends_with(".gcc.s"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|t| {
            t.lines()
                .filter(|l| {
                    let l = l.trim_start();
                    l.starts_with("jal") && l.contains(cactus_cc::isolate::ENTRY_PREFIX)
                })
                .count() as u32
        })
        .sum()
}

fn same_output(base: &Ran, other: &Ran, what: &str) -> Option<String> {
    match (&base.exit, &other.exit) {
        (Ok(0), Ok(0)) if guest_lines(&base.uart) == guest_lines(&other.uart) => None,
        (Ok(0), Ok(0)) => Some(format!("the output differs with {what}")),
        (Ok(0), Ok(c)) => Some(format!(
            "with {what}: exit code {c}: {}",
            first_line(
                other
                    .uart
                    .lines()
                    .find(|l| l.contains("isolate"))
                    .unwrap_or("")
            )
        )),
        (Ok(0), Err(e)) => Some(format!("with {what}: {e}")),
        (Ok(c), _) => Some(format!("without a pass: exit code {c}")),
        (Err(e), _) => Some(format!("without a pass: {e}")),
    }
}

/// Builds and runs workload `path` with no pass, with isolation and with preempt-traps.
pub fn measure_cost(o: &PreemptOptions, path: &str, name: &str) -> SensmartRow {
    let mut r = row(name);
    let run = |ov: &Overrides, what: &str| {
        build_and_run_with(o, path, ov).map_err(|e| format!("{what}: {e}"))
    };
    let result = (|| {
        let base = run(&Overrides::default(), "without a pass")?;
        let iso = run(&isolated(), "with isolate")?;
        let pre = run(
            &Overrides {
                preempt_traps: Some(preempt::PERIOD),
                ..Overrides::default()
            },
            "with preempt-traps",
        )?;
        Ok::<_, String>((base, iso, pre))
    })();
    let (base, iso, pre) = match result {
        Ok(x) => x,
        Err(e) => {
            r.note = Some(e);
            return r;
        }
    };
    r.cost = Some(Cost {
        cycles_base: base.awake,
        cycles_isolate: iso.awake,
        cycles_preempt: pre.awake,
        code_base: base.code,
        code_isolate: iso.code,
        code_preempt: pre.code,
        sites: count_sites(&iso.dir),
        slow: iso.isolate_slow,
    });
    r.note =
        same_output(&base, &iso, "isolate").or_else(|| same_output(&base, &pre, "preempt-traps"));
    r.passed = r.note.is_none();
    r
}

fn pct(base: u64, pass: u64) -> String {
    if base == 0 {
        "-".into()
    } else {
        format!("{:+.1}", (pass as f64 / base as f64 - 1.0) * 100.0)
    }
}

/// Geometric-mean overhead of isolate (cycles, code) and of preempt-traps (cycles, code) over
/// the passed cost rows.
fn geomeans(rows: &[SensmartRow]) -> [Option<f64>; 4] {
    let ok: Vec<&Cost> = rows
        .iter()
        .filter(|r| r.passed)
        .filter_map(|r| r.cost.as_ref())
        .collect();
    let g =
        |f: &dyn Fn(&Cost) -> (u64, u64)| geomean_pct(&ok.iter().map(|c| f(c)).collect::<Vec<_>>());
    [
        g(&|c| (c.cycles_base, c.cycles_isolate)),
        g(&|c| (c.code_base, c.code_isolate)),
        g(&|c| (c.cycles_base, c.cycles_preempt)),
        g(&|c| (c.code_base, c.code_preempt)),
    ]
}

/// The median cycle overhead of isolate (percent) over the passed cost rows.
fn median_cycles_pct(rows: &[SensmartRow]) -> Option<f64> {
    let mut v: Vec<f64> = rows
        .iter()
        .filter(|r| r.passed)
        .filter_map(|r| r.cost.as_ref())
        .filter(|c| c.cycles_base > 0)
        .map(|c| (c.cycles_isolate as f64 / c.cycles_base as f64 - 1.0) * 100.0)
        .collect();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => None,
        n if n % 2 == 1 => Some(v[n / 2]),
        n => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// What the paper reports for the same cost (SenSmart on AVR), printed beside ours.
pub const PAPER: &str = "paper, AVR (Table II, Figures 4-5): 62 cycles per indirect heap \
    access and 69 per stack-frame access through a pointer, code inflation within 200 %; its \
    execution-time overhead is given only as Figure 5's bars (a \"moderate slowdown\" against \
    the t-kernel), no percentage";

fn attacks(rows: &[SensmartRow]) -> Option<Attacks> {
    rows.iter().find_map(|r| r.attacks)
}

/// The part's tables: the attack suite, then the cost per workload.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut at = Table::new(&[
        "suite",
        ">attacks tried",
        ">stopped with isolate",
        ">stopped without",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.name == "attacks") {
        let a = r.attacks;
        at.row([
            ATTACKS.to_string(),
            or_dash(a.map(|a| a.tried)),
            or_dash(a.map(|a| a.stopped)),
            or_dash(a.map(|a| a.stopped_without)),
            super::verdict(r),
        ]);
    }
    let mut ct = Table::new(&[
        "workload",
        ">awake cycles",
        ">isolate",
        ">cycles %",
        ">preempt-traps %",
        ">code bytes",
        ">isolate",
        ">code %",
        ">preempt-traps code %",
        ">checked sites",
        ">slow-path entries",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.name != "attacks") {
        let c = r.cost.as_ref();
        ct.row([
            r.name.clone(),
            or_dash(c.map(|c| c.cycles_base)),
            or_dash(c.map(|c| c.cycles_isolate)),
            c.map_or("-".into(), |c| pct(c.cycles_base, c.cycles_isolate)),
            c.map_or("-".into(), |c| pct(c.cycles_base, c.cycles_preempt)),
            or_dash(c.map(|c| c.code_base)),
            or_dash(c.map(|c| c.code_isolate)),
            c.map_or("-".into(), |c| pct(c.code_base, c.code_isolate)),
            c.map_or("-".into(), |c| pct(c.code_base, c.code_preempt)),
            or_dash(c.map(|c| c.sites)),
            or_dash(c.map(|c| c.slow)),
            super::verdict(r),
        ]);
    }
    let [ci, si, cp, sp] = geomeans(rows);
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:+.1} %"));
    format!(
        "Memory isolation: the attack suite:\n\n{}\nCost of the isolate pass against no pass \
         (and preempt-traps at N = {} for scale); geometric mean: isolate cycles {} (median {}), \
         code {}; preempt-traps cycles {}, code {} ({PAPER}):\n\n{}",
        at.render(),
        preempt::PERIOD,
        f(ci),
        f(median_cycles_pct(rows)),
        f(si),
        f(cp),
        f(sp),
        ct.render()
    )
}

/// The part's summary pairs: attacks tried and stopped, the geometric-mean cycle and code
/// overhead of the pass.
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let [ci, si, _, _] = geomeans(rows);
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1}"));
    let a = attacks(rows);
    vec![
        (
            "attacks_tried",
            a.map_or("-".into(), |a| a.tried.to_string()),
        ),
        (
            "attacks_stopped",
            a.map_or("-".into(), |a| a.stopped.to_string()),
        ),
        ("isolate_overhead_pct", f(ci)),
        ("isolate_median_pct", f(median_cycles_pct(rows))),
        ("isolate_code_pct", f(si)),
    ]
}

/// What the part's columns mean.
pub fn reading() -> String {
    format!(
        "**Memory isolation** (docs/sensmart.md). Attacks: {ATTACKS} runs a victim that keeps \
         patterns in its stack and globals and ten attackers (a computed pointer into the \
         victim's stack and one to its globals, a stack-relative overflow, memcpy into its \
         globals, memset over its stack, a store to kernel data, a store to its TCB, a \
         corrupted return address and a forged function pointer into its code, a forged \
         pointer into kernel code); an attack is stopped when the attacker ends in its fault \
         policy and the victim finds its memory, the kernel datum and its TCB unchanged. The \
         row passes when all are stopped with `kernel.isolate` and none without. Cost: each \
         workload with static stacks built with no pass, with `kernel.isolate` and with \
         `kernel.preempt_traps = {}` and run to its end; awake cycles, bytes of executable \
         sections (the kernel entries included), checked sites (stores through a pointer, \
         indirect jumps and returns, library writer calls) and slow-path entries that were \
         allowed (`k_isolate_slow`: what the inline check of the task's three data windows, own \
         globals, stack and shared globals, cannot decide, e.g. a narrower store in a region's \
         last word); a row passes when all three runs exit 0 with the same output. ",
        preempt::PERIOD
    )
}
