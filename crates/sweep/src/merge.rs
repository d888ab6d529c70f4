//! `cactus bench merge`: the shards of one sweep joined into the store a single run gives.

use crate::store::{command_line, Keyed};
use crate::{Shard, Store, SweepError};
use std::path::PathBuf;

/// Joins `stores` (each with the file it came from, for errors) into one whole store: they
/// must be of the same evaluation, parameters and points; a point's row may appear in more
/// than one store only if the rows are equal; every point must have a row. The merged store's
/// command is this process's command line, its time the shards' summed.
pub fn merge<R: Clone + PartialEq>(
    stores: Vec<(PathBuf, Store<R>)>,
) -> Result<Store<R>, SweepError> {
    let Some((first_path, first)) = stores.first() else {
        return Err(SweepError::Mismatch("nothing to merge".into()));
    };
    for (path, s) in &stores[1..] {
        let differs = if s.meta.bench != first.meta.bench {
            Some(format!("`{}`, not `{}`", s.meta.bench, first.meta.bench))
        } else if s.meta.params != first.meta.params {
            Some(format!(
                "parameters {}, not {}",
                s.meta.params, first.meta.params
            ))
        } else if s.keys != first.keys {
            Some("other points".to_string())
        } else {
            None
        };
        if let Some(why) = differs {
            return Err(SweepError::Store {
                path: path.clone(),
                why: format!("cannot merge with {}: {why}", first_path.display()),
            });
        }
    }
    let mut rows: Vec<Option<(usize, R)>> = vec![None; first.keys.len()];
    for (si, (path, s)) in stores.iter().enumerate() {
        for k in &s.rows {
            let Some(pos) = first.keys.iter().position(|key| key == &k.key) else {
                return Err(SweepError::Store {
                    path: path.clone(),
                    why: format!("row `{}` is not a point of the sweep", k.key),
                });
            };
            match &rows[pos] {
                Some((other, row)) if *row != k.row => {
                    return Err(SweepError::Store {
                        path: path.clone(),
                        why: format!(
                            "point `{}` differs from its row in {}",
                            k.key,
                            stores[*other].0.display()
                        ),
                    })
                }
                Some(_) => {}
                None => rows[pos] = Some((si, k.row.clone())),
            }
        }
    }
    let missing: Vec<&str> = first
        .keys
        .iter()
        .zip(&rows)
        .filter(|(_, r)| r.is_none())
        .map(|(k, _)| k.as_str())
        .collect();
    if !missing.is_empty() {
        let shown: Vec<&str> = missing.iter().take(5).copied().collect();
        return Err(SweepError::Mismatch(format!(
            "{} point(s) have no row in any of the stores (a shard is missing?): {}{}",
            missing.len(),
            shown.join(", "),
            if missing.len() > 5 { ", ..." } else { "" }
        )));
    }
    let mut meta = first.meta.clone();
    meta.command = command_line();
    meta.seconds = stores.iter().map(|(_, s)| s.meta.seconds).sum();
    Ok(Store {
        meta,
        shard: Shard::WHOLE,
        keys: first.keys.clone(),
        rows: first
            .keys
            .iter()
            .zip(rows)
            .filter_map(|(key, r)| {
                r.map(|(_, row)| Keyed {
                    key: key.clone(),
                    row,
                })
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, Meta, Point, Progress, SweepOptions};

    fn sweep(shard: Shard) -> Store<u64> {
        let points: Vec<Point<u64>> = (0..10u64)
            .map(|n| Point::new(format!("p{n}"), "", move |_, _: &Progress| n * n + 1))
            .collect();
        let options = SweepOptions {
            workers: 2,
            shard,
            json: None,
            meta: Meta::current("squares", serde_json::json!(null)),
            unit: String::new(),
        };
        run(points, &options, None).unwrap()
    }

    impl crate::Row for u64 {
        fn passed(&self) -> bool {
            true
        }
    }

    #[test]
    fn three_shards_merged_equal_one_run() {
        let whole = sweep(Shard::WHOLE);
        let shards: Vec<(PathBuf, Store<u64>)> = (1..=3)
            .map(|i| {
                (
                    PathBuf::from(format!("s{i}")),
                    sweep(Shard { index: i, count: 3 }),
                )
            })
            .collect();
        for (_, s) in &shards {
            assert!(s.rows.len() < whole.rows.len());
        }
        let merged = merge(shards).unwrap();
        assert_eq!(merged.rows, whole.rows);
        assert_eq!(merged.keys, whole.keys);
        assert_eq!(merged.shard, Shard::WHOLE);
    }

    #[test]
    fn a_missing_shard_or_another_experiment_is_refused() {
        let a = sweep(Shard { index: 1, count: 2 });
        let e = merge(vec![("a".into(), a.clone())])
            .unwrap_err()
            .to_string();
        assert!(e.contains("5 point(s) have no row"), "{e}");
        let mut b = sweep(Shard { index: 2, count: 2 });
        b.meta.bench = "cubes".into();
        let e = merge(vec![("a".into(), a.clone()), ("b.json".into(), b)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("b.json") && e.contains("cubes"), "{e}");
        let mut c = sweep(Shard::WHOLE);
        c.rows[0].row = 99;
        let e = merge(vec![("a".into(), a), ("c.json".into(), c)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("c.json") && e.contains("p0"), "{e}");
    }
}
