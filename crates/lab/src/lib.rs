//! cactus-lab: experiments and harnesses around cactus-sim.
//!
//! - [`catalogue`]: every workload manifest under `workloads/` (`cactus workloads list`).
//! - [`workload_stacks`]: each workload task's measured stack high water on cactus-sim.
//! - [`workload_bench`]: one benchmark row per workload run (cycles, energy, stacks,
//!   CoreMark-like iterations per million cycles).
//! - [`qemu`]: run an ELF on QEMU's virt machine, the behavioural reference.
//! - [`sim_run`]: run an ELF in-process on cactus-sim.
//! - [`difftest`]: compare the two (UART output and exit code); [`diff_render`] shows where
//!   outputs differ.
//! - [`randprog`]: seeded random RV32IMAC programs that print their final state;
//!   [`toolchain`] assembles and links them; [`random_difftest`] runs many in parallel.
//! - [`fuzz`]: `cactus fuzz`, csmith programs built uninstrumented and instrumented by
//!   `cactus_cc`, run on cactus-sim under the ownership oracle and compared.
//! - [`sim_speed`]: cactus-sim's speed as a ratio against QEMU ([`speed_table`] renders it).
//! - [`mtss_bench`]: `cactus bench mtss mso`, the MTSS paper's Maximum Satisfiable Overflow.
//! - [`kernel_bench`]: the Cactus kernel's context-switch costs and footprint on cactus-sim
//!   ([`kernel_events`] pairs the events, [`kernel_footprint`] reads `size`,
//!   [`kernel_report`] judges the goals and renders).

pub mod capriccio_bench;
pub mod catalogue;
pub mod checks_bench;
pub mod diff_render;
pub mod difftest;
pub mod fuzz;
pub mod kernel_bench;
pub mod kernel_events;
pub mod kernel_footprint;
pub mod kernel_report;
pub mod mtss_bench;
pub mod mtss_stress;
pub mod qemu;
pub mod random_difftest;
pub mod randprog;
pub mod sim_run;
pub mod sim_speed;
pub mod speed_table;
pub mod toolchain;
pub mod workload_bench;
pub mod workload_stacks;
