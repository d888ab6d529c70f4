//! The work the points of one workload share: its baseline run (the manifest as written, the
//! run its budgets were derived from) and its probe setup at a page size, made once per
//! process by the first point that needs them.

use super::run::{baseline, Baseline, ProbeSetup};
use super::search::Probe;
use super::{MtssOptions, MIN_CYCLE_LIMIT};
use cactus_sweep::Memo;
use std::path::Path;
use std::sync::Arc;

/// A workload ready for probes: its setup and its baseline run.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// How its probes are built and run.
    pub setup: ProbeSetup,
    /// Its baseline run.
    pub base: Baseline,
}

/// The shared work of an experiment's points.
pub struct Shared<'o> {
    options: &'o MtssOptions,
    baselines: Memo<String, Result<Baseline, String>>,
    full: Memo<(String, Option<u32>), Probe>,
}

impl<'o> Shared<'o> {
    /// Nothing made yet.
    pub fn new(options: &'o MtssOptions) -> Shared<'o> {
        Shared {
            options,
            baselines: Memo::new(),
            full: Memo::new(),
        }
    }

    /// The experiment's options.
    pub fn options(&self) -> &MtssOptions {
        self.options
    }

    /// The baseline run of `manifest` and its probe setup at `page`, with a cycle limit of
    /// `factor` baseline runs (at least [`MIN_CYCLE_LIMIT`]); an error says why either failed.
    pub fn prepare(
        &self,
        manifest: &str,
        page: Option<u32>,
        factor: u64,
    ) -> Result<Prepared, String> {
        let path = Path::new(manifest);
        let base = self.baselines.get(&manifest.to_string(), || baseline(path));
        let base = base.as_ref().clone()?;
        let max = (base.cycles * factor).max(MIN_CYCLE_LIMIT);
        let o = self.options;
        let setup = ProbeSetup::new(path, &o.reserves, o.out_root.clone(), max, page)?;
        Ok(Prepared { setup, base })
    }

    /// The probe with every task at its manifest budget (made once per workload and page).
    pub fn full_probe(&self, manifest: &str, page: Option<u32>, setup: &ProbeSetup) -> Arc<Probe> {
        self.full.get(&(manifest.to_string(), page), || {
            let budget = setup.manifest.tasks.first().map(|t| t.stack).unwrap_or(0);
            setup.probe(0, budget)
        })
    }
}
