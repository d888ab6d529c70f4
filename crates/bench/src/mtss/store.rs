//! The experiments' results on disk: read for `--resume`, written atomically (a temporary
//! file beside the target, then a rename), so an interrupted run leaves the previous complete
//! file.

use super::MsoError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

/// Reads results written by [`save_atomic`] (an MSO report, or the rows of another
/// experiment).
pub fn load<T: DeserializeOwned>(path: &Path) -> Result<T, MsoError> {
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
pub fn save_atomic<T: Serialize>(path: &Path, report: &T) -> Result<(), MsoError> {
    let io = |source| MsoError::Io {
        path: path.to_path_buf(),
        source,
    };
    let text = serde_json::to_string_pretty(report).expect("results encode as JSON");
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
