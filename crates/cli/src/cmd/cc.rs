//! `cactus cc [OPTIONS] -- GCC-ARGS...`: a drop-in for `riscv64-unknown-elf-gcc` that
//! instruments the C it compiles with stack checks (`docs/cc.md`, `docs/stack-checks.md`).
//! Use it as Make's `CC = cactus cc --checks detect --`.
//!
//! Exit codes: gcc's own (0, or its failure code) whenever gcc ran; 2 for the driver's own
//! errors, printed as `cactus cc: error: <file>: <what>`.

use anyhow::Result;
use cactus_cc::driver::Driver;
use cactus_cc::{CheckMode, PassOptions, Reserves, RollingRules};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Which checks to insert (`--checks`).
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Checks {
    /// No instrumentation (the baseline build; still compiled through `gcc -S`).
    None,
    /// Stack checks that report an overflow before the frame is written.
    Detect,
    /// The same checks, with frames verified relocatable for the `mtss` strategy.
    Mtss,
    /// The `mtss` checks whose slow path calls the kernel's runtime instead of trapping
    /// (segmented stacks; needs the kernel).
    Split,
}

/// Options of `cactus cc`; everything after `--` is gcc's command line.
#[derive(Args, Debug)]
pub struct CcArgs {
    /// Which stack checks to insert.
    #[arg(long, value_enum, default_value = "none", value_name = "MODE")]
    checks: Checks,
    /// K of the limited-size rule for application code, in bytes.
    #[arg(long, default_value_t = 128, value_name = "BYTES")]
    k_app: u32,
    /// K of the limited-size rule for library code, in bytes.
    #[arg(long, default_value_t = 128, value_name = "BYTES")]
    k_lib: u32,
    /// The sources are library code (K is `--k-lib`).
    #[arg(long)]
    lib: bool,
    /// Turn off the certainty rolling rule.
    #[arg(long)]
    no_certainty: bool,
    /// Turn off the zero-size rolling rule.
    #[arg(long)]
    no_zero_size: bool,
    /// Turn off the limited-size rolling rule.
    #[arg(long)]
    no_limited_size: bool,
    /// Bytes assumed for a call into code of unknown stack depth.
    #[arg(long, default_value_t = 1024, value_name = "BYTES")]
    blind_margin: u32,
    /// The code runs on a core with the hardware stack bound (cactus-sim's `mstackbound`) and
    /// a kernel built for it: entry checks whose need is the first sp decrement get no
    /// instruction, only their table entry (the trap at the decrement is the slow path).
    #[arg(long)]
    stack_bound: bool,
    /// SenSmart's preemption by counted branches (docs/sensmart.md): every backward branch
    /// decrements the task's branch counter (at tp - 8) and every N-th (default 256) calls
    /// the kernel's `port_preempt_<reg>`, which preempts when the time slice is used up.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "256")]
    preempt_traps: Option<u32>,
    /// SenSmart's memory isolation (docs/sensmart.md "Memory isolation"): every store through
    /// a base other than sp/tp, every indirect jump and return and every call of memcpy,
    /// memmove, memset, strcpy or strncpy is checked against the running task's windows
    /// (`cactus_iso_win`); a failed check calls the kernel's `port_isolate_<kind>_<A>_<B>`.
    #[arg(long)]
    isolate: bool,
    /// SenSmart's logical addressing in software (docs/sensmart.md "The software variant"):
    /// stack addresses leaving sp become logical and every access through another base is
    /// translated (grouped per basic block); for the `relocate` strategy's software window.
    #[arg(long)]
    logical_stack: bool,
    /// Stack reserves of uninstrumented functions (JSON of `cactus_cc::Reserves`); default:
    /// libgcc's and picolibc's, computed from their machine code (cached in build/cache/).
    #[arg(long, value_name = "FILE")]
    reserves: Option<PathBuf>,
    /// Keep each instrumented assembly next to its object, as `<object>.cactus.s`.
    #[arg(long)]
    keep_s: bool,
    /// Write the pass report (JSON) of the sources compiled here.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// The gcc to run (default: `$CACTUS_GCC`, else riscv64-unknown-elf-gcc).
    #[arg(long, value_name = "PATH")]
    gcc: Option<PathBuf>,
    /// Link executables without Cactus's bare-metal runtime (crt0 setting sp and tp, trap
    /// report, exit through the finisher, linker script): bring your own. Implied by
    /// -nostartfiles, -nostdlib and -T.
    #[arg(long)]
    no_runtime: bool,
    /// gcc's command line, exactly as gcc would take it.
    #[arg(last = true, value_name = "GCC-ARGS")]
    gcc_args: Vec<String>,
}

/// Runs `cactus cc`.
pub fn main(args: CcArgs) -> Result<ExitCode> {
    let driver = match configure(&args) {
        Ok(d) => d,
        Err(msg) => return Ok(fail(&msg)),
    };
    match driver.run(&args.gcc_args) {
        Ok(outcome) => Ok(ExitCode::from(u8::try_from(outcome.status).unwrap_or(1))),
        Err(err) => Ok(fail(&err.to_string())),
    }
}

/// Prints a driver error the way compilers do and returns exit code 2.
fn fail(msg: &str) -> ExitCode {
    eprintln!("cactus cc: error: {msg}");
    ExitCode::from(2)
}

/// The driver the options ask for, or a message naming the bad option or file.
fn configure(args: &CcArgs) -> Result<Driver, String> {
    let options = PassOptions {
        mode: match args.checks {
            Checks::None => CheckMode::None,
            Checks::Detect => CheckMode::Detect,
            Checks::Mtss => CheckMode::Mtss,
            Checks::Split => CheckMode::Split,
        },
        rolling: RollingRules {
            certainty: !args.no_certainty,
            zero_size: !args.no_zero_size,
            limited_size: !args.no_limited_size,
        },
        k_app: args.k_app,
        k_lib: args.k_lib,
        whole_program: false,
        blind_margin: args.blind_margin,
        hardware_bound: args.stack_bound,
        preempt_traps: args.preempt_traps,
        isolate: args.isolate,
        logical_stack: args.logical_stack,
    };
    let mut driver = Driver::new(options);
    if let Some(path) = &args.reserves {
        driver.reserves = read_reserves(path)?;
    } else if driver.options.mode != CheckMode::None {
        // Calls into libgcc and picolibc are covered by their machine-code depths.
        driver.reserves =
            crate::cmd::reserves::toolchain_reserves().map_err(|e| format!("{e:#}"))?;
    }
    if let Some(gcc) = &args.gcc {
        driver.gcc = gcc.clone();
    }
    driver.library = args.lib;
    driver.keep_s = args.keep_s;
    driver.runtime = !args.no_runtime;
    driver.report = args.report.clone();
    Ok(driver)
}

/// Reads a `--reserves` file.
fn read_reserves(path: &Path) -> Result<Reserves, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
