//! `cactus difftest --random N --seed S`: generate, build and compare N random programs
//! (seeds S, S+1, ...) in parallel, keeping every mismatch for replay.

use crate::difftest::{difftest_elf, DiffOptions, DifftestError};
use crate::randprog::{generate, GenConfig, LINK_LD};
use crate::toolchain::{build_asm, ToolchainError};
use std::path::{Path, PathBuf};

/// What to run.
#[derive(Clone, Debug)]
pub struct RandomOptions {
    /// How many programs.
    pub count: u64,
    /// Seed of the first program; program i uses seed `seed + i`.
    pub seed: u64,
    /// Where mismatches are kept: `keep/seed-N/` (prog.S, prog.elf, link.ld, sim-output.txt,
    /// qemu-output.txt, report.txt).
    pub keep: PathBuf,
    /// Shape of the programs.
    pub gen: GenConfig,
    /// Limits per comparison.
    pub diff: DiffOptions,
    /// Worker threads.
    pub jobs: usize,
}

/// The verdict on one random program.
#[derive(Clone, Debug)]
pub struct CaseOutcome {
    /// Its seed.
    pub seed: u64,
    /// None if both machines agreed; else the explanation.
    pub failure: Option<String>,
    /// Where the failure's files were kept.
    pub kept: Option<PathBuf>,
}

/// Why the random difftest could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum RandomError {
    /// The toolchain is missing.
    #[error(transparent)]
    Toolchain(ToolchainError),
    /// QEMU is missing, or the simulator refused a generated ELF.
    #[error(transparent)]
    Difftest(DifftestError),
    /// A scratch or keep directory could not be created or written.
    #[error("{path}: {error}")]
    Io {
        /// The directory or file.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The worker pool could not be created.
    #[error("thread pool: {0}")]
    Pool(String),
}

/// Runs every case, calling `on_case` as each finishes (from worker threads, in any order).
/// Returns the outcomes sorted by seed.
pub fn run_random(
    options: &RandomOptions,
    on_case: &(dyn Fn(&CaseOutcome) + Sync),
) -> Result<Vec<CaseOutcome>, RandomError> {
    let seeds: Vec<u64> = (0..options.count)
        .map(|i| options.seed.wrapping_add(i))
        .collect();
    let mut outcomes = cactus_sweep::par_map(&seeds, options.jobs, |&seed| {
        let outcome = run_case(seed, options)?;
        on_case(&outcome);
        Ok(outcome)
    })
    .map_err(|e| RandomError::Pool(e.to_string()))?
    .into_iter()
    .collect::<Result<Vec<_>, RandomError>>()?;
    outcomes.sort_by_key(|o| o.seed);
    Ok(outcomes)
}

/// Generates, builds and compares the program for `seed`.
pub fn run_case(seed: u64, options: &RandomOptions) -> Result<CaseOutcome, RandomError> {
    let program = generate(seed, &options.gen);
    let work = tempfile::tempdir().map_err(|error| RandomError::Io {
        path: std::env::temp_dir(),
        error,
    })?;
    let elf = match build_asm(work.path(), &program.asm, LINK_LD) {
        Ok(elf) => elf,
        Err(e @ (ToolchainError::NotInstalled | ToolchainError::Io { .. })) => {
            return Err(RandomError::Toolchain(e))
        }
        Err(e) => {
            let text = format!("generated program does not build: {e}");
            return keep_failure(seed, work.path(), &text, None, options);
        }
    };
    let mut report = difftest_elf(&elf, &options.diff).map_err(RandomError::Difftest)?;
    if report.passed() {
        return Ok(CaseOutcome {
            seed,
            failure: None,
            kept: None,
        });
    }
    // Name the kept copy, not the scratch directory that is about to be deleted.
    report.elf = kept_dir(options, seed).join("prog.elf");
    let outputs = (report.sim.uart.as_slice(), report.qemu_uart());
    keep_failure(
        seed,
        work.path(),
        &report.describe(),
        Some(outputs),
        options,
    )
}

/// Copies the case's files into `keep/seed-N/` and builds the outcome naming the replay.
fn keep_failure(
    seed: u64,
    work: &Path,
    explanation: &str,
    outputs: Option<(&[u8], &[u8])>,
    options: &RandomOptions,
) -> Result<CaseOutcome, RandomError> {
    let dir = kept_dir(options, seed);
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |error| RandomError::Io { path, error }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    for name in ["prog.S", "prog.elf", "link.ld"] {
        let from = work.join(name);
        if from.exists() {
            std::fs::copy(&from, dir.join(name)).map_err(io(&dir.join(name)))?;
        }
    }
    if let Some((sim, qemu)) = outputs {
        std::fs::write(dir.join("sim-output.txt"), sim).map_err(io(&dir))?;
        std::fs::write(dir.join("qemu-output.txt"), qemu).map_err(io(&dir))?;
    }
    let replay = format!(
        "replay: cactus difftest {}   (regenerate: cactus difftest --random 1 --seed {seed})",
        dir.join("prog.elf").display()
    );
    let text = format!("seed {seed}: {}\n{replay}\n", explanation.trim_end());
    std::fs::write(dir.join("report.txt"), &text).map_err(io(&dir))?;
    Ok(CaseOutcome {
        seed,
        failure: Some(text),
        kept: Some(dir),
    })
}

/// Where the files of a mismatching case are kept.
fn kept_dir(options: &RandomOptions, seed: u64) -> PathBuf {
    options.keep.join(format!("seed-{seed}"))
}
