//! cactus-bench's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-bench --test integration SUITE::` runs one suite.

mod kernel_bench;
mod latency_bench;
mod mtss_mso;
mod scaling_bench;
mod segmented_bench;
mod sensmart_inflation;
mod sensmart_trees;
mod support;
mod workload_stacks;
