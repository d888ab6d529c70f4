//! Whole-program static analyses: the worst-case stack depth of every function of a program
//! given as Cactus assembly IR (`cactus-asm`, [`stack_depth`]) and of code given only as RISC-V
//! machine code (objects, archives, linked ELFs: [`machine`]).

pub mod machine;
pub mod stack_depth;

pub use stack_depth::{analyze, analyze_with_externals, Depth, FunctionStack, Unbounded};
