//! `cactus bench mtss`: experiments on the `mtss` stack strategy. `mso` measures the MTSS
//! paper's Maximum Satisfiable Overflow (section 10, Figure 9) on the six MTSS workloads.

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Context, Result};
use cactus_lab::mtss_bench::{self, MsoOptions, Progress};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
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
    Mso(MsoArgs),
}

/// Options of `cactus bench mtss mso`.
#[derive(Args, Debug)]
pub struct MsoArgs {
    /// Workload manifests (default: the six MTSS workloads at the chosen size).
    pub manifests: Vec<PathBuf>,
    /// Size class of the default MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub size: String,
    /// Parallel searches (one task each).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Write the results as JSON to FILE (rewritten after each task's search).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Resume from the JSON of an earlier run: its probes are not made again, its finished
    /// searches are kept (with --json the same FILE is usual).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Parent directory of the probe builds (default: build/mso in the Cactus tree); each
    /// probe's build is removed after its run.
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
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
    }
}

fn mso(args: MsoArgs) -> Result<ExitCode> {
    let started = Instant::now();
    for path in args.markdown.iter().chain(&args.json) {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(parent) = parent.filter(|p| !p.is_dir()) {
            bail!(
                "cannot write {}: no directory {}",
                path.display(),
                parent.display()
            );
        }
    }
    let root = cactus_firmware::find_root(std::path::Path::new("."))
        .context("cactus bench mtss mso runs inside the Cactus tree")?;
    let manifests = if args.manifests.is_empty() {
        // Relative to the current directory when it is the tree, for readable JSON keys.
        let base = if root == std::env::current_dir()? {
            PathBuf::new()
        } else {
            root.clone()
        };
        mtss_bench::mtss_manifests(&base, &args.size).map_err(|e| anyhow::anyhow!("--size: {e}"))?
    } else {
        args.manifests.clone()
    };
    for m in &manifests {
        if !m.is_file() {
            bail!("{}: no such manifest", m.display());
        }
    }
    let resume = match &args.resume {
        Some(path) if path.exists() => Some(mtss_bench::load(path)?),
        Some(path) => {
            eprintln!(
                "cactus: {} does not exist yet: starting afresh",
                path.display()
            );
            None
        }
        None => None,
    };
    let tasks: usize = manifests
        .iter()
        .map(|m| cactus_firmware::Manifest::load(m).map(|m| m.tasks.len()))
        .sum::<Result<usize, _>>()?;
    let bar = ProgressBar::new(tasks as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} tasks {elapsed} {msg}")
                .context("progress bar template")?,
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let progress = |p: Progress| match p {
        Progress::Probe {
            task,
            workload,
            probe,
        } => bar.set_message(format!(
            "{workload} {task} {} B {}",
            probe.budget,
            if probe.passed { "pass" } else { "fail" }
        )),
        Progress::TaskDone(_) => bar.inc(1),
    };
    let options = MsoOptions {
        manifests,
        reserves: toolchain_reserves()?,
        out_root: Some(args.build_dir.unwrap_or_else(|| root.join("build/mso"))),
        workers: args.jobs,
        json: args.json.clone(),
        resume,
    };
    let report = mtss_bench::run(&options, &progress)?;
    bar.finish_and_clear();
    let table = mtss_bench::markdown(&report);
    print!("{table}");
    if let Some(path) = &args.json {
        mtss_bench::save_atomic(path, &report)?;
    }
    if let Some(path) = &args.markdown {
        let command = std::iter::once("cactus".to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>()
            .join(" ");
        let text = format!(
            "<!-- generated by `{command}`; do not edit by hand -->\n\n\
             Generated by `{command}` in {:.0} s{} (MTSS page {} bytes).\n\n{READING}\n\n{table}",
            started.elapsed().as_secs_f64(),
            if args.resume.is_some() {
                " (this invocation only: resumed probes were made earlier)"
            } else {
                ""
            },
            report.page_bytes
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    println!("{}", mtss_bench::summary(&report));
    Ok(if report.tasks.iter().all(|t| t.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
