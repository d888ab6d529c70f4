//! cactus-sim's integration tests as one test binary: one build and link for the crate
//! instead of one per file. Each module is one suite (its file's doc says what it checks);
//! `cargo test --release -p cactus-sim --test integration SUITE::` runs one suite.

// Helpers shared by the suites.
mod common;

// The suites.
mod call_probe;
mod carousel;
mod copier;
mod counters;
mod csr_trap;
mod exec;
mod external_irq;
mod fused;
mod fuzz;
mod gcc_programs;
mod interrupt_timing;
mod limits;
mod loader_profile;
mod memory;
mod oracle;
mod reg_pages;
mod run_for;
mod stack_bound;
mod stack_window;
mod switch_regs;
mod task_energy;
mod timer_pending;
