//! `cactus bench`: benchmarks. `sim-speed` measures cactus-sim against QEMU in the same run.

use anyhow::{Context, Result};
use cactus_lab::sim_speed::{run_sim_speed, SpeedOptions};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Options of `cactus bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Which benchmark.
    #[command(subcommand)]
    pub bench: Bench,
}

/// The benchmarks.
#[derive(Subcommand, Debug)]
pub enum Bench {
    /// cactus-sim's MIPS against QEMU's on build/bench/sim-speed/ (target: ratio >= 0.2).
    SimSpeed(SimSpeedArgs),
}

/// Options of `cactus bench sim-speed`.
#[derive(Args, Debug)]
pub struct SimSpeedArgs {
    /// Use the quick `NAME-small.elf` variants.
    #[arg(long)]
    pub small: bool,
    /// Directory holding the benchmark ELFs.
    #[arg(long, value_name = "DIR", default_value = "build/bench/sim-speed")]
    pub dir: PathBuf,
    /// Runs per machine and program (the fastest counts).
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub repeats: usize,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as a Markdown table to FILE (docs/results/simulator.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// Runs `cactus bench`. Exit code 0 if every program meets the target, 1 otherwise.
pub fn main(args: BenchArgs) -> Result<ExitCode> {
    match args.bench {
        Bench::SimSpeed(a) => sim_speed(a),
    }
}

fn sim_speed(args: SimSpeedArgs) -> Result<ExitCode> {
    let options = SpeedOptions {
        dir: args.dir.clone(),
        small: args.small,
        repeats: args.repeats,
        timeout: Duration::from_secs(300),
    };
    let report = run_sim_speed(&options, &|what| eprintln!("measuring {what}..."))?;
    println!("{}", report.table());
    let command = std::iter::once("cactus".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(path) = &args.json {
        let text = report.json().context("serialising the report")?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        std::fs::write(path, report.markdown(&command))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let all_pass = report.rows.iter().all(|r| r.pass);
    Ok(if all_pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
