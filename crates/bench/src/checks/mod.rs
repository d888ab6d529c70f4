//! `cactus bench checks`: what the stack checks of `cactus cc` cost (MTSS Table II, Figures 7
//! and 8). Every workload manifest is built once per [`Variant`] (no checks; checks with no
//! rolling; each rolling rule alone; every rule; every rule on the simulator's hardware stack
//! bound; every rule at several K) and run on
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
use cactus_sweep::evaluation::Evaluation;
use cactus_sweep::{Meta, Point, Progress, Row, Summary, SweepReport};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One way of building the firmware.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variant {
    /// Short name used in tables and JSON (`base`, `unopt`, `zero`, `certainty`, `limited`,
    /// `opt`, `bound`, `opt-k<K>`).
    pub name: String,
    /// Check mode (`none` only for `base`).
    pub mode: CheckMode,
    /// Rolling rules in force.
    pub rolling: RollingRules,
    /// K (bytes) for application and library code; None: the defaults (10 % of the smallest
    /// task stack for application code, 128 bytes for the kernel).
    pub k: Option<u32>,
    /// Built for the hardware stack bound (`kernel.stack_bound`): the checks the bound makes
    /// have no instruction.
    #[serde(default)]
    pub hardware_bound: bool,
}

impl Variant {
    fn new(name: &str, mode: CheckMode, rolling: RollingRules, k: Option<u32>) -> Variant {
        Variant {
            name: name.to_string(),
            mode,
            rolling,
            k,
            hardware_bound: false,
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
        Variant {
            hardware_bound: true,
            ..Variant::new("bound", d, RollingRules::ALL, None)
        },
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

/// One workload's measurements, variant by variant (same order as [`variants`]): the rows of
/// one manifest, grouped for the tables.
#[derive(Clone, Debug, Serialize)]
pub struct WorkloadResult {
    /// Firmware name.
    pub firmware: String,
    /// Manifest path as given.
    pub manifest: String,
    /// One measurement per variant.
    pub runs: Vec<(Variant, Result<Measurement, String>)>,
}

/// One build and run: a manifest under a variant (a row of the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckRun {
    /// Firmware name.
    pub firmware: String,
    /// Manifest path as given.
    pub manifest: String,
    /// How it was built.
    pub variant: Variant,
    /// What it measured, or why it failed.
    pub result: Result<Measurement, String>,
}

impl Row for CheckRun {
    /// A run passes when it ran and exited with 0 (its output is compared with the `base`
    /// build's in the tables and the verdicts).
    fn passed(&self) -> bool {
        matches!(&self.result, Ok(m) if m.exit_code == 0)
    }
}

/// The rows grouped by manifest, in first-seen order.
pub fn by_workload(rows: &[CheckRun]) -> Vec<WorkloadResult> {
    let mut out: Vec<WorkloadResult> = Vec::new();
    for r in rows {
        let at = match out.iter().position(|w| w.manifest == r.manifest) {
            Some(i) => i,
            None => {
                out.push(WorkloadResult {
                    firmware: r.firmware.clone(),
                    manifest: r.manifest.clone(),
                    runs: Vec::new(),
                });
                out.len() - 1
            }
        };
        out[at].runs.push((r.variant.clone(), r.result.clone()));
    }
    out
}

/// What the experiment needs.
#[derive(Clone, Debug)]
pub struct ChecksOptions {
    /// Workload manifests.
    pub manifests: Vec<PathBuf>,
    /// The variants (`base` first).
    pub variants: Vec<Variant>,
    /// K values of the Figure 8 sweep, bytes.
    pub k_sweep: Vec<u32>,
    /// Library stack reserves for the check pass.
    pub reserves: cactus_cc::Reserves,
    /// Parent of the build directories.
    pub build_dir: Option<PathBuf>,
}

/// The store's parameters: the K sweep.
pub fn params(k_sweep: &[u32]) -> serde_json::Value {
    serde_json::json!({ "k_sweep": k_sweep })
}

/// One point per (manifest, variant) pair, manifests outer.
pub fn points(o: &ChecksOptions) -> Vec<Point<'_, CheckRun>> {
    let mut points = Vec::new();
    for m in &o.manifests {
        let firmware = firmware_name(m);
        for v in &o.variants {
            let key = format!("{}/{}", m.display(), v.name);
            let label = format!("{firmware} {}", v.name);
            let firmware = firmware.clone();
            points.push(Point::new(key, label, move |_, _: &Progress| CheckRun {
                firmware: firmware.clone(),
                manifest: m.display().to_string(),
                variant: v.clone(),
                result: measure_variant(m, v, &o.reserves, o.build_dir.clone()),
            }));
        }
    }
    points
}

/// The cost of the checks (MTSS Table II, Figures 7 and 8).
pub struct Checks;

impl Evaluation for Checks {
    const NAME: &'static str = "checks";
    const UNIT: &'static str = "builds";
    type Row = CheckRun;

    fn render(rows: &[CheckRun], meta: &Meta) -> SweepReport {
        let k_sweep: Vec<u32> =
            serde_json::from_value(meta.params["k_sweep"].clone()).unwrap_or_default();
        let results = by_workload(rows);
        let (passed, failed) = verdicts(&results);
        let (unopt, opt) = table::average_runtime(&results);
        let bound = table::average_runtime_of(&results, "bound");
        let mut summary = Summary::new("checks");
        summary
            .num("runtime_unopt", unopt, 2)
            .num("runtime_opt", opt, 2)
            .num("runtime_bound", bound, 2);
        SweepReport {
            tables: markdown(&results, &k_sweep),
            reading: READING.to_string(),
            note: " (simulated on the `mcu` profile; run time = active cycles, sleep in `wfi` \
                   excluded; code = executable bytes of the whole firmware)"
                .to_string(),
            passed,
            failed,
            summary,
        }
    }
}

/// What the tables measure and how our setup differs from the paper's (no figures: those are
/// in the tables the command writes below it).
pub const READING: &str = "How to read these tables. *unopt* keeps a check in every function \
that uses stack; *opt* applies every rolling rule (zero-size, certainty, limited-size with the \
default K: 10 % of the smallest task stack for application code, 128 bytes for the kernel); \
Figure 7 applies one rule at a time. A kept check is two instructions after the prologue's \
first `sp` decrement (`lw` of the limit at `tp - 4`, a `bltu` not taken in the common case: 3 \
cycles on the `mcu` profile) and a 4-byte `ecall` out of line; its 16-byte table entry is \
counted apart (last table). Unlike the paper (ARM7 under uClinux, checks against per-task \
arrays), the kernel itself is instrumented too and counts in both run time and code size, \
and the programs are our own implementations compiled by GCC 12 at -O2, which inlines most \
small functions: how often checks run per instruction depends on that, so run-time overheads \
are not expected to match the paper's. *bound* is *opt* built for cactus-sim's hardware stack \
bound (`kernel.stack_bound = true`, docs/segmented.md \"The hardware stack bound\"): the kernel \
keeps the `mstackbound` CSR at the running stack's limit (two more instructions on each kernel \
entry and exit), and an entry check whose need is the function's first `sp` decrement has no \
instruction (the hardware refuses the decrement); a function rolled into its callers gets its \
table entry back, and checks the bound cannot make (frames allocated in two steps, calls into \
uninstrumented code, dynamic allocations) keep their instructions. Every \
variant's output equals the unchecked build's, \
or the run is listed under Failures.";

/// The firmware name of a manifest (its `firmware.name`), or the file stem if it cannot be
/// read (the run's error then says why).
pub fn firmware_name(path: &std::path::Path) -> String {
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
