//! Typed errors of manifest parsing and firmware builds. Every manifest error names the file,
//! the line (when known), the key path and the problem; every build error names the step and
//! the file or tool involved, with the tool's own output.
//! An underlying error is part of the variant's message and deliberately not its `source()`
//! (the field is `error`, not `source`), so that a chain printer such as anyhow's `{:#}` says
//! the cause once.

use std::path::PathBuf;

/// A manifest that cannot be read or is not a valid firmware description.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// The manifest file cannot be read.
    #[error("cannot read manifest {}: {error}", path.display())]
    Io {
        /// The manifest path as given.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The manifest is malformed or fails validation.
    #[error("{file}{}: {}{problem}", line.map(|l| format!(":{l}")).unwrap_or_default(),
        if key.is_empty() { String::new() } else { format!("`{key}`: ") })]
    Invalid {
        /// The manifest path (or the option that overrode a value, e.g. `--stack`).
        file: String,
        /// 1-based line of the offending value, when known.
        line: Option<usize>,
        /// Key path such as `task[1].priority` (empty for the whole document).
        key: String,
        /// What is wrong, in words.
        problem: String,
    },
}

/// A firmware build that failed; nothing is left in the cache for it.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The manifest is invalid.
    #[error(transparent)]
    Manifest(#[from] ManifestError),
    /// A file or directory could not be read or written.
    #[error("{what} {}: {error}", path.display())]
    Io {
        /// What was being done ("cannot write", ...).
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// A tool (cross compiler, make) could not be started.
    #[error("cannot run {tool}: {error} (the RISC-V cross toolchain comes from the Debian packages gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf; run scripts/setup)")]
    Tool {
        /// The program name.
        tool: String,
        /// The underlying error.
        error: std::io::Error,
    },
    /// No Cactus home (a directory with `kernel/`: a checkout or the installed data) was found.
    #[error("cannot find the Cactus kernel (a directory with kernel/include/cactus/cactus.h); searched: {}; install cactus with `make install PREFIX=...` or set CACTUS_HOME to a Cactus checkout", searched.join("; "))]
    NoRoot {
        /// Every place searched, in order, each with what it was.
        searched: Vec<String>,
    },
    /// `CACTUS_HOME` names a directory that is not a Cactus home.
    #[error("CACTUS_HOME={} is not a Cactus checkout or installed data directory (no kernel/include/cactus/cactus.h there)", path.display())]
    BadHome {
        /// The directory it names (relative values resolved against the current directory).
        path: PathBuf,
    },
    /// Building the kernel library failed.
    #[error("building the kernel library {library} failed:\n{output}")]
    Kernel {
        /// The library file name.
        library: String,
        /// What make and the compiler printed.
        output: String,
    },
    /// Compiling one C file failed.
    #[error("compiling {} failed:\n{output}", source_file.display())]
    Compile {
        /// The C file.
        source_file: PathBuf,
        /// What the compiler printed.
        output: String,
    },
    /// Linking the ELF failed.
    #[error("linking {} failed:\n{output}", elf.display())]
    Link {
        /// The ELF being written.
        elf: PathBuf,
        /// What the linker printed.
        output: String,
    },
    /// The manifest asks for the srp scheduler and a job can block (docs/srp.md).
    #[error("{firmware} refused: {refusal}")]
    SrpJob {
        /// The firmware's name.
        firmware: String,
        /// Which job, which call, which path.
        refusal: crate::srp_check::JobRefusal,
    },
    /// The instrumentation passes of `cactus cc` refused the program.
    #[error("instrumenting {firmware} failed: {error}")]
    Instrument {
        /// The firmware's name.
        firmware: String,
        /// What the pass said (names the unit and function).
        error: cactus_cc::CcError,
    },
    /// The ccs-sw switch table could not be made or placed (docs/ccs.md, "The switch table").
    #[error("firmware {firmware}: switch table: {problem}")]
    Switch {
        /// The firmware's name.
        firmware: String,
        /// What went wrong (names the unit or the record).
        problem: String,
    },
    /// A Carousel firmware's layout (docs/carousel.md): a task whose blocks do not fit, or a
    /// link script or ELF the layout cannot be made or read from.
    #[error("firmware {firmware}: carousel: {problem}")]
    Carousel {
        /// The firmware's name.
        firmware: String,
        /// What went wrong (names the task and its sizes).
        problem: String,
    },
}
