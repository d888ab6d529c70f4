//! Building one configuration of a manifest and measuring it on cactus-sim: cycles,
//! iterations, stack memory (the kernel's heap peak, each task's high water), and from the
//! trace the Crazyflie core tasks' live stacklets and the overhead scenario's links.

use super::{HeldAtPeak, LivePeak, Overhead, Run, TaskStack, TaskState};
use crate::elf_facts::{first_line, read_global, symbol_address};
use crate::workloads::bench::program_results;
use cactus_cc::{Reserves, RollingRules};
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use cactus_sim::{Event, EventKind, MachineConfig, OracleMode, Profile, RunOutcome};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Cycle limit of one run (the naive configuration links a stacklet per call).
const MAX_CYCLES: u64 = 20_000_000_000;

/// The kernel symbol holding the peak heap bytes the tasks held (kernel/stack/segmented.c).
pub const HEAP_PEAK_SYMBOL: &str = "cactus_stacklet_heap_peak";

/// Metadata bytes of a stacklet outside the stack part the kernel assigns to its task in the
/// oracle (kernel/stack/segmented.c: header word and link record); the overhead scenario
/// measures it (its `metadata` column). Live block bytes = assigned region + this.
pub const STACKLET_META: u32 = 12;

/// The four core tasks of the Crazyflie-like workload (the paper's Table 1).
pub const CORE_TASKS: [&str; 4] = ["stabilizer", "sensors", "crtp_rx", "crtp_tx"];

/// Marker ids of the overhead scenario (bench/segmented/overhead.c).
const MARK_START: u32 = 1;
const MARK_DEEPEST: u32 = 2;
const MARK_FRAME: u32 = 3;
/// The overhead scenario's task whose every level links a stacklet.
pub const OVERHEAD_TASK: &str = "deep";

/// One build of a manifest.
#[derive(Clone, Debug, PartialEq)]
pub struct Build {
    /// The manifest.
    pub manifest: PathBuf,
    /// `static` or `segmented`.
    pub stack: &'static str,
    /// `none` or `split`.
    pub checks: &'static str,
    /// Rolling rules of the check pass.
    pub rolling: RollingRules,
    /// First stacklets (`stack`) of the tasks named, bytes (others keep their budgets).
    pub first: Vec<(String, u32)>,
    /// `kernel.stacklet_min` (None: the manifest's).
    pub stacklet_min: Option<u32>,
    /// `kernel.stacklet_cache` (None: the manifest's).
    pub cache: Option<bool>,
    /// `kernel.stacklet_learn` (None: the manifest's).
    pub learn: Option<bool>,
    /// `kernel.stack_bound`: the kernel and checks for the hardware stack bound.
    pub stack_bound: bool,
    /// The run must print each program's `ok` line (a workload); otherwise exit code 0 is
    /// enough (the overhead scenario).
    pub programs: bool,
    /// Record the trace and compute the core tasks' live peak.
    pub core_live: bool,
    /// The overhead scenario: read its markers from the trace.
    pub overhead: bool,
}

impl Build {
    /// A `static`, unchecked build of `manifest`.
    pub fn contiguous(manifest: &Path) -> Build {
        Build {
            manifest: manifest.to_path_buf(),
            stack: "static",
            checks: "none",
            rolling: RollingRules::ALL,
            first: Vec::new(),
            stacklet_min: None,
            cache: None,
            learn: None,
            stack_bound: false,
            programs: true,
            core_live: false,
            overhead: false,
        }
    }

    /// A `segmented` build of `manifest` with split checks and every rolling rule.
    pub fn segmented(manifest: &Path) -> Build {
        Build {
            stack: "segmented",
            checks: "split",
            ..Build::contiguous(manifest)
        }
    }
}

/// Builds `b` (build cache under `build_dir`) and runs it on the `mcu` profile with the
/// ownership oracle stopping the run at its first violation. Any failure (build, fault,
/// violation, cycle limit, non-zero exit, a program's failed checksum) is an `Err` naming it.
pub fn measure(b: &Build, reserves: &Reserves, build_dir: Option<PathBuf>) -> Result<Run, String> {
    let path = &b.manifest;
    let mut m = Manifest::load(path).map_err(|e| e.to_string())?;
    // K of the rolling rule pinned to the manifest as written (10 % of its smallest budget),
    // so a first stacklet changes nothing but the stacklet.
    let k_app = m.tasks.iter().map(|t| t.stack).min().unwrap_or(1280) / 10;
    let budgets: Vec<u32> = m.tasks.iter().map(|t| t.stack).collect();
    m.apply(&Overrides {
        stack: Some(b.stack.into()),
        target: Some("sim".into()),
        checks: Some(b.checks.into()),
        ..Overrides::default()
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    for (name, bytes) in &b.first {
        let t = m
            .tasks
            .iter_mut()
            .find(|t| &t.name == name)
            .ok_or_else(|| format!("{}: no task {name}", path.display()))?;
        t.stack = *bytes;
    }
    // A knob the build leaves unset keeps the manifest's value (or the kernel's default).
    if b.stacklet_min.is_some() {
        m.kernel.stacklet_min = b.stacklet_min;
    }
    if b.cache.is_some() {
        m.kernel.stacklet_cache = b.cache;
    }
    if b.learn.is_some() {
        m.kernel.stacklet_learn = b.learn;
    }
    m.kernel.stack_bound = b.stack_bound;
    let options = BuildOptions {
        out_root: build_dir,
        checks: CheckOptions {
            reserves: reserves.clone(),
            rolling: b.rolling,
            k_app: Some(k_app),
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options).map_err(|e| first_line(&e.to_string()))?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let peak_at = (b.stack == "segmented")
        .then(|| symbol_address(&elf, HEAP_PEAK_SYMBOL, "segmented"))
        .transpose()?;
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    let mut config = MachineConfig::new(profile);
    config.oracle = OracleMode::Stop;
    config.max_cycles = Some(MAX_CYCLES);
    config.record_events = b.core_live || b.overhead;
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&elf, &built.elf.display().to_string(), config)?;
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    let stats = machine.stats();
    match outcome {
        RunOutcome::Exited { code: 0 } if stats.oracle_violations == 0 => {}
        RunOutcome::Exited { code: 0 } => {
            return Err(format!("{} oracle violation(s)", stats.oracle_violations))
        }
        RunOutcome::Exited { code } => {
            return Err(match uart.lines().find(|l| l.contains("overflow caught")) {
                Some(line) => format!("exit code {code}: {}", first_line(line)),
                None => format!("exit code {code}"),
            });
        }
        other => return Err(first_line(&format!("{other:?}"))),
    }
    let programs = program_results(&uart);
    if b.programs {
        if programs.is_empty() {
            return Err("the run printed no program result".into());
        }
        if let Some(p) = programs.iter().find(|p| !p.ok) {
            return Err(format!("{}: checksum FAIL", p.name));
        }
    }
    let heap_peak = peak_at
        .map(|addr| read_global(&machine, addr, HEAP_PEAK_SYMBOL))
        .transpose()?;
    let tasks = m
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let s = stats.tasks.iter().find(|s| s.id as usize == i);
            TaskStack {
                name: t.name.clone(),
                stack: t.stack,
                budget: budgets[i],
                hwm: s.filter(|s| s.hwm_samples > 0).map(|s| s.stack_hwm),
                cycles: s.map_or(0, |s| s.cycles),
            }
        })
        .collect::<Vec<_>>();
    let core_ids: Vec<u32> = tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| CORE_TASKS.contains(&t.name.as_str()))
        .map(|(i, _)| i as u32)
        .collect();
    let overhead = if b.overhead {
        let id = tasks
            .iter()
            .position(|t| t.name == OVERHEAD_TASK)
            .ok_or_else(|| format!("{}: no task {OVERHEAD_TASK}", path.display()))?;
        Some(overhead_of(machine.events(), id as u32)?)
    } else {
        None
    };
    let core_peak_at = (b.core_live && b.stack == "segmented").then(|| {
        let mut p = live_peak(machine.events(), &core_ids);
        for h in &mut p.tasks {
            h.name = tasks[h.task as usize].name.clone();
        }
        p
    });
    Ok(Run {
        cycles: stats.cycles,
        active_cycles: stats.cycles - stats.sleep_cycles,
        instructions: stats.instructions,
        iterations: programs.iter().map(|p| p.rounds).sum(),
        links: stats.tasks.iter().map(|t| t.overflows).sum(),
        heap_peak,
        tasks,
        core_live_peak: core_peak_at.as_ref().map(|p| p.bytes),
        core_peak_at,
        overhead,
    })
}

/// The peak over the run of the summed live stacklets (block bytes: each region the kernel
/// assigns to a task plus [`STACKLET_META`]) of the tasks `ids`, from the REGION_ASSIGN and
/// REGION_RELEASE events in order. A cached stacklet is released from its task's region, so
/// it does not count.
pub fn core_live_peak(events: &[Event], ids: &[u32]) -> u32 {
    live_peak(events, ids).bytes
}

/// [`core_live_peak`] with where it came from: at the first event that reached the peak, each
/// task of `ids` (in that order) with its live stacklets and what it was doing, from the
/// TASK_SWITCH and TASK_EXIT events and the traps: a task switched out between an interrupt's
/// trap and the `mret` that ends it was preempted, any other switch happened in one of its
/// own kernel calls; and each task's most bytes held at such a switch over the whole run.
/// Names are left empty.
pub fn live_peak(events: &[Event], ids: &[u32]) -> LivePeak {
    let mut live: BTreeMap<u32, (u32, u32)> = BTreeMap::new(); // base -> (owner, bytes)
    let mut state: BTreeMap<u32, TaskState> =
        ids.iter().map(|&i| (i, TaskState::NotStarted)).collect();
    let (mut running, mut in_irq) = (None::<u32>, false);
    let mut blocked_max: BTreeMap<u32, u32> = BTreeMap::new();
    let (mut now, mut peak) = (
        0u32,
        LivePeak {
            bytes: 0,
            cycle: 0,
            tasks: Vec::new(),
        },
    );
    for e in events {
        match e.kind {
            EventKind::RegionAssign { base, size, owner } if ids.contains(&owner) => {
                let bytes = size + STACKLET_META;
                if let Some((_, old)) = live.insert(base, (owner, bytes)) {
                    now -= old;
                }
                now += bytes;
                if now > peak.bytes {
                    peak = LivePeak {
                        bytes: now,
                        cycle: e.cycle,
                        tasks: ids.iter().map(|&t| held(&live, t, state[&t])).collect(),
                    };
                }
            }
            EventKind::RegionAssign { base, .. } | EventKind::RegionRelease { base, .. } => {
                if let Some((_, old)) = live.remove(&base) {
                    now -= old;
                }
            }
            EventKind::Trap { cause, .. } if cause & 0x8000_0000 != 0 => in_irq = true,
            EventKind::Mret { .. } => in_irq = false,
            EventKind::TaskSwitch { task } => {
                if let Some(s) = running.and_then(|r| state.get_mut(&r)) {
                    if *s == TaskState::Running {
                        *s = if in_irq {
                            TaskState::Preempted
                        } else {
                            TaskState::InKernelCall
                        };
                        if !in_irq {
                            let r = running.unwrap_or_default();
                            let now = held(&live, r, *s).bytes;
                            let m = blocked_max.entry(r).or_default();
                            *m = (*m).max(now);
                        }
                    }
                }
                running = Some(task);
                if let Some(s) = state.get_mut(&task) {
                    *s = TaskState::Running;
                }
            }
            EventKind::TaskExit { task, .. } => {
                if let Some(s) = state.get_mut(&task) {
                    *s = TaskState::Exited;
                }
            }
            _ => {}
        }
    }
    for h in &mut peak.tasks {
        h.blocked_max = blocked_max.get(&h.task).copied().unwrap_or(0);
    }
    peak
}

/// Task `task`'s share of the live stacklets `live` (base -> owner, bytes).
fn held(live: &BTreeMap<u32, (u32, u32)>, task: u32, state: TaskState) -> HeldAtPeak {
    let mine = live.values().filter(|(o, _)| *o == task).map(|&(_, b)| b);
    HeldAtPeak {
        task,
        name: String::new(),
        stacklets: mine.clone().count() as u32,
        bytes: mine.clone().sum(),
        largest: mine.max().unwrap_or(0),
        state,
        blocked_max: 0,
    }
}

/// The overhead scenario's figures for task `task` from the trace: the frame's size (MARKER
/// 3), the links (OVERFLOW events of the task) and their assigned regions between MARKER 1 and
/// MARKER 2, and the heap growth MARKER 2 carries.
pub fn overhead_of(events: &[Event], task: u32) -> Result<Overhead, String> {
    let frame = events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::Marker { id, value } if id == MARK_FRAME => Some(value),
            _ => None,
        })
        .ok_or("the overhead scenario emitted no frame marker")?;
    let start = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Marker { id, .. } if id == MARK_START))
        .ok_or("the overhead scenario emitted no start marker")?;
    let mut o = Overhead {
        links: 0,
        heap_growth: 0,
        frame,
        region_bytes: 0,
    };
    for e in &events[start..] {
        match e.kind {
            EventKind::Overflow { task: t, .. } if t == task => o.links += 1,
            EventKind::RegionAssign { size, owner, .. } if owner == task => {
                o.region_bytes += size;
            }
            EventKind::Marker { id, value } if id == MARK_DEEPEST => {
                o.heap_growth = value;
                return Ok(o);
            }
            _ => {}
        }
    }
    Err("the overhead scenario emitted no end marker".into())
}
