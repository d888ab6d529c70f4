//! cactus-gdb's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-gdb --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod support;

// The suites.
mod protocol;
