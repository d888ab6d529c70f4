//! `cactus bench sensmart`: the SenSmart evaluation (issue 18, docs/sensmart.md,
//! docs/results/sensmart.md). One sweep whose points belong to parts: `preempt` (preemption by
//! counted branches, [`preempt`]: the overhead of the preempt-traps pass on the workloads, and
//! the preemption latency under counted branches against timer interrupts) and `relocate` (the
//! `relocate` stack strategy with the hardware stack window, [`relocate`]: the cost of one
//! relocation against the bytes it moves, the paper's Table II row, and the context switch
//! beside `static`) and `isolate` (memory isolation, [`isolate`]: the attack suite and the
//! cost of the isolate pass against no pass and preempt-traps) and `trees` (the binary-tree
//! scenario, [`trees`]: Figure 7, the most concurrent search tasks under `relocate` against
//! tree size, and Figure 8 extended, every stack strategy in one pool) and `inflation` (code
//! inflation and execution time of the rewritten workloads, Figures 4 and 5, [`inflation`]).
//!
//! Guarantees: every figure comes from a build and a run made here on cactus-sim (profile
//! `mcu`, simulated cycles only); a point that fails is a row with its reason, left out of
//! the summary; the summary line is built from the parts' key/value lists, in part order.

pub mod breakdown;
pub mod inflation;
pub mod isolate;
pub mod ops;
pub mod preempt;
pub mod relocate;
pub mod trees;
pub mod trees_report;

pub use crate::Size;
pub use relocate::{fit, Relocation, SensmartOptions};

use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::report::Summary;
use cactus_sweep::{Meta, Row, SweepReport};
use serde::{Deserialize, Serialize};

/// The parts of the evaluation, in the order their tables and summary pairs appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Part {
    /// Preemption by counted branches: overhead and latency ([`preempt`]).
    Preempt,
    /// Stack relocation with the hardware window: cost and switch ([`relocate`]).
    Relocate,
    /// Memory isolation: the attack suite and the pass's cost ([`isolate`]).
    Isolate,
    /// The binary-tree scenario: Figures 7 and 8 ([`trees`]).
    Trees,
    /// Code inflation and execution time of the rewritten workloads: Figures 4 and 5
    /// ([`inflation`]).
    Inflation,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 5] = [
        Part::Preempt,
        Part::Relocate,
        Part::Isolate,
        Part::Trees,
        Part::Inflation,
    ];

    /// The name on the command line and in keys.
    pub fn name(self) -> &'static str {
        match self {
            Part::Preempt => "preempt",
            Part::Relocate => "relocate",
            Part::Isolate => "isolate",
            Part::Trees => "trees",
            Part::Inflation => "inflation",
        }
    }

    /// The part called `text`.
    pub fn parse(text: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.name() == text.trim())
    }
}

/// One point of the evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensmartRow {
    /// The part it belongs to.
    pub part: Part,
    /// What was measured: a workload (overhead) or a latency configuration.
    pub name: String,
    /// Built, ran and behaved as expected.
    pub passed: bool,
    /// Why it did not pass.
    pub note: Option<String>,
    /// Overhead of the pass on a workload (part `preempt`).
    #[serde(default)]
    pub overhead: Option<preempt::Overhead>,
    /// Preemption latencies of one configuration (part `preempt`).
    #[serde(default)]
    pub latency: Option<preempt::Latency>,
    /// The relocations measured, in the order made (part `relocate`, the relocation firmware).
    #[serde(default)]
    pub relocations: Vec<Relocation>,
    /// Cycles per context switch (part `relocate`, the switch firmware).
    #[serde(default)]
    pub switch_cycles: Option<u64>,
    /// Cycles of each key operation (part `relocate`, the Table II firmware, `ops::OPERATIONS`
    /// order).
    #[serde(default)]
    pub ops: Vec<u64>,
    /// The attack suite's outcome (part `isolate`).
    #[serde(default)]
    pub attacks: Option<isolate::Attacks>,
    /// The isolate pass's cost on a workload (part `isolate`).
    #[serde(default)]
    pub cost: Option<isolate::Cost>,
    /// One strategy's search for the most search tasks on one scenario (part `trees`).
    #[serde(default)]
    pub trees: Option<trees::TreeSearch>,
    /// One workload built every way, its code and cycles (part `inflation`).
    #[serde(default)]
    pub inflation: Option<inflation::Inflation>,
}

impl SensmartRow {
    /// A row of `part` named `name` that has not passed yet, with nothing measured.
    pub fn new(part: Part, name: &str) -> SensmartRow {
        SensmartRow {
            part,
            name: name.to_string(),
            passed: false,
            note: None,
            overhead: None,
            latency: None,
            relocations: Vec::new(),
            switch_cycles: None,
            ops: Vec::new(),
            attacks: None,
            cost: None,
            trees: None,
            inflation: None,
        }
    }
}

impl Row for SensmartRow {
    fn passed(&self) -> bool {
        self.passed
    }
}

/// The evaluation.
pub struct Sensmart;

impl Evaluation for Sensmart {
    const NAME: &'static str = "sensmart";
    const UNIT: &'static str = "points";
    type Row = SensmartRow;

    fn render(rows: &[SensmartRow], meta: &Meta) -> SweepReport {
        let (passed, failed) = verdicts(rows);
        let size = meta.params["size"].as_str().unwrap_or("?").to_string();
        let mut tables = String::new();
        let mut reading = format!("Size class `{size}`. ");
        for part in Part::ALL {
            let mine: Vec<SensmartRow> = rows.iter().filter(|r| r.part == part).cloned().collect();
            if mine.is_empty() {
                continue;
            }
            match part {
                Part::Preempt => {
                    tables.push_str(&preempt::markdown(&mine));
                    reading.push_str(&preempt::reading());
                }
                Part::Relocate => {
                    tables.push_str(&relocate::markdown(&mine));
                    reading.push_str(&relocate::reading());
                    reading.push_str(&ops::reading());
                }
                Part::Isolate => {
                    tables.push_str(&isolate::markdown(&mine));
                    reading.push_str(&isolate::reading());
                }
                Part::Trees => {
                    tables.push_str(&trees_report::markdown(&mine));
                    reading.push_str(&trees_report::reading());
                }
                Part::Inflation => {
                    tables.push_str(&inflation::markdown(&mine));
                    reading.push_str(&inflation::reading());
                }
            }
        }
        SweepReport {
            tables,
            reading,
            note: " (simulated cycles only: the figures are deterministic)".to_string(),
            passed,
            failed,
            summary: summary(rows),
        }
    }
}

/// The summary (the report adds `passed=` and `failed=`): each part's key/value pairs in part
/// order.
pub fn summary(rows: &[SensmartRow]) -> Summary {
    let mut s = Summary::new("sensmart");
    for part in Part::ALL {
        let mine: Vec<SensmartRow> = rows.iter().filter(|r| r.part == part).cloned().collect();
        if mine.is_empty() {
            continue;
        }
        let pairs = match part {
            Part::Preempt => preempt::summary_pairs(&mine),
            Part::Relocate => relocate::summary_pairs(&mine),
            Part::Isolate => isolate::summary_pairs(&mine),
            Part::Trees => trees_report::summary_pairs(&mine),
            Part::Inflation => inflation::summary_pairs(&mine),
        };
        for (k, v) in pairs {
            s.add(k, v);
        }
    }
    s
}

/// A row's verdict cell: `ok`, or `FAIL: ` and its note with table pipes escaped.
fn verdict(r: &SensmartRow) -> String {
    if r.passed {
        "ok".into()
    } else {
        format!(
            "FAIL: {}",
            r.note.as_deref().unwrap_or("?").replace('|', "\\|")
        )
    }
}

#[cfg(test)]
mod tests;
