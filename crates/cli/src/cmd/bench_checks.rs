//! `cactus bench checks`: the cost of `cactus cc`'s stack checks on the multi-task workloads
//! (MTSS Table II, Figures 7 and 8; docs/results/mtss.md).

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{bail, Context, Result};
use cactus_bench::checks::Variant;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus bench checks`.
#[derive(Args, Debug)]
pub struct ChecksArgs {
    /// Workload manifests (default: the six MTSS workloads at the chosen size, then the demo).
    pub manifests: Vec<PathBuf>,
    /// Size class of the default MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "full")]
    pub size: String,
    /// K values (bytes) of the limited-size sweep (Figure 8); `none` for no sweep.
    #[arg(long, value_name = "K,K,...|none", default_value = "32,64,128,256,512")]
    pub k_sweep: String,
    /// Only these variants (names as in the tables: base, unopt, zero, certainty, limited,
    /// opt, opt-k<K>); `base` is always run, every other variant is compared with it.
    #[arg(long, value_name = "NAME,NAME,...", value_delimiter = ',')]
    pub variants: Vec<String>,
    /// Parallel builds and runs.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE (docs/results/mtss.md).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
}

/// What the tables measure and how our setup differs from the paper's (no figures: those are
/// in the tables the command writes below it).
const READING: &str = "How to read these tables. *unopt* keeps a check in every function \
that uses stack; *opt* applies every rolling rule (zero-size, certainty, limited-size with the \
default K: 10 % of the smallest task stack for application code, 128 bytes for the kernel); \
Figure 7 applies one rule at a time. A kept check is two instructions after the prologue's \
first `sp` decrement (`lw` of the limit at `tp - 4`, a `bltu` not taken in the common case: 3 \
cycles on the `mcu` profile) and a 4-byte `ecall` out of line; its 16-byte table entry is \
counted apart (last table). Unlike the paper (ARM7 under uClinux, checks against per-task \
arrays), the kernel itself is instrumented too and counts in both run time and code size, \
and the programs are our own implementations compiled by GCC 12 at -O2, which inlines most \
small functions: how often checks run per instruction depends on that, so run-time overheads \
are not expected to match the paper's. Every variant's output equals the unchecked build's, \
or the run is listed under Failures.";

const MTSS_WORKLOADS: [&str; 6] = [
    "automotive",
    "security",
    "telecomm",
    "network",
    "mediabench",
    "ptrdist",
];

/// Runs the benchmark; exit code 0 if every variant of every workload ran and printed what
/// the unchecked build printed, 1 otherwise (the files are written either way).
pub fn main(args: ChecksArgs) -> Result<ExitCode> {
    crate::cmd::outputs::check_output_dirs(args.markdown.iter().chain(&args.json))?;
    let manifests = if args.manifests.is_empty() {
        let suffix = match args.size.as_str() {
            "full" => "",
            "small" => "-small",
            other => bail!("--size: unknown size `{other}` (expected small or full)"),
        };
        let mut m: Vec<PathBuf> = MTSS_WORKLOADS
            .iter()
            .map(|w| PathBuf::from(format!("workloads/mtss/{w}{suffix}.toml")))
            .collect();
        m.push(PathBuf::from("workloads/demo/demo.toml"));
        m
    } else {
        args.manifests.clone()
    };
    for m in &manifests {
        if !m.is_file() {
            bail!("{}: no such manifest", m.display());
        }
    }
    let k_sweep: Vec<u32> = if args.k_sweep == "none" {
        Vec::new()
    } else {
        args.k_sweep
            .split(',')
            .map(|k| k.trim().parse::<u32>())
            .collect::<Result<_, _>>()
            .with_context(|| {
                format!("--k-sweep: `{}` is not a list of byte counts", args.k_sweep)
            })?
    };
    let mut variants = cactus_bench::checks::variants(&k_sweep);
    if !args.variants.is_empty() {
        for name in &args.variants {
            if !variants.iter().any(|v| &v.name == name) {
                bail!("--variants: unknown variant `{name}`");
            }
        }
        variants.retain(|v| v.name == "base" || args.variants.contains(&v.name));
    }
    let reserves = toolchain_reserves()?;
    let bar = crate::cmd::outputs::progress_bar((manifests.len() * variants.len()) as u64, "")?;
    let progress = |manifest: &str, v: &Variant| {
        bar.set_message(format!("{manifest} {}", v.name));
        bar.inc(1);
    };
    let results = cactus_bench::checks::run_all(
        &manifests, &variants, &reserves, None, args.jobs, &progress,
    )?;
    bar.finish_and_clear();
    let table = cactus_bench::checks::markdown(&results, &k_sweep);
    print!("{table}");
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&results)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.markdown {
        let command = crate::cmd::outputs::command_line();
        let text = format!(
            "<!-- generated by `{command}`; do not edit by hand -->\n\n\
             Generated by `{command}` (simulated on the `mcu` profile; run time = active \
             cycles, sleep in `wfi` excluded; code = executable bytes of the whole firmware).\n\n\
             {READING}\n\n{table}"
        );
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let (passed, failed) = cactus_bench::checks::verdicts(&results);
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
