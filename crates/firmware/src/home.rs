//! The Cactus home: the directory whose `kernel/` (sources, headers, Makefile, linker script)
//! every firmware is built against, and where a firmware's outputs go by default.
//!
//! A home is any directory holding `kernel/include/cactus/cactus.h`: a development checkout or
//! the data directory `make install PREFIX=...` writes (`PREFIX/share/cactus`). It is looked
//! up in this order, the first that exists winning:
//! 1. `$CACTUS_HOME` when set (and then it must be a home: no fallback past a wrong setting);
//! 2. the installed data directory beside the running binary, `<bin>/../share/cactus`;
//! 3. a source tree above the manifest's directory, then above the current directory;
//! 4. a source tree above the running binary (`target/release/cactus` of a checkout);
//! 5. the source tree the binary was compiled from (`cargo install --path crates/cli`), while
//!    it still exists.
//!
//! None found is [`BuildError::NoRoot`], naming every place searched.

use crate::error::BuildError;
use std::path::{Path, PathBuf};

/// The environment variable that selects a home explicitly (a development checkout).
pub const HOME_ENV: &str = "CACTUS_HOME";

/// The installed data directory relative to the binary's directory (`PREFIX/bin`).
pub const INSTALLED_DATA: &str = "../share/cactus";

/// The file that makes a directory a home.
const MARKER: &str = "kernel/include/cactus/cactus.h";

/// True when `dir` holds the kernel a firmware can be built against.
pub fn is_home(dir: &Path) -> bool {
    dir.join(MARKER).is_file()
}

/// Where the lookup starts: every input of [`locate`], so that it is a pure function of them.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The value of `$CACTUS_HOME`, when set (and not empty).
    pub env: Option<PathBuf>,
    /// The running binary (absolute, symbolic links resolved), when known.
    pub exe: Option<PathBuf>,
    /// The manifest's directory (or the directory a command starts from), absolute.
    pub start: PathBuf,
    /// The current directory, absolute.
    pub cwd: PathBuf,
    /// The source tree the binary was compiled from.
    pub built_from: Option<PathBuf>,
}

impl Search {
    /// The lookup inputs of this process for a search starting at `start`.
    pub fn from_process(start: &Path) -> Result<Search, BuildError> {
        let resolve = |p: &Path| {
            std::path::absolute(p).map_err(|error| BuildError::Io {
                what: "cannot resolve",
                path: p.to_path_buf(),
                error,
            })
        };
        let cwd = std::env::current_dir().map_err(|error| BuildError::Io {
            what: "cannot resolve",
            path: PathBuf::from("."),
            error,
        })?;
        Ok(Search {
            env: std::env::var_os(HOME_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            exe: std::env::current_exe()
                .ok()
                .map(|e| e.canonicalize().unwrap_or(e)),
            start: resolve(start)?,
            cwd,
            built_from: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")),
        })
    }
}

/// The home for `search` (the module documentation gives the order).
pub fn locate(search: &Search) -> Result<PathBuf, BuildError> {
    if let Some(env) = &search.env {
        let dir = if env.is_absolute() {
            env.clone()
        } else {
            search.cwd.join(env)
        };
        return if is_home(&dir) {
            Ok(dir)
        } else {
            Err(BuildError::BadHome { path: dir })
        };
    }
    let mut searched = Vec::new();
    let bin_dir = search.exe.as_ref().and_then(|e| e.parent());
    if let Some(bin) = bin_dir {
        let data = normalize(&bin.join(INSTALLED_DATA));
        if is_home(&data) {
            return Ok(data);
        }
        searched.push(format!("{} (installed data)", data.display()));
    }
    let mut above: Vec<(&Path, &str)> = vec![
        (&search.start, "the manifest"),
        (&search.cwd, "the current directory"),
    ];
    if let Some(bin) = bin_dir {
        above.push((bin, "the binary"));
    }
    for (base, what) in above {
        if let Some(root) = base.ancestors().find(|d| is_home(d)) {
            return Ok(root.to_path_buf());
        }
        searched.push(format!("above {} ({what})", base.display()));
    }
    if let Some(tree) = &search.built_from {
        let tree = normalize(tree);
        if is_home(&tree) {
            return Ok(tree);
        }
        searched.push(format!(
            "{} (the tree cactus was built from)",
            tree.display()
        ));
    }
    Err(BuildError::NoRoot { searched })
}

/// The home for a build or command starting at `start` (a manifest's directory, or `.`), as
/// this process finds it ([`locate`] over [`Search::from_process`]).
pub fn find_home(start: &Path) -> Result<PathBuf, BuildError> {
    locate(&Search::from_process(start)?)
}

/// Where a project's outputs go when no `--build-dir` is given: the home's own `build/` for a
/// project inside the home (the workloads and tests of a checkout), otherwise the `build/` of
/// the project's directory (`project_dir`, the manifest's directory).
pub fn default_build_dir(home: &Path, project_dir: &Path) -> PathBuf {
    if contains(home, project_dir) {
        home.join("build")
    } else {
        project_dir.join("build")
    }
}

/// True when `dir` lies inside `home` (both resolved: symbolic links, `.` and `..`).
pub fn contains(home: &Path, dir: &Path) -> bool {
    let canon = |p: &Path| {
        std::path::absolute(p)
            .map(|a| a.canonicalize().unwrap_or_else(|_| normalize(&a)))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    canon(dir).starts_with(canon(home))
}

/// `path` with `.` and `..` components removed lexically (so messages show plain paths).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake home under `dir`: just the marker header.
    fn make_home(dir: &Path) -> PathBuf {
        let h = dir.join("kernel/include/cactus");
        std::fs::create_dir_all(&h).unwrap();
        std::fs::write(h.join("cactus.h"), "/* marker */\n").unwrap();
        dir.to_path_buf()
    }

    fn search(tmp: &Path) -> Search {
        let project = tmp.join("my project");
        std::fs::create_dir_all(&project).unwrap();
        Search {
            env: None,
            exe: None,
            start: project.clone(),
            cwd: project,
            built_from: None,
        }
    }

    #[test]
    fn cactus_home_wins_and_a_wrong_one_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let dev = make_home(&tmp.path().join("dev checkout"));
        let prefix = tmp.path().join("pre fix");
        make_home(&prefix.join("share/cactus"));
        let mut s = search(tmp.path());
        s.exe = Some(prefix.join("bin/cactus"));
        s.env = Some(dev.clone());
        assert_eq!(locate(&s).unwrap(), dev);
        s.env = Some(tmp.path().join("nowhere"));
        let err = locate(&s).unwrap_err().to_string();
        assert!(err.contains("CACTUS_HOME"), "{err}");
        assert!(err.contains("nowhere"), "{err}");
    }

    #[test]
    fn installed_data_comes_before_a_tree_above_the_project() {
        let tmp = tempfile::tempdir().unwrap();
        let prefix = tmp.path().join("pre fix");
        let data = make_home(&prefix.join("share/cactus"));
        let tree = make_home(&tmp.path().join("tree"));
        let mut s = search(&tree);
        s.exe = Some(prefix.join("bin/cactus"));
        assert_eq!(locate(&s).unwrap(), data);
        s.exe = Some(tmp.path().join("elsewhere/bin/cactus"));
        assert_eq!(locate(&s).unwrap(), tree);
    }

    #[test]
    fn the_tree_above_the_binary_then_the_one_built_from() {
        let tmp = tempfile::tempdir().unwrap();
        let tree = make_home(&tmp.path().join("checkout"));
        let mut s = search(&tmp.path().join("outside"));
        s.exe = Some(tree.join("target/release/cactus"));
        assert_eq!(locate(&s).unwrap(), tree);
        s.exe = Some(tmp.path().join("bin/cactus"));
        s.built_from = Some(tree.join("crates/cli/../.."));
        assert_eq!(locate(&s).unwrap(), tree);
    }

    #[test]
    fn nothing_found_names_every_place_searched() {
        let tmp = tempfile::tempdir().unwrap();
        let mut s = search(tmp.path());
        s.exe = Some(tmp.path().join("bin/cactus"));
        s.built_from = Some(tmp.path().join("gone"));
        let err = locate(&s).unwrap_err().to_string();
        for want in [
            "share/cactus (installed data)",
            "(the manifest)",
            "(the current directory)",
            "(the binary)",
            "gone (the tree cactus was built from)",
            "CACTUS_HOME",
        ] {
            assert!(err.contains(want), "{want:?} not in {err}");
        }
    }

    #[test]
    fn outputs_go_to_the_project_unless_it_is_inside_the_home() {
        let tmp = tempfile::tempdir().unwrap();
        let home = make_home(&tmp.path().join("home"));
        let inside = home.join("workloads/demo");
        let outside = tmp.path().join("my project");
        std::fs::create_dir_all(&inside).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        assert_eq!(default_build_dir(&home, &inside), home.join("build"));
        assert_eq!(default_build_dir(&home, &outside), outside.join("build"));
    }
}
