//! The RISC-V cross toolchain and the kernel's Makefile, as the firmware build uses them
//! (flags from docs/kernel.md: compile with `_zicsr_zifencei`, name libgcc by path at link).

use crate::error::BuildError;
use crate::make_paths::make_safe;
use crate::manifest::KernelOptions;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Architecture flags for compiling and assembling (the kernel needs `_zicsr`).
pub const ARCH_FLAGS: &[&str] = &["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32"];
/// Flags every C file of a firmware is compiled with (before the manifest's own). Warnings
/// are on and shown (see [`Toolchain::compile_asm_with`]) but are not errors: `-Werror` is for
/// the project's own code (the kernel library keeps it, kernel/Makefile), not forced on the
/// user's tasks; a manifest's `cflags = ["-Werror"]` turns it on for its firmware.
pub const COMPILE_FLAGS: &[&str] = &[
    "-O2",
    "-g",
    "-std=c11",
    "-ffreestanding",
    "-ffunction-sections",
    "-fdata-sections",
    "-Wall",
    "-Wextra",
];
/// Link flags (before the linker script, objects and libraries). No LTO: `cactus cc`
/// instruments the machine code GCC emits for each unit, which an LTO link would redo.
pub const LINK_FLAGS: &[&str] = &[
    "-O2",
    "-nostdlib",
    "-nostartfiles",
    "-Wl,--gc-sections",
    // The check table's entries are tied to their functions (docs/stack-checks.md): the
    // kernel's `__start_cactus_checks` reference must not keep unused functions alive.
    "-Wl,-z,start-stop-gc",
    "-Wl,-u,_start",
    // GCC may call these four from any freestanding code (struct copies, zeroing loops); the
    // kernel's definitions are pulled in up front whatever the object order.
    "-Wl,-u,memset,-u,memcpy,-u,memmove,-u,memcmp",
];

/// The cross compiler, named by its prefix (default `riscv64-unknown-elf-`).
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// Prefix of the tool names, e.g. `riscv64-unknown-elf-`.
    pub prefix: String,
}

impl Default for Toolchain {
    fn default() -> Self {
        Toolchain {
            prefix: "riscv64-unknown-elf-".to_string(),
        }
    }
}

/// Runs `cmd`, returning its output; a command that cannot start is a [`BuildError::Tool`].
pub(crate) fn run(cmd: &mut Command, tool: &str) -> Result<Output, BuildError> {
    cmd.output().map_err(|error| BuildError::Tool {
        tool: tool.to_string(),
        error,
    })
}

/// stdout and stderr of a finished command, as one text.
pub(crate) fn transcript(out: &Output) -> String {
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text.trim_end().to_string()
}

impl Toolchain {
    /// The compiler driver's name.
    pub fn gcc(&self) -> String {
        format!("{}gcc", self.prefix)
    }

    /// The compiler's `--version` first line (part of the build hash).
    pub fn version(&self) -> Result<String, BuildError> {
        let out = run(Command::new(self.gcc()).arg("--version"), &self.gcc())?;
        Ok(String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string())
    }

    /// The rv32imac/ilp32 libgcc, by path (the `_zicsr` driver would pick a 64-bit multilib).
    pub fn libgcc(&self) -> Result<PathBuf, BuildError> {
        let out = run(
            Command::new(self.gcc()).args([
                "-march=rv32imac",
                "-mabi=ilp32",
                "-print-libgcc-file-name",
            ]),
            &self.gcc(),
        )?;
        Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    }

    /// Runs a compile of `source`: a failure is a [`BuildError::Compile`] with gcc's output;
    /// on success gcc's diagnostics (warnings), if any, are passed through to stderr as gcc
    /// itself would print them.
    fn run_compile(&self, command: &mut Command, source: &Path) -> Result<(), BuildError> {
        let diagnostics = self.run_compile_quietly(command, source)?;
        if !diagnostics.is_empty() {
            use std::io::Write;
            let _ = std::io::stderr().write_all(&diagnostics);
        }
        Ok(())
    }

    /// [`Toolchain::run_compile`] returning gcc's diagnostics instead of printing them.
    fn run_compile_quietly(
        &self,
        command: &mut Command,
        source: &Path,
    ) -> Result<Vec<u8>, BuildError> {
        let out = run(command, &self.gcc())?;
        if !out.status.success() {
            return Err(BuildError::Compile {
                source_file: source.to_path_buf(),
                output: transcript(&out),
            });
        }
        Ok(out.stderr)
    }

    /// Compiles `source` to GCC assembly `asm` with the firmware flags ([`ARCH_FLAGS`],
    /// [`COMPILE_FLAGS`]) plus `extra` and `-fno-lto -S`: the machine code the firmware gets.
    pub fn compile_asm(
        &self,
        source: &Path,
        asm: &Path,
        extra: &[String],
    ) -> Result<(), BuildError> {
        let mut flags: Vec<String> = ARCH_FLAGS
            .iter()
            .chain(COMPILE_FLAGS)
            .map(|f| f.to_string())
            .collect();
        flags.extend_from_slice(extra);
        self.compile_asm_with(source, asm, &flags)
    }

    /// Compiles `source` to GCC assembly `asm` with exactly `flags` (all of them, e.g. the
    /// kernel Makefile's `CFLAGS`) plus `-fno-lto -S`.
    pub fn compile_asm_with(
        &self,
        source: &Path,
        asm: &Path,
        flags: &[String],
    ) -> Result<(), BuildError> {
        self.run_compile(
            Command::new(self.gcc())
                .args(flags)
                .args(["-fno-lto", "-S"])
                .arg(source)
                .arg("-o")
                .arg(asm),
            source,
        )
    }

    /// Compiles `source` to GCC assembly `asm` with exactly `flags` plus `-fno-lto -S`, and
    /// the make rule of every file it read (system headers included) to `depfile`; returns
    /// gcc's diagnostics (warnings) instead of printing them. A failure is a
    /// [`BuildError::Compile`] naming `source`.
    pub fn compile_asm_listing_deps(
        &self,
        source: &Path,
        asm: &Path,
        flags: &[String],
        depfile: &Path,
    ) -> Result<Vec<u8>, BuildError> {
        self.run_compile_quietly(
            Command::new(self.gcc())
                .args(flags)
                .args(["-fno-lto", "-S", "-MD", "-MF"])
                .arg(depfile)
                .arg(source)
                .arg("-o")
                .arg(asm),
            source,
        )
    }

    /// Assembles `asm` (GNU assembly, or `.S` to preprocess) into `object` with `flags`; a
    /// failure is a [`BuildError::Compile`] naming `source` (the C file the assembly came
    /// from, or the `.S` itself).
    pub fn assemble(
        &self,
        asm: &Path,
        object: &Path,
        flags: &[String],
        source: &Path,
    ) -> Result<(), BuildError> {
        self.run_compile(
            Command::new(self.gcc())
                .args(flags)
                .arg("-c")
                .arg(asm)
                .arg("-o")
                .arg(object),
            source,
        )
    }

    /// Links `objects` and `libraries` (the kernel library, if any) under `script` into
    /// `elf`, with libgcc last.
    pub fn link(
        &self,
        objects: &[PathBuf],
        libraries: &[PathBuf],
        script: &Path,
        extra: &[String],
        elf: &Path,
    ) -> Result<(), BuildError> {
        let out = run(
            Command::new(self.gcc())
                .args(ARCH_FLAGS)
                .args(LINK_FLAGS)
                .args(extra)
                .arg("-T")
                .arg(script)
                .args(objects)
                .args(libraries)
                .arg(self.libgcc()?)
                .arg("-o")
                .arg(elf),
            &self.gcc(),
        )?;
        if !out.status.success() {
            return Err(BuildError::Link {
                elf: elf.to_path_buf(),
                output: transcript(&out),
            });
        }
        Ok(())
    }

    /// Brings `<build>/kernel/libcactus-<strategy>-<trace>.a` up to date with the kernel's own
    /// Makefile under `root` (under a lock file, so concurrent firmware builds do not race on
    /// it) and returns its path; `build` is the project's build directory
    /// ([`crate::home::default_build_dir`]: `<root>/build` inside a checkout). For a kernel
    /// variant (a pool size, MTSS page or worst-case mode not the default:
    /// [`KernelOptions::variant_defines`]), the library is built with those `-D` options into
    /// `<build>/kernel/<variant_dir>/` (the Makefile's output directory `KB` and
    /// `EXTRA_CFLAGS` given on its command line). Make splits names on whitespace: a kernel or
    /// build directory that holds some is handed to make through a symlink without
    /// ([`crate::make_paths::make_safe`]); the library's real path is returned.
    pub fn kernel_library(
        &self,
        root: &Path,
        build: &Path,
        k: &KernelOptions,
    ) -> Result<PathBuf, BuildError> {
        let (strategy, target) = (k.stack, k.target);
        // Absolute: make runs in the kernel's directory.
        let base = std::path::absolute(build)
            .map_err(|error| BuildError::Io {
                what: "cannot resolve",
                path: build.to_path_buf(),
                error,
            })?
            .join("kernel");
        let variant = k.variant_dir();
        let dir = match &variant {
            Some(v) => base.join(v),
            None => base.clone(),
        };
        let io = |what, path: &Path| {
            let path = path.to_path_buf();
            move |error| BuildError::Io { what, path, error }
        };
        std::fs::create_dir_all(&dir).map_err(io("cannot create", &dir))?;
        let name = format!(
            "libcactus-{}-{}.a",
            strategy.file_name(),
            target.trace_backend()
        );
        let library = dir.join(&name);
        let lock_path = base.join(".firmware-build.lock");
        let lock = File::create(&lock_path).map_err(io("cannot create", &lock_path))?;
        lock.lock().map_err(io("cannot lock", &lock_path))?;
        let make_root = make_safe(root).map_err(io("cannot link", root))?;
        let make_dir = make_safe(&dir).map_err(io("cannot link", &dir))?;
        let sources = make_root.join("kernel");
        let mut make = Command::new("make");
        make.arg("-s")
            .arg("-C")
            .arg(&sources)
            .arg(format!("STRATEGY={}", strategy.file_name()))
            .arg(format!("CROSS={}", self.prefix));
        if make_root != root {
            // make takes CURDIR (and the Makefile ROOT) from the physical directory, spaces
            // and all: both are given through the link.
            make.arg(format!("CURDIR={}", sources.display()));
            make.arg(format!("ROOT={}", make_root.display()));
        }
        make.arg(format!("KB={}", make_dir.display()));
        if variant.is_some() {
            make.arg(format!("EXTRA_CFLAGS={}", k.variant_defines().join(" ")));
        }
        let out = run(make.arg(make_dir.join(&name)), "make")?;
        drop(lock);
        if !out.status.success() {
            return Err(BuildError::Kernel {
                library: name,
                output: transcript(&out),
            });
        }
        Ok(library)
    }
}
