//! Why the fuzz harness could not do its work (as opposed to a case that fails, which is a
//! [`crate::fuzz::CaseStatus`]).

use std::path::PathBuf;

/// An error of the harness itself: a missing tool, an unreadable saved case, an I/O failure.
/// Every variant names the file or tool concerned.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    /// A program the harness needs is not on PATH.
    #[error(
        "{tool} not found on PATH (install the Debian package {package}, or run scripts/setup)"
    )]
    NotInstalled {
        /// The program.
        tool: &'static str,
        /// The Debian package that provides it.
        package: &'static str,
    },
    /// A tool ran but failed where failure means the harness is broken (not the case).
    #[error("{tool} failed on {path}:\n{stderr}")]
    Tool {
        /// The program.
        tool: &'static str,
        /// The input it failed on.
        path: PathBuf,
        /// What it printed.
        stderr: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {error}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A saved case is incomplete or malformed.
    #[error("{path}: {reason}")]
    BadCase {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// An option names something that does not exist (an optimization level, a mode).
    #[error("{0}")]
    Usage(String),
    /// The worker pool could not be created.
    #[error("thread pool: {0}")]
    Pool(String),
}

/// A closure turning an I/O error on `path` into [`FuzzError::Io`].
pub(crate) fn io_at(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> FuzzError {
    let path = path.to_path_buf();
    move |error| FuzzError::Io { path, error }
}
