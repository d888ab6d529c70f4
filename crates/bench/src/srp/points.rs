//! The points of `cactus bench srp`: every job-shaped workload under SRP (its `-srp` manifest)
//! and, from its preemptive manifest, under `static`, `mtss` and `segmented` stacks; a
//! workload without an SRP manifest is tried under SRP (its manifest with
//! `kernel.scheduler = "srp"`) to say why it cannot use it.

use super::{Config, SrpRow};
use crate::mcu_run::{exited_cleanly, last_marker, load_with_stack, run_mcu};
use crate::Size;
use cactus_firmware::codegen::{MARKER_MISSES, MARKER_SRP, SRP_TASK_NAME};
use cactus_firmware::{BuildOptions, CheckOptions, Manifest};
use cactus_sweep::{Point, Progress};
use std::path::{Path, PathBuf};

/// Simulated cycles after which a run is stopped (and counted as failed).
pub const MAX_CYCLES: u64 = 20_000_000_000;

/// Where `cactus bench srp` runs.
pub struct SrpOptions {
    /// The Cactus tree (manifest paths are relative to it; empty: the current directory).
    pub root: PathBuf,
    /// Size class.
    pub size: Size,
    /// Library stack reserves for the check passes of `mtss` and `segmented`.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the build directories (`build/firmware` of the tree when None).
    pub build_dir: Option<PathBuf>,
    /// `cactus stack-report`'s static bound of each manifest's stack memory (the SRP shared
    /// stack's row, or the tasks' bounds summed), by manifest path as [`workloads`] names it;
    /// None where unbounded or not computed.
    pub bounds: std::collections::BTreeMap<String, Option<u32>>,
}

/// One workload of the bench: its preemptive manifest, and its SRP manifest if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// Short name (`malardalen-like`).
    pub name: &'static str,
    /// The preemptive manifest (relative to the tree).
    pub preemptive: String,
    /// The SRP manifest, when the workload is job-shaped.
    pub srp: Option<String>,
}

/// The workloads at `size`: malardalen-like, crazyflie-like and the demo, each with an SRP
/// manifest of the same work as jobs (the demo's is the same at every size).
pub fn workloads(size: Size) -> Vec<Workload> {
    let sfx = size.manifest_suffix();
    vec![
        Workload {
            name: "malardalen-like",
            preemptive: format!("workloads/malardalen-like/malardalen{sfx}.toml"),
            srp: Some(format!(
                "workloads/malardalen-like/malardalen-srp{sfx}.toml"
            )),
        },
        Workload {
            name: "crazyflie-like",
            preemptive: format!("workloads/crazyflie-like/crazyflie{sfx}.toml"),
            srp: Some(format!("workloads/crazyflie-like/crazyflie-srp{sfx}.toml")),
        },
        Workload {
            name: "demo",
            preemptive: "workloads/demo/demo.toml".to_string(),
            srp: Some("workloads/demo/demo-srp.toml".to_string()),
        },
    ]
}

/// The store's parameters.
pub fn params(size: Size) -> serde_json::Value {
    serde_json::json!({ "size": size.name() })
}

/// One point per workload and configuration: SRP (or the attempt), then for job-shaped
/// workloads `static`, `mtss` and `segmented`.
pub fn points(o: &SrpOptions) -> Vec<Point<'_, SrpRow>> {
    let mut out = Vec::new();
    for w in workloads(o.size) {
        let configs: &[Config] = if w.srp.is_some() {
            &[
                Config::Srp,
                Config::SrpAsWritten,
                Config::Static,
                Config::Mtss,
                Config::Segmented,
            ]
        } else {
            &[Config::SrpAsWritten]
        };
        for &config in configs {
            let w = w.clone();
            let key = format!("{}/{}", w.name, config.name());
            out.push(Point::new(
                key.clone(),
                key,
                move |_, progress: &Progress| {
                    let row = measure(o, &w, config);
                    if let Some(note) = &row.note {
                        progress.note(&format!("cactus: {}/{}: {note}", w.name, config.name()));
                    }
                    row
                },
            ));
        }
    }
    out
}

fn empty(w: &Workload, config: Config, manifest: &str) -> SrpRow {
    SrpRow {
        workload: w.name.to_string(),
        config,
        manifest: manifest.to_string(),
        usable: true,
        passed: false,
        note: None,
        stack_peak: None,
        stack_budget: None,
        static_bound: None,
        cycles: None,
        awake_cycles: None,
        kernel_cycles: None,
        switches: None,
        preemptions: None,
        misses: None,
    }
}

/// Builds and runs one configuration of a workload; never panics: a failure is the row's note.
pub fn measure(o: &SrpOptions, w: &Workload, config: Config) -> SrpRow {
    let path = match (config, &w.srp) {
        (Config::Srp, Some(srp)) => srp.clone(),
        _ => w.preemptive.clone(),
    };
    let mut row = empty(w, config, &path);
    if config != Config::SrpAsWritten {
        row.static_bound = o.bounds.get(&path).copied().flatten();
    }
    let full = o.root.join(&path);
    let manifest = match prepare(&full, config) {
        Ok(m) => m,
        Err(e) => {
            row.usable = config != Config::SrpAsWritten;
            row.note = Some(e);
            return row;
        }
    };
    let options = BuildOptions {
        root: (!o.root.as_os_str().is_empty()).then(|| o.root.clone()),
        out_root: o.build_dir.clone(),
        checks: CheckOptions {
            reserves: o.reserves.clone(),
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = match cactus_firmware::build(&manifest, &options) {
        Ok(b) => b,
        Err(e @ cactus_firmware::BuildError::SrpJob { .. }) => {
            row.usable = false;
            row.note = Some(e.to_string());
            return row;
        }
        Err(e) => {
            row.note = Some(format!("build failed: {e}"));
            return row;
        }
    };
    if let Err(e) = run(&manifest, &built.elf, &mut row) {
        row.note = Some(e);
    }
    row
}

/// The manifest of `config`: the file as it is for SRP and `static`, the preemptive manifest
/// with `kernel.scheduler = "srp"` inserted for `srp-as-written` (whose refusal is the
/// finding), with the stack strategy overridden for `mtss` and `segmented`.
fn prepare(path: &Path, config: Config) -> Result<Manifest, String> {
    if config == Config::SrpAsWritten {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = text.replacen("[kernel]\n", "[kernel]\nscheduler = \"srp\"\n", 1);
        return Manifest::parse(&text, path).map_err(|e| e.to_string());
    }
    let stack = match config {
        Config::Mtss => Some("mtss"),
        Config::Segmented => Some("segmented"),
        Config::Srp | Config::SrpAsWritten | Config::Static => None,
    };
    load_with_stack(path, stack)
}

/// Runs the ELF on cactus-sim (`mcu`, the oracle stopping at its first violation) and fills
/// the row's figures.
fn run(m: &Manifest, elf_path: &Path, row: &mut SrpRow) -> Result<(), String> {
    let (machine, outcome) = run_mcu(elf_path, MAX_CYCLES)?;
    let stats = machine.stats();
    let marker = |id: u32| last_marker(machine.events(), id);
    row.cycles = Some(stats.cycles);
    let awake = stats.cycles.saturating_sub(stats.sleep_cycles);
    row.awake_cycles = Some(awake);
    let task_cycles: u64 = stats.tasks.iter().map(|t| t.cycles).sum();
    row.kernel_cycles = Some(awake.saturating_sub(task_cycles));
    row.misses = Some(
        (0..m.tasks.len() as u32)
            .filter(|&i| m.tasks[i as usize].deadline_ms.is_some())
            .filter_map(|i| marker(MARKER_MISSES + i))
            .sum(),
    );
    let hwm = |id: u32| {
        stats
            .tasks
            .iter()
            .find(|t| t.id == id && t.hwm_samples > 0)
            .map(|t| t.stack_hwm)
    };
    match &m.srp {
        Some(srp) => {
            debug_assert_eq!(SRP_TASK_NAME, "srp");
            row.stack_peak = hwm(0);
            row.stack_budget = Some(srp.stack);
            row.switches = marker(MARKER_SRP).map(u64::from);
            row.preemptions = marker(MARKER_SRP + 1);
        }
        None => {
            let peaks: Option<Vec<u32>> = (0..m.tasks.len() as u32).map(hwm).collect();
            row.stack_peak = peaks.map(|p| p.iter().sum());
            row.stack_budget = Some(
                m.tasks
                    .iter()
                    .map(|t| m.kernel.stack.region_bytes(t.stack, m.kernel.page()))
                    .sum(),
            );
            row.switches = Some(stats.tasks.iter().map(|t| t.switches).sum());
        }
    }
    exited_cleanly(outcome)?;
    row.passed = true;
    Ok(())
}
