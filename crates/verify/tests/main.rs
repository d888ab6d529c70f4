//! cactus-verify's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-verify --test integration SUITE::` runs one suite.

mod difftest_qemu;
mod fuzz_csmith;
mod mtss_margin_mutation;
mod mtss_stress;
mod mtss_unpin_mutation;
mod random_keep;
mod randprog_qemu;
mod scenario;
