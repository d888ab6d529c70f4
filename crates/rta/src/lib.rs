//! cactus-rta: fixed-priority response-time analysis as Whitham & Audsley use it for Carousel
//! ("Explicit Reservation of Local Memory in a Predictable, Preemptive Multitasking Real-time
//! System", section V): equations 3 and 4 with the context-switch costs CS¹ and CS² and the
//! blocking term B_i under the stack resource policy, where the longest Carousel critical
//! section blocks every task but the lowest-priority one ([`analysis`], [`blocking`]); task
//! sets in TOML ([`input`]); and the seeded random task sets of the paper's section VI-D
//! ([`generate`]). `cactus rta` is its command (docs/rta.md).
//!
//! Design rule: nothing here knows the simulator, the kernel or a manifest. Times are plain
//! cycles; a higher priority number is a higher priority.

pub mod analysis;
pub mod blocking;
pub mod generate;
pub mod input;
pub mod model;

pub use analysis::{analyse, response_time, Analysis, Equation, Response, TaskResult};
pub use generate::{generate, GenerateError, Generated, GeneratorConfig, TaskCost, PAPER_SZ};
pub use input::{load, parse, to_toml, InputError};
pub use model::{CriticalSection, SetError, System, Task, TaskSet};
