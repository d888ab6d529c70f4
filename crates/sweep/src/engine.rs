//! Running a sweep: the points of one shard, `workers` at a time, each row stored as it
//! finishes; resumed complete rows kept as they are.

use crate::store::Keyed;
use crate::{Meta, Point, Progress, Row, Shard, Store, SweepError};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// The store is rewritten at most this often while points finish (and once at the end).
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// How to run a sweep.
#[derive(Clone, Debug, Default)]
pub struct SweepOptions {
    /// Points made at once (at least one).
    pub workers: usize,
    /// The slice to run.
    pub shard: Shard,
    /// Rewritten atomically as points finish (at most once a second) and at the end.
    pub json: Option<PathBuf>,
    /// Where the store comes from (its `params` must match a resumed store's).
    pub meta: Meta,
    /// What the progress bar counts ("tasks", "workloads", ...).
    pub unit: String,
}

/// Runs the points of `options.shard` (every point when whole) and returns their store. Rows
/// of `resume` (an earlier store of the same evaluation and parameters) that are complete are
/// kept without running their point; an incomplete one is handed to its point to finish.
/// Errs before any work if the keys repeat or the resumed store is another experiment's; a
/// failing save is reported after the sweep (every point still runs).
pub fn run<R: Row>(
    points: Vec<Point<'_, R>>,
    options: &SweepOptions,
    resume: Option<Store<R>>,
) -> Result<Store<R>, SweepError> {
    let started = Instant::now();
    let keys: Vec<String> = points.iter().map(|p| p.key.clone()).collect();
    let unique: BTreeSet<&String> = keys.iter().collect();
    if unique.len() != keys.len() {
        return Err(SweepError::Mismatch(format!(
            "{}: two points share a key",
            options.meta.bench
        )));
    }
    if let Some(r) = &resume {
        if r.meta.bench != options.meta.bench || r.meta.params != options.meta.params {
            return Err(SweepError::Mismatch(format!(
                "the resumed results are of `{}` with {}, not of `{}` with {}",
                r.meta.bench, r.meta.params, options.meta.bench, options.meta.params
            )));
        }
    }
    let mut resumed: Vec<Option<R>> = keys
        .iter()
        .map(|k| resume.as_ref().and_then(|r| r.get(k).cloned()))
        .collect();
    let mine: Vec<usize> = (0..points.len())
        .filter(|&i| options.shard.holds(i))
        .collect();
    let progress = Progress::bar(mine.len() as u64, &options.unit)?;
    let mut done: Vec<Option<R>> = vec![None; points.len()];
    let mut todo = Vec::new();
    for &i in &mine {
        match resumed[i].take() {
            Some(r) if r.complete() => {
                done[i] = Some(r);
                progress.step();
            }
            other => todo.push((i, other)),
        }
    }
    let meta = Meta {
        seconds: resume.as_ref().map(|r| r.meta.seconds).unwrap_or(0.0),
        ..options.meta.clone()
    };
    let store_of = |done: &[Option<R>], seconds: f64| Store {
        meta: Meta {
            seconds: meta.seconds + seconds,
            ..meta.clone()
        },
        shard: options.shard,
        keys: keys.clone(),
        rows: done
            .iter()
            .zip(&keys)
            .filter_map(|(r, k)| {
                r.clone().map(|row| Keyed {
                    key: k.clone(),
                    row,
                })
            })
            .collect(),
    };
    let shared = Mutex::new(done);
    let saved: Mutex<Result<(), SweepError>> = Mutex::new(Ok(()));
    let last_save = Mutex::new(started);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.workers.max(1))
        .build()?;
    pool.install(|| {
        use rayon::prelude::*;
        todo.into_par_iter().for_each(|(i, start)| {
            let point = &points[i];
            progress.message(point.label.clone());
            let row = (point.work)(start, &progress);
            progress.step();
            let mut done = lock(&shared);
            done[i] = Some(row);
            // At most one save a second while points finish (a 10 000-seed stress would
            // otherwise rewrite its growing store 10 000 times); the last save is below.
            let mut last = lock(&last_save);
            if let (Some(path), true) = (&options.json, last.elapsed() >= SAVE_EVERY) {
                let store = store_of(&done, started.elapsed().as_secs_f64());
                if let Err(e) = store.save(path) {
                    *lock(&saved) = Err(e);
                }
                *last = Instant::now();
            }
        })
    });
    progress.finish();
    saved.into_inner().unwrap_or_else(|p| p.into_inner())?;
    let done = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    let store = store_of(&done, started.elapsed().as_secs_f64());
    if let Some(path) = &options.json {
        store.save(path)?;
    }
    Ok(store)
}

/// `f` of every item, `workers` at a time, in the items' order (for harnesses that need no
/// store: the random difftest, the fuzz batches). Errs only if the worker pool cannot start.
pub fn par_map<T: Sync, R: Send>(
    items: &[T],
    workers: usize,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Result<Vec<R>, SweepError> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers.max(1))
        .build()?;
    Ok(pool.install(|| items.par_iter().map(&f).collect()))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Square {
        n: u32,
        square: Option<u32>,
    }

    impl Row for Square {
        fn complete(&self) -> bool {
            self.square.is_some()
        }
        fn passed(&self) -> bool {
            self.n != 3
        }
    }

    fn points(made: &AtomicUsize) -> Vec<Point<'_, Square>> {
        (0..7u32)
            .map(|n| {
                Point::new(
                    format!("n{n}"),
                    format!("{n}"),
                    move |start, _: &Progress| {
                        made.fetch_add(1, Ordering::SeqCst);
                        let mut row = start.unwrap_or(Square { n, square: None });
                        row.square = Some(n * n);
                        row
                    },
                )
            })
            .collect()
    }

    fn options(shard: Shard) -> SweepOptions {
        SweepOptions {
            workers: 2,
            shard,
            json: None,
            meta: Meta::current("squares", serde_json::json!({ "p": 1 })),
            unit: String::new(),
        }
    }

    #[test]
    fn par_map_keeps_the_order() {
        let items: Vec<u32> = (0..50).collect();
        assert_eq!(
            par_map(&items, 3, |x| x * 2).unwrap(),
            (0..100).step_by(2).collect::<Vec<u32>>()
        );
    }

    #[test]
    fn every_point_runs_once_in_sweep_order() {
        let made = AtomicUsize::new(0);
        let store = run(points(&made), &options(Shard::WHOLE), None).unwrap();
        assert_eq!(made.load(Ordering::SeqCst), 7);
        let squares: Vec<u32> = store.rows().iter().map(|r| r.square.unwrap()).collect();
        assert_eq!(squares, [0, 1, 4, 9, 16, 25, 36]);
        assert!(store.missing().is_empty());
    }

    #[test]
    fn resumed_complete_rows_are_kept_and_incomplete_ones_finished() {
        let made = AtomicUsize::new(0);
        let mut old = run(points(&made), &options(Shard::WHOLE), None).unwrap();
        old.rows[0].row.square = Some(1000); // kept as is: complete
        old.rows[1].row.square = None; // finished again
        old.rows.truncate(3);
        let made = AtomicUsize::new(0);
        let store = run(points(&made), &options(Shard::WHOLE), Some(old)).unwrap();
        assert_eq!(made.load(Ordering::SeqCst), 5);
        assert_eq!(store.rows()[0].square, Some(1000));
        assert_eq!(store.rows()[1].square, Some(1));
    }

    #[test]
    fn another_experiments_store_is_refused() {
        let made = AtomicUsize::new(0);
        let old = run(points(&made), &options(Shard::WHOLE), None).unwrap();
        let mut other = options(Shard::WHOLE);
        other.meta.params = serde_json::json!({ "p": 2 });
        let e = run(points(&made), &other, Some(old))
            .unwrap_err()
            .to_string();
        assert!(e.contains("squares"), "{e}");
    }

    #[test]
    fn the_store_is_saved_as_points_finish() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        let made = AtomicUsize::new(0);
        let mut o = options(Shard { index: 2, count: 3 });
        o.json = Some(path.clone());
        let store = run(points(&made), &o, None).unwrap();
        let back: Store<Square> = Store::load(&path).unwrap();
        assert_eq!(back, store);
        let keys: Vec<&str> = back.rows.iter().map(|k| k.key.as_str()).collect();
        assert_eq!(keys, ["n1", "n4"]);
        assert_eq!(back.keys.len(), 7);
    }
}
