//! `cactus bench srp`: the SRP scheduling mode (docs/srp.md) beside per-task stacks on the
//! same workloads. For every job-shaped workload (its `-srp` manifest) the run under SRP gives
//! the shared stack's measured peak and its size; its preemptive manifest under `static`,
//! `mtss` and `segmented` gives the sum of the tasks' measured high waters and of their
//! budgets; every run gives total, awake and kernel cycles, switches (job starts under SRP)
//! and deadline misses. A workload whose tasks block is tried under SRP and its row says why
//! it is refused (the build-time check's message). docs/results/srp.md is generated from it.
//!
//! Guarantees: every figure comes from a build and a run made here on cactus-sim (`mcu`
//! profile, the ownership oracle stopping at its first violation, exit code 0 required); a
//! point that fails is a row with its reason, left out of the summary's sums.

mod points;

pub use crate::Size;
pub use points::{measure, params, points, workloads, SrpOptions, Workload, MAX_CYCLES};

use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::report::Summary;
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Meta, Row, SweepReport};
use serde::{Deserialize, Serialize};

/// How a workload runs in one point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Config {
    /// The SRP scheduler: jobs on one shared stack (the workload's job-shaped `-srp` manifest).
    Srp,
    /// The preemptive manifest as written, with `kernel.scheduler = "srp"` inserted: whether
    /// the workload could use SRP without being rewritten as jobs (the build says why not).
    SrpAsWritten,
    /// The preemptive scheduler, `static` per-task stacks (the baseline).
    Static,
    /// The preemptive scheduler, `mtss` (checks `mtss`).
    Mtss,
    /// The preemptive scheduler, `segmented` (checks `split`).
    Segmented,
}

impl Config {
    /// The name in keys and tables.
    pub fn name(self) -> &'static str {
        match self {
            Config::Srp => "srp",
            Config::SrpAsWritten => "srp-as-written",
            Config::Static => "static",
            Config::Mtss => "mtss",
            Config::Segmented => "segmented",
        }
    }
}

/// One point: a workload under one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SrpRow {
    /// Workload name.
    pub workload: String,
    /// Configuration.
    pub config: Config,
    /// The manifest built (relative to the tree).
    pub manifest: String,
    /// False when SRP cannot be used for this workload (the note says why).
    pub usable: bool,
    /// Built, ran and exited with code 0.
    pub passed: bool,
    /// Why it did not pass (or why SRP cannot be used).
    pub note: Option<String>,
    /// Stack bytes measured: the shared stack's peak under SRP, else the sum of the tasks'
    /// high waters.
    pub stack_peak: Option<u32>,
    /// Stack bytes reserved: the shared stack under SRP, else the tasks' regions summed.
    pub stack_budget: Option<u32>,
    /// `cactus stack-report`'s static bound: the shared stack's under SRP, else the tasks'
    /// bounds summed (None: unbounded or not computed).
    pub static_bound: Option<u32>,
    /// Simulated cycles of the run, sleep included.
    pub cycles: Option<u64>,
    /// Cycles not asleep in `wfi`.
    pub awake_cycles: Option<u64>,
    /// Awake cycles outside every task (kernel entries, switches, idle bookkeeping); under
    /// SRP the dispatcher's own work is inside its task and not counted here.
    pub kernel_cycles: Option<u64>,
    /// Task switches (preemptive), or jobs started (SRP).
    pub switches: Option<u64>,
    /// SRP: jobs that started nested on a running job.
    pub preemptions: Option<u32>,
    /// Deadline misses summed over the tasks with a deadline.
    pub misses: Option<u32>,
}

impl Row for SrpRow {
    fn passed(&self) -> bool {
        self.passed || !self.usable
    }
}

/// The evaluation.
pub struct Srp;

impl Evaluation for Srp {
    const NAME: &'static str = "srp";
    const UNIT: &'static str = "runs";
    type Row = SrpRow;

    fn render(rows: &[SrpRow], meta: &Meta) -> SweepReport {
        let (passed, failed) = verdicts(rows);
        let size = meta.params["size"].as_str().unwrap_or("?").to_string();
        SweepReport {
            tables: markdown(rows),
            reading: reading(&size),
            note: " (simulated cycles only: the figures are deterministic)".to_string(),
            passed,
            failed,
            summary: summary(rows),
        }
    }
}

fn find<'a>(rows: &'a [SrpRow], workload: &str, config: Config) -> Option<&'a SrpRow> {
    rows.iter()
        .find(|r| r.workload == workload && r.config == config)
}

/// The summary (the report adds `passed=` and `failed=`): workloads run under SRP, the shared
/// stacks' peaks and the static stacks' summed high waters of the same workloads, the saving.
pub fn summary(rows: &[SrpRow]) -> Summary {
    let mut srp_bytes = 0u64;
    let mut static_bytes = 0u64;
    let mut n = 0;
    for r in rows.iter().filter(|r| r.config == Config::Srp && r.passed) {
        let st = find(rows, &r.workload, Config::Static).filter(|s| s.passed);
        if let (Some(p), Some(s)) = (r.stack_peak, st.and_then(|s| s.stack_peak)) {
            srp_bytes += u64::from(p);
            static_bytes += u64::from(s);
            n += 1;
        }
    }
    let saving = (static_bytes > 0).then(|| 100.0 * (1.0 - srp_bytes as f64 / static_bytes as f64));
    let mut s = Summary::new("srp");
    s.add("workloads", n)
        .add("srp_stack_bytes", srp_bytes)
        .add("static_stack_bytes", static_bytes)
        .num("saving_pct", saving, 1);
    s
}

/// The tables: one row per workload and configuration, then the verdicts.
pub fn markdown(rows: &[SrpRow]) -> String {
    let mut t = Table::new(&[
        "workload",
        "config",
        ">stack peak (B)",
        ">static bound (B)",
        ">stack reserved (B)",
        ">cycles",
        ">awake cycles",
        ">kernel cycles",
        ">switches / job starts",
        ">preemptions",
        ">deadline misses",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.usable) {
        t.row([
            r.workload.clone(),
            r.config.name().to_string(),
            or_dash(r.stack_peak),
            or_dash(r.static_bound),
            or_dash(r.stack_budget),
            or_dash(r.cycles),
            or_dash(r.awake_cycles),
            or_dash(r.kernel_cycles),
            or_dash(r.switches),
            or_dash(r.preemptions),
            or_dash(r.misses),
            if r.passed {
                "ok".to_string()
            } else {
                format!("FAIL: {}", r.note.as_deref().unwrap_or("?"))
            },
        ]);
    }
    let mut v = Table::new(&[
        "workload",
        "SRP verdict (its jobs)",
        "its preemptive manifest under SRP",
    ]);
    let mut seen: Vec<&str> = Vec::new();
    for r in rows {
        if seen.contains(&r.workload.as_str()) {
            continue;
        }
        seen.push(&r.workload);
        let verdict = match find(rows, &r.workload, Config::Srp) {
            Some(s) if !s.usable => format!(
                "cannot use SRP: {}",
                s.note.as_deref().unwrap_or("refused").replace('|', "\\|")
            ),
            Some(s) if s.passed => {
                let st = find(rows, &r.workload, Config::Static).and_then(|x| x.stack_peak);
                match (s.stack_peak, st) {
                    (Some(p), Some(q)) if q > 0 => format!(
                        "runs under SRP: shared stack peak {p} B against {q} B of static \
                         high waters ({:.1} % less)",
                        100.0 * (1.0 - f64::from(p) / f64::from(q))
                    ),
                    _ => "runs under SRP".to_string(),
                }
            }
            Some(s) => format!("SRP run failed: {}", s.note.as_deref().unwrap_or("?")),
            None => "not run".to_string(),
        };
        let as_written = match find(rows, &r.workload, Config::SrpAsWritten) {
            Some(s) if !s.usable => format!(
                "cannot: {}",
                s.note.as_deref().unwrap_or("refused").replace('|', "\\|")
            ),
            Some(s) if s.passed => "runs as written".to_string(),
            Some(s) => format!("run failed: {}", s.note.as_deref().unwrap_or("?")),
            None => "not tried".to_string(),
        };
        v.row([r.workload.clone(), verdict, as_written]);
    }
    format!("{}\n{}", t.render(), v.render())
}

/// What the columns mean.
pub fn reading(size: &str) -> String {
    format!(
        "Size class `{size}`. Each job-shaped workload runs as SRP jobs on one shared stack \
         (its `-srp` manifest, `kernel.scheduler = \"srp\"`) and, from its preemptive \
         manifest, with per-task `static`, `mtss` and `segmented` stacks, on cactus-sim \
         (profile `mcu`, the ownership oracle stopping at the first violation). Stack peak: \
         the shared stack's measured high water under SRP, else the sum of the tasks' measured \
         high waters; static bound: `cactus stack-report`'s bound of the same memory (the shared \
         stack's row under SRP, computed from the jobs' depths one per level, else the tasks' \
         bounds summed; `-` when a task is unbounded); stack reserved: the shared stack's size under SRP (from the manifest or \
         computed from the task budgets, one job per preemption level), else the tasks' \
         regions summed. Kernel cycles are awake cycles outside every task; under SRP the \
         dispatcher is a task, so its dispatching is in its own cycles. Switches count task \
         switches, or jobs started under SRP, of which preemptions started nested on a \
         running job. Each workload's preemptive manifest is also tried under SRP as written \
         (`srp-as-written`): where its tasks block or loop, the build-time check says which call \
         stops it, which is what its `-srp` manifest rewrote as jobs."
    )
}

#[cfg(test)]
mod tests;
