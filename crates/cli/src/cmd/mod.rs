//! One module per `cactus` subcommand. Each exposes `XArgs` (clap) and
//! `main(XArgs) -> anyhow::Result<ExitCode>`; an `Err` is reported as bad input (exit code 2).

pub mod advise;
pub mod bench;
pub mod bench_carousel;
pub mod bench_ccs;
pub mod bench_checks;
pub mod bench_latency;
pub mod bench_mtss;
pub mod bench_scaling;
pub mod bench_segmented;
pub mod bench_sensmart;
pub mod bench_size;
pub mod bench_srp;
pub mod build;
pub mod cc;
pub mod difftest;
pub mod firmware_asm;
pub mod fuzz;
pub mod new;
pub mod outputs;
mod profile_arg;
pub mod report_html;
pub mod reserves;
pub mod rta;
pub mod run;
pub mod stack_report;
pub mod stress;
pub mod switch_report;
pub mod workloads;
pub(crate) mod workloads_margins;
