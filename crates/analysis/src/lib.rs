//! Whole-program static analyses: the worst-case stack depth of every function of a program
//! given as Cactus assembly IR (`cactus-asm`, [`stack_depth`]) and of code given only as RISC-V
//! machine code (objects, archives, linked ELFs: [`machine`]), and from one entry with
//! annotations for indirect calls and recursion, with the worst-case call path ([`entry`]).

pub mod entry;
pub mod machine;
pub mod stack_depth;
#[cfg(test)]
mod test_asm;

pub use entry::{AnnotationError, Annotations, EntryDepth, Program, Step};
pub use stack_depth::{analyze, analyze_with_externals, Depth, FunctionStack, Unbounded};
