//! What every evaluation is to the engine and to `cactus bench merge`: a name, a row type and
//! a rendering of its rows; and [`execute`], the one way a bench command runs its sweep
//! (resume, shard, store, report file), so no evaluation carries its own copy.

use crate::{Meta, Point, Row, Shard, Store, SweepError, SweepOptions, SweepReport};
use std::path::PathBuf;

/// An evaluation: its rows and how they are shown.
pub trait Evaluation {
    /// Its name in stores and in `cactus bench merge` (`mtss prs`).
    const NAME: &'static str;
    /// What the progress bar counts (`tasks`, `workloads`).
    const UNIT: &'static str;
    /// What one point measured.
    type Row: Row;
    /// The tables, how to read them and the summary of `rows` (in sweep order; a shard's or
    /// a merged store's alike), made by the experiment `meta` describes.
    fn render(rows: &[Self::Row], meta: &Meta) -> SweepReport;
}

/// Where a bench command's sweep runs and writes.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// Points made at once.
    pub jobs: usize,
    /// The slice to run.
    pub shard: Shard,
    /// The store, rewritten after every point.
    pub json: Option<PathBuf>,
    /// The report file.
    pub markdown: Option<PathBuf>,
    /// An earlier store of the same experiment to resume (a missing file starts afresh).
    pub resume: Option<PathBuf>,
}

/// A finished sweep: its store and its rendering.
#[derive(Clone, Debug)]
pub struct Finished<R> {
    /// The rows made (and kept from a resumed store).
    pub store: Store<R>,
    /// Their rendering.
    pub report: SweepReport,
}

/// Runs `points` of evaluation `E` with `params` as `out` says: resumes from `out.resume`
/// when it exists, runs the shard, saves the store to `out.json` as points finish, renders the
/// rows and writes the report to `out.markdown`.
pub fn execute<E: Evaluation>(
    points: Vec<Point<'_, E::Row>>,
    params: serde_json::Value,
    out: &Outputs,
) -> Result<Finished<E::Row>, SweepError> {
    let resume = match &out.resume {
        Some(path) if path.exists() => Some(Store::load(path)?),
        Some(path) => {
            eprintln!(
                "cactus: {} does not exist yet: starting afresh",
                path.display()
            );
            None
        }
        None => None,
    };
    let options = SweepOptions {
        workers: out.jobs,
        shard: out.shard,
        json: out.json.clone(),
        meta: Meta::current(E::NAME, params),
        unit: E::UNIT.to_string(),
    };
    let store = crate::run(points, &options, resume)?;
    let report = render::<E>(&store);
    if let Some(path) = &out.markdown {
        report.write(&store.meta, path)?;
    }
    Ok(Finished { store, report })
}

/// The rendering of `store`'s rows, noting a shard that is not the whole sweep.
pub fn render<E: Evaluation>(store: &Store<E::Row>) -> SweepReport {
    let rows: Vec<E::Row> = store.rows().into_iter().cloned().collect();
    let mut report = E::render(&rows, &store.meta);
    if !store.shard.is_whole() {
        report.note.push_str(&format!(
            " (shard {} only: {} of {} points; `cactus bench merge` joins the shards)",
            store.shard,
            store.rows.len(),
            store.keys.len()
        ));
    }
    report
}

/// The verdicts of `rows`: (passed, failed).
pub fn verdicts<R: Row>(rows: &[R]) -> (usize, usize) {
    let passed = rows.iter().filter(|r| r.passed()).count();
    (passed, rows.len() - passed)
}
