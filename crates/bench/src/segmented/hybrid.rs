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
