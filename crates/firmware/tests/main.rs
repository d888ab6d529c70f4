//! cactus-firmware's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-firmware --test integration SUITE::` runs one suite.

mod build_demo;
mod build_errors;
mod build_pool_ram;
mod carousel;
mod fuzz_manifest;
mod isolate_image;
mod many_tasks;
mod pools;
mod srp;
mod support;
mod switch_index;
