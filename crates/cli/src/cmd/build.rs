//! `cactus build MANIFEST`: validate a workload manifest, generate its task table, compile and
//! link the firmware (cached on content) and print the ELF's path on stdout.

use anyhow::Result;
use cactus_firmware::{BuildOptions, Built, CheckOptions, Manifest, Overrides};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Manifest overrides shared by `cactus build` and `cactus run MANIFEST.toml`.
#[derive(Args, Debug, Clone, Default)]
pub struct ManifestArgs {
    /// Override the manifest's kernel.stack (stack strategy, e.g. `static`).
    #[arg(long, value_name = "STRATEGY")]
    pub stack: Option<String>,
    /// Override the manifest's kernel.target (`sim`: trace device; `qemu`: no trace device).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
    /// Override the manifest's kernel.checks: stack checks `cactus cc` inserts (`none`,
    /// `detect`, `mtss`; docs/stack-checks.md).
    #[arg(long, value_name = "MODE")]
    pub checks: Option<String>,
    /// Override the manifest's kernel.mtss_page: MTSS page size in bytes (32..1024, a power
    /// of two; the mtss strategy only).
    #[arg(long, value_name = "BYTES")]
    pub mtss_page: Option<u32>,
    /// Set the manifest's kernel.stack_bound: build for the simulator's hardware stack bound
    /// (the `mstackbound` CSR): the kernel keeps it at the running stack's limit and entry
    /// checks it makes are left out (target `sim` only; docs/segmented.md).
    #[arg(long)]
    pub stack_bound: bool,
    /// Override the manifest's kernel.stacklet_pool: bytes of the stack pool given to the
    /// stacklet heap (the mtss+split strategy only; rounded up to whole MTSS pages).
    #[arg(long, value_name = "BYTES")]
    pub stacklet_pool: Option<u32>,
    /// Shrink every task's stack budget (`40%`) or one task's (`tsp=40%`) by a percentage
    /// (1..95), rounded down to 16 bytes, never below 128: with `--stack mtss` the tasks then
    /// share their stacks.
    #[arg(long, value_name = "[TASK=]PCT")]
    pub shrink: Option<cactus_firmware::Shrink>,
    /// Parent directory of the build cache (default: build/firmware in the Cactus tree).
    #[arg(long, value_name = "DIR")]
    pub build_dir: Option<PathBuf>,
}

impl ManifestArgs {
    /// True when any manifest option was given.
    pub fn any(&self) -> bool {
        self.stack.is_some()
            || self.target.is_some()
            || self.checks.is_some()
            || self.mtss_page.is_some()
            || self.stack_bound
            || self.stacklet_pool.is_some()
            || self.shrink.is_some()
            || self.build_dir.is_some()
    }
}

/// Options of `cactus build` (docs/manifest.md).
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The workload manifest (TOML).
    pub manifest: PathBuf,
    #[command(flatten)]
    pub overrides: ManifestArgs,
}

/// Loads `path`, applies the overrides and builds it (or finds it built); says which on
/// stderr.
pub fn build_manifest(path: &Path, args: &ManifestArgs) -> Result<(Manifest, Built)> {
    let mut manifest = Manifest::load(path)?;
    manifest.apply(&Overrides {
        stack: args.stack.clone(),
        target: args.target.clone(),
        checks: args.checks.clone(),
        mtss_page: args.mtss_page,
        stack_bound: args.stack_bound,
        stacklet_pool: args.stacklet_pool,
        shrink: args.shrink.clone(),
    })?;
    let options = BuildOptions {
        out_root: args.build_dir.clone(),
        checks: CheckOptions {
            reserves: crate::cmd::reserves::toolchain_reserves()?,
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&manifest, &options)?;
    let state = if built.up_to_date {
        "up to date"
    } else {
        "built"
    };
    eprintln!("cactus: {} {state}: {}", manifest.name, built.elf.display());
    Ok((manifest, built))
}

/// Runs `cactus build`: prints the ELF path on stdout; any error is bad input (exit 2).
pub fn main(args: BuildArgs) -> Result<ExitCode> {
    let (_, built) = build_manifest(&args.manifest, &args.overrides)?;
    println!("{}", built.elf.display());
    Ok(ExitCode::SUCCESS)
}
