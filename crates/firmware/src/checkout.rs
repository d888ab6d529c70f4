//! The Cactus checkout: the repository itself, which the repository-level commands (`cactus
//! bench`, `cactus workloads`, `cactus stress mtss` without a manifest) need for what an
//! installed tool does not carry (`workloads/`, `bench/`, `tests/`). A firmware build needs
//! only a home ([`crate::home`]); the installed data directory is a home but not a checkout.
//!
//! Looked up in this order, the first found winning:
//! 1. `$CACTUS_HOME` when set (and then it must be a checkout: no fallback past it);
//! 2. a checkout above the current directory;
//! 3. a checkout above the running binary (`target/release/cactus` of a checkout);
//! 4. the source tree the binary was compiled from, while it still exists.
//!
//! None found is [`NoCheckout`]: one line naming the command, what was searched and how to
//! point at a checkout (`CACTUS_HOME`).

use crate::home::{is_home, normalize, Search, HOME_ENV};
use std::path::{Path, PathBuf};

/// What a checkout holds besides the kernel (a home): the workloads, the benchmarks'
/// firmware and the scenario tests.
const MARKERS: [&str; 3] = ["workloads/suites.mk", "bench/kernel", "tests/kernel"];

/// A repository-level command found no checkout. Its message is one line.
#[derive(Debug, thiserror::Error)]
pub enum NoCheckout {
    /// `CACTUS_HOME` is set but names no checkout (for example the installed data directory).
    #[error("{command} needs a Cactus checkout (the repository, with workloads/, bench/ and tests/) and CACTUS_HOME={} is not one; set CACTUS_HOME to a clone of the Cactus repository", path.display())]
    NotACheckout {
        /// The command, e.g. `cactus bench kernel`.
        command: String,
        /// The directory `CACTUS_HOME` names (resolved against the current directory).
        path: PathBuf,
    },
    /// No checkout anywhere the lookup goes.
    #[error("{command} needs a Cactus checkout (the repository, with workloads/, bench/ and tests/) and none was found ({}); run it inside a clone of the Cactus repository or set CACTUS_HOME=/path/to/that clone", searched.join("; "))]
    NotFound {
        /// The command, e.g. `cactus bench kernel`.
        command: String,
        /// Every place searched, in order.
        searched: Vec<String>,
    },
    /// The lookup's own inputs (the current directory) could not be resolved.
    #[error(transparent)]
    Search(#[from] crate::BuildError),
}

/// True when `dir` is a Cactus checkout: a home with the repository's workloads, benchmark
/// firmware and scenario tests.
pub fn is_checkout(dir: &Path) -> bool {
    is_home(dir) && MARKERS.iter().all(|m| dir.join(m).exists())
}

/// The checkout for `command` given the lookup inputs `search` (the module documentation gives
/// the order; `search.start` is not used).
pub fn locate_checkout(search: &Search, command: &str) -> Result<PathBuf, NoCheckout> {
    if let Some(env) = &search.env {
        let dir = if env.is_absolute() {
            env.clone()
        } else {
            search.cwd.join(env)
        };
        return if is_checkout(&dir) {
            Ok(dir)
        } else {
            Err(NoCheckout::NotACheckout {
                command: command.to_string(),
                path: dir,
            })
        };
    }
    let mut searched = vec![format!("{HOME_ENV} unset")];
    let mut above: Vec<(&Path, &str)> = vec![(&search.cwd, "the current directory")];
    if let Some(bin) = search.exe.as_ref().and_then(|e| e.parent()) {
        above.push((bin, "the binary"));
    }
    for (base, what) in above {
        if let Some(root) = base.ancestors().find(|d| is_checkout(d)) {
            return Ok(root.to_path_buf());
        }
        searched.push(format!("above {} ({what})", base.display()));
    }
    if let Some(tree) = &search.built_from {
        let tree = normalize(tree);
        if is_checkout(&tree) {
            return Ok(tree);
        }
        searched.push(format!(
            "{} (the tree cactus was built from)",
            tree.display()
        ));
    }
    Err(NoCheckout::NotFound {
        command: command.to_string(),
        searched,
    })
}

/// The checkout for `command` as this process finds it ([`locate_checkout`] over
/// [`Search::from_process`] from the current directory).
pub fn find_checkout(command: &str) -> Result<PathBuf, NoCheckout> {
    let search = Search::from_process(Path::new("."))?;
    locate_checkout(&search, command)
}

/// `rel` inside `checkout`, written relative when the current directory is the checkout
/// itself (so that paths shown and stored as keys stay short), else absolute.
pub fn in_checkout(checkout: &Path, rel: &Path) -> PathBuf {
    let here = std::env::current_dir().ok();
    let same = here
        .as_deref()
        .is_some_and(|h| h.canonicalize().ok() == checkout.canonicalize().ok());
    if same {
        rel.to_path_buf()
    } else {
        checkout.join(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn make_home(dir: &Path) {
        let h = dir.join("kernel/include/cactus");
        std::fs::create_dir_all(&h).unwrap();
        std::fs::write(h.join("cactus.h"), "/* marker */\n").unwrap();
    }

    fn make_checkout(dir: &Path) {
        make_home(dir);
        std::fs::create_dir_all(dir.join("workloads")).unwrap();
        std::fs::write(dir.join("workloads/suites.mk"), "").unwrap();
        std::fs::create_dir_all(dir.join("bench/kernel")).unwrap();
        std::fs::create_dir_all(dir.join("tests/kernel")).unwrap();
    }

    fn search(cwd: &Path) -> Search {
        std::fs::create_dir_all(cwd).unwrap();
        Search {
            env: None,
            exe: None,
            start: cwd.to_path_buf(),
            cwd: cwd.to_path_buf(),
            built_from: None,
        }
    }

    /// The installed data directory is a home, not a checkout: named as such through
    /// `CACTUS_HOME`, skipped beside the binary.
    #[test]
    fn installed_data_is_not_a_checkout() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("pre fix/share/cactus");
        make_home(&data);
        assert!(is_home(&data) && !is_checkout(&data));
        let mut s = search(&tmp.path().join("my project"));
        s.exe = Some(tmp.path().join("pre fix/bin/cactus"));
        let err = locate_checkout(&s, "cactus bench kernel")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("cactus bench kernel needs a Cactus checkout"),
            "{err}"
        );
        assert!(err.contains("CACTUS_HOME=/path/to/that clone"), "{err}");
        assert!(!err.contains('\n'), "{err}");
        s.env = Some(data.clone());
        let err = locate_checkout(&s, "cactus workloads")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("CACTUS_HOME={} is not one", data.display())),
            "{err}"
        );
    }

    #[test]
    fn cactus_home_then_the_tree_around_then_the_one_built_from() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let b = tmp.path().join("b");
        make_checkout(&a);
        make_checkout(&b);
        let mut s = search(&a.join("workloads"));
        s.env = Some(b.clone());
        assert_eq!(locate_checkout(&s, "x").unwrap(), b);
        s.env = None;
        assert_eq!(locate_checkout(&s, "x").unwrap(), a);
        let mut s = search(&tmp.path().join("elsewhere"));
        s.exe = Some(b.join("target/release/cactus"));
        assert_eq!(locate_checkout(&s, "x").unwrap(), b);
        s.exe = None;
        s.built_from = Some(a.join("crates/cli/../.."));
        assert_eq!(locate_checkout(&s, "x").unwrap(), a);
    }
}
