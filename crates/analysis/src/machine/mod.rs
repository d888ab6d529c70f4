//! Worst-case stack depth from RISC-V machine code, for code we do not have as GCC assembly:
//! the toolchain's libraries (picolibc `libc.a`, `libgcc.a`), hand-written assembly objects
//! and linked ELFs.
//!
//! Every function symbol in an executable section is followed from its entry over every
//! reachable instruction ([`cactus_isa::decode`]), tracking `sp` relative to the entry `sp`;
//! calls are resolved through `R_RISCV_CALL`/`_PLT`, `R_RISCV_JAL`, `R_RISCV_RVC_JUMP` and
//! branch relocations in objects, or by address in linked ELFs, across every input (a name
//! defined in another archive member resolves there). The depth of a function is the deepest
//! `sp` of its own code, or of any call site plus the callee's depth, whichever is larger.
//! See `docs/stack-analysis.md` for the rules and their limits.
//!
//! A function has no bound ([`MachineDepth::Unbounded`], with the reason) when it recurses,
//! calls through a register, jumps through a register with no jump table pointing into it,
//! moves `sp` by a non-constant amount or loads it from elsewhere (a stack switch, unless
//! annotated: see [`annotate`]), calls a name no input defines, or reaches bytes that do not
//! decode; and when any callee has no bound.

pub mod annotate;
mod code;
mod error;
mod flow;
mod load;
mod solve;
pub mod toolchain;
mod unit;
mod value;

pub use error::MachineError;
pub use load::{load_bytes, load_path, ANNOTATION_SECTION};
pub use toolchain::{toolchain_archives, toolchain_library_depths, ToolchainArchives};
pub use unit::Unit;

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

/// The worst-case stack depth of a function and everything it calls, in bytes below the `sp`
/// it is called with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MachineDepth {
    /// At most this many bytes on every path.
    Bytes(u32),
    /// No bound could be proven; the text says why and where.
    Unbounded(String),
}

impl fmt::Display for MachineDepth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MachineDepth::Bytes(n) => write!(f, "{n}"),
            MachineDepth::Unbounded(why) => write!(f, "unbounded: {why}"),
        }
    }
}

/// One analysed function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineFunction {
    /// Every symbol naming its entry (aliases), first as in the symbol table.
    pub names: Vec<String>,
    /// The object defining it (`path` or `archive.a(member.o)`).
    pub origin: String,
    /// The deepest `sp` of its own code, in bytes below the entry `sp` (0 for a function that
    /// never moves `sp` down, or whose analysis stopped before it did).
    pub frame: u32,
    /// Callees (calls and tail calls) in the order first met; names as symbols.
    pub callees: Vec<String>,
    /// Its worst-case depth including callees. Guarantees: a bounded depth is at least
    /// `frame`; a function with no callee that never moves `sp` has depth 0.
    pub depth: MachineDepth,
}

/// The result of [`analyze`]: every function, and the depth of every global name.
#[derive(Clone, Debug, Default)]
pub struct MachineAnalysis {
    /// Every function of every unit, in input order.
    pub functions: Vec<MachineFunction>,
    /// Depth by global (or weak) symbol name, resolved as the linker would: the first strong
    /// definition, else the first weak one.
    pub depths: BTreeMap<String, MachineDepth>,
}

/// Analyses `units` as one program. A name no unit defines takes its depth from `externals`
/// when listed there (e.g. the toolchain libraries' depths), otherwise a call to it is an
/// unresolved external. Errors only for an annotation naming no function of its object.
pub fn analyze(
    units: &[Unit],
    externals: &BTreeMap<String, MachineDepth>,
) -> Result<MachineAnalysis, MachineError> {
    analyze_assuming(units, externals, &Assumptions::default())
}

/// What the caller vouches for about some functions, by name, that their code cannot show.
#[derive(Clone, Debug, Default)]
pub struct Assumptions {
    /// Code only ever reached on another stack than its caller's, as the kernel's
    /// nested-interrupt entry (`port_irq_nested`, taken only when the interrupted code
    /// already runs on the kernel stack): a call or branch to it costs the caller's stack
    /// nothing and ends that path on it. Its own depth is still computed.
    pub elsewhere: BTreeSet<String>,
    /// Functions whose calls through a register are hooks counted as 0 (the kernel's fault
    /// and halt hooks, as docs/kernel.md "Footprint" counts them): a depth-0 call clobbering
    /// every caller-saved register instead of no bound.
    pub hooks: BTreeSet<String>,
}

/// [`analyze`] under `assume`.
pub fn analyze_assuming(
    units: &[Unit],
    externals: &BTreeMap<String, MachineDepth>,
    assume: &Assumptions,
) -> Result<MachineAnalysis, MachineError> {
    let (functions, depths) = solve::solve(units, externals, assume)?;
    Ok(MachineAnalysis { functions, depths })
}

/// Loads every file of `paths` (objects, archives, linked ELFs; [`load_path`]) and analyses
/// them together with no external depths.
pub fn analyze_files(paths: &[PathBuf]) -> Result<MachineAnalysis, MachineError> {
    let mut units = Vec::new();
    for p in paths {
        units.extend(load_path(p)?);
    }
    analyze(&units, &BTreeMap::new())
}
