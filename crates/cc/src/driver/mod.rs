//! The compiler driver behind `cactus cc`: takes a gcc command line, compiles its C sources
//! to assembly with gcc, instruments them together ([`crate::instrument_units`]) and
//! assembles the result with the same options, so that `cactus cc -- ARGS` can stand in for
//! `gcc ARGS` anywhere (Make's `CC`, CMake, scripts). Everything else (preprocessing,
//! queries, link-only steps, `.S` files) goes to gcc unchanged. See `docs/cc.md`.
//!
//! Guarantees:
//! - outputs get the names gcc would give them (`-o`, else the source's stem in the working
//!   directory; dependency files and `-fstack-usage` files likewise) and are written
//!   atomically: a failing step leaves no output half-written;
//! - gcc's diagnostics pass through unchanged and its exit code is the outcome's status;
//! - with [`CheckMode::None`](crate::CheckMode::None) objects are exactly what
//!   `gcc -S` followed by `gcc -c x.s` produce (the assembly path is always taken, so it is
//!   exercised even by baseline builds).

pub mod args;
mod build;
mod files;
pub mod gcc;
pub mod plan;
pub mod response;
pub mod runtime;
mod steps;
mod symtab;

pub use args::{InputKind, Item, Stage};
pub use gcc::Captured;
pub use plan::{classify, Build, Passthrough, Plan, Source};

use crate::{CcError, PassOptions, Report, Reserves};
use std::path::PathBuf;

/// The compiler gcc steps run when neither `--gcc` nor `CACTUS_GCC` says otherwise.
pub const DEFAULT_GCC: &str = "riscv64-unknown-elf-gcc";

/// One configured `cactus cc`: what to instrument and how to run gcc. Reusable for any
/// number of [`Driver::run`] calls (one per gcc command line).
#[derive(Clone, Debug)]
pub struct Driver {
    /// What the pass does. `whole_program` is used as given: `cactus cc` passes `false`,
    /// since one command line is rarely the whole program.
    pub options: PassOptions,
    /// Stack reserves of uninstrumented callees (picolibc, libgcc, ...).
    pub reserves: Reserves,
    /// The units are library code (K is `k_lib`).
    pub library: bool,
    /// The gcc program.
    pub gcc: PathBuf,
    /// Also keep each instrumented assembly as `<object>.cactus.s` (when linking directly,
    /// `<output>-<stem>.cactus.s`, gcc's auxiliary-file name).
    pub keep_s: bool,
    /// Write the JSON [`Report`] of every command line that compiles C here (atomically,
    /// only when the whole command succeeds).
    pub report: Option<PathBuf>,
    /// The directory the gcc arguments are relative to (`None`: this process's).
    pub cwd: Option<PathBuf>,
    /// Collect gcc's output in [`DriverOutcome::captured`] instead of passing it through.
    pub capture: bool,
    /// Link executables with Cactus's bare-metal runtime ([`runtime`]: crt0, trap report,
    /// exit through the finisher, linker script) unless the command line brings its own
    /// (`-nostartfiles`, `-nostdlib`, `-T`, ...). `cactus cc --no-runtime` clears it.
    pub runtime: bool,
}

/// What one [`Driver::run`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DriverOutcome {
    /// The exit code gcc would have given: 0, or the first failing step's code.
    pub status: i32,
    /// Set when the command line went to gcc unchanged, and why.
    pub passthrough: Option<Passthrough>,
    /// The pass report of the C units compiled (empty under `CheckMode::None`); `None` for
    /// a passthrough.
    pub report: Option<Report>,
    /// Files the driver itself wrote (objects, `.s`, dependency files, kept assembly,
    /// report), in the order written; the link output and passthrough outputs are gcc's.
    pub outputs: Vec<PathBuf>,
    /// gcc's output, when [`Driver::capture`] is set.
    pub captured: Captured,
}

impl Driver {
    /// A driver with `options`, no reserves, application code, the default gcc
    /// ([`Driver::default_gcc`]), the process's working directory, inherited output and the
    /// runtime on.
    pub fn new(options: PassOptions) -> Driver {
        Driver {
            options,
            reserves: Reserves::default(),
            library: false,
            gcc: Driver::default_gcc(),
            keep_s: false,
            report: None,
            cwd: None,
            capture: false,
            runtime: true,
        }
    }

    /// `$CACTUS_GCC` when set and not empty, else [`DEFAULT_GCC`].
    pub fn default_gcc() -> PathBuf {
        match std::env::var_os("CACTUS_GCC") {
            Some(v) if !v.is_empty() => PathBuf::from(v),
            _ => PathBuf::from(DEFAULT_GCC),
        }
    }

    /// Does what `gcc gcc_args` does, with the C sources instrumented (response files
    /// `@FILE` are read first; a passthrough hands gcc the arguments as given). `Ok` whenever the
    /// command line could be carried out, including when gcc failed (see
    /// [`DriverOutcome::status`]); `Err` for the driver's own failures (unusable command
    /// line, gcc not startable, I/O, the pass rejecting a unit), after which no output of
    /// this run exists.
    pub fn run(&self, gcc_args: &[String]) -> Result<DriverOutcome, CcError> {
        let gcc = gcc::Gcc {
            program: &self.gcc,
            cwd: self.cwd.as_deref(),
            capture: self.capture,
        };
        let mut outcome = DriverOutcome::default();
        let expanded = response::expand(gcc_args, self.cwd.as_deref())?;
        match classify(&expanded)? {
            Plan::Passthrough(Passthrough::NoCSource)
                if self.runtime && runtime::wanted(&expanded)? =>
            {
                let scratch =
                    tempfile::tempdir().map_err(|e| files::io_error(&std::env::temp_dir(), e))?;
                outcome.status =
                    runtime::link(&gcc, &expanded, scratch.path(), &mut outcome.captured)?;
            }
            Plan::Passthrough(why) => {
                outcome.passthrough = Some(why);
                outcome.status = gcc.run(gcc_args, &mut outcome.captured)?;
            }
            Plan::Build(plan) => build::run(self, &plan, &gcc, &mut outcome)?,
        }
        Ok(outcome)
    }
}
