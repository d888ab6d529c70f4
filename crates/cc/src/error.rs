//! Errors of the driver and the passes.
//! An underlying error is part of the variant's message and deliberately not its `source()`
//! (the field is `error`, not `source`), so that a chain printer such as anyhow's `{:#}` says
//! the cause once.

use thiserror::Error;

/// Why `cactus cc` could not produce an object. Every variant names the file (and line or
/// function where known).
#[derive(Debug, Error)]
pub enum CcError {
    /// The assembly GCC produced could not be parsed.
    #[error("{origin}: {error}")]
    Parse {
        /// The assembly file (or the C file it came from).
        origin: String,
        /// What the parser said.
        error: cactus_asm::AsmError,
    },
    /// A function cannot be instrumented safely (e.g. no dead scratch register for a check).
    #[error("{origin}: function `{function}`: {reason}")]
    Function {
        /// The assembly file.
        origin: String,
        /// The function.
        function: String,
        /// What is wrong.
        reason: String,
    },
    /// The compiler or assembler could not be run or failed.
    #[error("{0}")]
    Tool(String),
    /// Reading or writing a file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The command line given to the driver is not usable.
    #[error("{0}")]
    Usage(String),
}
