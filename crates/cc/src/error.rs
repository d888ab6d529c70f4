//! Errors of the driver and the passes.

use thiserror::Error;

/// Why `cactus cc` could not produce an object. Every variant names the file (and line or
/// function where known).
#[derive(Debug, Error)]
pub enum CcError {
    /// The assembly GCC produced could not be parsed.
    #[error("{origin}: {source}")]
    Parse {
        /// The assembly file (or the C file it came from).
        origin: String,
        /// What the parser said.
        source: cactus_asm::AsmError,
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
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The command line given to the driver is not usable.
    #[error("{0}")]
    Usage(String),
}
