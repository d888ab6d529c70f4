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
use crate::report::{self, jobs::Job};
use anyhow::{bail, Context, Result};
use cactus_rta::{
    analyse, generate, Analysis, Equation, GeneratorConfig, System, Task, TaskCost, TaskResult,
    TaskSet,
};
use cactus_sim::{Machine, MachineConfig, RunOutcome};
use clap::Args;
use serde_json::{json, Value};
use std::fmt::Write as _;
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

/// What the --manifest run measured for one periodic task.
struct Measured {
    jobs: Vec<Job>,
    unfinished: bool,
    releases: Option<u32>,
    misses: Option<u32>,
}

impl Measured {
    fn bcet(&self) -> u64 {
        self.jobs.iter().map(|j| j.execution).min().unwrap_or(0)
    }
    fn max_response(&self) -> Option<u64> {
        self.jobs.iter().filter_map(|j| j.response).max()
    }
}

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
    let mut doc = json!({});
    let (set, measured, source) = match (&args.file, &args.manifest) {
        (Some(file), _) => {
            let set = cactus_rta::load(file)?;
            doc["source"] = json!({"file": file});
            (set, None, file.display().to_string())
        }
        (None, Some(manifest)) => {
            let Some((set, measured)) = measure(&args, manifest)? else {
                return Ok(ExitCode::from(report::EXIT_FAULT));
            };
            doc["source"] = json!({"manifest": manifest, "profile": args.profile});
            (set, Some(measured), manifest.display().to_string())
        }
        (None, None) => bail!("give a task-set file or --manifest MANIFEST"),
    };
    let set = set.with_switch_costs(
        args.cs1.unwrap_or(set.system().cs1),
        args.cs2.unwrap_or(set.system().cs2),
    );
    let (set, analysis) = if args.generate {
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
            .with_context(|| format!("cannot generate a task set from {source}"))?;
        doc["generated"] = json!({
            "seed": args.seed, "index": args.index, "sz": args.sz, "rejected": g.rejected,
        });
        if let Some(path) = &args.emit {
            let text = cactus_rta::to_toml(&g.set);
            report::write_atomically(path, |out| Ok(out.write_all(text.as_bytes())?))?;
        }
        // Equation 4 accepted it; the requested equation is what is shown.
        let analysis = analyse(&g.set, equation);
        (g.set, analysis)
    } else {
        let analysis = analyse(&set, equation);
        (set, analysis)
    };

    let contradicted = measured.as_ref().map(|m| contradictions(&analysis, m));
    fill_json(&mut doc, &set, &analysis, measured.as_deref());
    let mut table = render(&set, &analysis, measured.as_deref());
    let mut summary = format!(
        "rta: tasks={} schedulable={} worst_slack_cycles={}",
        analysis.tasks.len(),
        if analysis.schedulable() { "yes" } else { "no" },
        analysis.worst_slack()
    );
    if let Some(g) = doc.get("generated") {
        let _ = write!(summary, " rejected={}", g["rejected"]);
    }
    if let (Some(m), Some(bad)) = (&measured, &contradicted) {
        let misses: u64 = m.iter().filter_map(|x| x.misses).map(u64::from).sum();
        let agree = bad.is_empty();
        let above = observed_above(&analysis, m);
        doc["check"] = json!({
            "deadline_misses": misses, "contradicted": bad, "agree": agree,
            "observed_response_above_analysis": above,
        });
        for name in &above {
            let _ = writeln!(
                table,
                "note: {name} responded later in the run than its analysed R (blocking or interference not in the task set?)"
            );
        }
        for (t, m) in analysis.tasks.iter().zip(m.iter()) {
            let finished = |r: u32| u64::from(r).saturating_sub(u64::from(m.unfinished));
            if m.releases
                .is_some_and(|r| (m.jobs.len() as u64) < finished(r))
            {
                let _ = writeln!(
                    table,
                    "note: {}: fewer jobs than releases: a job that ended after its next release ran on into the next one and was measured with it",
                    t.name
                );
            }
        }
        for name in bad {
            let _ = writeln!(
                table,
                "CONTRADICTED: {name} is schedulable by the analysis but missed a deadline in the run"
            );
        }
        if agree {
            let _ = writeln!(
                table,
                "check: no task the analysis calls schedulable missed a deadline in the run ({misses} misses in all)"
            );
        }
        let _ = write!(
            summary,
            " misses={misses} agree={}",
            if agree { "yes" } else { "no" }
        );
    }
    let to_stdout = args.json.as_deref().is_some_and(|p| p.as_os_str() == "-");
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&doc)? + "\n";
        if to_stdout {
            print!("{text}");
        } else {
            report::write_atomically(path, |out| Ok(out.write_all(text.as_bytes())?))?;
        }
    }
    if to_stdout {
        eprint!("{table}");
        eprintln!("{summary}");
    } else {
        print!("{table}");
        println!("{summary}");
    }
    let code = match &contradicted {
        Some(bad) if !bad.is_empty() => EXIT_CONTRADICTED,
        _ if !analysis.schedulable() => EXIT_UNSCHEDULABLE,
        _ => 0,
    };
    Ok(ExitCode::from(code))
}

/// Builds and runs the manifest's firmware: its periodic tasks with their measured C_i, or
/// None when the run did not end with exit code 0 (said on stderr).
fn measure(args: &RtaArgs, path: &Path) -> Result<Option<(TaskSet, Vec<Measured>)>> {
    let profile = resolve_profile(&args.profile)?;
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
    let outcome = loop {
        match machine.run() {
            RunOutcome::Breakpoint { .. } => continue,
            outcome => break outcome,
        }
    };
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
    let mut all_jobs = report::jobs::jobs(machine.events());
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
        let report::jobs::TaskJobs {
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

/// The tasks the analysis calls schedulable whose longest observed response (wake-up to end)
/// is above the analysed R_i: blocking or interference the task set does not describe (e.g.
/// kernel sections of lower-priority tasks: `--blocking`).
fn observed_above(analysis: &Analysis, measured: &[Measured]) -> Vec<String> {
    analysis
        .tasks
        .iter()
        .zip(measured)
        .filter(|(t, m)| {
            t.schedulable() && m.max_response().is_some_and(|r| r > t.response_cycles())
        })
        .map(|(t, _)| t.name.clone())
        .collect()
}

/// The tasks the analysis calls schedulable that missed a deadline in the run.
fn contradictions(analysis: &Analysis, measured: &[Measured]) -> Vec<String> {
    analysis
        .tasks
        .iter()
        .zip(measured)
        .filter(|(t, m)| t.schedulable() && m.misses.is_some_and(|n| n > 0))
        .map(|(t, _)| t.name.clone())
        .collect()
}

fn fill_json(doc: &mut Value, set: &TaskSet, a: &Analysis, measured: Option<&[Measured]>) {
    let s = set.system();
    doc["equation"] = a.equation.number().into();
    doc["cs1"] = a.cs1.into();
    doc["cs2"] = a.cs2.into();
    doc["carousel_cs"] = json!(s.carousel_cs);
    doc["clock_hz"] = json!(s.clock_hz);
    doc["utilisation"] = json!(set.utilisation());
    doc["schedulable"] = a.schedulable().into();
    doc["worst_slack_cycles"] = a.worst_slack().into();
    let tasks: Vec<Value> = a
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut v = json!({
                "name": t.name, "priority": t.priority, "wcet": t.wcet, "period": t.period,
                "deadline": t.deadline, "blocking": t.blocking, "offset": set.tasks()[i].offset,
                "response_cycles": t.schedulable().then(|| t.response_cycles()),
                "first_above_deadline": (!t.schedulable()).then(|| t.response_cycles()),
                "slack_cycles": t.slack(), "schedulable": t.schedulable(),
                "iterations": t.iterations,
            });
            if let Some(m) = measured.map(|m| &m[i]) {
                v["measured"] = json!({
                    "jobs": m.jobs.len(), "unfinished": m.unfinished, "wcet": t.wcet, "bcet": m.bcet(),
                    "max_response": m.max_response(), "releases": m.releases,
                    "deadline_misses": m.misses,
                });
            }
            v
        })
        .collect();
    doc["tasks"] = tasks.into();
}

/// The table: one row per task, then the set's verdict.
fn render(set: &TaskSet, a: &Analysis, measured: Option<&[Measured]>) -> String {
    let clock = set.system().clock_hz;
    let mut head = vec!["task", "prio", "C", "T", "D", "B", "R"];
    if clock.is_some() {
        head.push("R µs");
    }
    head.extend(["slack", "verdict"]);
    if measured.is_some() {
        head.extend(["jobs/releases", "BCET", "observed R", "misses"]);
    }
    let left: Vec<bool> = head
        .iter()
        .map(|h| matches!(*h, "task" | "verdict"))
        .collect();
    let mut rows: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for (i, t) in a.tasks.iter().enumerate() {
        let mut row = vec![
            t.name.clone(),
            t.priority.to_string(),
            t.wcet.to_string(),
            t.period.to_string(),
            t.deadline.to_string(),
            t.blocking.to_string(),
            response(t),
        ];
        if let Some(hz) = clock {
            let us = t.response_cycles() as f64 * 1e6 / hz as f64;
            let prefix = if t.schedulable() { "" } else { ">" };
            row.push(format!("{prefix}{us:.1}"));
        }
        row.push(t.slack().to_string());
        row.push(
            if t.schedulable() {
                "ok"
            } else {
                "UNSCHEDULABLE"
            }
            .to_string(),
        );
        if let Some(m) = measured.map(|m| &m[i]) {
            let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
            row.push(format!(
                "{}/{}",
                m.jobs.len(),
                opt(m.releases.map(u64::from))
            ));
            row.push(m.bcet().to_string());
            row.push(opt(m.max_response()));
            row.push(opt(m.misses.map(u64::from)));
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&widths)
            .zip(&left)
            .map(|((cell, w), &left)| {
                if left {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    let _ = writeln!(
        out,
        "set: {} by equation {} (cs1={} cs2={}{}), utilisation {:.3}",
        if a.schedulable() {
            "schedulable"
        } else {
            "UNSCHEDULABLE"
        },
        a.equation.number(),
        a.cs1,
        a.cs2,
        set.system()
            .carousel_cs
            .map(|c| format!(" carousel_cs={c}"))
            .unwrap_or_default(),
        set.utilisation()
    );
    out
}

/// R_i, or `>X` with X the first iterate above D_i.
fn response(t: &TaskResult) -> String {
    if t.schedulable() {
        t.response_cycles().to_string()
    } else {
        format!(">{}", t.response_cycles())
    }
}
