//! `cactus bench mtss`: experiments on the `mtss` stack strategy. `mso` measures the MTSS
//! paper's Maximum Satisfiable Overflow (section 10, Figure 9) on the six MTSS workloads.

use crate::cmd::bench_mtss_sweeps::{self as sweeps_cli, SweepArgs};
use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Result};
use cactus_bench::mtss::MsoOptions;
use clap::{Args, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `cactus bench mtss`.
#[derive(Args, Debug)]
pub struct MtssArgs {
    /// Which experiment.
    #[command(subcommand)]
    pub experiment: MtssExperiment,
}

/// The `mtss` experiments.
#[derive(Subcommand, Debug)]
pub enum MtssExperiment {
    /// Maximum Satisfiable Overflow per task (MTSS Figure 9): for each task, the smallest
    /// stack budget (bisection over multiples of 16) at which its workload still passes under
    /// `stack = "mtss"`, every other task at its budget; last line "N passed, M failed".
    Mso(SweepArgs),
    /// MTSS against a Capriccio-style linked-chunk scheme (MTSS Table IV): run-time increase
    /// over the unmodified build and stack memory of each, per workload; last line the
    /// averages and "N passed, M failed".
    Capriccio(crate::cmd::bench_capriccio::CapriccioArgs),
    /// Proportional Reduction Satisfiability per workload (MTSS Figure 11): the largest
    /// shrink of every program task's budget at once that still passes, by bisection, and the
    /// loan statistics (holes, multi-page frames) of a run there; last line "N passed, M
    /// failed".
    Prs(SweepArgs),
    /// The worst-case overhead estimate (MTSS Figures 12 and 13): every task at 128 bytes,
    /// moved frames into an artificial region, every move scanning everything; per workload
    /// and `--pages`; last line "N passed, M failed".
    Wcet(SweepArgs),
    /// MSO against the page size (MTSS Figure 10; default: network, pages 32..512); last line
    /// "N passed, M failed" over every task search.
    Pages(SweepArgs),
}

/// What the tables measure and how it differs from the paper (no figures here: they are in
/// the generated tables below it).
const READING: &str = "How to read these tables. For each task, every other task at its \
manifest budget, the smallest stack budget (a multiple of 16 bytes, at least the manifest \
minimum of 128) at which the workload still completes correctly was found by bisection: built \
with `stack = \"mtss\"` and `checks = \"mtss\"` (K for application code pinned to the \
unmodified manifest's 10 % of its smallest budget), run on cactus-sim (`mcu` profile) with the \
ownership oracle stopping the run on the first violation; correct means exit code 0 through \
the workload's own checksum checks and no violation. *MSO of budget* = (budget - smallest) / \
budget, where our budgets are the measured high water x 1.1 (the paper's safety factor), \
rounded up to 16, plus a 16-byte guard and 384 bytes of check margin. *MSO of high water* = \
(high water - smallest) / high water, against the high water measured by the manifest's own \
run (the paper's baseline is the maximum observed stack); it is negative when the checks need \
more than the high water (a check claims a frame's whole size before it is written) or the \
high water is below the 128-byte floor. The \
`feeder` and `coordinator` tasks are the workloads' harness: listed apart, left out of every \
average; a failed search is left out too. The overall average is the mean of the workload \
averages. The paper prints Figure 9 as a bar chart without numbers: beside ours are only the \
values its text states (average 54 %, security's blowfish 0 % and rijndael 100 %). The paper's \
programs are MiBench and friends on ARM with their own inputs; ours are our implementations \
(docs/results/workloads.md), so per-task values are not expected to match.";

/// Runs `cactus bench mtss`.
pub fn main(args: MtssArgs) -> Result<ExitCode> {
    match args.experiment {
        MtssExperiment::Mso(a) => mso(a),
        MtssExperiment::Capriccio(a) => crate::cmd::bench_capriccio::main(a),
        MtssExperiment::Prs(a) => sweeps_cli::prs(a),
        MtssExperiment::Wcet(a) => sweeps_cli::wcet(a),
        MtssExperiment::Pages(a) => sweeps_cli::pages(a),
    }
}

fn mso(args: SweepArgs) -> Result<ExitCode> {
    let started = Instant::now();
    sweeps_cli::check_outputs(&args)?;
    if args.pages.len() > 1 {
        bail!("--pages: mso takes one page size (`cactus bench mtss pages` sweeps several)");
    }
    let (root, manifests) = sweeps_cli::manifests(&args, None)?;
    let resume = sweeps_cli::resume::<Option<cactus_bench::mtss::MsoReport>>(&args)?;
    let tasks: usize = manifests
        .iter()
        .map(|m| cactus_firmware::Manifest::load(m).map(|m| m.tasks.len()))
        .sum::<Result<usize, _>>()?;
    let bar = sweeps_cli::bar(tasks as u64, "tasks")?;
    let progress = sweeps_cli::mso_progress(&bar);
    let options = MsoOptions {
        manifests,
        reserves: toolchain_reserves()?,
        out_root: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/mso")),
        ),
        workers: args.jobs,
        json: args.json.clone(),
        resume,
        page: args.pages.first().copied(),
    };
    let report = cactus_bench::mtss::run(&options, &progress)?;
    bar.finish_and_clear();
    if let Some(path) = &args.json {
        cactus_bench::mtss::save_atomic(path, &report)?;
    }
    let page = format!(" (MTSS page {} bytes)", report.page_bytes);
    sweeps_cli::finish(
        &args,
        started,
        &page,
        READING,
        &cactus_bench::mtss::markdown(&report),
    )?;
    println!("{}", cactus_bench::mtss::summary(&report));
    Ok(if report.tasks.iter().all(|t| t.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
