//! The assembly IR of the Cactus toolchain: GNU-as RISC-V assembly as GCC 12 emits it,
//! parsed into an ordered list of items that prints back to text assembling to the same
//! object, split into functions with basic blocks and a CFG, frames recovered from the
//! prologues, dataflow (dominators, post-dominators, liveness, loops) and a whole-program
//! call graph. Instructions are [`cactus_isa::asm::Statement`]s: the one instruction table
//! supplies syntax and register read/write sets. See `docs/asm-ir.md`.

pub mod callgraph;
pub mod cfg;
pub mod dataflow;
pub mod error;
pub mod file;
pub mod flow;
pub mod frame;
pub mod function;

pub use callgraph::CallGraph;
pub use cfg::{Block, Cfg};
pub use error::AsmError;
pub use file::{AsmFile, Entry, Item};
pub use flow::{Callee, Flow};
pub use frame::Frame;
pub use function::Function;
