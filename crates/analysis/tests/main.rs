//! cactus-analysis's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-analysis --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod common;

// The suites.
mod machine_calls;
mod machine_unbounded;
mod sim_measured;
mod toolchain_libs;
