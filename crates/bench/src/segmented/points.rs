//! The points of `cactus bench segmented` at each size, and how each is built.

use super::measure::{measure, Build};
use super::{Config, Experiment, PointResult};
use crate::Size;
use cactus_cc::RollingRules;
use cactus_sweep::{Point, Progress};
use std::path::{Path, PathBuf};

/// The CoreMark-like worker whose first stacklet the configurations change.
pub const WORKER: &str = "coremark0";
/// The worker's first stacklet in the naive configuration, bytes.
pub const NAIVE_FIRST: u32 = 64;
/// The worker's first stacklet in the optimized configuration, bytes (the hot-split sweep
/// shows the others).
pub const OPTIMIZED_FIRST: u32 = 256;
/// The smallest linked stacklet of every segmented configuration but check-only, bytes.
pub const STACKLET_MIN: u32 = 64;

/// What the size class means here: the workloads' inputs (`-small` manifests: 4 CoreMark-like
/// iterations; full: 400) and how many points the hot-split sweep takes.
impl Size {
    /// First-stacklet sizes of the worker in the hot-split sweep, bytes.
    pub fn hot_split_firsts(self) -> &'static [u32] {
        match self {
            Size::Small => &[64, 256, 1024],
            Size::Full => &[64, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024, 2048],
        }
    }

    /// (cache, learn) pairs of the hot-split sweep.
    pub fn hot_split_alleviations(self) -> &'static [(bool, bool)] {
        match self {
            Size::Small => &[(false, false), (true, true)],
            Size::Full => &[(false, false), (true, false), (false, true), (true, true)],
        }
    }

    /// First stacklets of the Crazyflie-like core tasks, bytes.
    pub fn crazyflie_firsts(self) -> &'static [u32] {
        match self {
            Size::Small => &[64],
            Size::Full => &[64, 128, 256],
        }
    }
}

/// What the experiment needs.
#[derive(Clone, Debug)]
pub struct SegmentedOptions {
    /// The Cactus tree (holds workloads/ and bench/segmented/), or "" for the current
    /// directory.
    pub root: PathBuf,
    /// Size class.
    pub size: Size,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the build directories (`build/firmware` of the tree when None).
    pub build_dir: Option<PathBuf>,
}

impl SegmentedOptions {
    /// The CoreMark-like single-task manifest at this size.
    pub fn coremark(&self) -> PathBuf {
        self.root.join(format!(
            "workloads/coremark-like/coremark-single{}.toml",
            self.size.manifest_suffix()
        ))
    }

    /// The Crazyflie-like manifest (budgets from the measured high water) at this size.
    pub fn crazyflie(&self) -> PathBuf {
        self.root.join(format!(
            "workloads/crazyflie-like/crazyflie{}.toml",
            self.size.manifest_suffix()
        ))
    }

    /// The Crazyflie-like manifest with the FreeRTOS-allocated stacks at this size.
    pub fn crazyflie_allocated(&self) -> PathBuf {
        self.root.join(format!(
            "workloads/crazyflie-like/crazyflie-allocated{}.toml",
            self.size.manifest_suffix()
        ))
    }

    /// The per-stacklet overhead scenario.
    pub fn overhead(&self) -> PathBuf {
        self.root.join("bench/segmented/overhead.toml")
    }
}

/// The store's parameters: the size class and the configurations' constants.
pub fn params(size: Size, hybrid: Option<serde_json::Value>) -> serde_json::Value {
    let mut p = serde_json::json!({
        "size": size.name(),
        "naive_first": NAIVE_FIRST,
        "optimized_first": OPTIMIZED_FIRST,
        "stacklet_min": STACKLET_MIN,
    });
    if let Some(h) = hybrid {
        p["hybrid"] = h;
    }
    p
}

/// Every experiment at `size`, in report order.
pub fn experiments(size: Size) -> Vec<Experiment> {
    let mut out: Vec<Experiment> = Config::ALL
        .iter()
        .map(|&config| Experiment::Coremark { config })
        .collect();
    for &first in size.hot_split_firsts() {
        for &(cache, learn) in size.hot_split_alleviations() {
            out.push(Experiment::HotSplit {
                first,
                cache,
                learn,
            });
        }
    }
    out.push(Experiment::Crazyflie {
        first: None,
        learn: false,
    });
    for &f in size.crazyflie_firsts() {
        for learn in [false, true] {
            out.push(Experiment::Crazyflie {
                first: Some(f),
                learn,
            });
        }
    }
    out.push(Experiment::Overhead);
    out
}

/// How `e` is built.
pub fn build_of(o: &SegmentedOptions, e: &Experiment) -> Build {
    let worker = |first: u32| vec![(WORKER.to_string(), first)];
    match *e {
        Experiment::Coremark { config } => {
            let path = o.coremark();
            match config {
                Config::Contiguous => Build::contiguous(&path),
                Config::CheckOnly => Build::segmented(&path),
                Config::Naive => Build {
                    rolling: RollingRules::NONE,
                    first: worker(NAIVE_FIRST),
                    stacklet_min: Some(STACKLET_MIN),
                    cache: Some(false),
                    learn: Some(false),
                    ..Build::segmented(&path)
                },
                Config::Optimized => optimized(&path),
                Config::CheckOnlyBound => Build {
                    stack_bound: true,
                    ..Build::segmented(&path)
                },
                Config::HardwareBound => Build {
                    stack_bound: true,
                    ..optimized(&path)
                },
            }
        }
        Experiment::HotSplit {
            first,
            cache,
            learn,
        } => Build {
            first: worker(first),
            stacklet_min: Some(STACKLET_MIN),
            cache: Some(cache),
            learn: Some(learn),
            ..Build::segmented(&o.coremark())
        },
        Experiment::Crazyflie { first: None, .. } => Build::contiguous(&o.crazyflie()),
        Experiment::Crazyflie {
            first: Some(f),
            learn,
        } => Build {
            first: super::CORE_TASKS
                .iter()
                .map(|t| (t.to_string(), f))
                .collect(),
            stacklet_min: Some(STACKLET_MIN),
            cache: Some(false),
            learn: Some(learn),
            core_live: true,
            ..Build::segmented(&o.crazyflie())
        },
        Experiment::Overhead => Build {
            rolling: RollingRules::NONE,
            stacklet_min: Some(STACKLET_MIN),
            cache: Some(false),
            learn: Some(false),
            programs: false,
            overhead: true,
            ..Build::segmented(&o.overhead())
        },
    }
}

/// The optimized configuration of CoreMark-like manifest `path`.
fn optimized(path: &Path) -> Build {
    Build {
        first: vec![(WORKER.to_string(), OPTIMIZED_FIRST)],
        stacklet_min: Some(STACKLET_MIN),
        cache: Some(true),
        learn: Some(true),
        ..Build::segmented(path)
    }
}

/// The summed budgets of the Crazyflie core tasks in `manifest`, bytes.
pub fn core_budgets(manifest: &Path) -> Result<u32, String> {
    let m = cactus_firmware::Manifest::load(manifest).map_err(|e| e.to_string())?;
    Ok(m.tasks
        .iter()
        .filter(|t| super::CORE_TASKS.contains(&t.name.as_str()))
        .map(|t| t.stack)
        .sum())
}

/// One point per experiment: its build and run, reported as a note when done.
pub fn points(o: &SegmentedOptions) -> Vec<Point<'_, PointResult>> {
    experiments(o.size)
        .into_iter()
        .map(|e| {
            let name = e.name();
            Point::new(name.clone(), name.clone(), move |_, progress: &Progress| {
                let b = build_of(o, &e);
                let run = measure(&b, &o.reserves, o.build_dir.clone());
                progress.note(&match &run {
                    Ok(r) => format!(
                        "cactus: {name}: {} active cycles, {} links",
                        r.active_cycles, r.links
                    ),
                    Err(err) => format!("cactus: {name}: FAILED: {err}"),
                });
                PointResult {
                    experiment: e,
                    manifest: b.manifest.display().to_string(),
                    allocated_core_bytes: matches!(e, Experiment::Crazyflie { .. })
                        .then(|| core_budgets(&o.crazyflie_allocated())),
                    run,
                }
            })
        })
        .collect()
}
