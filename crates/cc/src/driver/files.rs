//! Writing outputs atomically: every file the driver produces is written to a temporary file
//! in its destination directory and renamed over the destination only once it is complete,
//! so a failure leaves either the old file or nothing, never half a file.

use crate::CcError;
use std::io::Write;
use std::path::{Path, PathBuf};
use tempfile::{NamedTempFile, TempPath};

/// An I/O error about `path`.
pub(super) fn io_error(path: &Path, error: std::io::Error) -> CcError {
    CcError::Io {
        path: path.display().to_string(),
        error,
    }
}

/// The directory `path` would be created in (`.` for a bare file name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A fresh, empty temporary file beside `dest` (same directory, so renaming it over `dest`
/// is atomic). It is deleted when dropped unless [`commit`]ted.
pub(super) fn temp_beside(dest: &Path, suffix: &str) -> Result<TempPath, CcError> {
    let name = dest
        .file_name()
        .map(|n| format!(".{}.", n.to_string_lossy()))
        .unwrap_or_else(|| ".cactus.".into());
    tempfile::Builder::new()
        .permissions(readable_by_all())
        .prefix(&name)
        .suffix(suffix)
        .tempfile_in(parent(dest))
        .map(NamedTempFile::into_temp_path)
        .map_err(|e| io_error(dest, e))
}

/// Renames the finished `temp` over `dest`.
pub(super) fn commit(temp: TempPath, dest: &Path) -> Result<(), CcError> {
    temp.persist(dest).map_err(|e| io_error(dest, e.error))
}

/// Writes `data` to `dest` atomically.
pub(super) fn write_atomic(dest: &Path, data: &[u8]) -> Result<(), CcError> {
    let temp = temp_beside(dest, ".tmp")?;
    std::fs::write(&temp, data).map_err(|e| io_error(dest, e))?;
    commit(temp, dest)
}

/// Writes `data` to this process's standard output (gcc's `-o -`).
pub(super) fn write_stdout(data: &[u8]) -> Result<(), CcError> {
    let mut out = std::io::stdout().lock();
    out.write_all(data)
        .and_then(|()| out.flush())
        .map_err(|e| io_error(Path::new("-"), e))
}

/// `path` resolved against `cwd` (when given and `path` is relative).
pub(super) fn resolve(cwd: Option<&Path>, path: impl AsRef<Path>) -> PathBuf {
    let path = path.as_ref();
    match cwd {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// Mode 0666 before the umask: outputs get the permissions any new file gets (0644 under the
/// usual umask 022), not a temporary file's private 0600.
fn readable_by_all() -> std::fs::Permissions {
    std::os::unix::fs::PermissionsExt::from_mode(0o666)
}
