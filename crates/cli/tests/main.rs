//! cactus-cli's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-cli --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod support;

// The suites.
mod advise_cli;
mod bench_latency;
mod bench_sensmart;
mod bench_workloads;
mod build_bad_manifests;
mod build_demo;
mod build_errors;
mod cc_driver;
mod check_margin;
mod fuzz_cli;
mod mtss_high_water;
mod report_sweep;
mod rta_cli;
mod run_bad_input;
mod run_gdb;
mod run_outcomes;
mod run_outputs;
mod run_report;
mod run_trace;
mod srp_cli;
mod stack_report;
mod stack_report_measured;
mod stress_cli;
mod switch_report;
mod workloads_list;
