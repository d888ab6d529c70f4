//! cactus-sweep: the engine every Cactus evaluation runs on.
//!
//! A sweep is a list of independent [`Point`]s (build + run + judge, or a whole bisection
//! search); [`run`] makes them in parallel with a progress bar, stores each [`Row`] as it
//! finishes ([`Store`]: atomic, resumable, with the command and versions that made it), and a
//! [`Shard`] (`--shard I/N`) runs one slice that [`merge`] joins with the others into the
//! store a single run gives. [`search`] holds the bisections (MSO, PRS), [`table`] the
//! Markdown tables, [`report`] the report file and the one-line `name: key=value` summary.
//!
//! Design rule: nothing here knows a paper. An evaluation (crates/bench) supplies its points,
//! its row type and the function that renders rows; the engine supplies everything else.

mod engine;
pub mod evaluation;
pub mod memo;
pub mod merge;
mod point;
pub mod progress;
pub mod report;
pub mod search;
mod shard;
pub mod store;
pub mod table;

pub use engine::{par_map, run, SweepOptions};
pub use evaluation::{execute, Evaluation, Outputs};
pub use memo::Memo;
pub use merge::merge;
pub use point::{Point, Row};
pub use progress::Progress;
pub use report::{Summary, SweepReport};
pub use shard::Shard;
pub use store::{Meta, Store};

use std::path::PathBuf;

/// Why a sweep could not run, resume, save or merge (a point's own failure is recorded in its
/// row instead, never here).
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The worker pool could not start.
    #[error("cannot start the worker pool: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why (in the message only, so a chain printer does not repeat it).
        error: std::io::Error,
    },
    /// A file is not a sweep store, or not of this sweep.
    #[error("{path}: {why}")]
    Store {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Stores that cannot be merged, or a shard that cannot be taken.
    #[error("{0}")]
    Mismatch(String),
    /// The progress bar's template was refused.
    #[error("progress bar: {0}")]
    Progress(String),
}
