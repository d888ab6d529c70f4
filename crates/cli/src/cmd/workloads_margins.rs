//! `cactus workloads margins`: the check margin of every task's stack budget
//! (`cactus_firmware::check_margin`, docs/mtss.md "The check margin in the budgets"). Each
//! selected manifest is built as the MTSS experiments build it (`stack = "mtss"`, `checks =
//! "mtss"`, the toolchain libraries' reserves, K = 10 % of the smallest budget) and the pass
//! report gives, per task, the largest demand of any check its code can reach. The JSON is
//! the `--margins` input of workloads/common/kernel/gen_manifests.py.

use anyhow::{anyhow, Context, Result};
use cactus_firmware::check_margin::{task_margins, TaskMargin};
use cactus_firmware::manifest::Overrides;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest};
use serde_json::json;
use std::path::Path;

/// One manifest's margins: (firmware name, per task).
pub(crate) type Margins = (String, Vec<TaskMargin>);

/// Builds the manifest at `path` under MTSS and reads its tasks' margins.
pub(crate) fn manifest_margins(path: &Path, checks: &CheckOptions) -> Result<Margins> {
    let mut m = Manifest::load(path)?;
    m.apply(&Overrides {
        stack: Some("mtss".into()),
        checks: Some("mtss".into()),
        target: Some("sim".into()),
        ..Default::default()
    })
    .with_context(|| format!("{}: building it under mtss", path.display()))?;
    let opts = BuildOptions {
        checks: checks.clone(),
        ..Default::default()
    };
    let built = cactus_firmware::build(&m, &opts)
        .map_err(|e| anyhow!("{}: building it under mtss: {e}", path.display()))?;
    let report_path = built.dir.join(cactus_firmware::cc_build::REPORT_NAME);
    let text = std::fs::read_to_string(&report_path)
        .with_context(|| format!("reading {}", report_path.display()))?;
    let report: cactus_cc::Report = serde_json::from_str(&text)
        .with_context(|| format!("reading {}", report_path.display()))?;
    Ok((m.name.clone(), task_margins(&m.tasks, &report)))
}

/// The table printed for `all` (one row per task).
pub(crate) fn table(all: &[Margins]) -> String {
    let mut out = String::from("| firmware | task | check margin | from |\n|---|---|---:|---|\n");
    for (firmware, tasks) in all {
        for t in tasks {
            let margin = t.margin.map_or("-".to_string(), |m| m.to_string());
            out.push_str(&format!(
                "| {firmware} | {} | {margin} | {} |\n",
                t.task, t.why
            ));
        }
    }
    out
}

/// The JSON rows for `all`: `{"firmware", "task", "check_margin", "from"}`, `check_margin`
/// null where the code is not known.
pub(crate) fn json_rows(all: &[Margins]) -> serde_json::Value {
    let rows: Vec<_> = all
        .iter()
        .flat_map(|(firmware, tasks)| {
            tasks.iter().map(move |t| {
                json!({
                    "firmware": firmware,
                    "task": t.task,
                    "check_margin": t.margin,
                    "from": t.why,
                })
            })
        })
        .collect();
    json!({ "rows": rows })
}
