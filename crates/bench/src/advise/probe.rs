//! One advice probe: the firmware built once at one set of budgets and run at every seed.

use crate::mtss::ProbeSetup;
use cactus_sim::TimerJitter;
use serde::{Deserialize, Serialize};

/// How many runs judge a probe, and how late their timer interrupts come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeds {
    /// Runs per probe (at least 1): seed 0 on time, seeds 1.. with late timer interrupts.
    pub count: u32,
    /// The largest timer-interrupt delay of seeds 1.., cycles.
    pub jitter_cycles: u64,
}

impl Seeds {
    /// The timer jitter of run `seed` (None for seed 0: interrupts on time).
    pub fn jitter(&self, seed: u32) -> Option<TimerJitter> {
        (seed > 0).then_some(TimerJitter {
            seed: u64::from(seed),
            max_cycles: self.jitter_cycles,
        })
    }
}

/// One build at one set of budgets, judged over the seeds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdviceProbe {
    /// Each task's stack budget, bytes, by task index.
    pub budgets: Vec<u32>,
    /// Every seed ran to exit code 0 with no oracle violation.
    pub passed: bool,
    /// Simulated cycles of the seed-0 run, when it passed.
    #[serde(default)]
    pub cycles: Option<u64>,
    /// The first seed that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_seed: Option<u32>,
    /// Why it failed (first line of the outcome, or the build error).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Builds the firmware of `setup` at `budgets` and runs it at seeds 0, 1, ... of `seeds`,
/// stopping at the first that fails.
pub fn run_probe(setup: &ProbeSetup, budgets: &[u32], seeds: &Seeds) -> AdviceProbe {
    let failed = |seed, reason| AdviceProbe {
        budgets: budgets.to_vec(),
        passed: false,
        cycles: None,
        failed_seed: seed,
        reason: Some(reason),
    };
    let elf = match setup.build_variant(budgets, false) {
        Ok(elf) => elf,
        Err(e) => return failed(None, format!("build: {e}")),
    };
    let mut cycles = None;
    for seed in 0..seeds.count.max(1) {
        match setup.run_elf(&elf, false, seeds.jitter(seed)) {
            Ok(done) => {
                if seed == 0 {
                    cycles = Some(done.cycles);
                }
            }
            Err(reason) => return failed(Some(seed), reason),
        }
    }
    AdviceProbe {
        budgets: budgets.to_vec(),
        passed: true,
        cycles,
        failed_seed: None,
        reason: None,
    }
}
