//! The MSO report on disk: read for `--resume`, written atomically (a temporary file beside
//! the target, then a rename), so an interrupted run leaves the previous complete file.

use super::{MsoError, MsoReport};
use std::path::Path;

/// Reads an MSO report written by [`save_atomic`].
pub fn load(path: &Path) -> Result<MsoReport, MsoError> {
    let text = std::fs::read_to_string(path).map_err(|source| MsoError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| MsoError::Json {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `report` as pretty JSON to `path`: the file holds either its old content or the
/// whole new report, never a part.
pub fn save_atomic(path: &Path, report: &MsoReport) -> Result<(), MsoError> {
    let io = |source| MsoError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(report).expect("an MSO report encodes as JSON");
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
