//! cactus-asm's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-asm --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod common;

// The suites.
mod corpus_analysis;
mod dataflow;
mod frame_patterns;
mod frame_su;
mod fuzz;
mod roundtrip;
