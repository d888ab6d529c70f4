//! `cactus bench scaling`: how the kernel's costs grow with the number of tasks (issue #14,
//! part 4). For each task count one generated workload ([`workload`]) is built with
//! `stack = "mtss"` and run on cactus-sim; the firmware brackets four operations with
//! trace-device MARKER events ([`events`]): a context switch (yield between two tasks of one
//! priority), an MTSS stack request (a frame moved to pages another task lends), its return
//! (the trampoline that gives the pages back) and a semaphore hand-off (a give that wakes a
//! blocked higher-priority task, to that task's first instruction). The other tasks exist and
//! stay blocked or asleep, half of them inside moved frames (holding borrowed pages) and half
//! lending theirs, as in real firmware. Every figure is simulated cycles (deterministic).
//!
//! Guarantees: one point (row) per task count; a count whose firmware cannot be built or does
//! not finish is a failed row with its reason, never a missing one; no figure is assumed.

pub mod events;
pub mod report;
pub mod workload;

use crate::scaling::events::{run_costs, RunCosts};
use cactus_firmware::{BuildOptions, CheckOptions, Manifest};
use cactus_sim::{Machine, MachineConfig, Profile};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The task counts of the issue.
pub const TASK_COUNTS: [usize; 4] = [4, 16, 64, 256];
/// Samples per operation and run: `full` and `small`.
pub const SAMPLES_FULL: u32 = 100;
/// Samples per operation and run with `--size small`.
pub const SAMPLES_SMALL: u32 = 20;
/// Simulated-cycle limit of one run.
const MAX_CYCLES: u64 = 500_000_000;

/// What `cactus bench scaling` runs.
#[derive(Clone, Debug)]
pub struct ScalingOptions {
    /// Repository root (holds `bench/scaling/` and `kernel/`).
    pub root: PathBuf,
    /// Task counts, one point each.
    pub tasks: Vec<usize>,
    /// Samples per operation and run.
    pub samples: u32,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Machine profile the firmware runs with.
    pub profile: Profile,
    /// Where the generated manifests and the firmware builds go (None: `build/bench/scaling`
    /// and `build/firmware` of the tree).
    pub out_dir: Option<PathBuf>,
}

/// One task count (a row of the store): what was measured, or why it could not be.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalingRow {
    /// Tasks in the firmware.
    pub tasks: usize,
    /// Samples per operation the firmware was built for.
    pub samples: u32,
    /// Profile name.
    pub profile: String,
    /// The costs, or why the build or run failed.
    pub costs: Result<RunCosts, String>,
}

impl cactus_sweep::Row for ScalingRow {
    fn passed(&self) -> bool {
        self.costs.is_ok()
    }
}

/// Builds the workload of `tasks` tasks and runs it; a failed build, run or check of the
/// firmware's own report is an error that says which.
pub fn measure(options: &ScalingOptions, tasks: usize) -> Result<RunCosts, String> {
    let dir = match &options.out_dir {
        Some(out) => out.clone(),
        None => options.root.join("build/bench/scaling"),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let source = options.root.join(workload::SOURCE);
    let source = source
        .canonicalize()
        .map_err(|e| format!("{}: {e}", source.display()))?;
    let text = workload::manifest_text(tasks, options.samples, &source.to_string_lossy());
    let path = dir.join(format!("scaling-n{tasks}.toml"));
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest = Manifest::parse(&text, &path).map_err(|e| e.to_string())?;
    let build = BuildOptions {
        root: Some(options.root.clone()),
        out_root: options.out_dir.as_ref().map(|d| d.join("firmware")),
        checks: CheckOptions {
            reserves: options.reserves.clone(),
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&manifest, &build).map_err(|e| e.to_string())?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let mut config = MachineConfig::new(options.profile.clone());
    config.record_events = true;
    config.max_cycles = Some(MAX_CYCLES);
    let mut machine = Machine::new(config);
    machine.load_elf(&elf).map_err(|e| e.to_string())?;
    let ending = machine.run_to_end().failure();
    if let Some(ending) = ending {
        let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
        let last = uart.lines().last().unwrap_or("").to_string();
        let first = ending.lines().next().unwrap_or("").to_string();
        return Err(format!("the firmware did not finish: {first} {last}")
            .trim()
            .into());
    }
    let costs = run_costs(machine.events())?;
    judge(&costs, tasks)?;
    Ok(costs)
}

/// The firmware's report about itself must match what was built: every measured request
/// moved its frame, every holder blocked in a moved frame, the task count.
fn judge(c: &RunCosts, tasks: usize) -> Result<(), String> {
    let holders = workload::task_specs(tasks)
        .iter()
        .filter(|t| t.entry == "scaling_hold")
        .count() as u32;
    if c.tasks as usize != tasks {
        return Err(format!("the firmware has {} tasks, not {tasks}", c.tasks));
    }
    if c.moved != c.requested {
        return Err(format!(
            "{} of {} measured requests moved their frame (the request path was not taken)",
            c.moved, c.requested
        ));
    }
    if c.held != holders {
        return Err(format!(
            "{} of {holders} holders blocked inside a moved frame",
            c.held
        ));
    }
    Ok(())
}

/// The store's parameters: counts, samples and profile.
pub fn params(options: &ScalingOptions) -> serde_json::Value {
    serde_json::json!({
        "tasks": options.tasks,
        "samples": options.samples,
        "profile": options.profile.name(),
    })
}

/// One point per task count.
pub fn points(options: &ScalingOptions) -> Vec<cactus_sweep::Point<'_, ScalingRow>> {
    options
        .tasks
        .iter()
        .map(|&n| {
            cactus_sweep::Point::new(
                format!("n{n}"),
                format!("{n} tasks"),
                move |_, _: &cactus_sweep::Progress| ScalingRow {
                    tasks: n,
                    samples: options.samples,
                    profile: options.profile.name().to_string(),
                    costs: measure(options, n),
                },
            )
        })
        .collect()
}
