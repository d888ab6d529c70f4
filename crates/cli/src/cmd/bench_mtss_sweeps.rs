//! `cactus bench mtss prs|wcet|pages`: the MTSS paper's PRS with the loan statistics
//! (Figure 11, "Additional statistics"), worst-case overhead estimate (Figures 12/13) and MSO
//! against the page size (Figure 10), each resumable from its JSON.

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{anyhow, bail, Context, Result};
use cactus_bench::mtss::{sweeps, Progress};
use clap::Args;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options every sweep takes.
#[derive(Args, Debug)]
pub struct SweepArgs {
    /// Workload manifests (default: the six MTSS workloads at the chosen size; `pages` and
    /// `wcet --pages`: see their own defaults).
    pub manifests: Vec<PathBuf>,
    /// Size class of the default MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub size: String,
    /// Rows (workloads, or workload and page) made at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Write the results as JSON to FILE (rewritten after each row).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Resume from the JSON of an earlier run: its finished rows are kept.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Parent directory of the builds (default: build/mso in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
    /// MTSS page sizes in bytes, comma-separated (powers of two in 32..1024).
    #[arg(long, value_name = "B,B,...", value_delimiter = ',')]
    pub pages: Vec<u32>,
}

const PRS_READING: &str = "How to read these tables. *PRS* (the paper's Proportional \
Reduction Satisfiability) is the largest whole percentage by which every program task's stack \
budget can be shrunk at once (rounded down to 16 bytes, never below 128) with the workload \
still completing correctly under `stack = \"mtss\"`, `checks = \"mtss\"` on cactus-sim (exit 0 \
through its own checksum checks, no ownership-oracle violation), found by bisection over 0..95 %. \
The harness tasks (`feeder`, `coordinator`) keep their budgets and are not counted. *Saved of \
budgets* is the bytes saved at the PRS point over the summed budgets; our budgets are the \
measured high water x 1.1 plus a 16-byte guard and 384 bytes of check margin, so *saved of \
high water* (against the summed high water of the manifest's own run, the paper's baseline) is \
the comparable figure, and negative when the budgets at the PRS point are still above the high \
water. The loan statistics come from one more run at the PRS point with the trace recorded: a \
loan is a `REGION_LEND`, a page *leaves a hole* when it is given back while a page above it in \
the same lender is still lent (the paper's measure: < 5 % of pages, none in telecomm).";

const WCET_READING: &str = "How to read these tables. The paper's worst-case estimate \
(section 10): every program task at the smallest stack a manifest accepts (128 bytes, below \
any task's certainly-called chain), so every frame that can move does (the harness tasks keep \
their budgets: they print through `kprintf`, whose variadic frame is pinned); the moved frames go to an \
artificial region that never runs out (`kernel.mtss_worst_case`), and every move first scans \
every task and every page of it (the allocation's worst case). *Worst-case overhead* is that \
run's extra simulated cycles over the unmodified workload (`static` stacks, no checks, manifest \
budgets); *common case* is `mtss` at the manifest budgets (nothing moves: the checks' cost). \
Like the paper's, this is an estimate on one input, not a WCET bound. The paper plots Figures \
12 and 13 as bars; only its average (37.5 %) and common case (3.1 %) are stated.";

const PAGES_READING: &str = "How to read this table. MSO (see docs/results/mtss-mso.md for \
the procedure) of each program task's budget, measured with the kernel built for each MTSS \
page size; the paper's Figure 10 shows the same for its network workload, with MSO falling as \
pages grow (a smaller page uses the free space of the other stacks better). The paper prints \
no numbers for it.";

pub(crate) fn check_outputs(args: &SweepArgs) -> Result<()> {
    crate::cmd::outputs::check_output_dirs(args.markdown.iter().chain(&args.json))?;
    for &p in &args.pages {
        if !(32..=1024).contains(&p) || !p.is_power_of_two() {
            bail!("--pages: {p} is not a power of two in 32..1024");
        }
    }
    Ok(())
}

/// The tree root and the manifests: given ones (checked), else the six MTSS workloads at
/// `--size` (or `default_one`, a single workload name, when given).
pub(crate) fn manifests(
    args: &SweepArgs,
    default_one: Option<&str>,
) -> Result<(PathBuf, Vec<PathBuf>)> {
    resolve_manifests(&args.manifests, &args.size, default_one)
}

/// The tree root and `given` (each checked to exist), or when `given` is empty the six MTSS
/// workloads at `size` in the paper's order (only `default_one` when given), relative to the
/// current directory when it is the tree root (readable JSON keys).
pub(crate) fn resolve_manifests(
    given: &[PathBuf],
    size: &str,
    default_one: Option<&str>,
) -> Result<(PathBuf, Vec<PathBuf>)> {
    let root = cactus_firmware::find_root(Path::new("."))
        .context("cactus bench mtss runs inside the Cactus tree")?;
    let list = if given.is_empty() {
        let base = if root == std::env::current_dir()? {
            PathBuf::new()
        } else {
            root.clone()
        };
        let all =
            cactus_bench::mtss::mtss_manifests(&base, size).map_err(|e| anyhow!("--size: {e}"))?;
        match default_one {
            Some(w) => all
                .into_iter()
                .filter(|m| {
                    m.file_stem()
                        .is_some_and(|s| s.to_string_lossy().trim_end_matches("-small") == w)
                })
                .collect(),
            None => all,
        }
    } else {
        given.to_vec()
    };
    for m in &list {
        if !m.is_file() {
            bail!("{}: no such manifest", m.display());
        }
    }
    Ok((root, list))
}

fn options(args: &SweepArgs, root: &Path, manifests: Vec<PathBuf>) -> Result<sweeps::SweepOptions> {
    Ok(sweeps::SweepOptions {
        manifests,
        reserves: toolchain_reserves()?,
        out_root: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/mso")),
        ),
        workers: args.jobs,
        json: args.json.clone(),
        pages: args.pages.clone(),
    })
}

pub(crate) fn resume<T: serde::de::DeserializeOwned + Default>(args: &SweepArgs) -> Result<T> {
    Ok(match &args.resume {
        Some(path) if path.exists() => cactus_bench::mtss::load(path)?,
        Some(path) => {
            eprintln!(
                "cactus: {} does not exist yet: starting afresh",
                path.display()
            );
            T::default()
        }
        None => T::default(),
    })
}

pub(crate) fn bar(len: u64, unit: &str) -> Result<ProgressBar> {
    crate::cmd::outputs::progress_bar(len, unit)
}

/// The MSO searches' progress on `bar`: the last probe as its message, a tick per task.
pub(crate) fn mso_progress(bar: &ProgressBar) -> impl Fn(Progress) + Sync + '_ {
    move |p: Progress| match p {
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
    }
}

/// Prints `table`, and writes it under the generating command, the run time (then `note`),
/// `reading` and the table to `--markdown`.
pub(crate) fn finish(
    args: &SweepArgs,
    started: Instant,
    note: &str,
    reading: &str,
    table: &str,
) -> Result<()> {
    print!("{table}");
    if let Some(path) = &args.markdown {
        let command = crate::cmd::outputs::command_line();
        let text = format!(
            "<!-- generated by `{command}`; do not edit by hand -->\n\n\
             Generated by `{command}` in {:.0} s{}{note}.\n\n{reading}\n\n{table}",
            started.elapsed().as_secs_f64(),
            if args.resume.is_some() {
                " (this invocation only: resumed results were made earlier)"
            } else {
                ""
            },
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// `cactus bench mtss prs`: PRS and loan statistics per workload. Exit 1 if any failed.
pub fn prs(args: SweepArgs) -> Result<ExitCode> {
    let started = Instant::now();
    check_outputs(&args)?;
    if args.pages.len() > 1 {
        bail!("--pages: prs takes one page size");
    }
    let (root, list) = manifests(&args, None)?;
    let o = options(&args, &root, list)?;
    let bar = bar(o.manifests.len() as u64, "workloads")?;
    let rows = sweeps::prs(
        &o,
        resume(&args)?,
        &|w, p| {
            bar.set_message(format!(
                "{w} -{}% {}",
                p.percent,
                if p.passed { "pass" } else { "fail" }
            ))
        },
        &|_| bar.inc(1),
    )?;
    bar.finish_and_clear();
    finish(
        &args,
        started,
        "",
        PRS_READING,
        &cactus_bench::mtss::prs_markdown(&rows),
    )?;
    let failed = rows.iter().filter(|r| r.error.is_some()).count();
    println!("{} passed, {failed} failed", rows.len() - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `cactus bench mtss wcet`: the worst-case estimate per workload and page. Exit 1 if any
/// row failed.
pub fn wcet(args: SweepArgs) -> Result<ExitCode> {
    let started = Instant::now();
    check_outputs(&args)?;
    let (root, list) = manifests(&args, None)?;
    let o = options(&args, &root, list)?;
    let rows_n = o.manifests.len() * o.pages.len().max(1);
    let bar = bar(rows_n as u64, "runs")?;
    let rows = sweeps::wcet(&o, resume(&args)?, &|r| {
        bar.set_message(format!("{} {} B", r.workload, r.page_bytes));
        bar.inc(1)
    })?;
    bar.finish_and_clear();
    let page = if o.pages.contains(&cactus_firmware::StackStrategy::MTSS_PAGE) || o.pages.is_empty()
    {
        cactus_firmware::StackStrategy::MTSS_PAGE
    } else {
        o.pages[0]
    };
    finish(
        &args,
        started,
        "",
        WCET_READING,
        &cactus_bench::mtss::wcet_markdown(&rows, page),
    )?;
    let failed = rows.iter().filter(|r| r.error.is_some()).count();
    println!("{} passed, {failed} failed", rows.len() - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `cactus bench mtss pages`: MSO at every page size (default: network, 32..512). Exit 1 if
/// any task's search failed.
pub fn pages(mut args: SweepArgs) -> Result<ExitCode> {
    let started = Instant::now();
    if args.pages.is_empty() {
        args.pages = vec![32, 64, 128, 256, 512];
    }
    check_outputs(&args)?;
    let (root, list) = manifests(&args, Some("network"))?;
    let o = options(&args, &root, list)?;
    let tasks: usize = o
        .manifests
        .iter()
        .map(|m| cactus_firmware::Manifest::load(m).map(|m| m.tasks.len()))
        .sum::<Result<usize, _>>()?;
    let bar = bar((tasks * o.pages.len()) as u64, "task searches")?;
    let progress = mso_progress(&bar);
    let reports = sweeps::pages(&o, resume(&args)?, &progress)?;
    bar.finish_and_clear();
    finish(
        &args,
        started,
        "",
        PAGES_READING,
        &cactus_bench::mtss::pages_markdown(&reports),
    )?;
    let failed = reports
        .iter()
        .flat_map(|r| &r.tasks)
        .filter(|t| !t.passed())
        .count();
    let all: usize = reports.iter().map(|r| r.tasks.len()).sum();
    println!("{} passed, {failed} failed", all - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
