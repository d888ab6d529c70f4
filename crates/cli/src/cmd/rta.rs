//! `cactus rta`: response-time analysis (cactus-rta, equations 3 and 4 of the Carousel paper)
//! of a task set in TOML, of a random set drawn from one (`--generate`, the paper's section
//! VI-D), or of a firmware manifest's periodic tasks with each C_i measured by running the
//! firmware on cactus-sim (`--manifest`), where the run's deadline misses are checked against
//! the verdicts. docs/rta.md describes the format, the output and the measurement.
//!
//! Exit codes: 0 every task schedulable; 1 analysed, some task unschedulable; 2 bad input;
//! with `--manifest`, 3 when the firmware run did not end with exit code 0, and 5 when a task
//! the analysis calls schedulable missed a deadline in the run (the analysis is contradicted).

use crate::cmd::build::{build_manifest, ManifestArgs};
use crate::cmd::profile_arg::resolve_profile;
use crate::cmd::run::{DEFAULT_MAX_BUSY_CYCLES, DEFAULT_MAX_IDLE_CYCLES};
use crate::report::{self, rta, rta::Measured};
use anyhow::{bail, Context, Result};
use cactus_rta::{
    analyse, generate, Equation, Generated, GeneratorConfig, System, Task, TaskCost, TaskSet,
};
use cactus_sim::{Machine, MachineConfig, RunOutcome};
use cactus_sweep::store::command_line;
use clap::Args;
use serde_json::json;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus rta` (docs/cli.md, docs/rta.md).
#[derive(Args, Debug)]
pub struct RtaArgs {
    /// The task set (TOML: `[system]`, `[[task]]`; docs/rta.md).
    #[arg(required_unless_present = "manifest", conflicts_with = "manifest")]
    pub file: Option<PathBuf>,
    /// Analyse a firmware manifest's periodic tasks instead: T_i, D_i and priorities from the
    /// manifest, C_i the longest job each ran in a run of the firmware on cactus-sim.
    #[arg(long, value_name = "MANIFEST")]
    pub manifest: Option<PathBuf>,
    /// Manifest overrides (only with --manifest).
    #[command(flatten)]
    pub overrides: ManifestArgs,
    /// Machine profile of the --manifest run: a built-in name or a TOML profile file.
    #[arg(long, value_name = "NAME|FILE", default_value = "mcu")]
    pub profile: String,
    /// The response-time equation: 3 (no switch cost) or 4 (CS¹ + CS² per job).
    #[arg(long, value_name = "N", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(3..=4))]
    pub equation: u32,
    /// CS¹, the switch to a task, in cycles [default: the file's, 0 with --manifest].
    #[arg(long, value_name = "CYCLES")]
    pub cs1: Option<u64>,
    /// CS², the switch from a task, in cycles [default: the file's, 0 with --manifest].
    #[arg(long, value_name = "CYCLES")]
    pub cs2: Option<u64>,
    /// With --manifest: B_i of every periodic task with a lower-priority task, in cycles.
    #[arg(long, value_name = "CYCLES", requires = "manifest")]
    pub blocking: Option<u64>,
    /// Also write the analysis as JSON to FILE (`-`: stdout, the table then goes to stderr).
    #[arg(long, value_name = "FILE|-")]
    pub json: Option<PathBuf>,
    /// Also write the table, the verdict and the summary as Markdown to FILE, its first line
    /// the command that made it (docs/results/).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Draw a random set from FILE's tasks (their names and wcet, its [system]) as the
    /// paper's section VI-D does and analyse it: unique random priorities, periods uniform in
    /// [2C, max(4C, SZ/4)], offsets in [0, T], D = T, unschedulable draws rejected.
    #[arg(long, requires = "file")]
    pub generate: bool,
    /// The generator's seed.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "generate")]
    pub seed: u64,
    /// Which set of the seed's streams (the bench draws set k as index k).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "generate")]
    pub index: u64,
    /// SZ, the task set's total execution time in cycles (the paper's 15·10⁶).
    #[arg(long, value_name = "CYCLES", default_value_t = cactus_rta::PAPER_SZ, requires = "generate")]
    pub sz: u64,
    /// Write the generated set to FILE as a task-set TOML (`cactus rta FILE` reads it back).
    #[arg(long, value_name = "FILE", requires = "generate")]
    pub emit: Option<PathBuf>,
}

/// Exit code: analysed, some task unschedulable.
const EXIT_UNSCHEDULABLE: u8 = 1;
/// Exit code: a task the analysis calls schedulable missed a deadline in the --manifest run.
const EXIT_CONTRADICTED: u8 = 5;
/// The kernel's timer rate (`PORT_TIMER_HZ`, kernel/arch/rv32/port.h): its milliseconds are
/// 10 000 `mtime` ticks.
const KERNEL_TIMER_HZ: u64 = 10_000_000;

/// Runs `cactus rta`.
pub fn main(args: RtaArgs) -> Result<ExitCode> {
    if args.manifest.is_none() && args.overrides.any() {
        bail!("--stack, --target, --checks, --shrink, --build-dir and the other manifest options apply to --manifest");
    }
    let equation = if args.equation == 3 {
        Equation::Three
    } else {
        Equation::Four
    };
    let (set, measured, source) = match (&args.file, &args.manifest) {
        (Some(file), _) => (cactus_rta::load(file)?, None, json!({"file": file})),
        (None, Some(manifest)) => {
            let Some((set, measured)) = measure(&args, manifest)? else {
                return Ok(ExitCode::from(report::EXIT_FAULT));
            };
            let source = json!({"manifest": manifest, "profile": args.profile});
            (set, Some(measured), source)
        }
        (None, None) => bail!("give a task-set file or --manifest MANIFEST"),
    };
    let name = args
        .file
        .as_ref()
        .or(args.manifest.as_ref())
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let set = set.with_switch_costs(
        args.cs1.unwrap_or(set.system().cs1),
        args.cs2.unwrap_or(set.system().cs2),
    );
    let mut generated = None;
    let set = if args.generate {
        let g = generate_set(&args, &set, &name)?;
        generated = Some(json!({
            "seed": args.seed, "index": args.index, "sz": args.sz, "rejected": g.rejected,
        }));
        g.set
    } else {
        set
    };
    // A generated set passed equation 4; the equation asked for is the one shown.
    let analysis = analyse(&set, equation);

    let check = measured.as_deref().map(|m| rta::Check::new(&analysis, m));
    let mut doc = rta::to_json(&set, &analysis, measured.as_deref());
    doc["source"] = source;
    if let Some(g) = &generated {
        doc["generated"] = g.clone();
    }
    if let Some(c) = &check {
        doc["check"] = c.to_json();
    }
    let table = rta::rows(&set, &analysis, measured.as_deref());
    let notes = rta::notes(&set, &analysis, check.as_ref());
    let rejected = generated.as_ref().and_then(|g| g["rejected"].as_u64());
    let summary = rta::summary(&analysis, rejected, check.as_ref());
    let mut text = rta::plain(&table.0, &table.1);
    for n in &notes {
        text.push_str(n);
        text.push('\n');
    }

    let to_stdout = args.json.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&doc)? + "\n";
        if to_stdout {
            print!("{json}");
        } else {
            report::write_atomically(path, |out| Ok(out.write_all(json.as_bytes())?))?;
        }
    }
    if let Some(path) = &args.markdown {
        let md = rta::markdown(&command_line(), &name, table, &notes, &summary);
        report::write_atomically(path, |out| Ok(out.write_all(md.as_bytes())?))?;
    }
    if to_stdout {
        eprint!("{text}");
        eprintln!("{summary}");
    } else {
        print!("{text}");
        println!("{summary}");
    }
    let code = match &check {
        Some(c) if !c.agree() => EXIT_CONTRADICTED,
        _ if !analysis.schedulable() => EXIT_UNSCHEDULABLE,
        _ => 0,
    };
    Ok(ExitCode::from(code))
}

/// The `--generate` draw from `set`'s tasks and system; writes `--emit`.
fn generate_set(args: &RtaArgs, set: &TaskSet, name: &str) -> Result<Generated> {
    let costs: Vec<TaskCost> = set
        .tasks()
        .iter()
        .map(|t| TaskCost {
            name: t.name.clone(),
            wcet: t.wcet,
        })
        .collect();
    let config = GeneratorConfig {
        sz: args.sz,
        system: set.system().clone(),
        ..GeneratorConfig::paper()
    };
    let g = generate(&costs, &config, args.seed, args.index)
        .with_context(|| format!("cannot generate a task set from {name}"))?;
    if let Some(path) = &args.emit {
        let text = cactus_rta::to_toml(&g.set);
        report::write_atomically(path, |out| Ok(out.write_all(text.as_bytes())?))?;
    }
    Ok(g)
}

/// Builds and runs the manifest's firmware: its periodic tasks with their measured C_i, or
/// None when the run did not end with exit code 0 (said on stderr).
fn measure(args: &RtaArgs, path: &Path) -> Result<Option<(TaskSet, Vec<Measured>)>> {
    let profile = resolve_profile(&args.profile)?;
    // Checked before the build: a build without the trace device records no task switch.
    let target = match &args.overrides.target {
        Some(t) => t.clone(),
        None => cactus_firmware::Manifest::load(path)?
            .kernel
            .target
            .name()
            .to_string(),
    };
    if target != "sim" {
        bail!(
            "{}: target {target}: the measurement needs target sim (the trace device reports the task switches)",
            path.display()
        );
    }
    let (manifest, built) = build_manifest(path, &args.overrides)?;
    if !manifest.timers.is_empty() || !manifest.interrupts.is_empty() {
        bail!(
            "{}: software timers and interrupt handlers are not part of the task model (their interference is not analysed); remove them or describe the set in a task-set file",
            path.display()
        );
    }
    let periodic: Vec<usize> = (0..manifest.tasks.len())
        .filter(|&i| manifest.tasks[i].period_ms.is_some())
        .collect();
    let Some(lowest_periodic) = periodic.iter().map(|&i| manifest.tasks[i].priority).min() else {
        bail!(
            "{}: no task has a period_ms: nothing to analyse",
            path.display()
        );
    };
    if let Some(t) = manifest
        .tasks
        .iter()
        .find(|t| t.period_ms.is_none() && t.priority >= lowest_periodic)
    {
        bail!(
            "{}: task {} has no period_ms but priority {} >= {} of a periodic task: its interference is unbounded (every task at or above a periodic task's priority must be periodic)",
            path.display(),
            t.name,
            t.priority,
            lowest_periodic
        );
    }
    let bytes = std::fs::read(&built.elf)
        .with_context(|| format!("cannot read ELF file {}", built.elf.display()))?;
    let Some(table) = cactus_gdb::TaskTable::from_elf(&bytes)
        .with_context(|| format!("{}: cannot read its task table", built.elf.display()))?
    else {
        bail!(
            "{}: no .cactus.tasks section: the task states cannot be sampled",
            built.elf.display()
        );
    };
    let clock_hz = profile.clock_hz();
    let timebase_hz = profile.timebase_hz();
    let mut config = MachineConfig::new(profile);
    config.record_events = true;
    config.task_probe = Some(table.probe());
    config.max_busy_cycles = Some(DEFAULT_MAX_BUSY_CYCLES);
    config.max_idle_cycles = Some(DEFAULT_MAX_IDLE_CYCLES);
    let mut machine = Machine::new(config);
    machine
        .load_elf(&bytes)
        .with_context(|| format!("cannot load {}", built.elf.display()))?;
    let outcome = machine.run_to_end();
    if !matches!(outcome, RunOutcome::Exited { code: 0 }) {
        let output = machine.take_uart_output();
        eprint!("{}", String::from_utf8_lossy(&output));
        let ending = report::Ending::Outcome(outcome);
        report::print_ending(&ending);
        eprintln!(
            "cactus: rta: the run of {} did not end with exit code 0: nothing measured",
            path.display()
        );
        return Ok(None);
    }
    let rows = report::firmware::rows(&manifest, &machine.stats(), machine.events());
    let mut all_jobs = cactus_sim::jobs::jobs(machine.events());
    // Kernel milliseconds in cycles: ms · 10⁴ mtime ticks, each clock/timebase cycles.
    let cycles = |ms: u32| -> u64 {
        (u128::from(ms) * u128::from(KERNEL_TIMER_HZ / 1000) * u128::from(clock_hz)
            / u128::from(timebase_hz.max(1))) as u64
    };
    let lowest = manifest.tasks.iter().map(|t| t.priority).min().unwrap_or(0);
    let mut tasks = Vec::new();
    let mut measured = Vec::new();
    for &i in &periodic {
        let t = &manifest.tasks[i];
        let cactus_sim::jobs::TaskJobs {
            mut jobs,
            unfinished,
        } = all_jobs.remove(&(i as u32)).unwrap_or_default();
        if t.start_delay_ms > 0 && !jobs.is_empty() {
            // The wrapper's first stretch ends in the start delay's sleep, before any release.
            jobs.remove(0);
        }
        let Some(wcet) = jobs.iter().map(|j| j.execution).max() else {
            bail!(
                "{}: task {} finished no job in the run: no C_i to analyse",
                path.display(),
                t.name
            );
        };
        let period = cycles(t.period_ms.unwrap_or(0));
        let mut task = Task::new(&t.name, wcet.max(1), period, u32::from(t.priority));
        task.deadline = t.deadline_ms.map_or(period, cycles);
        task.offset = cycles(t.start_delay_ms) % period.max(1);
        task.blocking = Some(match args.blocking {
            Some(b) if t.priority > lowest => b,
            _ => 0,
        });
        tasks.push(task);
        measured.push(Measured {
            jobs,
            unfinished,
            releases: rows[i].releases,
            misses: rows[i].deadline_misses,
        });
    }
    let system = System {
        clock_hz: Some(clock_hz),
        ..System::default()
    };
    let set =
        TaskSet::new(system, tasks).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(Some((set, measured)))
}
