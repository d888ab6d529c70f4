//! cactus-verify: everything that judges Cactus's correctness.
//!
//! - [`qemu`]: run an ELF on QEMU's virt machine, the behavioural reference.
//! - [`sim_run`]: run an ELF in-process on cactus-sim.
//! - [`difftest`]: compare the two (UART output and exit code); [`diff_render`] shows where
//!   outputs differ.
//! - [`randprog`]: seeded random RV32IMAC programs that print their final state;
//!   [`toolchain`] assembles and links them; [`random_difftest`] runs many in parallel.
//! - [`fuzz`]: `cactus fuzz`, csmith programs built uninstrumented and instrumented by
//!   `cactus_cc`, run on cactus-sim under the ownership oracle and compared.
//! - [`stress`]: `cactus stress mtss`, randomized recursion under `mtss` against ample
//!   `static` stacks.
//!
//! Nothing here measures performance: the evaluations live in `cactus-bench`.

pub mod diff_render;
pub mod difftest;
pub mod fuzz;
pub mod qemu;
pub mod random_difftest;
pub mod randprog;
pub mod sim_run;
pub mod stress;
pub mod toolchain;
