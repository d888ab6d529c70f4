//! Errors of the machine-code analysis: unreadable or malformed inputs, bad annotations,
//! toolchain queries that fail, caches that cannot be written. (A function without a bound
//! is not an error: it is a [`super::MachineDepth::Unbounded`] with its reason.)
//! An underlying error is part of the variant's message and deliberately not its `source()`
//! (the field is `error`, not `source`), so that a chain printer such as anyhow's `{:#}` says
//! the cause once.

use std::path::PathBuf;

/// Why machine-code depths could not be computed.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// A file could not be read or written.
    #[error("{what} {}: {error}", path.display())]
    Io {
        /// What was being done ("cannot read", ...).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// An input is not a RISC-V 32-bit ELF object, archive or executable, or is malformed.
    #[error("{origin}: {problem}")]
    Malformed {
        /// The file (or `archive(member)`).
        origin: String,
        /// What is wrong.
        problem: String,
    },
    /// A `.cactus.stack_depth` entry that cannot be used.
    #[error("{origin}: .cactus.stack_depth entry {entry:?}: {problem}")]
    Annotation {
        /// The object holding it.
        origin: String,
        /// The entry text.
        entry: String,
        /// What is wrong.
        problem: String,
    },
    /// The cross toolchain could not be run or did not say where its libraries are.
    #[error("toolchain: {0}")]
    Toolchain(String),
}
