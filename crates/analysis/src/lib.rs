//! Whole-program static analyses over the Cactus assembly IR (`cactus-asm`): the
//! worst-case stack depth of every function ([`stack_depth`]).

pub mod stack_depth;

pub use stack_depth::{analyze, Depth, FunctionStack, Unbounded};
