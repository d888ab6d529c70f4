//! The results of a sweep on disk: every row under its point's key, with the whole sweep's
//! keys, the shard it covers, and the command and versions that made it. Written atomically
//! (a temporary file beside the target, then a rename), so an interrupted run leaves the
//! previous complete file; read back for `--resume` and `cactus bench merge`.

use crate::{Shard, SweepError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Where a store came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    /// The evaluation (`mtss prs`): what renders the rows.
    pub bench: String,
    /// The command line that made the store (with `cactus` as the program name).
    pub command: String,
    /// The cactus version that made it.
    pub version: String,
    /// The source revision (`git describe --always --dirty`), when the tree is a checkout.
    #[serde(default)]
    pub revision: Option<String>,
    /// Everything besides the points that decides the rows (page size, size class, ...):
    /// stores with different parameters are different experiments and never mix.
    #[serde(default)]
    pub params: serde_json::Value,
    /// Seconds the run took (summed over shards in a merged store).
    #[serde(default)]
    pub seconds: f64,
}

impl Meta {
    /// Meta for `bench` with `params`, made by the current process's command line, version
    /// and source revision.
    pub fn current(bench: &str, params: serde_json::Value) -> Meta {
        Meta {
            bench: bench.to_string(),
            command: command_line(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            revision: revision(),
            params,
            seconds: 0.0,
        }
    }
}

/// The command line as typed, with `cactus` as the program name (for report headers).
pub fn command_line() -> String {
    std::iter::once("cactus".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `git describe --always --dirty` of the current directory, if it is a checkout.
fn revision() -> Option<String> {
    let out = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// One row under its point's key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Keyed<R> {
    /// The point's key.
    pub key: String,
    /// Its row.
    pub row: R,
}

/// A sweep's results (also the `--json` file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Store<R> {
    /// Where it came from.
    pub meta: Meta,
    /// The slice of the sweep this store covers.
    pub shard: Shard,
    /// Every point's key of the whole sweep (every shard), in sweep order.
    pub keys: Vec<String>,
    /// The rows made so far, in sweep order.
    pub rows: Vec<Keyed<R>>,
}

impl<R> Store<R> {
    /// The rows in sweep order, without their keys.
    pub fn rows(&self) -> Vec<&R> {
        self.rows.iter().map(|k| &k.row).collect()
    }

    /// The row of `key`, if made.
    pub fn get(&self, key: &str) -> Option<&R> {
        self.rows.iter().find(|k| k.key == key).map(|k| &k.row)
    }

    /// Keys of the whole sweep that have no row here.
    pub fn missing(&self) -> Vec<&str> {
        self.keys
            .iter()
            .filter(|k| self.get(k).is_none())
            .map(String::as_str)
            .collect()
    }
}

impl<R: Serialize> Store<R> {
    /// Writes the store as pretty JSON to `path`: the file holds either its old content or the
    /// whole new store, never a part.
    pub fn save(&self, path: &Path) -> Result<(), SweepError> {
        save_atomic(path, self)
    }
}

impl<R: DeserializeOwned> Store<R> {
    /// Reads a store written by [`Store::save`]; errors name the file and what is wrong.
    pub fn load(path: &Path) -> Result<Store<R>, SweepError> {
        let text = std::fs::read_to_string(path).map_err(|error| SweepError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        serde_json::from_str(&text).map_err(|e| SweepError::Store {
            path: path.to_path_buf(),
            why: format!("not a sweep store of this evaluation: {e}"),
        })
    }
}

/// Writes `value` as pretty JSON to `path` atomically (a temporary file in the same
/// directory, then a rename).
pub fn save_atomic<T: Serialize>(path: &Path, value: &T) -> Result<(), SweepError> {
    let text = serde_json::to_string_pretty(value).map_err(|e| SweepError::Store {
        path: path.to_path_buf(),
        why: format!("cannot encode: {e}"),
    })?;
    write_atomic(path, &text)
}

/// Writes `text` to `path` atomically: a reader sees the old file or the whole new one.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), SweepError> {
    let io = |error| SweepError::Io {
        path: path.to_path_buf(),
        error,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // Mode 0666 before the umask (0644 usually), not a temporary file's private 0600.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(io)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_round_trips_and_says_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let store = Store {
            meta: Meta::current("test", serde_json::json!({"page": 128})),
            shard: Shard::WHOLE,
            keys: vec!["a".into(), "b".into()],
            rows: vec![Keyed {
                key: "a".into(),
                row: 7u32,
            }],
        };
        store.save(&path).unwrap();
        let back: Store<u32> = Store::load(&path).unwrap();
        assert_eq!(back, store);
        assert_eq!(back.missing(), vec!["b"]);
        let missing = Store::<u32>::load(&dir.path().join("none.json")).unwrap_err();
        assert!(
            std::error::Error::source(&missing).is_none(),
            "the cause is said once"
        );
        std::fs::write(&path, "{").unwrap();
        let e = Store::<u32>::load(&path).unwrap_err().to_string();
        assert!(
            e.contains("s.json") && e.contains("not a sweep store"),
            "{e}"
        );
    }
}
