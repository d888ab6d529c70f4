//! `cactus`: the command-line front of Cactus. Every subcommand lives in its own file under
//! `cmd/`; this file only parses the command line and dispatches.
//!
//! Exit codes (stable, scripts rely on them):
//! - the guest's own exit code when a program ends normally through the finisher or `tohost`;
//! - 2 for bad input (missing or malformed file, bad option, bad profile);
//! - 3 for a guest fault with no handler, a double fault or `--max-cycles` exceeded;
//! - 4 for an ownership-oracle violation under `--oracle stop`;
//! - `cactus rta`: 0 schedulable, 1 analysed and unschedulable, 5 a task the analysis calls
//!   schedulable missed a deadline in the `--manifest` run (3 when that run failed).

mod cmd;
mod html;
mod pipe;
mod report;
mod trace;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Cactus: stack sharing, instrumented firmware and a deterministic RISC-V simulator.
#[derive(Parser)]
#[command(name = "cactus", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run an RV32 ELF on cactus-sim and print its output and statistics.
    Run(cmd::run::RunArgs),
    /// Build a firmware ELF from a manifest (TOML, default cactus.toml); prints the ELF's path.
    Build(cmd::build::BuildArgs),
    /// Create a firmware project of your own: cactus.toml, a task, a README (Make, CMake).
    New(cmd::new::NewArgs),
    /// Run an ELF on cactus-sim and on QEMU and compare UART output and exit code.
    Difftest(cmd::difftest::DifftestArgs),
    /// Differential testing of the instrumentation with random csmith programs.
    Fuzz(cmd::fuzz::FuzzArgs),
    /// Run benchmarks (`cactus bench sim-speed`).
    Bench(cmd::bench::BenchArgs),
    /// The workload catalogue (`list`) and each task's measured stack high water (`stacks`).
    Workloads(cmd::workloads::WorkloadsArgs),
    /// Static worst-case stack depth of every function of some `gcc -S` assembly files.
    StackReport(cmd::stack_report::StackReportArgs),
    /// Switch points and blocks of every loop of a firmware's tasks (compiler-driven context
    /// switching, docs/ccs.md).
    SwitchReport(cmd::switch_report::SwitchReportArgs),
    /// The smallest stack RAM a firmware runs in, per stack strategy (table, JSON, SVG plot).
    Advise(cmd::advise::AdviseArgs),
    /// An HTML page of a run from its trace (`cactus run --trace FILE.json`).
    Report(cmd::report_html::ReportArgs),
    /// Response-time analysis (equations 3 and 4 of the Carousel paper) of a task set in TOML,
    /// or of a manifest's periodic tasks with C_i measured on cactus-sim (docs/rta.md).
    Rta(cmd::rta::RtaArgs),
    /// Randomized stress tests (`cactus stress mtss`).
    Stress(cmd::stress::StressArgs),
    /// Compile like riscv64-unknown-elf-gcc, inserting stack checks: `cactus cc [OPTS] -- ARGS`.
    Cc(cmd::cc::CcArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    pipe::quiet_on_closed_stdout(|| dispatch(cli))
}

/// Runs the subcommand; an `Err` is bad input (exit 2).
fn dispatch(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Run(args) => cmd::run::main(args),
        Command::Build(args) => cmd::build::main(args),
        Command::New(args) => cmd::new::main(args),
        Command::Difftest(args) => cmd::difftest::main(args),
        Command::Fuzz(args) => cmd::fuzz::main(args),
        Command::Bench(args) => cmd::bench::main(args),
        Command::Workloads(args) => cmd::workloads::main(args),
        Command::StackReport(args) => cmd::stack_report::main(args),
        Command::Cc(args) => cmd::cc::main(args),
        Command::SwitchReport(args) => cmd::switch_report::main(args),
        Command::Stress(args) => cmd::stress::main(args),
        Command::Rta(args) => cmd::rta::main(args),
        Command::Advise(args) => cmd::advise::main(args),
        Command::Report(args) => cmd::report_html::main(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("cactus: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
