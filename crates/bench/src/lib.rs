//! cactus-bench: Cactus's evaluations, one folder each, every one a sweep on
//! `cactus-sweep`'s engine (parallel points, progress, resumable store, shards, tables and
//! the one-line summary).
//!
//! - [`mtss`]: the MTSS paper's MSO (Figure 9), PRS (Figure 11), worst-case estimate
//!   (Figures 12/13) and page-size sweep (Figure 10).
//! - [`capriccio`]: MTSS against Capriccio-style linked chunks (MTSS Table IV).
//! - [`segmented`]: the segmented-stack paper's Tables 1-3 and hot-split sweep.
//! - [`sensmart`]: SenSmart's preemption by counted branches (overhead, latency) and stack
//!   relocation (the `relocate` strategy's cost, Table II).
//! - [`checks`]: the cost of the stack checks (MTSS Table II, Figures 7 and 8).
//! - [`kernel`]: the kernel's context-switch costs and footprint.
//! - [`latency`]: worst-case timer interrupt latency, to the handler and to the woken task.
//! - [`workloads`]: every workload manifest's run, and each task's stack high water.
//! - [`sim_speed`]: cactus-sim's speed as a ratio against QEMU.
//! - [`advise`]: `cactus advise`, the smallest stack RAM a firmware runs in per strategy.
//! - [`registry`]: every evaluation by name, for `cactus bench merge`.
//!
//! [`Size`] is the size class they all take.

pub mod advise;
pub mod capriccio;
pub mod carousel;
pub mod ccs;
pub mod checks;
mod elf_facts;
pub mod kernel;
pub mod latency;
mod mcu_run;
pub mod mtss;
pub mod registry;
pub mod scaling;
pub mod segmented;
pub mod sensmart;
pub mod sim_speed;
mod size;
pub mod srp;
pub mod workloads;

pub use size::Size;
