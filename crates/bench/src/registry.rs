//! Every evaluation by name, so `cactus bench merge` can render a merged store without the
//! command that made its shards: the store's `meta.bench` names the evaluation, whose row
//! type reads the rows back.

use crate::advise::Advise;
use crate::capriccio::Capriccio;
use crate::carousel::Carousel;
use crate::ccs::Ccs;
use crate::checks::Checks;
use crate::kernel::Kernel;
use crate::latency::report::Latency;
use crate::mtss::mso::Mso;
use crate::mtss::pages::Pages;
use crate::mtss::prs_report::Prs;
use crate::mtss::wcet_report::Wcet;
use crate::scaling::report::Scaling;
use crate::segmented::Segmented;
use crate::sensmart::Sensmart;
use crate::sim_speed::SimSpeed;
use crate::srp::Srp;
use crate::workloads::bench::Workloads;
use cactus_sweep::evaluation::{render, Evaluation};
use cactus_sweep::store::Keyed;
use cactus_sweep::{Store, SweepReport};

/// The names of every evaluation a store can be of.
pub const NAMES: [&str; 17] = [
    Mso::NAME,
    Pages::NAME,
    Prs::NAME,
    Wcet::NAME,
    Capriccio::NAME,
    Checks::NAME,
    Kernel::NAME,
    Latency::NAME,
    Workloads::NAME,
    SimSpeed::NAME,
    Scaling::NAME,
    Segmented::NAME,
    Advise::NAME,
    Srp::NAME,
    Carousel::NAME,
    Sensmart::NAME,
    Ccs::NAME,
];

/// The rendering of `store` (of any evaluation, rows as JSON) by its evaluation; an error
/// names an unknown evaluation or a row its evaluation cannot read.
pub fn render_store(store: &Store<serde_json::Value>) -> Result<SweepReport, String> {
    match store.meta.bench.as_str() {
        Mso::NAME => typed::<Mso>(store),
        Pages::NAME => typed::<Pages>(store),
        Prs::NAME => typed::<Prs>(store),
        Wcet::NAME => typed::<Wcet>(store),
        Capriccio::NAME => typed::<Capriccio>(store),
        Checks::NAME => typed::<Checks>(store),
        Kernel::NAME => typed::<Kernel>(store),
        Latency::NAME => typed::<Latency>(store),
        Workloads::NAME => typed::<Workloads>(store),
        SimSpeed::NAME => typed::<SimSpeed>(store),
        Scaling::NAME => typed::<Scaling>(store),
        Segmented::NAME => typed::<Segmented>(store),
        Advise::NAME => typed::<Advise>(store),
        Srp::NAME => typed::<Srp>(store),
        Carousel::NAME => typed::<Carousel>(store),
        Sensmart::NAME => typed::<Sensmart>(store),
        Ccs::NAME => typed::<Ccs>(store),
        other => Err(format!(
            "`{other}` is not an evaluation (known: {})",
            NAMES.join(", ")
        )),
    }
}

fn typed<E: Evaluation>(store: &Store<serde_json::Value>) -> Result<SweepReport, String> {
    let rows = store
        .rows
        .iter()
        .map(|k| {
            serde_json::from_value::<E::Row>(k.row.clone())
                .map(|row| Keyed {
                    key: k.key.clone(),
                    row,
                })
                .map_err(|e| format!("row `{}` is not a `{}` row: {e}", k.key, E::NAME))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let typed = Store {
        meta: store.meta.clone(),
        shard: store.shard,
        keys: store.keys.clone(),
        rows,
    };
    Ok(render::<E>(&typed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cactus_sweep::{Meta, Shard};

    #[test]
    fn a_store_renders_through_its_evaluation_by_name() {
        let store = Store {
            meta: Meta {
                bench: Prs::NAME.into(),
                params: crate::mtss::prs::params(None, &[]),
                ..Meta::default()
            },
            shard: Shard::WHOLE,
            keys: vec!["w.toml".into()],
            rows: vec![Keyed {
                key: "w.toml".into(),
                row: serde_json::to_value(crate::mtss::prs::WorkloadPrs::start("w", "w.toml", 128))
                    .unwrap(),
            }],
        };
        let report = render_store(&store).unwrap();
        assert!(report.tables.contains("| w |"), "{}", report.tables);
        let mut other = store.clone();
        other.meta.bench = "nothing".into();
        assert!(render_store(&other).unwrap_err().contains("`nothing`"));
        let mut bad = store;
        bad.rows[0].row = serde_json::json!(3);
        assert!(render_store(&bad).unwrap_err().contains("row `w.toml`"));
    }
}
