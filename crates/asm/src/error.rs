//! Errors of the assembly IR.

use thiserror::Error;

/// Why an assembly file could not be read into the IR. Always names the file and line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AsmError {
    /// An instruction line (outside inline-asm regions) did not parse.
    #[error("{origin}:{line}: {reason}")]
    Syntax {
        /// The file the text came from (as given to [`crate::AsmFile::parse`]).
        origin: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}
