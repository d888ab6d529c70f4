//! The workload suites on cactus-sim: each task's measured stack high water ([`stacks`],
//! `cactus workloads stacks`) and one benchmark row per manifest ([`bench`], `cactus bench
//! workloads`).

pub mod bench;
pub mod stacks;
