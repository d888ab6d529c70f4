//! Building one manifest under one [`Variant`] and measuring it on cactus-sim.

use super::Variant;
use crate::elf_facts::first_line;
use cactus_cc::Reserves;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use cactus_sim::{MachineConfig, Profile, RunOutcome};
use object::{Object, ObjectSection, SectionKind};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Cycle limit of one run (the full MTSS workloads take well under 10^9 cycles).
const MAX_CYCLES: u64 = 20_000_000_000;

/// What one build and run of a variant gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Exit code through the finisher (0: the workload's self-checks passed).
    pub exit_code: u32,
    /// Everything the firmware printed.
    pub uart: String,
    /// Instructions retired.
    pub instructions: u64,
    /// Simulated cycles minus cycles asleep in `wfi`.
    pub active_cycles: u64,
    /// Energy of the whole run in nJ.
    pub energy_nj: f64,
    /// Bytes of executable sections in the ELF.
    pub code_bytes: u64,
    /// Bytes of the `cactus_checks` table.
    pub table_bytes: u64,
    /// Functions that keep an entry check (from the pass report).
    pub checked_functions: u32,
    /// Functions the pass saw.
    pub functions: u32,
    /// Check sites inserted (entry and dynamic-allocation checks).
    pub sites: u32,
}

/// Builds `manifest` under `variant` (cache under `build_dir`) and runs it on the `mcu`
/// profile. Any failure (build, load, fault, non-zero exit) is an `Err` with its reason.
pub fn measure_variant(
    manifest: &Path,
    variant: &Variant,
    reserves: &Reserves,
    build_dir: Option<PathBuf>,
) -> Result<Measurement, String> {
    let mut m = Manifest::load(manifest).map_err(|e| e.to_string())?;
    m.apply(&Overrides {
        stack: None,
        target: None,
        checks: Some(variant.mode.name().to_string()),
        stack_bound: variant.hardware_bound,
        ..Default::default()
    })
    .map_err(|e| e.to_string())?;
    let defaults = CheckOptions::default();
    let options = BuildOptions {
        out_root: build_dir,
        checks: CheckOptions {
            reserves: reserves.clone(),
            rolling: variant.rolling,
            k_app: variant.k,
            k_lib: variant.k.unwrap_or(defaults.k_lib),
            blind_margin: defaults.blind_margin,
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options).map_err(|e| e.to_string())?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let (code_bytes, table_bytes) = section_sizes(&elf)?;
    let (checked_functions, functions, sites) = report_counts(&built.dir)?;
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(MAX_CYCLES);
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&elf, &built.elf.display().to_string(), config)?;
    let stats = machine.stats();
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    let exit_code = match outcome {
        RunOutcome::Exited { code } => code,
        other => return Err(format!("{}: {}", m.name, first_line(&format!("{other:?}")))),
    };
    Ok(Measurement {
        exit_code,
        uart,
        instructions: stats.instructions,
        active_cycles: stats.cycles - stats.sleep_cycles,
        energy_nj: stats.energy_nj,
        code_bytes,
        table_bytes,
        checked_functions,
        functions,
        sites,
    })
}

/// (executable bytes, `cactus_checks` bytes) of an ELF.
fn section_sizes(elf: &[u8]) -> Result<(u64, u64), String> {
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    let mut code = 0;
    let mut table = 0;
    for s in file.sections() {
        // The object crate classifies SHF_EXECINSTR sections as text.
        if s.name() == Ok("cactus_checks") {
            table += s.size();
        } else if s.kind() == SectionKind::Text {
            code += s.size();
        }
    }
    Ok((code, table))
}

/// (functions with an entry check, functions, sites) from the build's pass report.
fn report_counts(dir: &Path) -> Result<(u32, u32, u32), String> {
    let path = dir.join(cactus_firmware::cc_build::REPORT_NAME);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let report: cactus_cc::Report =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let checked = report.functions.iter().filter(|f| f.checked).count() as u32;
    let sites = report.functions.iter().map(|f| f.sites).sum();
    Ok((checked, report.functions.len() as u32, sites))
}
