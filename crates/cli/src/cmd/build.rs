//! `cactus build [MANIFEST]`: validate a firmware manifest (default `cactus.toml`), generate its task table, compile and
//! link the firmware (cached on content) and print the ELF's path on stdout.

use anyhow::{bail, Result};
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
    /// Set the manifest's kernel.preempt_traps: count backward branches and enter the kernel
    /// every N-th (default 256), which preempts a task whose slice is used up even with
    /// interrupts masked (docs/sensmart.md).
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "256")]
    pub preempt_traps: Option<u32>,
    /// Override the manifest's kernel.switch: how a timer preemption saves the task (`full`;
    /// `ccs-sw`: only the live registers inside the tasks' switch blocks and points; `ccs-hw`:
    /// the same with cactus-sim's switch registers deferring the timer into a switch range,
    /// simulator only; `rmcs`: ccs-hw keeping the live register pages in cactus-sim's register
    /// pool, kernel.reg_pool; docs/ccs.md).
    #[arg(long, value_name = "MODE")]
    pub switch: Option<String>,
    /// Set the manifest's kernel.switch_poison (ccs-sw, ccs-hw, rmcs): every partial resume fills
    /// the registers it does not restore with garbage derived from SEED (docs/ccs.md).
    #[arg(long, value_name = "SEED")]
    pub switch_poison: Option<u32>,
    /// Set kernel.switch_mutate (ccs-sw, ccs-hw, rmcs; the mutation test): drop one register, chosen
    /// by SEED, from one range's live set.
    #[arg(long, value_name = "SEED", hide = true)]
    pub switch_mutate: Option<u32>,
    /// Set the manifest's kernel.switch_budget (ccs-hw, rmcs): the most cycles a pending timer
    /// interrupt waits for a switch range before it is taken anyway with a full save.
    #[arg(long, value_name = "CYCLES")]
    pub switch_budget: Option<u32>,
    /// Set the manifest's kernel.isolate: check every store through a pointer, every indirect
    /// jump and return and every C library writer call of the tasks against the running task's
    /// regions; a violation applies its fault policy (docs/sensmart.md "Memory isolation").
    #[arg(long)]
    pub isolate: bool,
    /// Set the manifest's kernel.window (with `--stack relocate`): `hw`, cactus-sim's stack
    /// window, or `sw`, the logical-stack pass and the kernel's software window, which runs on
    /// QEMU too (docs/sensmart.md "The software variant"); `sw` makes the checks `mtss` unless
    /// `--checks` says otherwise.
    #[arg(long, value_name = "hw|sw")]
    pub window: Option<String>,
    /// Shrink every task's stack budget (`40%`) or one task's (`tsp=40%`) by a percentage
    /// (1..95), rounded down to 16 bytes, never below 128: with `--stack mtss` the tasks then
    /// share their stacks.
    #[arg(long, value_name = "[TASK=]PCT")]
    pub shrink: Option<cactus_firmware::Shrink>,
    /// Parent directory of the build cache (default: `build/firmware` of the project, the
    /// manifest's directory; of the Cactus checkout for a manifest inside one).
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
            || self.preempt_traps.is_some()
            || self.switch.is_some()
            || self.switch_poison.is_some()
            || self.switch_mutate.is_some()
            || self.switch_budget.is_some()
            || self.isolate
            || self.window.is_some()
            || self.shrink.is_some()
            || self.build_dir.is_some()
    }
}

/// Options of `cactus build` (docs/manifest.md).
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The firmware manifest (TOML) [default: cactus.toml in the current directory, as
    /// `cactus new` writes it].
    pub manifest: Option<PathBuf>,
    #[command(flatten)]
    pub overrides: ManifestArgs,
}

/// The manifest a command without one uses: `cactus.toml` of the current directory.
pub const DEFAULT_MANIFEST: &str = "cactus.toml";

/// `given`, or [`DEFAULT_MANIFEST`] when it exists; an error saying what to do otherwise.
pub fn manifest_or_default(given: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path.to_path_buf());
    }
    let default = Path::new(DEFAULT_MANIFEST);
    if default.is_file() {
        return Ok(default.to_path_buf());
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    bail!(
        "no manifest given and no {DEFAULT_MANIFEST} in {} (name one, or make a project with `cactus new NAME`)",
        cwd.display()
    )
}

/// Loads `path`, applies the overrides and builds it (or finds it built) under the project's
/// build directory or `--build-dir`; says which on stderr.
pub fn build_manifest(path: &Path, args: &ManifestArgs) -> Result<(Manifest, Built)> {
    let mut manifest = Manifest::load(path)?;
    manifest.apply(&Overrides {
        stack: args.stack.clone(),
        target: args.target.clone(),
        checks: args.checks.clone(),
        mtss_page: args.mtss_page,
        stack_bound: args.stack_bound,
        stacklet_pool: args.stacklet_pool,
        preempt_traps: args.preempt_traps,
        switch: args.switch.clone(),
        switch_poison: args.switch_poison,
        switch_mutate: args.switch_mutate,
        switch_budget: args.switch_budget,
        reg_pool: None,
        isolate: args.isolate,
        window: args.window.clone(),
        shrink: args.shrink.clone(),
    })?;
    let project = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let home = cactus_firmware::find_root(project)?;
    let (out_root, cache) = match &args.build_dir {
        // DIR holds only firmware directories; the toolchain-wide cache goes where commands
        // outside a checkout keep it.
        Some(dir) => (dir.clone(), std::env::temp_dir().join("cactus-cache")),
        None => {
            let build = cactus_firmware::home::default_build_dir(&home, project);
            (build.join("firmware"), build.join("cache"))
        }
    };
    let options = BuildOptions {
        root: Some(home),
        out_root: Some(out_root),
        checks: CheckOptions {
            reserves: crate::cmd::reserves::toolchain_reserves_in(&cache)?,
            ..CheckOptions::default()
        },
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&manifest, &options)?;
    if built.up_to_date {
        eprintln!(
            "cactus: {} up to date: {}",
            manifest.name,
            built.elf.display()
        );
    } else {
        let u = built.units;
        eprintln!(
            "cactus: {} built: {} ({} C units compiled, {} from the unit cache)",
            manifest.name,
            built.elf.display(),
            u.compiled,
            u.reused
        );
    }
    Ok((manifest, built))
}

/// Runs `cactus build`: prints the ELF path on stdout; any error is bad input (exit 2).
pub fn main(args: BuildArgs) -> Result<ExitCode> {
    let manifest = manifest_or_default(args.manifest.as_deref())?;
    let (_, built) = build_manifest(&manifest, &args.overrides)?;
    println!("{}", built.elf.display());
    Ok(ExitCode::SUCCESS)
}
