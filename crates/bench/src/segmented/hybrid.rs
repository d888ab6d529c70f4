//! The `mtss+split` row of the segmented evaluation: its PRS against the measured high water,
//! read from the store of a `cactus bench mtss prs --stack mtss+split` sweep (six workloads,
//! minutes of runs: too long for `--size small`, so it is measured apart and its store named
//! with `--hybrid-prs`). The figure travels in the segmented store's parameters, so a merged or
//! re-rendered store shows the same summary.

use crate::mtss::prs::WorkloadPrs;
use crate::mtss::prs_report::Prs;
use cactus_sweep::evaluation::Evaluation;
use cactus_sweep::table::mean;
use cactus_sweep::Store;
use std::path::Path;

/// The hybrid's figures from the PRS store at `path`: the store path, its stacklet pool, the
/// mean PRS against the summed high water (stacklet heap counted) over the workloads that
/// finished, their count and the failed ones'. An error says why the store does not qualify
/// (not a PRS store, not of `mtss+split`, no finished workload).
pub fn hybrid_prs(path: &Path) -> Result<serde_json::Value, String> {
    let store: Store<WorkloadPrs> = Store::load(path).map_err(|e| e.to_string())?;
    let shown = path.display();
    if store.meta.bench != Prs::NAME {
        return Err(format!(
            "{shown}: a `{}` store, not `{}`",
            store.meta.bench,
            Prs::NAME
        ));
    }
    if store.meta.params["stack"] != "mtss+split" {
        return Err(format!(
            "{shown}: a PRS sweep of `mtss`, not `mtss+split` (run `cactus bench mtss prs \
             --stack mtss+split --json FILE`)"
        ));
    }
    let rows = store.rows();
    let ok: Vec<&WorkloadPrs> = rows.iter().copied().filter(|r| r.error.is_none()).collect();
    let pct = mean(ok.iter().filter_map(|r| r.prs_of_high_water()))
        .ok_or_else(|| format!("{shown}: no workload finished"))?;
    Ok(serde_json::json!({
        "store": shown.to_string(),
        "stacklet_pool": store.meta.params["stacklet_pool"],
        "prs_hw_pct": (pct * 10.0).round() / 10.0,
        "workloads": ok.len(),
        "failed": rows.len() - ok.len(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cactus_sweep::store::Keyed;
    use cactus_sweep::{Meta, Shard};

    fn row(workload: &str, hw: u32, smallest: u32, heap: u32, error: Option<&str>) -> WorkloadPrs {
        let mut r = WorkloadPrs::start(workload, &format!("{workload}.toml"), 128)
            .with_strategy("mtss+split", heap);
        r.high_water_total = Some(hw);
        r.smallest_total = Some(smallest);
        r.prs = Some(95);
        r.error = error.map(str::to_string);
        r.complete = true;
        r
    }

    fn store(params: serde_json::Value, rows: Vec<WorkloadPrs>) -> Store<WorkloadPrs> {
        Store {
            meta: Meta {
                bench: Prs::NAME.into(),
                params,
                ..Meta::default()
            },
            shard: Shard::WHOLE,
            keys: rows.iter().map(|r| r.manifest.clone()).collect(),
            rows: rows
                .into_iter()
                .map(|r| Keyed {
                    key: r.manifest.clone(),
                    row: r,
                })
                .collect(),
        }
    }

    #[test]
    fn the_mean_counts_the_heap_and_skips_failed_workloads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prs.json");
        let params = crate::mtss::prs::params(None, &[1024, 4096]);
        store(
            params,
            vec![
                // (4000 - (1000 + 1024)) / 4000 = 49.4 %; (1000 - (700 + 100)) / 1000 = 20 %.
                row("a", 4000, 1000, 1024, None),
                row("b", 1000, 700, 100, None),
                row("c", 1000, 100, 0, Some("fails unshrunk")),
            ],
        )
        .save(&path)
        .unwrap();
        let h = hybrid_prs(&path).unwrap();
        assert_eq!(h["prs_hw_pct"], 34.7);
        assert_eq!(
            (h["workloads"].as_u64(), h["failed"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(h["stacklet_pool"], serde_json::json!([1024, 4096]));
    }

    #[test]
    fn only_an_mtss_split_prs_store_qualifies() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("prs.json");
        store(
            crate::mtss::prs::params(None, &[]),
            vec![row("a", 4000, 1000, 0, None)],
        )
        .save(&path)
        .unwrap();
        let e = hybrid_prs(&path).unwrap_err();
        assert!(e.contains("not `mtss+split`"), "{e}");
        assert!(hybrid_prs(&dir.path().join("none.json")).is_err());
    }
}
