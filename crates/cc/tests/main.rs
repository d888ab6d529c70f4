//! cactus-cc's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-cc --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod driver_support;
mod pass_snippets;
mod pass_support;

// The suites.
mod driver_args;
mod driver_checks;
mod driver_compile;
mod driver_steps;
mod pass_bound;
mod pass_corpus;
mod pass_logical;
mod pass_overflow;
mod pass_preempt;
mod pass_programs;
mod pass_rules;
mod pass_sites;
mod switch_live;
mod switch_table;
