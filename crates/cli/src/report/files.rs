//! Output files written all at once: a temporary file in the destination's directory, then a
//! rename, so a reader never sees a half-written file and a failed run leaves none behind.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// Writes `value` as pretty JSON to `path` atomically. Errors name the path.
pub fn write_json_file(path: &Path, value: &serde_json::Value) -> Result<()> {
    write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, value)?;
        out.write_all(b"\n")?;
        Ok(())
    })
}

/// Creates `path` with the bytes `fill` writes, via a temporary file and a rename. On any
/// error the temporary file is removed and `path` is left as it was.
pub fn write_atomically(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> Result<()>,
) -> Result<()> {
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let temp = tempfile::Builder::new()
        .permissions(readable_by_all())
        .prefix(".cactus-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file beside {}", path.display()))?;
    {
        let mut out = std::io::BufWriter::new(temp.as_file());
        fill(&mut out).with_context(|| format!("cannot write {}", path.display()))?;
        out.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    temp.as_file()
        .sync_all()
        .with_context(|| format!("cannot write {}", path.display()))?;
    temp.persist(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Mode 0666 before the umask: outputs get the permissions any new file gets (0644 under the
/// usual umask 022), not a temporary file's private 0600.
fn readable_by_all() -> std::fs::Permissions {
    std::os::unix::fs::PermissionsExt::from_mode(0o666)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_json_file(&path, &serde_json::json!({"a": 1})).unwrap();
        let back: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(back["a"], 1);
    }

    #[test]
    fn a_failed_fill_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        let err = write_atomically(&path, |out| {
            out.write_all(b"{\"partial\": ")?;
            anyhow::bail!("producer failed")
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("out.json"), "{err:#}");
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_missing_directory_is_an_error_naming_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("no/such/dir/out.json");
        let err = write_json_file(&path, &serde_json::json!({})).unwrap_err();
        assert!(format!("{err:#}").contains("out.json"), "{err:#}");
    }
}
