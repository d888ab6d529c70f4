//! `cactus build`: from a validated manifest to a firmware ELF, cached on content.
//!
//! The cache directory is `<out_root>/<name>-<hash>/` (default `build/firmware` of the project,
//! [`crate::home::default_build_dir`]), where the hash covers the generated C (so every manifest value and override), the manifest text,
//! every source and every header it includes (as `gcc -MM` resolves them, wherever they are),
//! every file of the kernel (its sources are compiled into each firmware), the linker script,
//! the compiler version, all flags, the `cactus cc` pass options and the running program
//! (whose passes did the instrumenting). A directory holds a complete build or does not exist: a build happens in a temporary
//! directory renamed into place at the end, so an interrupted or failed build leaves nothing
//! and concurrent builds of the same inputs agree.

use crate::cc_build::{self, CheckOptions};
use crate::codegen;
pub use crate::compile_units::{units, Unit};
use crate::deps;
use crate::error::BuildError;
use crate::hash::ContentHash;
use crate::linker;
use crate::manifest::Manifest;
use crate::toolchain::{Toolchain, ARCH_FLAGS, COMPILE_FLAGS, LINK_FLAGS};
use crate::unit_cache::{UnitCache, UnitCounts};
use std::path::{Path, PathBuf};

/// Where and with what a firmware is built.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// The Cactus home (with `kernel/`); found by [`find_root`] from the manifest's
    /// directory when None.
    pub root: Option<PathBuf>,
    /// Parent of the cache directories; when None `build/firmware` of the project
    /// ([`crate::home::default_build_dir`]: the home's for a manifest inside it, else the
    /// manifest directory's).
    pub out_root: Option<PathBuf>,
    /// The cross toolchain.
    pub toolchain: Toolchain,
    /// Pass settings for the `cactus cc` path (used when the manifest's `kernel.checks` is
    /// not `none`).
    pub checks: CheckOptions,
    /// Compile every unit, not taking GCC's assembly from the unit cache
    /// ([`crate::unit_cache`]; also `CACTUS_UNIT_CACHE=off`).
    pub no_unit_cache: bool,
}

/// A finished (or cached) build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The firmware ELF.
    pub elf: PathBuf,
    /// Its cache directory (also holds the generated C and the objects).
    pub dir: PathBuf,
    /// True when the ELF was already there and nothing was rebuilt.
    pub up_to_date: bool,
    /// The C units compiled and those taken from the unit cache (both 0 when up to date).
    pub units: UnitCounts,
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BuildError {
    let path = path.to_path_buf();
    move |error| BuildError::Io { what, path, error }
}

/// The Cactus home for a build or command starting at `start` (a manifest's directory or
/// `.`): `$CACTUS_HOME`, the installed data beside the binary, a checkout above `start`, the
/// current directory or the binary ([`crate::home`] gives the whole order).
pub fn find_root(start: &Path) -> Result<PathBuf, BuildError> {
    crate::home::find_home(start)
}

/// Adds every file under `dir` (recursively, in sorted order).
pub(crate) fn hash_dir(h: &mut ContentHash, dir: &Path) -> Result<(), BuildError> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io("cannot read", dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            hash_dir(h, &p)?;
        } else {
            hash_file(h, &p)?;
        }
    }
    Ok(())
}

fn hash_file(h: &mut ContentHash, path: &Path) -> Result<(), BuildError> {
    let data = std::fs::read(path).map_err(io("cannot read", path))?;
    h.labelled(&path.display().to_string(), &data);
    Ok(())
}

/// The cache key of `m` built against `library` (see the module documentation).
fn cache_key(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    checks: &CheckOptions,
) -> Result<String, BuildError> {
    let mut h = ContentHash::new();
    let pass = serde_json::to_string(&(cc_build::pass_options(m, checks), checks))
        .expect("pass options encode as JSON");
    h.labelled("cactus-cc", pass.as_bytes());
    // The passes are code of this program: a rebuilt program may instrument differently.
    h.labelled("builder", builder_identity().as_bytes());
    // The kernel's sources are compiled (and instrumented) as part of every firmware.
    hash_dir(&mut h, &root.join("kernel"))?;
    h.labelled("kernel-variant", m.kernel_defines().join(" ").as_bytes());
    let switch = format!(
        "{} {:?} {:?}",
        m.kernel.switch.name(),
        m.kernel.switch_poison,
        m.kernel.switch_mutate
    );
    h.labelled("switch", switch.as_bytes());
    h.labelled("cactus-firmware", env!("CARGO_PKG_VERSION").as_bytes());
    h.labelled("compiler", tc.version()?.as_bytes());
    for flags in [ARCH_FLAGS, COMPILE_FLAGS, LINK_FLAGS] {
        h.piece(flags.join(" ").as_bytes());
    }
    h.labelled("manifest", m.text.as_bytes());
    h.labelled(codegen::HEADER_NAME, codegen::header(m).as_bytes());
    h.labelled(codegen::SOURCE_NAME, codegen::source(m).as_bytes());
    // Sources and every header they include (as the compiler resolves them).
    let gen = Path::new("<generated>");
    for u in units(m, root, gen) {
        h.piece(u.flags.join(" ").as_bytes());
        if u.source.starts_with(gen) {
            continue;
        }
        for dep in deps::dependencies(tc, &u.source, &u.flags)? {
            if dep.is_file() {
                hash_file(&mut h, &dep)?;
            } else {
                // Only the generated header may be missing: it is hashed above.
                h.labelled("absent", dep.display().to_string().as_bytes());
            }
        }
    }
    hash_dir(&mut h, &root.join("kernel/include"))?;
    hash_file(&mut h, &root.join("kernel/arch/rv32/link.ld"))?;
    Ok(h.short_hex())
}

/// The running program (path, size, modification time): part of every cache key, because the
/// instrumentation passes are compiled into it.
fn builder_identity() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "unknown".into();
    };
    let meta = std::fs::metadata(&exe).ok();
    let size = meta.as_ref().map(|m| m.len()).unwrap_or(0);
    let mtime = meta
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{}:{size}:{mtime}", exe.display())
}

/// Builds `m` (or finds it already built) and returns the ELF.
pub fn build(m: &Manifest, opts: &BuildOptions) -> Result<Built, BuildError> {
    let project = match m.path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let root = match &opts.root {
        Some(r) => r.clone(),
        None => find_root(project)?,
    };
    let tc = &opts.toolchain;
    let key = cache_key(m, &root, tc, &opts.checks)?;
    let out_root = opts
        .out_root
        .clone()
        .unwrap_or_else(|| crate::home::default_build_dir(&root, project).join("firmware"));
    let dir = out_root.join(format!("{}-{key}", m.name));
    let elf_name = format!("{}.elf", m.name);
    if dir.join(&elf_name).is_file() {
        return Ok(Built {
            elf: dir.join(&elf_name),
            dir,
            up_to_date: true,
            units: UnitCounts::default(),
        });
    }
    std::fs::create_dir_all(&out_root).map_err(io("cannot create", &out_root))?;
    let tmp = tempdir_in(&out_root, &format!(".{}-{key}.", m.name))?;
    let result = UnitCache::new(tc, &tmp, &dir, opts.no_unit_cache).and_then(|mut cache| {
        build_into(
            m,
            &root,
            tc,
            (&tmp, &dir),
            &elf_name,
            &opts.checks,
            &mut cache,
        )
        .map(|()| {
            cache.commit();
            cache.counts
        })
    });
    let units = match result {
        Ok(units) => units,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    if dir.exists() && !dir.join(&elf_name).is_file() {
        // A directory without its ELF cannot come from this code; replace it.
        let _ = std::fs::remove_dir_all(&dir);
    }
    if std::fs::rename(&tmp, &dir).is_err() {
        // Another build of the same inputs finished first: its result is the same.
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.join(&elf_name).is_file() {
            return Err(BuildError::Io {
                what: "cannot move the build into",
                path: dir,
                error: std::io::Error::other("rename failed"),
            });
        }
    }
    Ok(Built {
        elf: dir.join(&elf_name),
        dir,
        up_to_date: false,
        units,
    })
}

pub(crate) fn write_glue(m: &Manifest, dir: &Path) -> Result<(), BuildError> {
    for (name, text) in [
        (codegen::HEADER_NAME, codegen::header(m)),
        (codegen::SOURCE_NAME, codegen::source(m)),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).map_err(io("cannot write", &p))?;
    }
    Ok(())
}

/// A fresh directory `<parent>/<prefix><unique>`.
fn tempdir_in(parent: &Path, prefix: &str) -> Result<PathBuf, BuildError> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    for attempt in 0..100u32 {
        let p = parent.join(format!(
            "{prefix}tmp-{}-{nanos}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&p) {
            Ok(()) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(io("cannot create", &p)(e)),
        }
    }
    Err(io("cannot create a build directory in", parent)(
        std::io::Error::other("too many attempts"),
    ))
}

/// Writes the glue, compiles every unit and links, all inside `dir`, with debug info naming
/// `final_dir`, where `dir` is renamed to.
fn build_into(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    (dir, final_dir): (&Path, &Path),
    elf_name: &str,
    checks: &CheckOptions,
    cache: &mut UnitCache,
) -> Result<(), BuildError> {
    write_glue(m, dir)?;
    let objects = cc_build::build_objects(m, root, tc, (dir, final_dir), checks, cache)?;
    let mut script = root.join("kernel/arch/rv32/link.ld");
    if let Some(kib) = m.kernel.ram_kib {
        let text = std::fs::read_to_string(&script).map_err(io("cannot read", &script))?;
        let resized = linker::resize_ram(&text, kib).map_err(|problem| BuildError::Io {
            what: "cannot resize the RAM region of",
            path: script.clone(),
            error: std::io::Error::other(problem),
        })?;
        script = dir.join(linker::SCRIPT_NAME);
        std::fs::write(&script, resized).map_err(io("cannot write", &script))?;
    }
    // The task sources' final assembly, where the entry functions are defined.
    let task_asm = || -> Vec<String> {
        crate::compile_units::units(m, root, dir)
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let stem = crate::compile_units::stem(&u.source);
                std::fs::read_to_string(dir.join("asm").join(format!("{i:02}-{stem}.s")))
                    .unwrap_or_default()
            })
            .collect()
    };
    let carousel = m.srp.as_ref().is_some_and(|s| s.carousel);
    let carousel_error = |problem: String| BuildError::Carousel {
        firmware: m.name.clone(),
        problem,
    };
    if carousel {
        let text = std::fs::read_to_string(&script).map_err(io("cannot read", &script))?;
        let laid_out =
            crate::carousel_link::script(&text, m, &task_asm()).map_err(carousel_error)?;
        script = dir.join(linker::SCRIPT_NAME);
        std::fs::write(&script, laid_out).map_err(io("cannot write", &script))?;
    }
    if m.kernel.isolate {
        let text = std::fs::read_to_string(&script).map_err(io("cannot read", &script))?;
        let asm = task_asm();
        let isolated =
            crate::isolate_link::script(&text, m, &asm).map_err(|problem| BuildError::Io {
                what: "cannot add the isolation regions to",
                path: script.clone(),
                error: std::io::Error::other(problem),
            })?;
        script = dir.join(linker::SCRIPT_NAME);
        std::fs::write(&script, isolated).map_err(io("cannot write", &script))?;
    }
    let mut flags = m.cflags.clone();
    flags.extend(m.kernel.link_flags());
    let elf = dir.join(elf_name);
    tc.link(&objects, &[], &script, &flags, &elf)
        .map_err(|e| match e {
            BuildError::Link { ref output, .. } => {
                let undefined = crate::manifest::undefined_symbols(output);
                m.undefined_entry(&undefined)
                    .map_or(e, BuildError::Manifest)
            }
            e => e,
        })?;
    if m.kernel.switch.has_table() {
        crate::switch_table::sort_elf(m, &elf)?;
    }
    if m.kernel.window == crate::manifest::StackWindow::Sw {
        crate::lstack_sort::sort_elf(&elf)?;
    }
    if carousel {
        let bytes = std::fs::read(&elf).map_err(io("cannot read", &elf))?;
        let layout = crate::carousel_link::layout(&bytes, m).map_err(carousel_error)?;
        crate::carousel_link::check(&layout).map_err(carousel_error)?;
    }
    Ok(())
}
