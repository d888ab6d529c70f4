//! The toolchain's libraries for rv32imac/ilp32 (picolibc's `libc.a` and `libgcc.a`), found
//! by asking the cross compiler, and their machine-code depths, cached as JSON.
//!
//! The cache file is `<cache_dir>/toolchain-stack-depths.json`; it is reused only while the
//! archives' paths, sizes and modification times and the analyser's own source are what
//! they were when it was written, and it is replaced atomically (written beside, then
//! renamed), so readers never see half a file.

use super::error::MachineError;
use super::{analyze, load_path, MachineDepth};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::UNIX_EPOCH;

/// The cross compiler driver asked for library locations.
pub const GCC: &str = "riscv64-unknown-elf-gcc";
/// Multilib selection flags (no `_zicsr`: with it the driver picks a 64-bit multilib).
const MULTILIB: [&str; 2] = ["-march=rv32imac", "-mabi=ilp32"];
/// Name of the cache file inside the cache directory.
pub const CACHE_FILE: &str = "toolchain-stack-depths.json";

/// Where the toolchain's rv32imac/ilp32 libraries are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolchainArchives {
    /// picolibc's `libc.a`.
    pub libc: PathBuf,
    /// `libgcc.a`.
    pub libgcc: PathBuf,
}

fn ask(gcc: &str, args: &[&str]) -> Result<String, MachineError> {
    let out = Command::new(gcc)
        .args(MULTILIB)
        .args(args)
        .output()
        .map_err(|e| MachineError::Toolchain(format!("cannot run {gcc}: {e}")))?;
    if !out.status.success() {
        return Err(MachineError::Toolchain(format!(
            "{gcc} {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The `-L` directories of a specs file's link rule, as they apply with no
/// `--picolibc-prefix`/`--picolibc-buildtype`: the last alternative of each `-L%{...}`
/// (or a plain `-LDIR`), with `%M` replaced by the multilib directory.
pub fn specs_library_dirs(specs: &str, multilib: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut rest = specs;
    while let Some(at) = rest.find("-L") {
        rest = &rest[at + 2..];
        let dir = if let Some(body) = rest.strip_prefix("%{") {
            let Some(end) = body.find('}') else { break };
            let alternatives = &body[..end];
            let last = alternatives.rsplit(';').next().unwrap_or("").trim();
            last.strip_prefix(':').unwrap_or(last).to_string()
        } else {
            rest.split_whitespace().next().unwrap_or("").to_string()
        };
        if dir.starts_with('/') {
            dirs.push(PathBuf::from(dir.replace("%M", multilib)));
        }
    }
    dirs
}

/// Finds `libc.a` (picolibc) and `libgcc.a` for rv32imac/ilp32 by asking `gcc`: libgcc from
/// `-print-libgcc-file-name`; libc from `--specs=picolibc.specs -print-file-name=libc.a` when
/// that gives a path, else from the `-L` directories of `picolibc.specs`, else from the
/// driver's `-print-search-dirs` library directories.
pub fn toolchain_archives(gcc: &str) -> Result<ToolchainArchives, MachineError> {
    let libgcc = PathBuf::from(ask(gcc, &["-print-libgcc-file-name"])?);
    if !libgcc.is_file() {
        return Err(MachineError::Toolchain(format!(
            "{gcc} names {} as libgcc, which does not exist",
            libgcc.display()
        )));
    }
    let direct = PathBuf::from(ask(
        gcc,
        &["--specs=picolibc.specs", "-print-file-name=libc.a"],
    )?);
    if direct.is_absolute() && direct.is_file() {
        return Ok(ToolchainArchives {
            libc: direct,
            libgcc,
        });
    }
    let multilib = ask(gcc, &["-print-multi-directory"])?;
    let mut candidates = Vec::new();
    let specs = PathBuf::from(ask(gcc, &["-print-file-name=picolibc.specs"])?);
    if let Ok(text) = std::fs::read_to_string(&specs) {
        candidates.extend(specs_library_dirs(&text, &multilib));
    }
    let search = ask(gcc, &["--specs=picolibc.specs", "-print-search-dirs"])?;
    for line in search.lines() {
        if let Some(list) = line.strip_prefix("libraries: =") {
            candidates.extend(list.split(':').map(PathBuf::from));
        }
    }
    match candidates
        .iter()
        .map(|d| d.join("libc.a"))
        .find(|p| p.is_file())
    {
        Some(libc) => Ok(ToolchainArchives { libc, libgcc }),
        None => Err(MachineError::Toolchain(format!(
            "no libc.a for {multilib} in {}",
            candidates
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// What the cache is valid for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct CacheKey {
    /// (path, size, modification time in ns since the epoch) of each archive.
    archives: Vec<(PathBuf, u64, u128)>,
    /// Fingerprint of the analyser's source.
    analyser: String,
}

#[derive(Serialize, Deserialize)]
struct CacheFile {
    key: CacheKey,
    depths: BTreeMap<String, MachineDepth>,
}

/// The BLAKE3 hash (hex) of the analyser's source files: a changed analysis invalidates old
/// caches.
fn fingerprint(parts: &[&str]) -> String {
    let mut h = blake3::Hasher::new();
    for part in parts {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().to_hex().to_string()
}

/// The analyser's source files, hashed into the cache key.
const ANALYSER_SOURCES: &[&str] = &[
    include_str!("flow.rs"),
    include_str!("value.rs"),
    include_str!("solve.rs"),
    include_str!("load.rs"),
    include_str!("unit.rs"),
    include_str!("annotate.rs"),
];

fn key_of(archives: &[&Path]) -> Result<CacheKey, MachineError> {
    let mut out = Vec::new();
    for p in archives {
        let meta = std::fs::metadata(p).map_err(|error| MachineError::Io {
            what: "cannot stat",
            path: p.to_path_buf(),
            error,
        })?;
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        out.push((p.to_path_buf(), meta.len(), mtime));
    }
    Ok(CacheKey {
        archives: out,
        analyser: fingerprint(ANALYSER_SOURCES),
    })
}

/// The depth of every global function of `archives` analysed together (no externals), from
/// `<cache_dir>/`[`CACHE_FILE`] when that is valid for them, else computed and cached.
pub fn archive_depths_cached(
    archives: &[&Path],
    cache_dir: &Path,
) -> Result<BTreeMap<String, MachineDepth>, MachineError> {
    let key = key_of(archives)?;
    let path = cache_dir.join(CACHE_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        if let Ok(cached) = serde_json::from_str::<CacheFile>(&text) {
            if cached.key == key {
                return Ok(cached.depths);
            }
        }
    }
    let mut units = Vec::new();
    for a in archives {
        units.extend(load_path(a)?);
    }
    let depths = analyze(&units, &BTreeMap::new())?.depths;
    let io = |what, p: &Path| {
        let p = p.to_path_buf();
        move |error| MachineError::Io {
            what,
            path: p,
            error,
        }
    };
    std::fs::create_dir_all(cache_dir).map_err(io("cannot create", cache_dir))?;
    let file = CacheFile { key, depths };
    let text = serde_json::to_string_pretty(&file).map_err(|e| MachineError::Io {
        what: "cannot serialise",
        path: path.clone(),
        error: std::io::Error::other(e),
    })?;
    let tmp = cache_dir.join(format!(".{CACHE_FILE}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text).map_err(io("cannot write", &tmp))?;
    std::fs::rename(&tmp, &path).map_err(io("cannot move into place", &path))?;
    Ok(file.depths)
}

/// The machine-code depth of every global function of the toolchain's rv32imac/ilp32
/// `libc.a` (picolibc) and `libgcc.a` ([`toolchain_archives`]), analysed together (picolibc's
/// calls into libgcc resolve there), cached in `cache_dir` ([`archive_depths_cached`]).
/// Names the libraries call but do not define (`_exit`, the application's hooks) make their
/// callers unbounded with the reason "unresolved external".
pub fn toolchain_library_depths(
    cache_dir: &Path,
) -> Result<BTreeMap<String, MachineDepth>, MachineError> {
    let libs = toolchain_archives(GCC)?;
    archive_depths_cached(&[&libs.libc, &libs.libgcc], cache_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_library_dirs_of_picolibc_specs() {
        let specs = "*link:\n%{DX:--defsym=a=b} -L%{-picolibc-prefix=*:%*/lib/%M; \
                     -picolibc-buildtype=*:/usr/lib/p/%*/%M; :/usr/lib/p/lib/%M} \
                     -L%{-picolibc-prefix=*:%*/lib; :/usr/lib/p/lib} -L/opt/x %{!T:-Tp.ld}\n";
        assert_eq!(
            specs_library_dirs(specs, "rv32imac/ilp32"),
            vec![
                PathBuf::from("/usr/lib/p/lib/rv32imac/ilp32"),
                PathBuf::from("/usr/lib/p/lib"),
                PathBuf::from("/opt/x"),
            ]
        );
    }
}
