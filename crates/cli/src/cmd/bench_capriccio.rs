//! `cactus bench mtss capriccio`: MTSS against a Capriccio-style linked-chunk scheme on the
//! six MTSS workloads (MTSS paper, section 10, Table IV).

use crate::cmd::reserves::toolchain_reserves;
use anyhow::{Context, Result};
use cactus_bench::capriccio::{CapriccioOptions, Run, Scheme};
use cactus_bench::mtss::MTSS_WORKLOADS;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Options of `cactus bench mtss capriccio`.
#[derive(Args, Debug)]
pub struct CapriccioArgs {
    /// Size class of the MTSS workloads: `small` or `full`.
    #[arg(long, value_name = "SIZE", default_value = "small")]
    pub size: String,
    /// Workloads built and run at once (four builds and runs each).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub jobs: usize,
    /// Write the results as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the report as Markdown to FILE (generated from the same results as the JSON).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Parent directory of the builds (default: build/capriccio in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
}

/// What the table measures and how it differs from the paper.
const READING: &str = "How to read this table. Each workload was built four ways and run on \
cactus-sim (`mcu` profile, the ownership oracle stopping the run at its first violation, exit \
code 0 through the workload's own checksum checks required): *unmodified* (`stack = \"static\"`, \
`checks = \"none\"`), *MTSS* (`stack = \"mtss\"`, `checks = \"mtss\"` with every rolling rule; at \
the manifest budgets no frame moves) and *Capriccio* (`stack = \"chunks\"`, \
kernel/stack/chunks.c: each task starts with one chunk of the size above from a heap shared by \
all tasks, nothing more is reserved, and every entry check that fails links a chunk of \
max(chunk, frame + stack arguments + 32-byte link record) bytes to which the frame moves, freed \
when it returns; `checks = \"mtss\"` with rolling disabled, i.e. a check in every function). \
A fourth build, *every-check*, runs Capriccio's checks on `static` stacks (nothing overflows \
there): its run time is what Capriccio's checks cost, the rest of Capriccio's is its links. \
*Run time* is the increase of active cycles (simulated cycles minus cycles asleep in `wfi`) over \
the unmodified build. *MTSS memory* is the sum of the tasks' stack regions (their budgets, \
reserved whole: the measured high water x 1.1 plus guard and check margin); *Capriccio memory* \
is the peak bytes of the chunk heap in use, read from the kernel after the run \
(`cactus_chunks_heap_peak`). Both include the harness tasks (`feeder`, `coordinator`). KB = 1024 \
bytes. Differences from the paper: its Capriccio figures charge the costs von Behren et al. \
report (6 instructions per check, 20 per unconditional and 27 per conditional link) on ARM; \
ours are measured: our checks, traps and kernel linking code as executed. Its Capriccio memory \
includes one 2 MB chunk for uninstrumented library functions (about 2048 of each row's KB); \
ours links no such chunk: library and kernel code are compiled with checks or, for the \
uninstrumented toolchain libraries (libgcc, picolibc), their callers' checks include the \
reserve that the machine-code analysis computes for them. The paper's programs are MiBench and \
friends on ARM; ours are our implementations (docs/results/workloads.md).";

/// Runs `cactus bench mtss capriccio`.
pub fn main(args: CapriccioArgs) -> Result<ExitCode> {
    let started = Instant::now();
    crate::cmd::outputs::check_output_dirs(args.markdown.iter().chain(&args.json))?;
    let (root, paths) = crate::cmd::bench_mtss_sweeps::resolve_manifests(&[], &args.size, None)?;
    let options = CapriccioOptions {
        manifests: MTSS_WORKLOADS
            .iter()
            .map(|w| w.to_string())
            .zip(paths)
            .collect(),
        reserves: toolchain_reserves()?,
        build_dir: Some(
            args.build_dir
                .clone()
                .unwrap_or_else(|| root.join("build/capriccio")),
        ),
        jobs: args.jobs,
    };
    let progress = |workload: &str, scheme: Scheme, r: &Result<Run, String>| match r {
        Ok(run) => eprintln!(
            "cactus: {workload} {}: {} active cycles, {} moves",
            scheme.name(),
            run.active_cycles,
            run.overflows
        ),
        Err(e) => eprintln!("cactus: {workload} {}: FAILED: {e}", scheme.name()),
    };
    let report = cactus_bench::capriccio::run(&options, &progress)?;
    let table = cactus_bench::capriccio::markdown(&report);
    print!("{table}");
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        write_atomic(path, &text)?;
    }
    if let Some(path) = &args.markdown {
        let command = crate::cmd::outputs::command_line();
        let text = format!(
            "<!-- generated by `{command}`; do not edit by hand -->\n\n\
             Generated by `{command}` in {:.0} s (first chunk {} bytes).\n\n{READING}\n\n{table}",
            started.elapsed().as_secs_f64(),
            report.chunk_bytes
        );
        write_atomic(path, &text)?;
    }
    println!("{}", cactus_bench::capriccio::summary(&report));
    Ok(if report.workloads.iter().all(|w| w.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes `text` to `path` through a temporary file, so a reader never sees half of it.
fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))
}
