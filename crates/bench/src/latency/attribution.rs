//! Naming what delayed each timer interrupt: the function the interrupt became pending in,
//! and whether interrupts were masked there by a kernel call, an application critical
//! section or a trap handler. Builds a run's [`RunLatency`]: the two distributions, the
//! worst samples with names, and the samples by function.

use crate::latency::events::{RawSample, RunSamples};
use crate::latency::stats::Histogram;
use crate::latency::symbols::Symbols;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Prefix of the benchmark firmware's own functions (bench/latency/latency.c).
pub const APP_PREFIX: &str = "lat_";
/// Worst samples kept per run and per distribution.
pub const WORST_KEPT: usize = 10;

/// Where the interrupt became pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Region {
    /// Interrupts were enabled: it was taken at the next instruction boundary.
    Enabled,
    /// Masked inside a kernel call (kernel or library code, outside a trap).
    KernelCall,
    /// Masked in an application critical section (`cactus_irq_save` in `lat_*` code).
    Application,
    /// Masked because a trap handler was running (another interrupt's, or its own tail).
    TrapHandler,
}

impl Region {
    /// The region of a sample whose pending pc lies in `function`.
    pub fn of(sample: &RawSample, function: &str) -> Region {
        if !sample.masked {
            Region::Enabled
        } else if sample.in_trap {
            Region::TrapHandler
        } else if function.starts_with(APP_PREFIX) {
            Region::Application
        } else {
            Region::KernelCall
        }
    }

    /// How the reports say it.
    pub fn describe(self) -> &'static str {
        match self {
            Region::Enabled => "interrupts enabled",
            Region::KernelCall => "kernel call, interrupts masked",
            Region::Application => "application critical section, interrupts masked",
            Region::TrapHandler => "trap handler, interrupts masked",
        }
    }
}

/// One timer interrupt with names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// Cycles from pending to the first handler instruction.
    pub handler: u64,
    /// Cycles from pending to the woken waker's first instruction, when it woke the waker.
    pub task: Option<u64>,
    /// `function+0xoff` of the instruction at which it became pending.
    pub pending_at: String,
    /// `function+0xoff` of the instruction it was taken before (`mepc`).
    pub taken_at: String,
    /// Where it became pending.
    pub region: Region,
    /// The run's seed (to replay it).
    pub seed: u32,
}

/// Samples that became pending in one function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FunctionStat {
    /// The function.
    pub function: String,
    /// Where (a function can appear once per region).
    pub region: Region,
    /// Samples.
    pub samples: u64,
    /// Their largest handler latency, cycles.
    pub max_handler: u64,
    /// Their largest task latency, cycles (None if none woke the waker).
    pub max_task: Option<u64>,
}

/// One run's latencies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunLatency {
    /// Pending to the first handler instruction, every timer interrupt.
    pub handler: Histogram,
    /// Pending to the woken waker's first instruction, every interrupt that woke it.
    pub task: Histogram,
    /// The slowest samples by handler latency, slowest first.
    pub worst_handler: Vec<Sample>,
    /// The slowest samples by task latency, slowest first.
    pub worst_task: Vec<Sample>,
    /// Samples by the function they became pending in.
    pub by_function: Vec<FunctionStat>,
    /// Wake-ups requested and made.
    pub wakes: u32,
    /// Wake-ups not paired with exactly one interrupt (not task samples).
    pub unpaired_wakes: u32,
    /// Cycles of one marker store, subtracted from the task stamps.
    pub marker_cycles: u64,
}

/// Names `run`'s samples with `symbols` (`seed`: the run's, kept in each named sample).
pub fn attribute(run: &RunSamples, symbols: &Symbols, seed: u32) -> RunLatency {
    let name = |s: &RawSample| Sample {
        handler: s.handler,
        task: s.task,
        pending_at: symbols.name(s.pending_pc),
        taken_at: symbols.name(s.taken_pc),
        region: Region::of(s, &symbols.function(s.pending_pc)),
        seed,
    };
    let mut by: BTreeMap<(String, Region), FunctionStat> = BTreeMap::new();
    for s in &run.samples {
        let function = symbols.function(s.pending_pc);
        let region = Region::of(s, &function);
        let stat = by
            .entry((function.clone(), region))
            .or_insert_with(|| FunctionStat {
                function,
                region,
                samples: 0,
                max_handler: 0,
                max_task: None,
            });
        stat.samples += 1;
        stat.max_handler = stat.max_handler.max(s.handler);
        stat.max_task = stat.max_task.max(s.task);
    }
    RunLatency {
        handler: Histogram::of(run.samples.iter().map(|s| s.handler)),
        task: Histogram::of(run.samples.iter().filter_map(|s| s.task)),
        worst_handler: worst(&run.samples, |s| Some(s.handler), &name),
        worst_task: worst(&run.samples, |s| s.task, &name),
        by_function: by.into_values().collect(),
        wakes: run.wakes,
        unpaired_wakes: run.unpaired_wakes,
        marker_cycles: run.marker_cycles,
    }
}

/// The [`WORST_KEPT`] samples with the largest `key`, largest first (earliest first among
/// equals), named.
fn worst(
    samples: &[RawSample],
    key: impl Fn(&RawSample) -> Option<u64>,
    name: &impl Fn(&RawSample) -> Sample,
) -> Vec<Sample> {
    let mut keyed: Vec<(u64, usize)> = samples
        .iter()
        .enumerate()
        .filter_map(|(i, s)| key(s).map(|k| (k, i)))
        .collect();
    keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    keyed
        .into_iter()
        .take(WORST_KEPT)
        .map(|(_, i)| name(&samples[i]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(handler: u64, task: Option<u64>, pc: u32, masked: bool, in_trap: bool) -> RawSample {
        RawSample {
            since: 0,
            handler,
            task,
            pending_pc: pc,
            taken_pc: pc + 8,
            masked,
            in_trap,
        }
    }

    #[test]
    fn samples_are_named_classified_and_ranked() {
        let symbols = Symbols::from_pairs([
            (0x100, "cactus_sem_give".to_string()),
            (0x200, "lat_work".to_string()),
            (0x300, "trap_entry".to_string()),
        ]);
        let run = RunSamples {
            samples: vec![
                raw(10, Some(200), 0x210, false, false),
                raw(90, None, 0x11c, true, false),
                raw(40, Some(260), 0x204, true, false),
                raw(55, None, 0x304, true, true),
                raw(70, None, 0x120, true, false),
            ],
            marker_cycles: 2,
            requested: 2,
            wakes: 2,
            unpaired_wakes: 0,
        };
        let r = attribute(&run, &symbols, 7);
        assert_eq!(r.handler.samples(), 5);
        assert_eq!(r.task.samples(), 2);
        let w = &r.worst_handler[0];
        assert_eq!(w.handler, 90);
        assert_eq!(w.pending_at, "cactus_sem_give+0x1c");
        assert_eq!(w.taken_at, "cactus_sem_give+0x24");
        assert_eq!(w.region, Region::KernelCall);
        assert_eq!(w.seed, 7);
        assert_eq!(r.worst_task[0].task, Some(260));
        assert_eq!(r.worst_task[0].region, Region::Application);
        assert_eq!(r.worst_handler[1].region, Region::KernelCall);
        let regions: Vec<Region> = r.worst_handler.iter().map(|s| s.region).collect();
        assert!(regions.contains(&Region::TrapHandler) && regions.contains(&Region::Enabled));
        let give = r
            .by_function
            .iter()
            .find(|f| f.function == "cactus_sem_give")
            .unwrap();
        assert_eq!(
            (give.samples, give.max_handler, give.max_task),
            (2, 90, None)
        );
        // lat_work appears twice: once masked (application), once enabled.
        assert_eq!(
            r.by_function
                .iter()
                .filter(|f| f.function == "lat_work")
                .count(),
            2
        );
    }
}
