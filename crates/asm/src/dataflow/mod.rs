//! Dataflow over a function's CFG, reused by the instrumentation passes: dominators and
//! post-dominators (Cooper–Harvey–Kennedy), register liveness (from the isa table's read
//! and write sets) and natural loops.

mod dom;
mod liveness;
mod loops;

pub use dom::DomTree;
pub use liveness::{effects, Liveness, ABI_ARGS, CALLER_SAVED, EXIT_LIVE};
pub use loops::{natural_loops, Loop};
