//! The two builds of a stress workload, made once per stress run: the reference (`static`,
//! no checks, the manifest's ample budgets) and the tight variant (`mtss`, `checks = "mtss"`,
//! every budget shrunk), with the address of the seed word in each ELF.

use super::StressError;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use object::{Object, ObjectSymbol};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The firmware's seed word: a 4-byte `volatile uint32_t` in initialised data.
pub const SEED_SYMBOL: &str = "stress_seed";

/// One built variant.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The ELF's path (in the firmware cache).
    pub path: PathBuf,
    /// The ELF's bytes.
    pub elf: Vec<u8>,
    /// Address of [`SEED_SYMBOL`].
    pub seed_addr: u32,
}

/// A task's budget in both builds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskBudget {
    /// Task name.
    pub task: String,
    /// Bytes in the reference build (the manifest's).
    pub reference: u32,
    /// Bytes in the `mtss` build.
    pub mtss: u32,
}

/// Both variants of one stress workload.
#[derive(Clone, Debug)]
pub struct StressFirmware {
    /// Firmware name.
    pub workload: String,
    /// `static`, no checks, manifest budgets.
    pub reference: Variant,
    /// The tight build: `mtss` (or the strategy given), shrunk budgets.
    pub mtss: Variant,
    /// The tight build's stack strategy.
    pub stack: String,
    /// The tight build uses the hardware stack bound (`kernel.stack_bound`).
    pub stack_bound: bool,
    /// Every task's budget in both.
    pub budgets: Vec<TaskBudget>,
    /// MTSS page size of the `mtss` build.
    pub page_bytes: u32,
}

/// Builds both variants of the manifest at `path` (cached under `out_root`, or the tree's
/// `build/firmware`): the reference with `stack = "static"` and `checks = "none"`, the tight
/// one with `stack = tight` (`mtss`, or another frame-moving strategy: `segmented`,
/// `mtss+split`, `chunks`), the checks that strategy takes by default (`mtss`; `split` for
/// `segmented` and `mtss+split`) and every budget
/// shrunk by `shrink` percent (rounded down to 16, at least 128;
/// [`cactus_firmware::shrink_budget`]), built for the hardware stack bound when `stack_bound`.
/// Errors name the manifest, the variant or the ELF.
pub fn build_pair(
    path: &Path,
    shrink: u32,
    checks: &CheckOptions,
    out_root: Option<PathBuf>,
    tight: &str,
    stack_bound: bool,
) -> Result<StressFirmware, StressError> {
    let manifest = Manifest::load(path).map_err(|e| StressError::Manifest(e.to_string()))?;
    let variant = |name: &'static str, overrides: Overrides| {
        let mut m = manifest.clone();
        m.apply(&overrides)
            .map_err(|e| StressError::Manifest(format!("{}: {e}", path.display())))?;
        let options = BuildOptions {
            out_root: out_root.clone(),
            checks: checks.clone(),
            ..BuildOptions::default()
        };
        let built = cactus_firmware::build(&m, &options).map_err(|e| StressError::Build {
            variant: name,
            message: e.to_string(),
        })?;
        let elf = std::fs::read(&built.elf).map_err(|e| StressError::Seed {
            path: built.elf.clone(),
            problem: e.to_string(),
        })?;
        let seed_addr = seed_address(&elf).map_err(|problem| StressError::Seed {
            path: built.elf.clone(),
            problem,
        })?;
        let variant = Variant {
            path: built.elf,
            elf,
            seed_addr,
        };
        Ok::<_, StressError>((variant, m))
    };
    let (reference, ref_manifest) = variant(
        "reference",
        Overrides {
            stack: Some("static".into()),
            target: Some("sim".into()),
            checks: Some("none".into()),
            ..Overrides::default()
        },
    )?;
    let (mtss, mtss_manifest) = variant(
        "tight",
        Overrides {
            stack: Some(tight.into()),
            target: Some("sim".into()),
            stack_bound,
            shrink: Some(cactus_firmware::Shrink {
                task: None,
                percent: shrink,
            }),
            ..Overrides::default()
        },
    )?;
    let budgets = ref_manifest
        .tasks
        .iter()
        .zip(&mtss_manifest.tasks)
        .map(|(r, m)| TaskBudget {
            task: r.name.clone(),
            reference: r.stack,
            mtss: m.stack,
        })
        .collect();
    Ok(StressFirmware {
        workload: manifest.name.clone(),
        stack: mtss_manifest.kernel.stack.name().to_string(),
        stack_bound: mtss_manifest.kernel.stack_bound,
        reference,
        mtss,
        budgets,
        page_bytes: mtss_manifest.kernel.page(),
    })
}

/// The address of [`SEED_SYMBOL`] in `elf`: it must be a defined 4-byte data object.
pub fn seed_address(elf: &[u8]) -> Result<u32, String> {
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    let symbol = file
        .symbols()
        .find(|s| s.name() == Ok(SEED_SYMBOL))
        .ok_or_else(|| format!("no symbol `{SEED_SYMBOL}`: not a stress workload"))?;
    if symbol.is_undefined() || symbol.size() != 4 {
        return Err(format!(
            "`{SEED_SYMBOL}` must be a defined 4-byte object (size {})",
            symbol.size()
        ));
    }
    u32::try_from(symbol.address()).map_err(|_| format!("`{SEED_SYMBOL}` is not a 32-bit address"))
}
