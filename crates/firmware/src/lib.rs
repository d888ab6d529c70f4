//! Cactus firmware from workload manifests (docs/manifest.md).
//!
//! - [`Manifest`]: a TOML description of a firmware (kernel options, tasks), validated so that
//!   every error names the file, line, key and problem.
//! - [`codegen`]: the generated C glue (task table, start-delay and periodic wrappers with
//!   deadline-miss counting, the end-of-run report, `main`).
//! - [`build()`]: compiles the kernel library and the sources with the RISC-V cross compiler
//!   and links the ELF, cached on the content of every input ([`hash`]).

mod assembly;
pub mod carousel_link;
pub mod catalogue;
pub mod cc_build;
pub mod check_margin;
pub mod checkout;
pub mod codegen;
mod compile_units;
pub mod deps;
pub mod error;
pub mod hash;
pub mod home;
pub mod isolate_link;
pub mod kernel_units;
pub mod linker;
pub mod lstack_sort;
pub mod make_paths;
pub mod manifest;
pub mod srp_check;
pub mod switch_table;
pub mod toolchain;
pub mod unit_cache;

mod driver;

pub use assembly::assembly;
pub use cc_build::CheckOptions;
pub use driver::{build, find_root, units, BuildOptions, Built, Unit};
pub use error::{BuildError, ManifestError};
pub use manifest::{
    shrink_budget, FaultPolicy, KernelOptions, Manifest, Overrides, Pool, Resource, Shrink, Srp,
    StackStrategy, SwitchMode, Target, Task,
};
