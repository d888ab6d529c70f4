//! `cactus difftest`: run ELFs on cactus-sim and on QEMU and compare UART output and exit
//! code; or, with `--random N`, generate N random RV32IMAC programs and compare those.
//!
//! Exit codes: 0 all agreed, 1 at least one mismatch, 2 bad input (unreadable or invalid
//! ELF, QEMU or the RISC-V toolchain missing).

use anyhow::{bail, Result};
use cactus_verify::difftest::{difftest_elf, DiffOptions};
use cactus_verify::random_difftest::{run_random, CaseOutcome, RandomOptions};
use cactus_verify::randprog::GenConfig;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `cactus difftest`.
#[derive(Args, Debug)]
pub struct DifftestArgs {
    /// ELF files to compare (each runs on cactus-sim and on QEMU).
    #[arg(
        value_name = "ELF",
        required_unless_present = "random",
        conflicts_with = "random"
    )]
    pub elfs: Vec<PathBuf>,
    /// Instead of ELFs: generate and compare N random programs (seeds SEED, SEED+1, ...).
    #[arg(long, value_name = "N")]
    pub random: Option<u64>,
    /// Seed of the first random program.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "random")]
    pub seed: u64,
    /// Where to keep mismatching random programs (one `seed-N/` directory each).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "build/difftest-failures",
        requires = "random"
    )]
    pub keep: PathBuf,
    /// Items in each random program's body.
    #[arg(long, value_name = "N", default_value_t = 120, requires = "random")]
    pub items: usize,
    /// Parallel workers for `--random`.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Wall-clock limit for each QEMU run, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub timeout: f64,
    /// Simulated-cycle limit for each cactus-sim run.
    #[arg(long, value_name = "N", default_value_t = 2_000_000_000)]
    pub max_cycles: u64,
    /// UART input for every ELF compared: cactus-sim receives the bytes of FILE at its default
    /// input rate (`cactus run --uart-in`), QEMU reads FILE as the serial port's standard input.
    /// Without it, an ELF NAME.elf with a file NAME.in beside it receives that file. Only
    /// programs whose output does not depend on when bytes arrive compare equal.
    #[arg(long, value_name = "FILE", conflicts_with = "random")]
    pub uart_in: Option<PathBuf>,
}

/// Runs `cactus difftest`.
pub fn main(args: DifftestArgs) -> Result<ExitCode> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!(
            "--timeout must be a positive number of seconds, not {}",
            args.timeout
        );
    }
    let diff = DiffOptions {
        timeout: Duration::from_secs_f64(args.timeout),
        max_cycles: args.max_cycles,
        uart_input: args.uart_in.clone(),
    };
    let (passed, failed) = match args.random {
        Some(count) => random(&args, count, diff)?,
        None => files(&args, &diff)?,
    };
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Compares each ELF; a file that cannot be compared at all is bad input.
fn files(args: &DifftestArgs, diff: &DiffOptions) -> Result<(u64, u64)> {
    let (mut passed, mut failed) = (0, 0);
    for elf in &args.elfs {
        let report = difftest_elf(elf, diff)?;
        if report.passed() {
            passed += 1;
            println!("ok    {}", elf.display());
        } else {
            failed += 1;
            println!("FAIL  {}", report.describe().trim_end());
        }
    }
    Ok((passed, failed))
}

fn random(args: &DifftestArgs, count: u64, diff: DiffOptions) -> Result<(u64, u64)> {
    let options = RandomOptions {
        count,
        seed: args.seed,
        keep: args.keep.clone(),
        gen: GenConfig {
            items: args.items,
            ..GenConfig::default()
        },
        diff,
        jobs: args.jobs,
    };
    let bar = cactus_sweep::Progress::bar(count, "")?;
    let report_case = |case: &CaseOutcome| {
        if let Some(text) = &case.failure {
            bar.suspend(|| println!("FAIL  {}", text.trim_end()));
        }
        bar.step();
    };
    let outcomes = run_random(&options, &report_case)?;
    bar.finish();
    let failed = outcomes.iter().filter(|c| c.failure.is_some()).count() as u64;
    Ok((count - failed, failed))
}
