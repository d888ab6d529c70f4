//! Building one workload under one [`Scheme`] and measuring it on cactus-sim.

use super::{Run, Scheme};
use crate::elf_facts::{first_line, read_global, symbol_address};
use cactus_cc::{Reserves, RollingRules};
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use cactus_sim::{MachineConfig, OracleMode, Profile, RunOutcome};
use std::path::{Path, PathBuf};

/// Cycle limit of one run (the full MTSS workloads take well under 10^9 cycles unchecked; the
/// linked-chunk scheme may take several times as long).
const MAX_CYCLES: u64 = 20_000_000_000;

/// The kernel symbol of `kernel/stack/segmented.c` (and its `chunks` configuration) holding
/// the heap's peak bytes in use.
pub const HEAP_PEAK_SYMBOL: &str = "cactus_stacklet_heap_peak";

/// The manifest options of `scheme`: (stack strategy, check mode, rolling rules).
pub fn scheme_options(scheme: Scheme) -> (&'static str, &'static str, RollingRules) {
    match scheme {
        Scheme::Unmodified => ("static", "none", RollingRules::ALL),
        Scheme::Mtss => ("mtss", "mtss", RollingRules::ALL),
        Scheme::Capriccio => ("chunks", "mtss", RollingRules::NONE),
        Scheme::EveryCheck => ("static", "mtss", RollingRules::NONE),
    }
}

/// Builds the manifest at `path` under `scheme` (build cache under `build_dir`) and runs it on
/// the `mcu` profile with the ownership oracle stopping the run at its first violation. Any
/// failure (build, load, fault, violation, cycle limit, non-zero exit) is an `Err` naming it.
pub fn measure(
    path: &Path,
    scheme: Scheme,
    reserves: &Reserves,
    build_dir: Option<PathBuf>,
) -> Result<Run, String> {
    let mut m = Manifest::load(path).map_err(|e| e.to_string())?;
    let (stack, checks, rolling) = scheme_options(scheme);
    m.apply(&Overrides {
        stack: Some(stack.into()),
        target: Some("sim".into()),
        checks: Some(checks.into()),
        ..Overrides::default()
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let options = BuildOptions {
        out_root: build_dir,
        checks: CheckOptions {
            reserves: reserves.clone(),
            rolling,
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options).map_err(|e| first_line(&e.to_string()))?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let peak_at = match scheme {
        Scheme::Capriccio => Some(symbol_address(&elf, HEAP_PEAK_SYMBOL, "chunks")?),
        _ => None,
    };
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    let mut config = MachineConfig::new(profile);
    config.oracle = OracleMode::Stop;
    config.max_cycles = Some(MAX_CYCLES);
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&elf, &built.elf.display().to_string(), config)?;
    let stats = machine.stats();
    match outcome {
        RunOutcome::Exited { code: 0 } if stats.oracle_violations == 0 => {}
        RunOutcome::Exited { code: 0 } => {
            return Err(format!("{} oracle violation(s)", stats.oracle_violations))
        }
        RunOutcome::Exited { code } => {
            let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
            return Err(match uart.lines().find(|l| l.contains("overflow caught")) {
                Some(line) => format!("exit code {code}: {}", first_line(line)),
                None => format!("exit code {code}"),
            });
        }
        other => return Err(first_line(&format!("{other:?}"))),
    }
    let heap_peak = peak_at
        .map(|addr| read_global(&machine, addr, HEAP_PEAK_SYMBOL))
        .transpose()?;
    let page = m.kernel.page();
    Ok(Run {
        cycles: stats.cycles,
        active_cycles: stats.cycles - stats.sleep_cycles,
        instructions: stats.instructions,
        overflows: stats.tasks.iter().map(|t| t.overflows).sum(),
        region_bytes: m
            .tasks
            .iter()
            .map(|t| m.kernel.stack.region_bytes(t.stack, page))
            .sum(),
        heap_peak,
        task_peaks: match scheme {
            Scheme::Capriccio => Some(stats.tasks.iter().map(|t| t.stack_hwm).sum()),
            _ => None,
        },
    })
}
