//! A firmware as GCC assembly, for the static stack analysis: every C unit of its build
//! compiled with that build's own flags plus `-fno-lto -S` (the build itself uses LTO, whose
//! objects hold no machine code).

use crate::compile_units::{stem, units};
use crate::driver::{hash_dir, write_glue};
use crate::error::BuildError;
use crate::hash::ContentHash;
use crate::kernel_units::kernel_units;
use crate::manifest::Manifest;
use crate::toolchain::Toolchain;
use std::path::{Path, PathBuf};

/// Writes the generated glue into `dir` and compiles every unit of [`units`] to GCC assembly
/// in `dir` with the firmware's own flags ([`Toolchain::compile_asm`]), then every C source of
/// the firmware's kernel library with its Makefile's flags ([`kernel_units`]), each with the
/// `cactus cc` build's `-fno-ipa-ra` when `kernel.checks` is not `none`; returns the
/// `.s` files in that order (the kernel's `.S` sources are not among them). The kernel's
/// files live in a cache under `<root>/build/cache/kernel-asm/` ([`kernel_assembly`]), the
/// firmware's in `dir`.
pub fn assembly(
    m: &Manifest,
    root: &Path,
    tc: &Toolchain,
    dir: &Path,
) -> Result<Vec<PathBuf>, BuildError> {
    write_glue(m, dir)?;
    let mut files = Vec::new();
    // The `cactus cc` build path adds this flag to every unit (cc_build.rs): it changes which
    // registers callees save, so frames too.
    let checked = |flags: &[String]| {
        let mut flags = flags.to_vec();
        if m.kernel.checks != cactus_cc::CheckMode::None {
            flags.push(cactus_cc::NO_IPA_RA.to_string());
        }
        flags
    };
    for (i, u) in units(m, root, dir).iter().enumerate() {
        let asm = dir.join(format!("{i:02}-{}.s", stem(&u.source)));
        tc.compile_asm(&u.source, &asm, &checked(&u.flags))?;
        files.push(asm);
    }
    let k = &m.kernel;
    let kernel = kernel_units(
        tc,
        root,
        k.stack,
        k.target,
        &m.kernel_defines(),
        crate::kernel_units::Links::of(m),
    )?;
    let kernel: Vec<(PathBuf, Vec<String>)> = kernel
        .into_iter()
        .map(|u| {
            let flags = checked(&u.flags);
            (u.source, flags)
        })
        .collect();
    files.extend(kernel_assembly(root, tc, &kernel)?);
    Ok(files)
}

/// The kernel units compiled to assembly, from `<root>/build/cache/kernel-asm/<key>/` when an
/// earlier run made them: the key covers every file under `kernel/`, the compiler's version and
/// each unit's path and flags, so a cached file is what compiling now would give. A new entry
/// is compiled in a temporary directory beside it and renamed into place (a concurrent run
/// that got there first wins; both hold the same files).
fn kernel_assembly(
    root: &Path,
    tc: &Toolchain,
    units: &[(PathBuf, Vec<String>)],
) -> Result<Vec<PathBuf>, BuildError> {
    let mut h = ContentHash::new();
    hash_dir(&mut h, &root.join("kernel"))?;
    h.labelled("compiler", tc.version()?.as_bytes());
    for (source, flags) in units {
        h.labelled(&source.display().to_string(), flags.join(" ").as_bytes());
    }
    let base = root.join("build").join("cache").join("kernel-asm");
    let dir = base.join(h.short_hex());
    let name = |i: usize, source: &Path| format!("kernel-{i:02}-{}.s", stem(source));
    if !dir.is_dir() {
        let io = |what: &'static str, path: &Path| {
            let path = path.to_path_buf();
            move |error| BuildError::Io { what, path, error }
        };
        std::fs::create_dir_all(&base).map_err(io("cannot create", &base))?;
        let tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempdir_in(&base)
            .map_err(io("cannot create a directory in", &base))?;
        for (i, (source, flags)) in units.iter().enumerate() {
            tc.compile_asm_with(source, &tmp.path().join(name(i, source)), flags)?;
        }
        let made = tmp.keep();
        if std::fs::rename(&made, &dir).is_err() {
            // Another run renamed the same files into place first.
            let _ = std::fs::remove_dir_all(&made);
        }
    }
    Ok(units
        .iter()
        .enumerate()
        .map(|(i, (source, _))| dir.join(name(i, source)))
        .collect())
}
