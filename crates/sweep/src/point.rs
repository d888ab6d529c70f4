//! What a sweep is made of: points, each producing one row.

use crate::Progress;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What one point measured: a row of the store, of the JSON file and of the tables.
pub trait Row: Clone + Send + Sync + Serialize + DeserializeOwned {
    /// The point's work is over: a resumed store's complete row is kept as it is; an
    /// incomplete one is handed back to the point to finish.
    fn complete(&self) -> bool {
        true
    }
    /// The point passed (its run was correct); counted in the summary's `passed=`/`failed=`.
    fn passed(&self) -> bool;
}

/// The work of a point: given the resumed incomplete row (if any) and the progress handle,
/// produce the row. Must not panic on guest or build trouble: a failure is a row that says so.
pub type Work<'a, R> = Box<dyn Fn(Option<R>, &Progress) -> R + Send + Sync + 'a>;

/// One independent point of a sweep.
pub struct Point<'a, R> {
    /// Unique within the sweep and stable across runs: the key of resume, shards and merge.
    pub key: String,
    /// What the progress bar shows while the point runs.
    pub label: String,
    /// The work.
    pub work: Work<'a, R>,
}

impl<'a, R> Point<'a, R> {
    /// A point called `key`, shown as `label`, doing `work`.
    pub fn new(
        key: impl Into<String>,
        label: impl Into<String>,
        work: impl Fn(Option<R>, &Progress) -> R + Send + Sync + 'a,
    ) -> Point<'a, R> {
        Point {
            key: key.into(),
            label: label.into(),
            work: Box::new(work),
        }
    }
}
