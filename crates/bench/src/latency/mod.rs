//! `cactus bench latency`: worst-case interrupt latency of the Cactus kernel (issue #16),
//! measured on cactus-sim from the firmware in `bench/latency/` (built from its manifest).
//!
//! A waker task at the top priority sleeps one tick at a time while lower-priority tasks do
//! seeded random work through every kernel service (semaphores, a queue, a mutex with
//! priority inheritance, event flags, yields, sleeps, application critical sections). The
//! firmware runs once per seed; each seed changes every task's work, so the 10 kHz tick
//! falls at a different point of it on every wake-up: a run of N ticks samples N interrupt
//! points, and the runs together thousands. The simulator's timer-pending watch
//! ([`cactus_sim::MachineConfig::watch_timer_pending`]) records the cycle each timer
//! interrupt became pending and the pc it became pending at; trap events stamp the first
//! handler instruction and a marker stamps the waker's first instruction after its sleep.
//!
//! For every timer interrupt: **handler latency**, cycles from pending (mtime reached
//! mtimecmp with MTIE set) to the first instruction at mtvec; for every one that woke the
//! waker: **task latency**, cycles from pending to the waker's first instruction after its
//! `cactus_sleep` returned (the marker store before its stamp subtracted, as measured by the
//! firmware's calibration pair). Each sample is named by the function it became pending in
//! and whether interrupts were masked there ([`attribution`]).
//!
//! Guarantees: deterministic for a given seed, profile and firmware (everything is
//! simulated); one row per run, a run that cannot be measured is a failed row with its
//! reason; no figure is assumed.

pub mod attribution;
pub mod events;
pub mod report;
pub mod stats;
pub mod symbols;

use crate::elf_facts::symbol_address;
use crate::latency::attribution::{attribute, RunLatency};
use crate::latency::events::run_samples;
use crate::latency::symbols::Symbols;
use cactus_firmware::{BuildOptions, Manifest};
use cactus_sim::{Machine, MachineConfig, Profile};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The firmware manifest (relative to the repository root).
pub const MANIFEST: &str = "bench/latency/latency.toml";
/// The firmware's tick rate (its manifest's `tick_hz`).
pub const TICK_HZ: u64 = 10_000;
/// The default base seed.
pub const DEFAULT_SEED: u64 = 1;

/// How much a run samples: runs (seeds) and wake-ups per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    /// Runs, each with its own seed.
    pub runs: u32,
    /// Wake-ups (ticks) per run.
    pub ticks: u32,
}

/// `--size small`: 4 runs of 600 wake-ups (2,400 interrupts).
pub const SMALL: Size = Size {
    runs: 4,
    ticks: 600,
};
/// `--size full`: 64 runs of 5,000 wake-ups (320,000 interrupts).
pub const FULL: Size = Size {
    runs: 64,
    ticks: 5_000,
};

/// What `cactus bench latency` runs.
#[derive(Clone, Debug)]
pub struct LatencyOptions {
    /// The built firmware ELF ([`build`]).
    pub elf: PathBuf,
    /// Runs and wake-ups.
    pub size: Size,
    /// Base seed; run i uses [`run_seed`]`(seed, i)`.
    pub seed: u64,
    /// Machine profile.
    pub profile: Profile,
}

/// One run (a row of the store): its seed and what it measured, or why it could not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyRow {
    /// Run index.
    pub run: u32,
    /// The seed the firmware ran with.
    pub seed: u32,
    /// Wake-ups requested.
    pub ticks: u32,
    /// Profile name.
    pub profile: String,
    /// The latencies, or why the run failed.
    pub result: Result<RunLatency, String>,
}

impl cactus_sweep::Row for LatencyRow {
    fn passed(&self) -> bool {
        self.result.is_ok()
    }
}

/// Builds the firmware of [`MANIFEST`] under `root` (cached by `cactus build`'s hash) into
/// `out_root` (None: `build/firmware`); Ok(the ELF).
pub fn build(root: &Path, out_root: Option<PathBuf>) -> Result<PathBuf, String> {
    let path = root.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let manifest = Manifest::parse(&text, &path).map_err(|e| e.to_string())?;
    let options = BuildOptions {
        root: Some(root.to_path_buf()),
        out_root,
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&manifest, &options).map_err(|e| e.to_string())?;
    Ok(built.elf)
}

/// The seed of run `run` from base seed `seed` (splitmix64, never 0).
pub fn run_seed(seed: u64, run: u32) -> u32 {
    let mut z = seed.wrapping_add(u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z as u32).max(1)
}

/// Runs the firmware `elf` once with `seed` and `ticks` wake-ups written into its
/// `lat_seed` and `lat_ticks`, with the timer-pending watch on; Ok(the run's latencies).
pub fn measure(elf: &[u8], seed: u32, ticks: u32, profile: &Profile) -> Result<RunLatency, String> {
    let symbols = Symbols::from_elf(elf)?;
    let seed_at = symbol_address(elf, "lat_seed", "latency firmware")?;
    let ticks_at = symbol_address(elf, "lat_ticks", "latency firmware")?;
    let mut config = MachineConfig::new(profile.clone());
    config.record_events = true;
    config.watch_timer_pending = true;
    let per_tick = profile.clock_hz() / TICK_HZ;
    config.max_cycles = Some((u64::from(ticks) + 100) * per_tick * 4);
    let mut machine = Machine::new(config);
    machine.load_elf(elf).map_err(|e| e.to_string())?;
    for (addr, value, name) in [(seed_at, seed, "lat_seed"), (ticks_at, ticks, "lat_ticks")] {
        machine
            .write_debug(addr, &value.to_le_bytes())
            .map_err(|e| format!("{name} at {addr:#010x}: {e:?}"))?;
    }
    let ending = machine.run_to_end().failure();
    if let Some(ending) = ending {
        let first = ending.lines().next().unwrap_or("").to_string();
        return Err(format!(
            "the firmware did not finish (seed {seed}): {first}"
        ));
    }
    let run = run_samples(machine.events())?;
    if run.requested != ticks {
        return Err(format!(
            "the firmware made {} wake-ups, {ticks} were written into lat_ticks",
            run.requested
        ));
    }
    Ok(attribute(&run, &symbols, seed))
}

/// The store's parameters: size, seed, profile.
pub fn params(options: &LatencyOptions) -> serde_json::Value {
    serde_json::json!({
        "runs": options.size.runs,
        "ticks": options.size.ticks,
        "seed": options.seed,
        "profile": options.profile.name(),
    })
}

/// One point per run.
pub fn points(options: &LatencyOptions) -> Vec<cactus_sweep::Point<'_, LatencyRow>> {
    (0..options.size.runs)
        .map(|run| {
            let seed = run_seed(options.seed, run);
            cactus_sweep::Point::new(
                format!("run{run}"),
                format!("run {run} (seed {seed})"),
                move |_, _: &cactus_sweep::Progress| LatencyRow {
                    run,
                    seed,
                    ticks: options.size.ticks,
                    profile: options.profile.name().to_string(),
                    result: std::fs::read(&options.elf)
                        .map_err(|e| format!("{}: {e}", options.elf.display()))
                        .and_then(|elf| measure(&elf, seed, options.size.ticks, &options.profile)),
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_seeds_are_distinct_nonzero_and_fixed() {
        let seeds: Vec<u32> = (0..64).map(|i| run_seed(DEFAULT_SEED, i)).collect();
        let mut sorted = seeds.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert!(seeds.iter().all(|&s| s != 0));
        assert_eq!(run_seed(1, 0), run_seed(1, 0));
        assert_ne!(run_seed(1, 0), run_seed(2, 0));
    }

    #[test]
    fn a_bad_elf_is_an_error_not_a_panic() {
        let e = measure(b"nope", 1, 1, &Profile::builtin("mcu").unwrap()).unwrap_err();
        assert!(e.contains("ELF"), "{e}");
    }
}
