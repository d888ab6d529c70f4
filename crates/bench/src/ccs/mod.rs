//! `cactus bench ccs`: compiler-driven context switching (paper 002, issue 16, docs/ccs.md,
//! docs/results/ccs.md). Three parts:
//! - `analysis`: the registers a preemption saves at the switch points and blocks of every
//!   task's loops (the paper's Tables II-V, first rows), from the firmware's own assembly;
//! - `poison`: each workload built full, `ccs-sw` and `ccs-hw` with poison mode, run under many
//!   seeded timer jitters; every run must give the full build's output, and the timer
//!   preemptions (trap to the `mret` into another task) are measured inside a switch range and
//!   outside, with ccs-hw's deferrals (switch registers' statistics);
//! - `mutation`: per mode (ccs-sw, ccs-hw), the ranges the poison runs preempted most, each
//!   built with one register dropped from its live set; the same runs must then fail (the test
//!   of the test).
//!
//! Guarantees: every figure comes from a build and a run made here on cactus-sim (profile
//! `mcu`, simulated cycles only); a point that fails is a row with its reason.

pub mod run;

pub use crate::Size;

use cactus_firmware::SwitchMode;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::report::Summary;
use cactus_sweep::table::Table;
use cactus_sweep::{Meta, Point, Progress, Row, SweepReport};
use run::{build, lookup, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The parts, in report order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// Live registers at switch points and blocks.
    Analysis,
    /// Poison runs and preemption cycles.
    Poison,
    /// Mutation test.
    Mutation,
    /// ccs-hw under several deferral budgets.
    Budget,
    /// Register pages of the rmcs renaming (the paper's Tables VI and VII).
    Rmcs,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 5] = [
        Part::Analysis,
        Part::Poison,
        Part::Mutation,
        Part::Budget,
        Part::Rmcs,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Part::Analysis => "analysis",
            Part::Poison => "poison",
            Part::Mutation => "mutation",
            Part::Budget => "budget",
            Part::Rmcs => "rmcs",
        }
    }

    /// The part called `text`.
    pub fn parse(text: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.name() == text.trim())
    }
}

/// The switch points and blocks of one task's loops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskLive {
    /// The task.
    pub task: String,
    /// Loops of its code.
    pub loops: u32,
    /// Registers saved at the switch point, average over the loops.
    pub point_avg: f64,
    /// Registers saved for the switch block, average over the loops.
    pub block_avg: f64,
    /// State reduction at the switch point against the 29 of a full save, average %.
    pub point_reduction_pct: f64,
    /// The same for the switch block.
    pub block_reduction_pct: f64,
    /// Largest deferral bound in instructions over the loops that have one.
    pub worst_deferral: Option<u32>,
}

/// Trap-to-switch cycles of a set of preemptions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cycles {
    /// Preemptions.
    pub count: u64,
    /// Average cycles.
    pub avg: f64,
    /// Worst cycles.
    pub worst: u64,
}

impl Cycles {
    fn of(samples: &[u64]) -> Cycles {
        if samples.is_empty() {
            return Cycles::default();
        }
        Cycles {
            count: samples.len() as u64,
            avg: samples.iter().sum::<u64>() as f64 / samples.len() as f64,
            worst: samples.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The poison runs of one workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Poison {
    /// Runs of the ccs-sw poison build (one per jitter seed).
    pub runs: u32,
    /// Runs whose output and exit matched the full build's.
    pub matched: u32,
    /// Timer preemptions in the ccs-sw runs.
    pub preemptions: u64,
    /// Of those, preempted inside a switch range (a partial save and a poisoned resume).
    pub partial: u64,
    /// Preemption cycles of the full build (same seeds).
    pub full: Cycles,
    /// ccs-sw, preempted inside a range (the build without poison, same seeds: poison's fills
    /// would add to every partial resume).
    pub inside: Cycles,
    /// ccs-sw, preempted outside every range (without poison).
    pub outside: Cycles,
    /// Awake cycles summed over the full runs.
    pub awake_full: u64,
    /// Awake cycles summed over the ccs-sw runs (poison mode: its fills cost cycles).
    pub awake_ccs: u64,
    /// The ccs-hw poison runs (same seeds).
    #[serde(default)]
    pub hw: Option<HwRuns>,
    /// The rmcs poison runs (same seeds).
    #[serde(default)]
    pub rmcs: Option<RmcsRuns>,
}

/// The rmcs poison runs of one workload (ccs-hw's deferral, the live register pages kept in
/// cactus-sim's register pool: `kernel.reg_pool`, default 50 %).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RmcsRuns {
    /// Runs (one per jitter seed).
    pub runs: u32,
    /// Runs whose output and exit matched the full build's.
    pub matched: u32,
    /// Timer preemptions.
    pub preemptions: u64,
    /// Of those, inside a switch range (pages held, poisoned resume).
    pub partial: u64,
    /// Preemption cycles inside a range, from the build without poison, as every figure
    /// below.
    pub inside: Cycles,
    /// Outside every range (budget expired: full save).
    pub outside: Cycles,
    /// Pool pages.
    pub pool_pages: u8,
    /// `mrfmap` writes that changed the mapping (a hold and a map-back per partial
    /// preemption, a page stolen adds one, boot's check two per run).
    pub remaps: u64,
    /// Pages the preempted task stored itself (no page free and no holder less critical).
    pub own_spills: u64,
    /// Pages stolen from a less critical holder.
    pub stolen: u64,
    /// Awake cycles summed over the poison runs.
    pub awake: u64,
}

/// The ccs-hw poison runs of one workload: the switch registers defer each timer interrupt
/// into a switch range (or until the budget has passed).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HwRuns {
    /// Runs (one per jitter seed).
    pub runs: u32,
    /// Runs whose output and exit matched the full build's.
    pub matched: u32,
    /// Timer preemptions.
    pub preemptions: u64,
    /// Of those, inside a switch range (partial save, poisoned resume).
    pub partial: u64,
    /// Preemption cycles inside a range (the save routine the hardware named), from the build
    /// without poison under the same seeds, as every figure below.
    pub inside: Cycles,
    /// Outside every range (budget expired: full save).
    pub outside: Cycles,
    /// Timer interrupts (every tick, switching or not).
    pub timer_interrupts: u64,
    /// Deferred timer interrupts.
    pub deferred: u64,
    /// Deferred interrupts taken because the budget expired.
    pub budget_expiries: u64,
    /// Worst deferral in cycles.
    pub worst_deferral: u64,
    /// Worst deferral that ended in a range (at most the budget).
    pub worst_matched_deferral: u64,
    /// Average deferral in cycles over the deferred interrupts taken.
    pub avg_deferral: f64,
    /// The budget in cycles.
    pub budget: u32,
    /// Records the switch registers hold (the N of a hardware implementation).
    pub records: u32,
    /// Awake cycles summed over the poison runs.
    pub awake: u64,
}

/// One mutant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mutant {
    /// The switch mode of the mutant's build (`ccs-sw` or `ccs-hw`).
    #[serde(default = "ccs_sw")]
    pub switch: String,
    /// The range mutated (its id in the build's switch-table.txt).
    pub range: u32,
    /// Preemptions inside it in the mutant's runs.
    pub hits: u64,
    /// Runs whose output or exit differed from the full build's.
    pub detected_runs: u32,
    /// Runs.
    pub runs: u32,
}

fn ccs_sw() -> String {
    SwitchMode::CcsSw.name().to_string()
}

/// One point of the evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CcsRow {
    /// Its part.
    pub part: Part,
    /// The workload (manifest stem), with the range for a mutant.
    pub name: String,
    /// Measured and behaved as required.
    pub passed: bool,
    /// Why it did not pass.
    pub note: Option<String>,
    /// Part `analysis`.
    #[serde(default)]
    pub tasks: Vec<TaskLive>,
    /// Part `poison`.
    #[serde(default)]
    pub poison: Option<Poison>,
    /// Part `mutation`.
    #[serde(default)]
    pub mutant: Option<Mutant>,
    /// Part `budget`.
    #[serde(default)]
    pub budget: Option<BudgetRun>,
    /// Part `rmcs`.
    #[serde(default)]
    pub rmcs: Option<rmcs::SetPages>,
}

/// One ccs-hw build (no poison) under one deferral budget, run with the first jitter seed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BudgetRun {
    /// The budget in cycles.
    pub budget: u32,
    /// Timer interrupts.
    pub timer_interrupts: u64,
    /// Of those, taken inside a range.
    pub matched: u64,
    /// Deferred timer interrupts.
    pub deferred: u64,
    /// Deferred interrupts taken because the budget expired.
    pub budget_expiries: u64,
    /// Worst deferral, cycles.
    pub worst_deferral: u64,
    /// Average deferral, cycles.
    pub avg_deferral: f64,
    /// Worst deferral that ended in a range.
    pub worst_matched_deferral: u64,
    /// Timer preemptions inside a range (cycles trap to `mret`).
    pub inside: Cycles,
    /// Timer preemptions outside every range.
    pub outside: Cycles,
    /// Awake cycles of the run.
    pub awake: u64,
}

impl CcsRow {
    fn new(part: Part, name: &str) -> CcsRow {
        CcsRow {
            part,
            name: name.to_string(),
            passed: false,
            note: None,
            tasks: Vec::new(),
            poison: None,
            mutant: None,
            budget: None,
            rmcs: None,
        }
    }
}

impl Row for CcsRow {
    fn passed(&self) -> bool {
        self.passed
    }
}

/// Where and how much.
#[derive(Clone, Debug)]
pub struct CcsOptions {
    /// The Cactus tree (empty: the current directory).
    pub root: PathBuf,
    /// Size class.
    pub size: Size,
    /// Parent of the builds.
    pub build_dir: Option<PathBuf>,
}

impl CcsOptions {
    /// Jitter seeds per workload.
    pub fn seeds(&self) -> Vec<u64> {
        let n = if self.size == Size::Small { 8 } else { 32 };
        (1..=n).collect()
    }

    /// Workloads of the analysis part.
    pub fn analysed(&self) -> Vec<String> {
        let mut v = vec![
            "workloads/ccs/ccs-a4-small.toml",
            "workloads/ccs/ccs-b4-small.toml",
        ];
        if self.size == Size::Full {
            v.extend([
                "workloads/ccs/ccs-a4-unroll-small.toml",
                "workloads/ccs/ccs-b4-unroll-small.toml",
            ]);
        }
        v.into_iter().map(str::to_string).collect()
    }

    /// Workloads of the poison part: small, the A4 and B4 task sets and mediabench (whose
    /// pegwit ends a loop function with a tail call out of the program: the case that once
    /// left ra out of the state); full, every `-small` manifest of workloads/ccs and
    /// workloads/mtss.
    pub fn poisoned(&self) -> Vec<String> {
        if self.size == Size::Small {
            return vec![
                "workloads/ccs/ccs-a4-small.toml".into(),
                "workloads/ccs/ccs-b4-small.toml".into(),
                "workloads/mtss/mediabench-small.toml".into(),
            ];
        }
        let mut v = Vec::new();
        for dir in ["workloads/ccs", "workloads/mtss"] {
            let Ok(rd) = std::fs::read_dir(self.root.join(dir)) else {
                continue;
            };
            let mut names: Vec<String> = rd
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with("-small.toml"))
                .collect();
            names.sort();
            v.extend(names.into_iter().map(|n| format!("{dir}/{n}")));
        }
        v
    }

    /// Workloads of the mutation part and mutants per workload.
    pub fn mutated(&self) -> (Vec<String>, usize) {
        let mut v = vec!["workloads/ccs/ccs-a4-small.toml".to_string()];
        if self.size == Size::Full {
            v.push("workloads/ccs/ccs-b4-small.toml".into());
            v.push("workloads/mtss/telecomm-small.toml".into());
        }
        (v, if self.size == Size::Small { 2 } else { 3 })
    }
}

impl CcsOptions {
    /// Workloads of the rmcs part: the task sets A2-A4 and B2-B4 (`-small`), scalar-only
    /// (the paper's Table VII) and, in the full size, with unrolling too (Table VI).
    pub fn paged(&self) -> Vec<String> {
        let mut v = Vec::new();
        let variants: &[&str] = if self.size == Size::Small {
            &[""]
        } else {
            &["", "-unroll"]
        };
        for unroll in variants {
            for (_, set) in rmcs::SETS {
                v.push(format!("workloads/ccs/{set}{unroll}-small.toml"));
            }
        }
        v
    }

    /// Workloads and budgets (cycles) of the budget part.
    pub fn budgets(&self) -> (Vec<String>, Vec<u32>) {
        let mut v = vec!["workloads/ccs/ccs-a4-small.toml".to_string()];
        if self.size == Size::Full {
            v.push("workloads/ccs/ccs-b4-small.toml".into());
            return (v, vec![30, 60, 120, 250, 500, 1000]);
        }
        (v, vec![30, 120, 1000])
    }
}

/// One ccs-hw build of `manifest` with budget `b`, run with the first seed.
pub fn budget(o: &CcsOptions, manifest: &str, b: u32) -> CcsRow {
    let mut row = CcsRow::new(Part::Budget, &stem(manifest));
    match budget_run(o, manifest, b) {
        Ok(r) => {
            row.passed = true;
            row.budget = Some(r);
        }
        Err(e) => row.note = Some(e),
    }
    row
}

fn budget_run(o: &CcsOptions, manifest: &str, b: u32) -> Result<BudgetRun, String> {
    let seed = o.seeds()[0];
    let fw = run::build_with_budget(&o.root, o.build_dir.as_deref(), manifest, b)?;
    let ran = run::run(&fw, Some(seed))?;
    if ran.exit != Ok(0) {
        return Err(format!("budget {b}: {:?}", ran.exit));
    }
    let w = ran
        .switch_regs
        .ok_or("the ccs-hw build left the switch registers unused")?;
    let (mut inside, mut outside) = (Vec::new(), Vec::new());
    for p in &ran.preemptions {
        match lookup(&fw.table, p.pc) {
            Some(_) => inside.push(p.cycles),
            None => outside.push(p.cycles),
        }
    }
    Ok(BudgetRun {
        budget: b,
        timer_interrupts: w.timer_interrupts,
        matched: w.matched,
        deferred: w.deferred,
        budget_expiries: w.budget_expiries,
        worst_deferral: w.worst_deferral_cycles,
        avg_deferral: w.avg_deferral_cycles(),
        worst_matched_deferral: w.worst_matched_deferral_cycles,
        inside: Cycles::of(&inside),
        outside: Cycles::of(&outside),
        awake: ran.awake,
    })
}

/// The poison seed every poison build uses.
pub const POISON_SEED: u32 = 0x5eed;

fn stem(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("?")
        .to_string()
}

/// The points of `parts`.
pub fn points<'a>(o: &'a CcsOptions, parts: &[Part]) -> Vec<Point<'a, CcsRow>> {
    let mut out = Vec::new();
    if parts.contains(&Part::Analysis) {
        for m in o.analysed() {
            let name = stem(&m);
            out.push(Point::new(
                format!("analysis/{name}"),
                format!("analysis {name}"),
                move |_, _: &Progress| analysis(o, &m),
            ));
        }
    }
    if parts.contains(&Part::Poison) {
        for m in o.poisoned() {
            let name = stem(&m);
            out.push(Point::new(
                format!("poison/{name}"),
                format!("poison {name}"),
                move |_, p: &Progress| {
                    let r = poison(o, &m);
                    if let Some(n) = &r.note {
                        p.note(&format!("cactus: poison {}: {n}", r.name));
                    }
                    r
                },
            ));
        }
    }
    if parts.contains(&Part::Budget) {
        let (ms, budgets) = o.budgets();
        for m in ms {
            for &b in &budgets {
                let name = stem(&m);
                let m = m.clone();
                out.push(Point::new(
                    format!("budget/{name}/{b}"),
                    format!("budget {name} {b}"),
                    move |_, p: &Progress| {
                        let r = budget(o, &m, b);
                        if let Some(n) = &r.note {
                            p.note(&format!("cactus: budget {}: {n}", r.name));
                        }
                        r
                    },
                ));
            }
        }
    }
    if parts.contains(&Part::Rmcs) {
        for m in o.paged() {
            let name = stem(&m);
            out.push(Point::new(
                format!("rmcs/{name}"),
                format!("rmcs {name}"),
                move |_, _: &Progress| {
                    let mut row = CcsRow::new(Part::Rmcs, &name);
                    match rmcs::set_pages(o, &m) {
                        Ok(p) => {
                            row.passed = true;
                            row.rmcs = Some(p);
                        }
                        Err(e) => row.note = Some(e),
                    }
                    row
                },
            ));
        }
    }
    if parts.contains(&Part::Mutation) {
        let (ms, k) = o.mutated();
        for mode in [SwitchMode::CcsSw, SwitchMode::CcsHw, SwitchMode::Rmcs] {
            for m in &ms {
                let name = stem(m);
                // The ccs-sw points keep their old keys (stored JSON resumes).
                let key = match mode {
                    SwitchMode::CcsHw => format!("mutation-hw/{name}"),
                    SwitchMode::Rmcs => format!("mutation-rmcs/{name}"),
                    _ => format!("mutation/{name}"),
                };
                let m = m.clone();
                out.push(Point::new(
                    key,
                    format!("mutation {} {name}", mode.name()),
                    move |_, p: &Progress| {
                        let r = mutation(o, &m, k, mode);
                        if let Some(n) = &r.note {
                            p.note(&format!("cactus: mutation {}: {n}", r.name));
                        }
                        r
                    },
                ));
            }
        }
    }
    out
}

/// The analysis of one manifest's firmware.
pub fn analysis(o: &CcsOptions, manifest: &str) -> CcsRow {
    let mut row = CcsRow::new(Part::Analysis, &stem(manifest));
    match analyse(o, manifest) {
        Ok(tasks) => {
            row.passed = !tasks.is_empty();
            row.tasks = tasks;
        }
        Err(e) => row.note = Some(e),
    }
    row
}

/// A firmware's manifest, the assembly of every unit as the build compiles it (kernel
/// included) and the index of the generated glue unit among them.
pub(crate) type FirmwareAsm = (
    cactus_firmware::Manifest,
    Vec<cactus_asm::AsmFile>,
    Option<usize>,
);

/// Compiles `manifest` (relative to `o.root`) to assembly in a scratch directory and parses
/// every unit: the input of the switch analysis and of rmcs's renaming pass.
pub(crate) fn firmware_asm(o: &CcsOptions, manifest: &str) -> Result<FirmwareAsm, String> {
    let path = o.root.join(manifest);
    let m = cactus_firmware::Manifest::load(&path).map_err(|e| e.to_string())?;
    let root = if o.root.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        o.root.clone()
    };
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let tc = cactus_firmware::toolchain::Toolchain::default();
    let paths = cactus_firmware::assembly(&m, &root, &tc, dir.path()).map_err(|e| e.to_string())?;
    let mut files = Vec::new();
    for f in &paths {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let name = f.file_name().unwrap_or_default().to_string_lossy();
        files.push(cactus_asm::AsmFile::parse(&text, &name).map_err(|e| e.to_string())?);
    }
    let glue_stem = cactus_firmware::codegen::SOURCE_NAME.trim_end_matches(".c");
    let glue = files.iter().position(|f| {
        f.origin.ends_with(&format!("-{glue_stem}.s")) && !f.origin.starts_with("kernel-")
    });
    Ok((m, files, glue))
}

fn analyse(o: &CcsOptions, manifest: &str) -> Result<Vec<TaskLive>, String> {
    use cactus_cc::switch::switch_report;
    let (m, files, glue) = firmware_asm(o, manifest)?;
    let tasks = cactus_firmware::switch_table::task_entries(&m);
    let report = switch_report(&files, &tasks, glue).map_err(|e| e.to_string())?;
    Ok(report
        .into_iter()
        .filter(|t| !t.loops.is_empty())
        .map(|t| {
            let n = t.loops.len() as f64;
            let avg = |f: &dyn Fn(&cactus_cc::switch::LoopRow) -> f64| {
                t.loops.iter().map(f).sum::<f64>() / n
            };
            TaskLive {
                task: t.task.clone(),
                loops: t.loops.len() as u32,
                point_avg: avg(&|l| l.point_regs.len() as f64),
                block_avg: avg(&|l| l.block_regs.len() as f64),
                point_reduction_pct: avg(&|l| l.point_reduction_pct()),
                block_reduction_pct: avg(&|l| l.block_reduction_pct()),
                worst_deferral: t.loops.iter().filter_map(|l| l.deferral).max(),
            }
        })
        .collect())
}

/// The full build's runs of `manifest` under `seeds`: (output, exit) of the first and the
/// preemption cycles and awake cycles of all. The output does not depend on the seed.
type Reference = (Vec<String>, Result<u32, String>, Vec<u64>, u64);

fn reference(o: &CcsOptions, manifest: &str, seeds: &[u64]) -> Result<Reference, String> {
    let fw = build(
        &o.root,
        o.build_dir.as_deref(),
        manifest,
        Variant::default(),
    )?;
    let mut out = None;
    let mut cycles = Vec::new();
    let mut awake = 0;
    for &s in seeds {
        let ran = run::run(&fw, Some(s))?;
        if ran.exit != Ok(0) {
            return Err(format!("full build, seed {s}: {:?}", ran.exit));
        }
        cycles.extend(ran.preemptions.iter().map(|p| p.cycles));
        awake += ran.awake;
        if out.is_none() {
            out = Some((ran.output, ran.exit));
        }
    }
    let (output, exit) = out.ok_or("no seeds")?;
    Ok((output, exit, cycles, awake))
}

/// The poison runs of one manifest.
pub fn poison(o: &CcsOptions, manifest: &str) -> CcsRow {
    let mut row = CcsRow::new(Part::Poison, &stem(manifest));
    match poison_runs(o, manifest) {
        Ok(p) => {
            let hw = p.hw.clone().unwrap_or_default();
            row.note = if p.matched < p.runs {
                Some(format!(
                    "{} of {} ccs-sw poison runs differ from the full build",
                    p.runs - p.matched,
                    p.runs
                ))
            } else if hw.matched < hw.runs {
                Some(format!(
                    "{} of {} ccs-hw poison runs differ from the full build",
                    hw.runs - hw.matched,
                    hw.runs
                ))
            } else if let Some(r) = p.rmcs.as_ref().filter(|r| r.matched < r.runs) {
                Some(format!(
                    "{} of {} rmcs poison runs differ from the full build",
                    r.runs - r.matched,
                    r.runs
                ))
            } else if p.partial == 0
                || hw.partial == 0
                || p.rmcs.as_ref().is_some_and(|r| r.partial == 0)
            {
                Some("no preemption landed in a switch range: nothing was tested".into())
            } else {
                None
            };
            row.passed = row.note.is_none();
            row.poison = Some(p);
        }
        Err(e) => row.note = Some(e),
    }
    row
}

fn poison_runs(o: &CcsOptions, manifest: &str) -> Result<Poison, String> {
    let seeds = o.seeds();
    let (output, exit, full, awake_full) = reference(o, manifest, &seeds)?;
    let reference = (output.as_slice(), &exit);
    let sw = mode_runs(o, manifest, &seeds, SwitchMode::CcsSw, Some(reference))?;
    let sw_time = mode_runs(o, manifest, &seeds, SwitchMode::CcsSw, None)?;
    let hw = mode_runs(o, manifest, &seeds, SwitchMode::CcsHw, Some(reference))?;
    let hw_time = mode_runs(o, manifest, &seeds, SwitchMode::CcsHw, None)?;
    let rm = mode_runs(o, manifest, &seeds, SwitchMode::Rmcs, Some(reference))?;
    let rm_time = mode_runs(o, manifest, &seeds, SwitchMode::Rmcs, None)?;
    let rmcs = RmcsRuns {
        runs: seeds.len() as u32,
        matched: rm.matched,
        preemptions: rm.preemptions,
        partial: rm.partial,
        inside: Cycles::of(&rm_time.inside),
        outside: Cycles::of(&rm_time.outside),
        pool_pages: rm_time.pool_pages,
        remaps: rm_time.rmcs.remaps,
        own_spills: rm_time.rmcs.own_spills,
        stolen: rm_time.rmcs.stolen,
        awake: rm.awake,
    };
    let mut h = HwRuns {
        runs: seeds.len() as u32,
        matched: hw.matched,
        preemptions: hw.preemptions,
        partial: hw.partial,
        inside: Cycles::of(&hw_time.inside),
        outside: Cycles::of(&hw_time.outside),
        awake: hw.awake,
        ..HwRuns::default()
    };
    let (mut deferral_cycles, mut taken) = (0, 0);
    for w in &hw_time.switch_regs {
        h.timer_interrupts += w.timer_interrupts;
        h.deferred += w.deferred;
        h.budget_expiries += w.budget_expiries;
        h.worst_deferral = h.worst_deferral.max(w.worst_deferral_cycles);
        h.worst_matched_deferral = h
            .worst_matched_deferral
            .max(w.worst_matched_deferral_cycles);
        deferral_cycles += w.deferral_cycles;
        taken += w.deferred - w.cancelled;
        h.budget = w.budget;
        h.records = w.records;
    }
    h.avg_deferral = if taken == 0 {
        0.0
    } else {
        deferral_cycles as f64 / taken as f64
    };
    Ok(Poison {
        runs: seeds.len() as u32,
        matched: sw.matched,
        preemptions: sw.preemptions,
        partial: sw.partial,
        full: Cycles::of(&full),
        inside: Cycles::of(&sw_time.inside),
        outside: Cycles::of(&sw_time.outside),
        awake_full,
        awake_ccs: sw.awake,
        hw: Some(h),
        rmcs: Some(rmcs),
    })
}

/// What the runs of one build under every seed left.
struct ModeRuns {
    /// Runs whose output and exit matched the reference (poison builds).
    matched: u32,
    /// Timer preemptions and those inside a switch range.
    preemptions: u64,
    partial: u64,
    /// Preemption cycles inside a range and outside.
    inside: Vec<u64>,
    outside: Vec<u64>,
    /// Awake cycles summed.
    awake: u64,
    /// The switch registers' figures per run (ccs-hw).
    switch_regs: Vec<cactus_sim::SwitchRegStats>,
    /// rmcs: the register pages' figures summed over the runs, and the pool's pages.
    rmcs: run::RmcsCounts,
    pool_pages: u8,
}

/// Builds `manifest` with `mode` and runs it under `seeds`: with poison mode against a
/// reference (output, exit) when one is given (the correctness runs), else without poison (the
/// timing runs: poison's fills would add cycles to every partial resume).
fn mode_runs(
    o: &CcsOptions,
    manifest: &str,
    seeds: &[u64],
    mode: SwitchMode,
    reference: Option<(&[String], &Result<u32, String>)>,
) -> Result<ModeRuns, String> {
    let v = Variant {
        switch: mode,
        poison: reference.map(|_| POISON_SEED),
        mutate: None,
        reg_pool: None,
    };
    let fw = build(&o.root, o.build_dir.as_deref(), manifest, v)?;
    let mut r = ModeRuns {
        matched: 0,
        preemptions: 0,
        partial: 0,
        inside: Vec::new(),
        outside: Vec::new(),
        awake: 0,
        switch_regs: Vec::new(),
        rmcs: run::RmcsCounts::default(),
        pool_pages: fw.reg_pool,
    };
    for &s in seeds {
        let ran = run::run(&fw, Some(s))?;
        match reference {
            Some((output, exit)) if ran.output == output && ran.exit == *exit => r.matched += 1,
            Some(_) => {}
            None if ran.exit != Ok(0) => {
                return Err(format!("{} build, seed {s}: {:?}", mode.name(), ran.exit))
            }
            None => {}
        }
        r.awake += ran.awake;
        for p in &ran.preemptions {
            match lookup(&fw.table, p.pc) {
                Some(_) => r.inside.push(p.cycles),
                None => r.outside.push(p.cycles),
            }
        }
        if mode == SwitchMode::CcsHw {
            r.switch_regs.push(ran.switch_regs.ok_or_else(|| {
                format!("seed {s}: the ccs-hw build left the switch registers unused")
            })?);
        }
        if mode == SwitchMode::Rmcs {
            let c = ran
                .rmcs
                .ok_or_else(|| format!("seed {s}: the rmcs build has no register pages"))?;
            r.rmcs.remaps += c.remaps;
            r.rmcs.own_spills += c.own_spills;
            r.rmcs.stolen += c.stolen;
        }
    }
    r.preemptions = (r.inside.len() + r.outside.len()) as u64;
    r.partial = r.inside.len() as u64;
    Ok(r)
}

/// The mutation test on one manifest built with `mode` (ccs-sw or ccs-hw): the `k` ranges its
/// poison runs preempted most, each mutated in turn. Passes when every mutant the runs reach
/// is detected and at least one is reached.
pub fn mutation(o: &CcsOptions, manifest: &str, k: usize, mode: SwitchMode) -> CcsRow {
    let mut row = CcsRow::new(
        Part::Mutation,
        &format!("{} {}", stem(manifest), mode.name()),
    );
    match mutants(o, manifest, k, mode) {
        Ok(ms) => {
            let reached: Vec<&Mutant> = ms.iter().filter(|m| m.hits > 0).collect();
            let missed: Vec<u32> = reached
                .iter()
                .filter(|m| m.detected_runs == 0)
                .map(|m| m.range)
                .collect();
            row.note = if reached.is_empty() {
                Some("no mutant was reached by a preemption: the test is too weak".into())
            } else if !missed.is_empty() {
                Some(format!("mutants not detected: ranges {missed:?}"))
            } else {
                None
            };
            row.passed = row.note.is_none();
            row.name = format!(
                "{} ({})",
                row.name,
                ms.iter()
                    .map(|m| format!("range {}", m.range))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            row.mutant = ms.into_iter().next();
        }
        Err(e) => row.note = Some(e),
    }
    row
}

fn mutants(
    o: &CcsOptions,
    manifest: &str,
    k: usize,
    mode: SwitchMode,
) -> Result<Vec<Mutant>, String> {
    let seeds = o.seeds();
    let (output, exit, _, _) = reference(o, manifest, &seeds[..1])?;
    let base = Variant {
        switch: mode,
        poison: Some(POISON_SEED),
        mutate: None,
        reg_pool: None,
    };
    let fw = build(&o.root, o.build_dir.as_deref(), manifest, base)?;
    let mut hits: BTreeMap<u32, u64> = BTreeMap::new();
    for &s in &seeds {
        for p in run::run(&fw, Some(s))?.preemptions {
            if let Some((_, _, id)) = lookup(&fw.table, p.pc) {
                *hits.entry(id).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(u32, u64)> = hits.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out = Vec::new();
    for (id, _) in ranked {
        if out.len() == k {
            break;
        }
        let v = Variant {
            mutate: Some(id),
            ..base
        };
        // A range with no register but sp live throughout has nothing to drop.
        let Ok(mfw) = build(&o.root, o.build_dir.as_deref(), manifest, v) else {
            continue;
        };
        let Some((start, end)) = mfw.mutated else {
            return Err(format!(
                "range {id}: the mutated record is not in the table"
            ));
        };
        let mut m = Mutant {
            switch: mode.name().to_string(),
            range: id,
            hits: 0,
            detected_runs: 0,
            runs: seeds.len() as u32,
        };
        for &s in &seeds {
            let ran = run::run(&mfw, Some(s))?;
            m.hits += ran
                .preemptions
                .iter()
                .filter(|p| (start..end).contains(&p.pc))
                .count() as u64;
            if ran.output != output || ran.exit != exit {
                m.detected_runs += 1;
            }
        }
        out.push(m);
    }
    Ok(out)
}

/// The evaluation.
pub struct Ccs;

impl Evaluation for Ccs {
    const NAME: &'static str = "ccs";
    const UNIT: &'static str = "points";
    type Row = CcsRow;

    fn render(rows: &[CcsRow], meta: &Meta) -> SweepReport {
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

fn reading(size: &str) -> String {
    format!(
        "Size class `{size}`. **Analysis**: every loop of every task's code (docs/ccs.md), -O2 \
         (`-unroll`: with loop unrolling, the paper's aggressive setting); registers a \
         preemption saves at the loop's switch point (SP) and for its switch block (SB), of \
         the 29 a full save stores (x1, x2, x5-x31), averaged over the loops; the deferral \
         bound is in instructions of the loop (ccs-sw never defers: it preempts at once and \
         saves the full set outside a range). **Poison**: each workload built `kernel.switch = \
         \"full\"` and `\"ccs-sw\"` with `kernel.switch_poison` (every partial resume fills the \
         registers it does not restore with garbage), each run under {} seeded timer jitters \
         (`--timer-jitter`, up to 2,000 cycles late), so the preemptions land at other \
         instructions; a row passes when every ccs-sw run prints what the full build prints \
         and exits 0, and at least one preemption landed inside a switch range. Preemption: \
         cycles from the timer trap to the `mret` into the task switched in (the save, the \
         kernel's tick and scheduling), worst and average, full build beside ccs-sw inside a \
         range (partial save) and outside (full save after the table lookup through its \
         bucket index), measured in \
         builds without poison under the same seeds (poison's fills would add to every \
         partial resume). **ccs-hw** \
         (second table): the same runs of a `kernel.switch = \"ccs-hw\"` build with poison \
         mode on cactus-sim's switch registers, which defer every timer interrupt until the \
         task's pc is inside a switch range (then the trap reports the range's save routine: \
         no lookup) or the budget (`kernel.switch_budget`, default 60 cycles) has passed (a \
         budget expiry: full save); preemptions and those inside a range are the poison runs', \
         every other figure is from the build without poison; deferral = cycles from the \
         instruction boundary where the interrupt would have been taken to the one where it \
         is, over every deferred tick, switching or not (worst to a range: the deferrals that \
         ended in one, the paper's measure); ranges = the records the switch registers hold (N comparator \
         pairs in hardware). **Mutation**: per mode, the ranges the poison runs preempted \
         most, each rebuilt with `kernel.switch_mutate` (one register live throughout the \
         range dropped from its set); a mutant passes when some run then differs. The paper (Zhou and Petrov, Table \
         IV, scalar-only, 64-entry register file, first hotspot per benchmark; quoted): live \
         registers SP/SB ej 3/14, lu 18/20, tri 13/24, mmul 9/13, 2d-dct 13/15, adpcm 10/10, \
         g721 3/5, sha 6/6, susan 20/20; CCS state reduction % ej 96/81, lu 75/72, tri 82/67, \
         mmul 88/82, 2d-dct 82/79, adpcm 86/86, g721 96/93, sha 92/92, susan 72/72; worst \
         deferral (cycles) ej 34/7, lu 5/3, tri 15/5, mmul 7/4, 2d-dct 5/3, adpcm 28/27, g721 \
         57/53, sha 4/3, susan 27/25. **rmcs** (last table): the register pages (8 registers of \
         x8-x31, cactus-sim's register-page extension) the state of each worker task's worst \
         switch point (SP) and block (SB) occupies, over the loops of its own program, as \
         compiled and after `cactus cc`'s renaming pass; pages exceeding a pool of 25/50/75 % \
         of the 32-entry file (1/2/3 pages) when every task of the set is preempted at its \
         worst point at once (the paper's Tables VI and VII, one-cluster rows, quoted beside). \
         Measured beside them (`spilled/held`): each set built `kernel.switch = \"rmcs\"` \
         with each pool (`kernel.reg_pool`) in poison mode, run under the first jitter seed \
         (its output must be the full build's): register pages the kernel stored to memory \
         (the preempted task's own when no page usable there was free and no holder was less \
         critical, or a less critical holder's) against the preemptions that held pages. \
         **rmcs poison** (third table): the poison runs of a `kernel.switch = \"rmcs\"` build \
         (ccs-hw's deferral and budget; a preemption inside a range stores only ra, sp, t0-t2 \
         and keeps the range's live register pages in cactus-sim's register file through \
         `mrfmap`, pool 50 %), preemption cycles from the build without poison beside the full \
         build's and ccs-hw's inside a range; remaps = `mrfmap` writes that changed the mapping, \
         spills as above. ",
        if size == "small" { 8 } else { 32 }
    )
}

fn f1(x: f64) -> String {
    format!("{x:.1}")
}

/// The report's tables.
pub fn markdown(rows: &[CcsRow]) -> String {
    let mut s = String::new();
    let mut a = Table::new(&[
        "workload",
        "task",
        ">loops",
        ">SP regs",
        ">SB regs",
        ">SP state red. %",
        ">SB state red. %",
        ">worst deferral (insts)",
    ]);
    for r in rows.iter().filter(|r| r.part == Part::Analysis) {
        if r.tasks.is_empty() {
            a.row([
                r.name.clone(),
                "-".into(),
                r.note.clone().unwrap_or_default(),
            ]);
        }
        for t in &r.tasks {
            a.row([
                r.name.clone(),
                t.task.clone(),
                t.loops.to_string(),
                f1(t.point_avg),
                f1(t.block_avg),
                f1(t.point_reduction_pct),
                f1(t.block_reduction_pct),
                t.worst_deferral
                    .map_or("none".to_string(), |d| d.to_string()),
            ]);
        }
    }
    s.push_str(&a.render());
    s.push('\n');
    let mut p = Table::new(&[
        "workload",
        ">runs",
        ">matched",
        ">preemptions",
        ">inside a range",
        ">full worst/avg",
        ">ccs-sw inside worst/avg",
        ">ccs-sw outside worst/avg",
        ">awake full",
        ">awake ccs-sw+poison",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.part == Part::Poison) {
        let wa = |c: &Cycles| format!("{}/{}", c.worst, f1(c.avg));
        match &r.poison {
            Some(x) => p.row([
                r.name.clone(),
                x.runs.to_string(),
                x.matched.to_string(),
                x.preemptions.to_string(),
                x.partial.to_string(),
                wa(&x.full),
                wa(&x.inside),
                wa(&x.outside),
                x.awake_full.to_string(),
                x.awake_ccs.to_string(),
                verdict(r),
            ]),
            None => p.row([r.name.clone(), verdict(r)]),
        };
    }
    s.push_str(&p.render());
    s.push('\n');
    let mut h = Table::new(&[
        "workload",
        ">runs",
        ">matched",
        ">timer interrupts",
        ">deferred",
        ">preemptions",
        ">inside a range",
        ">ccs-hw inside worst/avg",
        ">ccs-hw outside worst/avg",
        ">deferral worst/avg",
        ">worst to a range",
        ">budget expiries",
        ">budget",
        ">ranges",
        ">awake ccs-hw+poison",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.part == Part::Poison) {
        let wa = |c: &Cycles| format!("{}/{}", c.worst, f1(c.avg));
        match r.poison.as_ref().and_then(|p| p.hw.as_ref()) {
            Some(x) => h.row([
                r.name.clone(),
                x.runs.to_string(),
                x.matched.to_string(),
                x.timer_interrupts.to_string(),
                x.deferred.to_string(),
                x.preemptions.to_string(),
                x.partial.to_string(),
                wa(&x.inside),
                wa(&x.outside),
                format!("{}/{}", x.worst_deferral, f1(x.avg_deferral)),
                x.worst_matched_deferral.to_string(),
                x.budget_expiries.to_string(),
                x.budget.to_string(),
                x.records.to_string(),
                x.awake.to_string(),
                verdict(r),
            ]),
            None => h.row([r.name.clone(), verdict(r)]),
        };
    }
    s.push_str(&h.render());
    s.push('\n');
    let mut g = Table::new(&[
        "workload",
        ">runs",
        ">matched",
        ">preemptions",
        ">inside a range",
        ">full worst/avg",
        ">ccs-hw inside worst/avg",
        ">rmcs inside worst/avg",
        ">rmcs outside worst/avg",
        ">pool pages",
        ">remaps",
        ">own pages spilled",
        ">pages stolen",
        ">awake rmcs+poison",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.part == Part::Poison) {
        let wa = |c: &Cycles| format!("{}/{}", c.worst, f1(c.avg));
        let p = r.poison.as_ref();
        match p.and_then(|p| p.rmcs.as_ref()) {
            Some(x) => g.row([
                r.name.clone(),
                x.runs.to_string(),
                x.matched.to_string(),
                x.preemptions.to_string(),
                x.partial.to_string(),
                p.map_or("-".into(), |p| wa(&p.full)),
                p.and_then(|p| p.hw.as_ref())
                    .map_or("-".into(), |h| wa(&h.inside)),
                wa(&x.inside),
                wa(&x.outside),
                x.pool_pages.to_string(),
                x.remaps.to_string(),
                x.own_spills.to_string(),
                x.stolen.to_string(),
                x.awake.to_string(),
                verdict(r),
            ]),
            None => g.row([r.name.clone(), verdict(r)]),
        };
    }
    s.push_str(&g.render());
    s.push('\n');
    let mut m = Table::new(&[
        "mutants",
        ">first: hits",
        ">first: runs detecting",
        "result",
    ]);
    for r in rows.iter().filter(|r| r.part == Part::Mutation) {
        match &r.mutant {
            Some(x) => m.row([
                r.name.clone(),
                x.hits.to_string(),
                format!("{}/{}", x.detected_runs, x.runs),
                verdict(r),
            ]),
            None => m.row([r.name.clone(), "-".into(), "-".into(), verdict(r)]),
        };
    }
    s.push_str(&m.render());
    let budgets: Vec<&CcsRow> = rows.iter().filter(|r| r.part == Part::Budget).collect();
    if !budgets.is_empty() {
        s.push('\n');
        let mut b = Table::new(&[
            "workload",
            ">budget",
            ">timer interrupts",
            ">in a range %",
            ">budget expiries",
            ">deferral worst/avg",
            ">worst to a range",
            ">ccs-hw inside worst/avg",
            ">ccs-hw outside worst/avg",
            ">awake",
            "result",
        ]);
        for r in budgets {
            let wa = |c: &Cycles| format!("{}/{}", c.worst, f1(c.avg));
            match &r.budget {
                Some(x) => b.row([
                    r.name.clone(),
                    x.budget.to_string(),
                    x.timer_interrupts.to_string(),
                    f1(100.0 * x.matched as f64 / x.timer_interrupts.max(1) as f64),
                    x.budget_expiries.to_string(),
                    format!("{}/{}", x.worst_deferral, f1(x.avg_deferral)),
                    x.worst_matched_deferral.to_string(),
                    wa(&x.inside),
                    wa(&x.outside),
                    x.awake.to_string(),
                    verdict(r),
                ]),
                None => b.row([r.name.clone(), "-".into(), verdict(r)]),
            };
        }
        s.push_str(&b.render());
    }
    s.push_str(&rmcs::markdown(rows));
    s
}

fn verdict(r: &CcsRow) -> String {
    match &r.note {
        None => "pass".into(),
        Some(n) => format!("FAIL: {n}"),
    }
}

/// The summary (the report adds `passed=` and `failed=`).
pub fn summary(rows: &[CcsRow]) -> Summary {
    let mut s = Summary::new("ccs");
    let bench_tasks: Vec<&TaskLive> = rows
        .iter()
        .filter(|r| r.part == Part::Analysis)
        .flat_map(|r| &r.tasks)
        .filter(|t| t.task != "feeder" && t.task != "coordinator")
        .collect();
    if !bench_tasks.is_empty() {
        let n = bench_tasks.len() as f64;
        s.add(
            "state_reduction_pct",
            f1(bench_tasks
                .iter()
                .map(|t| t.point_reduction_pct)
                .sum::<f64>()
                / n),
        );
        s.add(
            "worst_deferral_insts",
            bench_tasks
                .iter()
                .filter_map(|t| t.worst_deferral)
                .max()
                .map_or("none".to_string(), |d| d.to_string()),
        );
    }
    let poison: Vec<&Poison> = rows.iter().filter_map(|r| r.poison.as_ref()).collect();
    let hw: Vec<&HwRuns> = poison.iter().filter_map(|p| p.hw.as_ref()).collect();
    s.add(
        "worst_deferral_cycles",
        hw.iter()
            .filter(|h| h.deferred > 0)
            .map(|h| h.worst_deferral)
            .max()
            .map_or("n/a".to_string(), |w| w.to_string()),
    );
    if !poison.is_empty() {
        let worst = |f: &dyn Fn(&Poison) -> &Cycles| {
            poison
                .iter()
                .filter(|p| f(p).count > 0)
                .map(|p| f(p).worst)
                .max()
                .map_or("n/a".to_string(), |w| w.to_string())
        };
        s.add("preempt_full_cycles", worst(&|p| &p.full));
        s.add("preempt_ccs_sw_cycles", worst(&|p| &p.inside));
        s.add("preempt_ccs_sw_outside_cycles", worst(&|p| &p.outside));
    }
    let hw_worst = |f: &dyn Fn(&HwRuns) -> &Cycles| {
        hw.iter()
            .filter(|h| f(h).count > 0)
            .map(|h| f(h).worst)
            .max()
            .map_or("n/a".to_string(), |w| w.to_string())
    };
    s.add("preempt_ccs_hw_cycles", hw_worst(&|h| &h.inside));
    if !hw.is_empty() {
        s.add("preempt_ccs_hw_outside_cycles", hw_worst(&|h| &h.outside));
        s.add(
            "budget_expiries",
            hw.iter().map(|h| h.budget_expiries).sum::<u64>(),
        );
        s.add(
            "switch_ranges",
            hw.iter().map(|h| h.records).max().unwrap_or(0),
        );
    }
    if !poison.is_empty() {
        s.add(
            "preemptions",
            poison.iter().map(|p| p.preemptions).sum::<u64>(),
        );
        s.add("partial", poison.iter().map(|p| p.partial).sum::<u64>());
        if !hw.is_empty() {
            s.add("hw_partial", hw.iter().map(|h| h.partial).sum::<u64>());
        }
    }
    let mutation: Vec<&CcsRow> = rows.iter().filter(|r| r.part == Part::Mutation).collect();
    if !mutation.is_empty() {
        let ok = mutation.iter().filter(|r| r.passed).count();
        s.add("mutation_detected", format!("{ok}/{}", mutation.len()));
    }
    if let Some(w) = rows
        .iter()
        .filter_map(|r| r.rmcs.as_ref())
        .flat_map(|p| &p.tasks)
        .map(|t| t.point.1)
        .max()
    {
        s.add("rmcs_worst_point_pages", w);
    }
    let rm: Vec<&RmcsRuns> = poison.iter().filter_map(|p| p.rmcs.as_ref()).collect();
    if !rm.is_empty() {
        s.add(
            "preempt_rmcs_cycles",
            rm.iter()
                .filter(|r| r.inside.count > 0)
                .map(|r| r.inside.worst)
                .max()
                .map_or("n/a".to_string(), |w| w.to_string()),
        );
        s.add("rmcs_partial", rm.iter().map(|r| r.partial).sum::<u64>());
    }
    s
}

pub mod rmcs;
#[cfg(test)]
mod tests;
