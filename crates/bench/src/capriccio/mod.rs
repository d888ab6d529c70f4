//! `cactus bench mtss capriccio`: MTSS against a Capriccio-style linked-chunk scheme (the MTSS
//! paper's section 10, "Comparison with non-contiguous stack allocation", Table IV).
//!
//! Every workload is built and run on cactus-sim (`mcu` profile, ownership oracle stopping the
//! run at its first violation, exit code 0 required) three ways: *unmodified* (`static` stacks,
//! no checks), *MTSS* (`mtss` stacks, `checks = "mtss"` with every rolling rule, so at the
//! manifest budgets nothing overflows) and *Capriccio* (`chunks` stacks: each task starts with
//! one 256-byte chunk from a shared heap and links a chunk for every frame that does not fit;
//! `checks = "mtss"` with rolling disabled, a check in every function), and, to split
//! Capriccio's cost into checks and links, *every-check* (Capriccio's checks on `static`
//! stacks, where nothing overflows). The run-time increase
//! of each scheme is its active cycles (simulated cycles minus cycles asleep in `wfi`) over the
//! unmodified build's; its stack memory is the sum of the tasks' regions for MTSS (its budgets,
//! reserved whole) and the chunk heap's peak bytes in use for Capriccio, read from the kernel
//! (`cactus_stacklet_heap_peak`) after the run.
//!
//! Guarantees: every number comes from a build and a run made by this module; a workload whose
//! build or run fails under any scheme is a row with its reason, left out of the averages.

mod measure;
mod table;

pub use measure::{measure, scheme_options, HEAP_PEAK_SYMBOL};
pub use table::{averages, markdown, summary, Averages, PAPER, PAPER_AVERAGE};

use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::{Meta, Point, Progress, Row, SweepReport};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One way of building a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scheme {
    /// `static` stacks, no checks: the baseline.
    Unmodified,
    /// `mtss` stacks, checks with every rolling rule.
    Mtss,
    /// `chunks` stacks, checks in every function.
    Capriccio,
    /// `static` stacks with the checks of [`Scheme::Capriccio`] (in every function): what its
    /// checks cost without any link (the manifest budgets never overflow).
    EveryCheck,
}

impl Scheme {
    /// The schemes in table order.
    pub const ALL: [Scheme; 4] = [
        Scheme::Unmodified,
        Scheme::Mtss,
        Scheme::Capriccio,
        Scheme::EveryCheck,
    ];

    /// Short name for progress lines.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Unmodified => "unmodified",
            Scheme::Mtss => "mtss",
            Scheme::Capriccio => "capriccio",
            Scheme::EveryCheck => "every-check",
        }
    }
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
    /// Frames moved (OVERFLOW events: MTSS loans or linked chunks).
    pub overflows: u64,
    /// Sum of the pool bytes the tasks' budgets occupy at creation under this build's strategy.
    pub region_bytes: u32,
    /// Peak bytes of the chunk heap in use (Capriccio only).
    pub heap_peak: Option<u32>,
    /// Sum of each task's own peak chunk bytes (Capriccio only; at least `heap_peak`).
    pub task_peaks: Option<u32>,
}

/// One workload's runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadResult {
    /// Workload name (the MTSS suite name, e.g. `automotive`).
    pub workload: String,
    /// Manifest path as given.
    pub manifest: String,
    /// The unmodified run (each run: its measurements, or why it failed).
    pub unmodified: Result<Run, String>,
    /// The MTSS run.
    pub mtss: Result<Run, String>,
    /// The Capriccio run.
    pub capriccio: Result<Run, String>,
    /// Capriccio's checks on `static` stacks (no links).
    pub every_check: Result<Run, String>,
}

impl WorkloadResult {
    /// Run-time increase of MTSS over the unmodified build, in percent.
    pub fn mtss_increase(&self) -> Option<f64> {
        increase(&self.unmodified, &self.mtss)
    }

    /// Run-time increase of Capriccio over the unmodified build, in percent.
    pub fn capriccio_increase(&self) -> Option<f64> {
        increase(&self.unmodified, &self.capriccio)
    }

    /// MTSS stack memory: the sum of the tasks' regions, bytes.
    pub fn mtss_bytes(&self) -> Option<u32> {
        self.mtss.as_ref().ok().map(|r| r.region_bytes)
    }

    /// Run-time increase of Capriccio's checks alone (on `static` stacks), in percent.
    pub fn every_check_increase(&self) -> Option<f64> {
        increase(&self.unmodified, &self.every_check)
    }

    /// Active cycles Capriccio spends per link beyond its checks: (Capriccio - every-check)
    /// / links (a link and its unlink on return).
    pub fn cycles_per_link(&self) -> Option<f64> {
        match (&self.capriccio, &self.every_check) {
            (Ok(c), Ok(e)) if c.overflows > 0 => {
                Some((c.active_cycles as f64 - e.active_cycles as f64) / c.overflows as f64)
            }
            _ => None,
        }
    }

    /// Capriccio stack memory: the chunk heap's peak bytes in use.
    pub fn capriccio_bytes(&self) -> Option<u32> {
        self.capriccio.as_ref().ok().and_then(|r| r.heap_peak)
    }

    /// Every run passed.
    pub fn passed(&self) -> bool {
        self.unmodified.is_ok()
            && self.mtss.is_ok()
            && self.capriccio.is_ok()
            && self.every_check.is_ok()
    }
}

fn increase(base: &Result<Run, String>, run: &Result<Run, String>) -> Option<f64> {
    match (base, run) {
        (Ok(b), Ok(r)) if b.active_cycles > 0 => {
            Some((r.active_cycles as f64 - b.active_cycles as f64) * 100.0 / b.active_cycles as f64)
        }
        _ => None,
    }
}

impl Row for WorkloadResult {
    fn passed(&self) -> bool {
        WorkloadResult::passed(self)
    }
}

/// What the experiment needs.
#[derive(Clone, Debug)]
pub struct CapriccioOptions {
    /// (workload name, manifest path) pairs.
    pub manifests: Vec<(String, PathBuf)>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the build directories (`build/firmware` of the tree when None).
    pub build_dir: Option<PathBuf>,
}

/// The comparison with Capriccio (MTSS Table IV).
pub struct Capriccio;

impl Evaluation for Capriccio {
    const NAME: &'static str = "mtss capriccio";
    const UNIT: &'static str = "workloads";
    type Row = WorkloadResult;

    fn render(rows: &[WorkloadResult], meta: &Meta) -> SweepReport {
        let (passed, failed) = verdicts(rows);
        SweepReport {
            tables: markdown(rows),
            reading: READING.to_string(),
            note: format!(
                " (first chunk {} bytes)",
                meta.params["chunk_bytes"].as_u64().unwrap_or(0)
            ),
            passed,
            failed,
            summary: summary(rows),
        }
    }
}

/// The store's parameters: the first chunk's size of the `chunks` kernel.
pub fn params() -> serde_json::Value {
    serde_json::json!({ "chunk_bytes": cactus_firmware::StackStrategy::CHUNK_BYTES })
}

/// One point per workload: its four builds and runs, each reported as a note when done.
pub fn points(options: &CapriccioOptions) -> Vec<Point<'_, WorkloadResult>> {
    options
        .manifests
        .iter()
        .map(|(name, path)| {
            let key = path.display().to_string();
            Point::new(key, name.clone(), move |_, progress: &Progress| {
                let one = |scheme: Scheme| {
                    let r = measure(path, scheme, &options.reserves, options.build_dir.clone());
                    progress.note(&match &r {
                        Ok(run) => format!(
                            "cactus: {name} {}: {} active cycles, {} moves",
                            scheme.name(),
                            run.active_cycles,
                            run.overflows
                        ),
                        Err(e) => format!("cactus: {name} {}: FAILED: {e}", scheme.name()),
                    });
                    r
                };
                WorkloadResult {
                    workload: name.clone(),
                    manifest: path.display().to_string(),
                    unmodified: one(Scheme::Unmodified),
                    mtss: one(Scheme::Mtss),
                    capriccio: one(Scheme::Capriccio),
                    every_check: one(Scheme::EveryCheck),
                }
            })
        })
        .collect()
}

/// What the table measures and how it differs from the paper.
pub const READING: &str = "How to read this table. Each workload was built four ways and run on \
cactus-sim (`mcu` profile, the ownership oracle stopping the run at its first violation, exit \
code 0 through the workload's own checksum checks required): *unmodified* (`stack = \"static\"`, \
`checks = \"none\"`), *MTSS* (`stack = \"mtss\"`, `checks = \"mtss\"` with every rolling rule; at \
the manifest budgets no frame moves) and *Capriccio* (`stack = \"chunks\"`, \
kernel/stack/chunks.c, a configuration of the `segmented` strategy: each task starts with one \
chunk of the size above from a TLSF heap shared by all tasks, nothing more is reserved, and \
every entry check that fails links a chunk of max(chunk, frame + stack arguments + 12 bytes of \
metadata) bytes to which the frame moves, freed when it returns; `checks = \"mtss\"` with rolling disabled, i.e. a check in every function). \
A fourth build, *every-check*, runs Capriccio's checks on `static` stacks (nothing overflows \
there): its run time is what Capriccio's checks cost, the rest of Capriccio's is its links. \
*Run time* is the increase of active cycles (simulated cycles minus cycles asleep in `wfi`) over \
the unmodified build. *MTSS memory* is the sum of the tasks' stack regions (their budgets, \
reserved whole: the measured high water x 1.1 plus guard and check margin); *Capriccio memory* \
is the peak bytes of the chunk heap in use, read from the kernel after the run \
(`cactus_stacklet_heap_peak`). Both include the harness tasks (`feeder`, `coordinator`). KB = 1024 \
bytes. Differences from the paper: its Capriccio figures charge the costs von Behren et al. \
report (6 instructions per check, 20 per unconditional and 27 per conditional link) on ARM; \
ours are measured: our checks, traps and kernel linking code as executed. Its Capriccio memory \
includes one 2 MB chunk for uninstrumented library functions (about 2048 of each row's KB); \
ours links no such chunk: library and kernel code are compiled with checks or, for the \
uninstrumented toolchain libraries (libgcc, picolibc), their callers' checks include the \
reserve that the machine-code analysis computes for them. The paper's programs are MiBench and \
friends on ARM; ours are our implementations (docs/results/workloads.md).";

#[cfg(test)]
mod tests;
