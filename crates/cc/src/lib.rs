//! The Cactus compiler driver and its instrumentation passes. GCC compiles C to assembly,
//! [`instrument_units`] rewrites that assembly (stack checks, the rolling-checks
//! optimization; later passes plug in beside them) and the driver assembles the result.
//! The contract with the kernel and runtimes is `docs/stack-checks.md`.

pub mod driver;
pub mod error;
pub mod options;
pub mod pass;
pub mod report;
pub mod reserves;
pub mod selection;
pub mod switch;

mod cfi;
mod checks;
mod emit;
mod frame_end;
pub mod isolate;
pub mod logical;
mod margins;
mod needs;
mod noreturn;
mod plan;
pub mod preempt;
mod program;
mod refs;
mod rolling;
mod stack;
mod thunks;

pub use error::CcError;

/// The GCC option every instrumented compilation gets: without interprocedural register
/// allocation a caller never keeps a temporary (t0-t6) live across a call, so the stack
/// check at a function's entry always finds a dead scratch register (`docs/stack-checks.md`).
pub const NO_IPA_RA: &str = "-fno-ipa-ra";
pub use options::{CheckMode, PassOptions, RollingRules, DEFAULT_PREEMPT_PERIOD};
pub use pass::{instrument_units, Unit};
pub use report::{FunctionReport, Report};
pub use reserves::{Reserve, Reserves};
