//! `cactus fuzz`: differential testing of the instrumentation passes with random csmith
//! programs (docs/fuzz.md).
//!
//! For every seed: [`csmith`] generates a program; [`build`] compiles it with GCC at each
//! optimization level and, for each [`variant::Variant`] (an optimization level and a
//! [`variant::Pass`]: uninstrumented, or stack checks in a mode with or without the rolling
//! rules), instruments the assembly with `cactus_cc` and links it with the [`runtime`];
//! [`run`] executes each ELF on cactus-sim with the ownership oracle watching the stack;
//! [`verdict`] compares every run with the uninstrumented builds; [`case`] puts it together
//! for one seed (the judging itself is in `judge.rs`), [`tight`] adds the tight-stack runs,
//! [`saved`] keeps what a mismatch needs for replay, [`reduce`] shrinks it with creduce,
//! [`batch`] runs many seeds in parallel and [`multitask`] runs judged programs together as
//! preemptive tasks of one kernel firmware.

pub mod batch;
pub mod build;
pub mod case;
pub mod csmith;
pub mod error;
mod judge;
pub mod multitask;
pub mod reduce;
pub mod run;
pub mod runtime;
pub mod saved;
pub mod tight;
pub mod variant;
pub mod verdict;

pub use batch::{run_batch, BatchSummary};
pub use case::{run_case, run_source, CaseOutcome, CaseStatus, FuzzOptions};
pub use error::FuzzError;
pub use variant::{OptLevel, Pass, Variant};
