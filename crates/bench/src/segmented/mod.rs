//! `cactus bench segmented`: the segmented-stack paper's evaluation (paper 001, section 7:
//! Tables 1-3 and the hot-split figure) on the `segmented` stack strategy
//! (kernel/stack/segmented.c).
//!
//! Points, each a build and a run on cactus-sim (`mcu` profile, the ownership oracle stopping
//! the run at its first violation, exit code 0 and every program's own checksum `ok` required):
//! - *CoreMark-like* (`workloads/coremark-like/coremark-single*.toml`) under six
//!   [`Config`]s: contiguous, check-only, naive, optimized, and check-only and optimized on the
//!   simulator's hardware stack bound (Table 2: iterations per million active cycles; Table 3:
//!   stack memory);
//! - *hot split*: the same workload with its worker's first stacklet swept, with and without
//!   the alleviations (the stacklet cache, the learning of `CACTUS_STACKLET_LEARN`);
//! - *Crazyflie-like* (`workloads/crazyflie-like/crazyflie*.toml`) contiguous, and segmented
//!   with small first stacklets for the four core tasks: the peak of the sum of their live
//!   stacklets, from the trace (Table 1's claim);
//! - *overhead* (`bench/segmented/overhead.toml`): heap bytes per linked stacklet beyond its
//!   frame, measured from the kernel's heap count and the trace.
//!
//! Guarantees: every number comes from a build and a run made by this module; a point whose
//! build or run fails is a row with its reason, left out of every figure that needs it.

mod hybrid;
mod measure;
mod points;
mod table;

pub use crate::Size;
pub use hybrid::hybrid_prs;
pub use measure::{
    core_live_peak, live_peak, measure, overhead_of, Build, CORE_TASKS, STACKLET_META,
};
pub use points::{build_of, experiments, params, points, SegmentedOptions, WORKER};
pub use table::{markdown, summary, PAPER_TABLE2, PAPER_TABLE3};

use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::{Meta, Row, SweepReport};
use serde::{Deserialize, Serialize};

/// A CoreMark-like configuration of Table 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Config {
    /// `static` stacks, no checks: the baseline.
    Contiguous,
    /// `segmented`, split checks (every rolling rule), first stacklets at the manifest budgets:
    /// nothing moves, only the checks cost.
    CheckOnly,
    /// `segmented`, a check in every function (no rolling), a 64-byte first stacklet for the
    /// worker, smallest stacklet 64 bytes, no cache, no learning: a stacklet per crossing.
    Naive,
    /// `segmented`, split checks with every rolling rule, a small first stacklet for the
    /// worker ([`points::OPTIMIZED_FIRST`]), the cache and the learning on.
    Optimized,
    /// Check-only on the hardware stack bound (`kernel.stack_bound`): the entry checks the
    /// bound makes have no instruction.
    CheckOnlyBound,
    /// Optimized on the hardware stack bound: the trap at the refused `sp` decrement is the
    /// slow path of those checks.
    HardwareBound,
}

impl Config {
    /// The configurations in table order.
    pub const ALL: [Config; 6] = [
        Config::Contiguous,
        Config::CheckOnly,
        Config::Naive,
        Config::Optimized,
        Config::CheckOnlyBound,
        Config::HardwareBound,
    ];

    /// The name in tables and keys.
    pub fn name(self) -> &'static str {
        match self {
            Config::Contiguous => "contiguous",
            Config::CheckOnly => "check-only",
            Config::Naive => "naive",
            Config::Optimized => "optimized",
            Config::CheckOnlyBound => "check-only, hardware-bound",
            Config::HardwareBound => "hardware-bound",
        }
    }
}

/// What a point measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Experiment {
    /// CoreMark-like under a Table 2 configuration.
    Coremark {
        /// Which configuration.
        config: Config,
    },
    /// CoreMark-like with the worker's first stacklet at `first` bytes (split checks, every
    /// rolling rule, smallest stacklet 64 bytes).
    HotSplit {
        /// First-stacklet bytes of the worker.
        first: u32,
        /// The stacklet cache.
        cache: bool,
        /// The hot-split learning (`CACTUS_STACKLET_LEARN`).
        learn: bool,
    },
    /// Crazyflie-like: contiguous (`first` None) or segmented with the four core tasks' first
    /// stacklets at `first` bytes (smallest stacklet 64 bytes, no cache; the hot-split
    /// learning as `learn` says).
    Crazyflie {
        /// First-stacklet bytes of the core tasks; None: `static` stacks.
        first: Option<u32>,
        /// The hot-split learning (`CACTUS_STACKLET_LEARN`; segmented only).
        #[serde(default)]
        learn: bool,
    },
    /// The per-stacklet overhead scenario.
    Overhead,
}

impl Experiment {
    /// A short name for keys and progress lines.
    pub fn name(&self) -> String {
        match self {
            Experiment::Coremark { config } => format!("coremark {}", config.name()),
            Experiment::HotSplit {
                first,
                cache,
                learn,
            } => format!(
                "hot-split first={first} cache={} learn={}",
                on_off(*cache),
                on_off(*learn)
            ),
            Experiment::Crazyflie { first: None, .. } => "crazyflie contiguous".into(),
            Experiment::Crazyflie {
                first: Some(f),
                learn,
            } => format!("crazyflie first={f} learn={}", on_off(*learn)),
            Experiment::Overhead => "overhead".into(),
        }
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// One task's stack figures of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskStack {
    /// Task name.
    pub name: String,
    /// Its `stack` as built: the budget (`static`) or the first stacklet (`segmented`), bytes.
    pub stack: u32,
    /// Its manifest budget, bytes.
    pub budget: u32,
    /// Its high water (`static`: bytes of its stack ever written; `segmented`: its peak block
    /// bytes, first stacklet and metadata included), None if not reported.
    pub hwm: Option<u32>,
    /// Cycles while it ran (between its TASK_SWITCH events: the kernel's work in its context,
    /// such as linking its stacklets, included).
    pub cycles: u64,
}

/// What the overhead scenario measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overhead {
    /// Stacklets linked between the two markers (OVERFLOW events).
    pub links: u32,
    /// Heap bytes the tasks held at the deepest point minus before (the kernel's count).
    pub heap_growth: u32,
    /// The recursion's frame, bytes (measured where nothing moves: MARKER 3).
    pub frame: u32,
    /// The stack part of the linked stacklets (the oracle regions assigned), summed.
    pub region_bytes: u32,
}

impl Overhead {
    /// The linked frames' bytes: links x frame.
    pub fn frame_bytes(&self) -> u32 {
        self.links * self.frame
    }

    /// Heap bytes per linked stacklet beyond its frame.
    pub fn per_stacklet(&self) -> Option<f64> {
        (self.links > 0).then(|| {
            (f64::from(self.heap_growth) - f64::from(self.frame_bytes())) / f64::from(self.links)
        })
    }

    /// Of those, the metadata: heap bytes per stacklet outside its stack part.
    pub fn metadata(&self) -> Option<f64> {
        (self.links > 0).then(|| {
            (f64::from(self.heap_growth) - f64::from(self.region_bytes)) / f64::from(self.links)
        })
    }
}

/// What a task was doing at an instant of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaskState {
    /// Not yet switched to (created, never run).
    NotStarted,
    /// The running task.
    Running,
    /// Switched out by the kernel during an interrupt (a timer tick released a task that
    /// outranks it): stopped wherever it was, its stacklets live.
    Preempted,
    /// Switched out in one of its own kernel calls (it blocked, slept, yielded or woke a task
    /// that outranks it).
    InKernelCall,
    /// Ended.
    Exited,
}

impl TaskState {
    /// The name in tables.
    pub fn name(self) -> &'static str {
        match self {
            TaskState::NotStarted => "not started",
            TaskState::Running => "running",
            TaskState::Preempted => "preempted by an interrupt",
            TaskState::InKernelCall => "switched out in a kernel call",
            TaskState::Exited => "exited",
        }
    }
}

/// What one task held at the instant of a [`LivePeak`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldAtPeak {
    /// Task id.
    pub task: u32,
    /// Task name (empty until [`measure`] names it).
    pub name: String,
    /// Live stacklets: its first stacklet and the linked ones.
    pub stacklets: u32,
    /// Their block bytes (metadata included).
    pub bytes: u32,
    /// The largest of them (the first stacklet unless a linked one is larger), bytes.
    pub largest: u32,
    /// What the task was doing.
    pub state: TaskState,
    /// Over the whole run, the most block bytes the task held when it was switched out in one
    /// of its own kernel calls (where it blocks between activations).
    #[serde(default)]
    pub blocked_max: u32,
}

/// The peak of a set of tasks' summed live stacklets, from the trace: its bytes, the cycle it
/// was first reached and what each of the tasks held then (task order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LivePeak {
    /// Block bytes at the peak.
    pub bytes: u32,
    /// The cycle of the event that first reached it.
    pub cycle: u64,
    /// Each task's share.
    pub tasks: Vec<HeldAtPeak>,
}

/// What one build and run gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Simulated cycles of the whole run.
    pub cycles: u64,
    /// Simulated cycles minus cycles asleep in `wfi` (the run time compared).
    pub active_cycles: u64,
    /// Instructions retired.
    pub instructions: u64,
    /// Iterations (rounds) the programs reported, summed.
    pub iterations: u64,
    /// Frames moved to linked stacklets (OVERFLOW events).
    pub links: u64,
    /// Peak heap bytes the tasks held (`cactus_stacklet_heap_peak`; `segmented` only).
    pub heap_peak: Option<u32>,
    /// Every task's stack figures, by task id.
    pub tasks: Vec<TaskStack>,
    /// Crazyflie-like segmented only: the peak of the summed live stacklets (block bytes) of
    /// the four core tasks, from the trace.
    pub core_live_peak: Option<u32>,
    /// Crazyflie-like segmented only: where that peak came from (the first instant the sum
    /// reached it: what each core task held and why it was not running).
    #[serde(default)]
    pub core_peak_at: Option<LivePeak>,
    /// The overhead scenario only.
    pub overhead: Option<Overhead>,
}

impl Run {
    /// Iterations per million cycles of the CoreMark-like worker (`coremark0`): the
    /// throughput compared.
    pub fn per_mcycle(&self) -> Option<f64> {
        let cycles = self.task(points::WORKER)?.cycles;
        (cycles > 0 && self.iterations > 0).then(|| self.iterations as f64 * 1e6 / cycles as f64)
    }

    /// Iterations per million active cycles of the whole run (start-up and harness tasks
    /// included).
    pub fn per_active_mcycle(&self) -> Option<f64> {
        (self.active_cycles > 0 && self.iterations > 0)
            .then(|| self.iterations as f64 * 1e6 / self.active_cycles as f64)
    }

    /// The figures of the task called `name`.
    pub fn task(&self, name: &str) -> Option<&TaskStack> {
        self.tasks.iter().find(|t| t.name == name)
    }
}

/// One point's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointResult {
    /// What was measured.
    pub experiment: Experiment,
    /// The manifest built.
    pub manifest: String,
    /// Crazyflie-like points only: the four core tasks' FreeRTOS-allocated stacks summed
    /// (the `crazyflie-allocated` manifest's budgets), bytes, or why they could not be read.
    #[serde(default)]
    pub allocated_core_bytes: Option<Result<u32, String>>,
    /// The run, or why it failed.
    pub run: Result<Run, String>,
}

impl Row for PointResult {
    fn passed(&self) -> bool {
        self.run.is_ok() && !matches!(self.allocated_core_bytes, Some(Err(_)))
    }
}

/// The segmented-stack evaluation.
pub struct Segmented;

impl Evaluation for Segmented {
    const NAME: &'static str = "segmented";
    const UNIT: &'static str = "points";
    type Row = PointResult;

    fn render(rows: &[PointResult], meta: &Meta) -> SweepReport {
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: markdown(rows, meta.params.get("hybrid")),
            reading: table::READING.to_string(),
            note: format!(
                " ({} size)",
                meta.params["size"].as_str().unwrap_or("unknown")
            ),
            passed,
            failed,
            summary: summary(rows, meta.params.get("hybrid")),
        }
    }
}

#[cfg(test)]
mod tests;
