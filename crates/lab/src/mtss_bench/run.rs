//! One MSO probe: a workload built with one task's stack budget changed, under
//! `stack = "mtss"` and `checks = "mtss"`, run on cactus-sim with the ownership oracle
//! stopping the run on its first violation; and the baseline run that gives each task's
//! measured high water.

use super::search::Probe;
use cactus_cc::Reserves;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use cactus_sim::{Machine, MachineConfig, OracleMode, Profile, RunOutcome};
use std::path::{Path, PathBuf};

/// How every probe of one workload is built and run.
#[derive(Clone, Debug)]
pub struct ProbeSetup {
    /// The manifest as loaded, with `kernel.stack = mtss` and `kernel.checks = mtss` applied
    /// (task budgets as written).
    pub manifest: Manifest,
    /// Pass options, with K for application code pinned to the unmodified manifest's default
    /// (10 % of its smallest budget), so shrinking a task changes nothing but that budget.
    pub checks: CheckOptions,
    /// Parent of the probe build directories.
    pub out_root: Option<PathBuf>,
    /// Cycle limit of one run (a run that reaches it fails).
    pub max_cycles: u64,
    /// Keep each probe's build directory (otherwise it is removed after the run).
    pub keep_builds: bool,
}

impl ProbeSetup {
    /// Loads `path` and prepares its probes; errors name the manifest.
    pub fn new(
        path: &Path,
        reserves: &Reserves,
        out_root: Option<PathBuf>,
        max_cycles: u64,
    ) -> Result<ProbeSetup, String> {
        let mut manifest = Manifest::load(path).map_err(|e| e.to_string())?;
        manifest
            .apply(&Overrides {
                stack: Some("mtss".into()),
                target: Some("sim".into()),
                checks: Some("mtss".into()),
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let smallest = manifest.tasks.iter().map(|t| t.stack).min().unwrap_or(1280);
        let checks = CheckOptions {
            reserves: reserves.clone(),
            k_app: Some(smallest / 10),
            ..CheckOptions::default()
        };
        Ok(ProbeSetup {
            manifest,
            checks,
            out_root,
            max_cycles,
            keep_builds: false,
        })
    }

    /// Builds the workload with task `task`'s budget set to `budget` (every other task at
    /// its manifest budget) and runs it. Passes only on exit code 0 with no oracle violation;
    /// a build error, fault, violation, cycle limit or non-zero exit is a failed probe whose
    /// reason says which.
    pub fn probe(&self, task: usize, budget: u32) -> Probe {
        match self.build_and_run(task, budget) {
            Ok(()) => Probe {
                budget,
                passed: true,
                reason: None,
            },
            Err(reason) => Probe {
                budget,
                passed: false,
                reason: Some(reason),
            },
        }
    }

    fn build_and_run(&self, task: usize, budget: u32) -> Result<(), String> {
        let mut m = self.manifest.clone();
        let t = m
            .tasks
            .get_mut(task)
            .ok_or_else(|| format!("{}: no task {task}", m.name))?;
        t.stack = budget;
        let options = BuildOptions {
            out_root: self.out_root.clone(),
            checks: self.checks.clone(),
            ..BuildOptions::default()
        };
        // The cache key hashes the generated C, whose task table holds every budget.
        let built = cactus_firmware::build(&m, &options).map_err(|e| first_line(&e.to_string()))?;
        let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()));
        if !self.keep_builds && !built.up_to_date {
            // Best effort: a leftover directory is only disk space.
            let _ = std::fs::remove_dir_all(&built.dir);
        }
        let elf = elf?;
        let mut config = MachineConfig::new(Profile::builtin("mcu").ok_or("no profile `mcu`")?);
        config.oracle = OracleMode::Stop;
        config.max_cycles = Some(self.max_cycles);
        let mut machine = Machine::new(config);
        machine.load_elf(&elf).map_err(|e| e.to_string())?;
        let outcome = loop {
            match machine.run() {
                RunOutcome::Breakpoint { .. } => continue,
                other => break other,
            }
        };
        let violations = machine.stats().oracle_violations;
        match outcome {
            RunOutcome::Exited { code: 0 } if violations == 0 => Ok(()),
            RunOutcome::Exited { code: 0 } => Err(format!("{violations} oracle violation(s)")),
            RunOutcome::Exited { code } => Err(format!("exit code {code}")),
            RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => Err(first_line(&r.to_string())),
            RunOutcome::OracleViolation(r) => Err(first_line(&r.to_string())),
            RunOutcome::Breakpoint { pc } => Err(format!("breakpoint at {pc:#010x}")),
        }
    }
}

/// What the baseline run (the manifest exactly as written, on its own strategy) gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baseline {
    /// Each task's measured stack high water, by task index (None if not reported).
    pub high_water: Vec<Option<u32>>,
    /// Simulated cycles of the run.
    pub cycles: u64,
}

/// Builds and runs the manifest at `path` as written (the run `cactus workloads stacks`
/// makes, which the budgets were derived from). Errors if it does not pass.
pub fn baseline(path: &Path) -> Result<Baseline, String> {
    let manifest = Manifest::load(path).map_err(|e| e.to_string())?;
    let entry = crate::catalogue::Entry::from_manifest(path, &manifest);
    let run = crate::workload_stacks::measure(Path::new(""), &entry);
    if let Some(note) = run.note {
        return Err(format!("{}: baseline run failed: {note}", path.display()));
    }
    Ok(Baseline {
        high_water: run.rows.iter().map(|r| r.stack_hwm).collect(),
        cycles: run.totals.map(|t| t.cycles).unwrap_or(0),
    })
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(200).collect()
}
