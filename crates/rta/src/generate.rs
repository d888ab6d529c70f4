//! The random task sets of the Carousel evaluation (paper section VI-D): given each task's
//! C_i, draw unique random priorities, periods uniform in [2·C_i, max(4·C_i, SZ/4)], offsets
//! uniform in [0, T_i] and D_i = T_i; a set that equation 4 calls unschedulable is rejected
//! and drawn again, and the rejections are counted.
//!
//! Guarantees: the same (tasks, config, seed, index) gives the same set on every machine and
//! with every later version of this crate: the stream is ChaCha8 (rand_chacha) keyed by a
//! SplitMix64 expansion of `seed`, on stream `index`, and every draw (the uniform integer by
//! rejection, the Fisher–Yates shuffle of the priorities) is this file's own code, not a
//! library's sampling that could change. Each attempt draws, in order: the priority
//! permutation, then per task in the given order its period and its offset.

use crate::analysis::{analyse, Analysis, Equation};
use crate::model::{System, Task, TaskSet};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// SZ of the paper: the execution time of the whole task set, 15·10⁶ cycles.
pub const PAPER_SZ: u64 = 15_000_000;

/// A task as the generator takes it: a name and its C_i.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskCost {
    /// Unique name.
    pub name: String,
    /// C_i, cycles (at least 1).
    pub wcet: u64,
}

/// How to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorConfig {
    /// SZ: periods reach up to max(4·C_i, SZ/4).
    pub sz: u64,
    /// The system every set gets and is checked with (CS¹, CS², the Carousel section).
    pub system: System,
    /// Most sets drawn for one result before giving up.
    pub max_attempts: u64,
}

impl GeneratorConfig {
    /// The paper's SZ, no switch cost, up to 100 000 attempts.
    pub fn paper() -> GeneratorConfig {
        GeneratorConfig {
            sz: PAPER_SZ,
            system: System::default(),
            max_attempts: 100_000,
        }
    }
}

/// A schedulable set and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The set (tasks in the given order).
    pub set: TaskSet,
    /// Its analysis by equation 4 (schedulable).
    pub analysis: Analysis,
    /// Sets drawn and rejected as unschedulable before this one.
    pub rejected: u64,
}

/// Why no set was generated.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// No task given.
    #[error("no task to generate a set of")]
    NoTasks,
    /// A task's C_i is 0, or 4·C_i does not fit 64 bits.
    #[error("task {name}: C = {wcet} cycles cannot be given a period (it must be at least 1 and 4·C must fit 64 bits)")]
    BadWcet {
        /// The task.
        name: String,
        /// Its C_i.
        wcet: u64,
    },
    /// The tasks do not make a valid set (e.g. two share a name).
    #[error("the tasks do not make a task set: {0}")]
    Invalid(#[from] crate::model::SetError),
    /// Every attempt was unschedulable.
    #[error("no schedulable set in {attempts} attempts (the tasks' utilisation at the longest periods may be too high for this SZ)")]
    TooManyRejections {
        /// Attempts made.
        attempts: u64,
    },
}

/// Set number `index` of `seed`: the first schedulable one of its stream.
pub fn generate(
    tasks: &[TaskCost],
    config: &GeneratorConfig,
    seed: u64,
    index: u64,
) -> Result<Generated, GenerateError> {
    if tasks.is_empty() {
        return Err(GenerateError::NoTasks);
    }
    let bounds = tasks
        .iter()
        .map(|t| period_bounds(t.wcet, config.sz).ok_or_else(|| bad(t)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rng = rng(seed, index);
    for rejected in 0..config.max_attempts {
        let set = draw(tasks, &bounds, &config.system, &mut rng)?;
        let analysis = analyse(&set, Equation::Four);
        if analysis.schedulable() {
            return Ok(Generated {
                set,
                analysis,
                rejected,
            });
        }
    }
    Err(GenerateError::TooManyRejections {
        attempts: config.max_attempts,
    })
}

fn bad(t: &TaskCost) -> GenerateError {
    GenerateError::BadWcet {
        name: t.name.clone(),
        wcet: t.wcet,
    }
}

/// [2·C, max(4·C, SZ/4)], or None when C is 0 or 4·C overflows.
pub fn period_bounds(wcet: u64, sz: u64) -> Option<(u64, u64)> {
    if wcet == 0 {
        return None;
    }
    let four = wcet.checked_mul(4)?;
    Some((wcet * 2, four.max(sz / 4)))
}

/// One draw (no check): priorities, then each task's period and offset.
fn draw(
    tasks: &[TaskCost],
    bounds: &[(u64, u64)],
    system: &System,
    rng: &mut ChaCha8Rng,
) -> Result<TaskSet, GenerateError> {
    let n = tasks.len();
    let mut priorities: Vec<u32> = (1..=n as u32).collect();
    for k in (1..n).rev() {
        let j = uniform(rng, 0, k as u64) as usize;
        priorities.swap(k, j);
    }
    let drawn = tasks
        .iter()
        .zip(bounds)
        .zip(priorities)
        .map(|((t, &(lo, hi)), priority)| {
            let period = uniform(rng, lo, hi);
            let offset = uniform(rng, 0, period);
            Task {
                offset,
                ..Task::new(&t.name, t.wcet, period, priority)
            }
        })
        .collect();
    Ok(TaskSet::new(system.clone(), drawn)?)
}

/// The generator's stream for (`seed`, `index`).
fn rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut state = seed;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    let mut rng = ChaCha8Rng::from_seed(key);
    rng.set_stream(index);
    rng
}

/// SplitMix64 (Steele, Lea, Flood): the usual way to spread a 64-bit seed.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [lo, hi] (inclusive; lo <= hi) by rejection: no bias, and fixed forever.
fn uniform(rng: &mut impl RngCore, lo: u64, hi: u64) -> u64 {
    let n = u128::from(hi - lo) + 1;
    // The largest multiple of n not above 2^64: values at or above it are drawn again.
    let zone = ((1u128 << 64) / n) * n;
    loop {
        let x = u128::from(rng.next_u64());
        if x < zone {
            return lo + (x % n) as u64;
        }
    }
}

#[cfg(test)]
mod tests;
