//! `cactus bench sensmart`: the SenSmart evaluation (issue 18, docs/sensmart.md). This part
//! measures the `relocate` stack strategy with the hardware stack window ([`relocate`]):
//! the cost of one stack relocation against the bytes it moves (the paper's Table II row
//! "stack relocation", 2,326 cycles on AVR; the goal: at most 300 cycles + 1 cycle per
//! word moved) and the context switch with the window write beside the `static` strategy's.
//!
//! Guarantees: every figure comes from a build and a run made here on cactus-sim (`mcu`
//! profile, the ownership oracle stopping at its first violation, exit code 0 required), read
//! from the firmware's trace markers; a point that fails is a row with its reason, left out of
//! the summary.

pub mod relocate;

pub use crate::Size;
pub use relocate::{fit, params, points, Relocation, SensmartOptions};

use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::report::Summary;
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Meta, Row, SweepReport};
use serde::{Deserialize, Serialize};

/// One point: one firmware run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensmartRow {
    /// The part of the evaluation (`relocate`).
    pub part: String,
    /// What ran: `relocation` (the relocation firmware), `switch static`, `switch relocate`.
    pub name: String,
    /// The manifest built (relative to the tree).
    pub manifest: String,
    /// Built, ran and exited with code 0, with every marker present.
    pub passed: bool,
    /// Why it did not pass.
    pub note: Option<String>,
    /// The relocations measured (the relocation firmware), in the order made.
    pub relocations: Vec<Relocation>,
    /// Cycles per context switch (the switch firmware).
    pub switch_cycles: Option<u64>,
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
    const UNIT: &'static str = "runs";
    type Row = SensmartRow;

    fn render(rows: &[SensmartRow], meta: &Meta) -> SweepReport {
        let (passed, failed) = verdicts(rows);
        let size = meta.params["size"].as_str().unwrap_or("?").to_string();
        SweepReport {
            tables: markdown(rows),
            reading: reading(&size),
            note: " (simulated cycles only: the figures are deterministic)".to_string(),
            passed,
            failed,
            summary: summary(rows),
        }
    }
}

fn relocations(rows: &[SensmartRow]) -> &[Relocation] {
    rows.iter()
        .find(|r| r.name == "relocation" && r.passed)
        .map_or(&[], |r| r.relocations.as_slice())
}

fn switch(rows: &[SensmartRow], name: &str) -> Option<u64> {
    rows.iter()
        .find(|r| r.name == name && r.passed)
        .and_then(|r| r.switch_cycles)
}

/// The summary (the report adds `passed=` and `failed=`): the cycles of the relocation that
/// moved 1 KiB, the fit's fixed cost and cost per word, the switch under `static` and
/// `relocate`.
pub fn summary(rows: &[SensmartRow]) -> Summary {
    let rel = relocations(rows);
    let kib = rel.iter().find(|r| r.bytes == 1024).map(|r| r.cycles);
    let line = fit(rel);
    let mut s = Summary::new("sensmart");
    s.add("relocation_cycles", or_dash(kib))
        .num("relocation_fixed", line.map(|l| l.0), 0)
        .num("relocation_per_word", line.map(|l| l.1), 2)
        .add("switch_static", or_dash(switch(rows, "switch static")))
        .add("switch_relocate", or_dash(switch(rows, "switch relocate")));
    s
}

/// The tables: each relocation (bytes, words, cycles, the goal's bound), the fit, the switch.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut t = Table::new(&[
        ">bytes moved",
        ">words",
        ">cycles",
        ">goal: 300 + 1/word",
        "within goal",
    ]);
    for r in relocations(rows) {
        let words = u64::from(r.bytes / 4);
        let goal = 300 + words;
        t.row([
            r.bytes.to_string(),
            words.to_string(),
            r.cycles.to_string(),
            goal.to_string(),
            if r.cycles <= goal { "yes" } else { "no" }.to_string(),
        ]);
    }
    let fitted = match fit(relocations(rows)) {
        Some((a, b)) => format!(
            "Least-squares fit: cycles = {a:.0} + {b:.2} per word moved (paper, AVR: 2,326 \
             cycles for one relocation).\n"
        ),
        None => "No fit: fewer than two relocations measured.\n".to_string(),
    };
    let mut s = Table::new(&["run", ">cycles per switch", "result"]);
    for r in rows {
        s.row([
            r.name.clone(),
            or_dash(r.switch_cycles),
            if r.passed {
                "ok".to_string()
            } else {
                format!("FAIL: {}", r.note.as_deref().unwrap_or("?"))
            },
        ]);
    }
    format!("{}\n{fitted}\n{}", t.render(), s.render())
}

/// What the columns mean.
pub fn reading(size: &str) -> String {
    format!(
        "Size class `{size}` (both sizes run the same two firmwares; each takes well under a \
         second of simulation). Relocation: bench/sensmart/relocate.toml under the `relocate` \
         strategy with the hardware stack window; its one task's region is the pool's lowest, \
         so each relocation moves exactly the live stack the probe sets up (bytes moved, from \
         the kernel's own counter). Cycles run from the store that crosses the window's bound \
         to the instruction after it (trap, the strategy choosing the donor, the memmove, the \
         window write, the return), less the same probe with a store that does not trap; \
         interrupts masked. Switch: bench/sensmart/switch.toml, a yield ping-pong of two tasks \
         at one priority, cycles per switch, built `static` and `--stack relocate` (every \
         resume writes the window: two loads and two CSR writes; `static` runs its \
         switch-time stack check instead, which `relocate` does not need: the window checks \
         every access)."
    )
}

#[cfg(test)]
mod tests;
