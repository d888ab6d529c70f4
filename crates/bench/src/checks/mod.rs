//! `cactus bench checks`: what the stack checks of `cactus cc` cost (MTSS Table II, Figures 7
//! and 8). Every workload manifest is built once per [`Variant`] (no checks; checks with no
//! rolling; each rolling rule alone; every rule; every rule at several K) and run on
//! cactus-sim; each variant's UART output must equal the unchecked build's, or the row says
//! so.
//!
//! Guarantees: run time is the *active* cycles (simulated cycles minus cycles asleep in
//! `wfi`: a periodic workload sleeps most of the time and the checks do not lengthen its
//! sleep); code size is the bytes of the ELF's executable sections (application, kernel and
//! libgcc: everything the firmware carries); the check table (`cactus_checks`, read only by
//! the overflow path) is counted apart; energy is the simulator's model over the whole run.
//! Every number comes from a build and a run made by this module; nothing is estimated.

mod measure;
mod table;

pub use measure::{measure_variant, Measurement};
pub use table::{markdown, overhead_percent};

use cactus_cc::{CheckMode, RollingRules};
use serde::Serialize;

/// One way of building the firmware.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// Short name used in tables and JSON (`base`, `unopt`, `zero`, `certainty`, `limited`,
    /// `opt`, `opt-k<K>`).
    pub name: String,
    /// Check mode (`none` only for `base`).
    pub mode: CheckMode,
    /// Rolling rules in force.
    pub rolling: RollingRules,
    /// K (bytes) for application and library code; None: the defaults (10 % of the smallest
    /// task stack for application code, 128 bytes for the kernel).
    pub k: Option<u32>,
}

impl Variant {
    fn new(name: &str, mode: CheckMode, rolling: RollingRules, k: Option<u32>) -> Variant {
        Variant {
            name: name.to_string(),
            mode,
            rolling,
            k,
        }
    }
}

/// The variants of Table II and Figure 7, then one `opt-k<K>` per K of the sweep (Figure 8).
pub fn variants(k_sweep: &[u32]) -> Vec<Variant> {
    let only = |certainty, zero_size, limited_size| RollingRules {
        certainty,
        zero_size,
        limited_size,
    };
    let d = CheckMode::Detect;
    let mut v = vec![
        Variant::new("base", CheckMode::None, RollingRules::NONE, None),
        Variant::new("unopt", d, RollingRules::NONE, None),
        Variant::new("zero", d, only(false, true, false), None),
        Variant::new("certainty", d, only(true, false, false), None),
        Variant::new("limited", d, only(false, false, true), None),
        Variant::new("opt", d, RollingRules::ALL, None),
    ];
    for &k in k_sweep {
        v.push(Variant::new(
            &format!("opt-k{k}"),
            d,
            RollingRules::ALL,
            Some(k),
        ));
    }
    v
}

/// One workload's measurements, variant by variant (same order as [`variants`]).
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadResult {
    /// Firmware name.
    pub firmware: String,
    /// Manifest path as given.
    pub manifest: String,
    /// One measurement per variant.
    pub runs: Vec<(Variant, Result<Measurement, String>)>,
}

/// Builds and runs every (manifest, variant) pair on a pool of `workers` threads; `progress`
/// is called after each pair (from any thread). Results are in the order of `manifests`,
/// each with its runs in the order of `variants`.
pub fn run_all(
    manifests: &[std::path::PathBuf],
    variants: &[Variant],
    reserves: &cactus_cc::Reserves,
    build_dir: Option<std::path::PathBuf>,
    workers: usize,
    progress: &(dyn Fn(&str, &Variant) + Sync),
) -> Result<Vec<WorkloadResult>, rayon::ThreadPoolBuildError> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .build()?;
    let jobs: Vec<(usize, usize)> = (0..manifests.len())
        .flat_map(|m| (0..variants.len()).map(move |v| (m, v)))
        .collect();
    let done: Vec<((usize, usize), Result<Measurement, String>)> = pool.install(|| {
        jobs.par_iter()
            .map(|&(m, v)| {
                let r = measure_variant(&manifests[m], &variants[v], reserves, build_dir.clone());
                progress(&manifests[m].display().to_string(), &variants[v]);
                ((m, v), r)
            })
            .collect()
    });
    let mut results: Vec<WorkloadResult> = manifests
        .iter()
        .map(|m| WorkloadResult {
            firmware: firmware_name(m),
            manifest: m.display().to_string(),
            runs: Vec::new(),
        })
        .collect();
    for ((m, v), r) in done {
        results[m].runs.push((variants[v].clone(), r));
    }
    Ok(results)
}

/// The firmware name of a manifest (its `firmware.name`), or the file stem if it cannot be
/// read (the run's error then says why).
fn firmware_name(path: &std::path::Path) -> String {
    cactus_firmware::Manifest::load(path)
        .map(|m| m.name)
        .unwrap_or_else(|_| {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
}

/// (passed, failed) over every (workload, variant) pair: a pair passes when its build ran,
/// exited with 0 and printed exactly what the workload's `base` build printed.
pub fn verdicts(results: &[WorkloadResult]) -> (usize, usize) {
    let mut passed = 0;
    let mut failed = 0;
    for w in results {
        let base = w
            .runs
            .iter()
            .find(|(v, _)| v.name == "base")
            .and_then(|(_, r)| r.as_ref().ok());
        for (_, r) in &w.runs {
            match (r, base) {
                (Ok(m), Some(b)) if m.exit_code == 0 && m.uart == b.uart => passed += 1,
                _ => failed += 1,
            }
        }
    }
    (passed, failed)
}
