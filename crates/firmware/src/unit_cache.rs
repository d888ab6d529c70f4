//! The unit cache: GCC's assembly for one C unit of a firmware build, kept in
//! `<build dir>/.units/` and shared by every build there. Builds that differ in what only some
//! units see compile only those: a budget probe (`cactus advise`, the MTSS and checks benches)
//! changes the generated glue alone, a checks variant only the passes that run after GCC, and
//! two firmwares with the same kernel variant share its thirty-odd kernel units.
//!
//! An entry is found by a key over everything the compile is given (the compiler and its
//! version, the working directory, the source's path and every flag) and holds the assembly,
//! gcc's diagnostics and the content hash of every file gcc read (its `-MD` rule, system
//! headers included). It is used only when each of those files still has that content, the
//! "direct mode" of ccache: a changed header anywhere misses. The build's temporary and final
//! directories appear in flags, dependency paths and debug info; they are stored as markers and
//! put back, so an entry serves a build in any cache directory. Entries are written under a
//! temporary name and renamed, so concurrent builds never read half of one; they are stored
//! when the build has succeeded, and a failure to store one is not a build failure. `CACTUS_UNIT_CACHE=off` (or [`crate::BuildOptions`]'s
//! `no_unit_cache`) compiles every unit; deleting `.units` empties the cache. Storing an entry
//! removes the entries beside it (same source and flags) that a changed file has made useless,
//! so the cache grows with the variety of builds, not with the number of edits.

use crate::deps::parse_rule;
use crate::error::BuildError;
use crate::hash::ContentHash;
use crate::toolchain::Toolchain;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The cache's directory name inside a build directory.
pub const DIR_NAME: &str = ".units";

/// Stands for the build's temporary directory in stored flags and dependency paths.
const BUILD_MARK: &str = "@CACTUS_BUILD_DIR@";
/// Stands for the build's final (cache) directory in stored assembly.
const FINAL_MARK: &str = "@CACTUS_FINAL_DIR@";

/// How many units a build compiled and how many it took from the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// Units GCC compiled.
    pub compiled: usize,
    /// Units whose assembly came from the cache.
    pub reused: usize,
}

/// The unit cache of one build: where it is, and the build's directories to mark.
pub(crate) struct UnitCache {
    /// `<build dir>/.units`, or None when the cache is off.
    root: Option<PathBuf>,
    /// The compiler's identity (driver and version) and the working directory, key pieces.
    context: String,
    /// The build's temporary directory (where it compiles) and its final one.
    build_dir: String,
    final_dir: String,
    /// Content hashes of the files looked at so far (the kernel's headers, once per build).
    hashes: HashMap<PathBuf, Option<String>>,
    /// What this build compiled and reused.
    pub(crate) counts: UnitCounts,
    /// The units compiled, stored by [`UnitCache::commit`].
    pending: Vec<Pending>,
}

/// A compiled unit waiting for its build to succeed.
struct Pending {
    /// Its entry directory.
    dir: PathBuf,
    /// GCC's assembly and diagnostics, and its `-MD` rule.
    text: String,
    diagnostics: Vec<u8>,
    rule: String,
}

impl UnitCache {
    /// The cache beside the build `final_dir` (in its parent), for a build compiling in
    /// `build_dir`; off when `off` or `CACTUS_UNIT_CACHE=off`.
    pub(crate) fn new(
        tc: &Toolchain,
        build_dir: &Path,
        final_dir: &Path,
        off: bool,
    ) -> Result<UnitCache, BuildError> {
        let off = off || std::env::var("CACTUS_UNIT_CACHE").is_ok_and(|v| v == "off");
        let root = match final_dir.parent() {
            Some(parent) if !off => Some(parent.join(DIR_NAME)),
            _ => None,
        };
        let cwd = std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        let context = match root {
            Some(_) => format!("{}\n{}\n{cwd}", tc.gcc(), tc.version()?),
            None => String::new(),
        };
        Ok(UnitCache {
            root,
            context,
            build_dir: build_dir.display().to_string(),
            final_dir: final_dir.display().to_string(),
            hashes: HashMap::new(),
            counts: UnitCounts::default(),
            pending: Vec::new(),
        })
    }

    /// GCC's assembly of `source` under `flags` (the complete flags, `-fno-lto -S` added),
    /// written to `asm` and returned: from the cache when an entry's files are unchanged,
    /// else compiled and stored. gcc's warnings reach stderr either way.
    pub(crate) fn compile(
        &mut self,
        tc: &Toolchain,
        source: &Path,
        flags: &[String],
        asm: &Path,
    ) -> Result<String, BuildError> {
        let entry_dir = self.root.as_ref().map(|r| r.join(self.key(source, flags)));
        if let Some(dir) = &entry_dir {
            if let Some((text, diagnostics)) = self.lookup(dir) {
                std::fs::write(asm, &text).map_err(|error| BuildError::Io {
                    what: "cannot write",
                    path: asm.to_path_buf(),
                    error,
                })?;
                let _ = std::io::stderr().write_all(&diagnostics);
                self.counts.reused += 1;
                return Ok(text);
            }
        }
        let depfile = asm.with_extension("d");
        let diagnostics = tc.compile_asm_listing_deps(source, asm, flags, &depfile)?;
        let _ = std::io::stderr().write_all(&diagnostics);
        self.counts.compiled += 1;
        let text = std::fs::read_to_string(asm).map_err(|error| BuildError::Io {
            what: "cannot read",
            path: asm.to_path_buf(),
            error,
        })?;
        let rule = std::fs::read_to_string(&depfile).unwrap_or_default();
        let _ = std::fs::remove_file(&depfile);
        if let Some(dir) = entry_dir {
            self.pending.push(Pending {
                dir,
                text: text.clone(),
                diagnostics,
                rule,
            });
        }
        Ok(text)
    }

    /// Stores the units this build compiled, once it has succeeded (a failed build leaves
    /// nothing behind, in the cache either). Best effort: a unit not stored is only compiled
    /// again next time.
    pub(crate) fn commit(&mut self) {
        for p in std::mem::take(&mut self.pending) {
            let _ = self.store(&p.dir, &p.text, &p.diagnostics, &p.rule);
        }
    }

    /// The entry directory name for compiling `source` with `flags` here.
    fn key(&self, source: &Path, flags: &[String]) -> String {
        let mut h = ContentHash::new();
        h.labelled("cactus unit cache 1", self.context.as_bytes());
        h.labelled(
            "source",
            self.marked(&source.display().to_string()).as_bytes(),
        );
        for f in flags {
            h.piece(self.marked(f).as_bytes());
        }
        h.short_hex()
    }

    /// `text` with the build's directories replaced by their markers.
    fn marked(&self, text: &str) -> String {
        text.replace(&self.build_dir, BUILD_MARK)
            .replace(&self.final_dir, FINAL_MARK)
    }

    /// The content hash of `path` (None: unreadable), remembered for this build.
    fn file_hash(&mut self, path: &Path) -> Option<String> {
        if let Some(h) = self.hashes.get(path) {
            return h.clone();
        }
        let h = std::fs::read(path).ok().map(|bytes| {
            let mut h = ContentHash::new();
            h.piece(&bytes);
            h.short_hex()
        });
        self.hashes.insert(path.to_path_buf(), h.clone());
        h
    }

    /// The assembly and diagnostics of the first entry in `dir` whose every file is unchanged.
    fn lookup(&mut self, dir: &Path) -> Option<(String, Vec<u8>)> {
        let mut listings: Vec<PathBuf> = std::fs::read_dir(dir)
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "deps"))
            .collect();
        listings.sort();
        for listing in listings {
            let Ok(text) = std::fs::read_to_string(&listing) else {
                continue;
            };
            if !self.listing_holds(&text) {
                continue;
            }
            let asm = std::fs::read_to_string(listing.with_extension("s")).ok()?;
            let diagnostics = std::fs::read(listing.with_extension("err")).ok()?;
            return Some((asm.replace(FINAL_MARK, &self.final_dir), diagnostics));
        }
        None
    }

    /// Whether every file of an entry's `listing` (hash, tab, path per line) still has the
    /// content it had when the entry was stored.
    fn listing_holds(&mut self, listing: &str) -> bool {
        listing.lines().all(|line| {
            let Some((hash, path)) = line.split_once('\t') else {
                return false;
            };
            let path = PathBuf::from(path.replace(BUILD_MARK, &self.build_dir));
            self.file_hash(&path).as_deref() == Some(hash)
        })
    }

    /// Removes the entries of `dir` other than `keep` that no build can use any more (a file
    /// they were compiled from has changed since), so that editing a header replaces the
    /// entries of the units that include it rather than adding to them. Best effort: an
    /// entry a concurrent build is reading is then a miss for it, never a wrong hit, since
    /// a listing is removed before its assembly.
    fn prune_stale(&mut self, dir: &Path, keep: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let listings: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "deps") && p != keep)
            .collect();
        for listing in listings {
            let stale = match std::fs::read_to_string(&listing) {
                Ok(text) => !self.listing_holds(&text),
                Err(_) => false,
            };
            if stale {
                let _ = std::fs::remove_file(&listing);
                let _ = std::fs::remove_file(listing.with_extension("s"));
                let _ = std::fs::remove_file(listing.with_extension("err"));
            }
        }
    }

    /// Stores `text` (GCC's assembly), `diagnostics` and the hashes of the files of `rule`
    /// (gcc's `-MD` output) as an entry of `dir`. Assembly that names the temporary build
    /// directory (it could not serve another build) or holds a marker is not stored.
    fn store(
        &mut self,
        dir: &Path,
        text: &str,
        diagnostics: &[u8],
        rule: &str,
    ) -> std::io::Result<()> {
        let files = parse_rule(first_rule(rule));
        if files.is_empty()
            || text.contains(&self.build_dir)
            || text.contains(BUILD_MARK)
            || text.contains(FINAL_MARK)
        {
            return Ok(());
        }
        let mut listing = String::new();
        for file in &files {
            let Some(hash) = self.file_hash(file) else {
                return Ok(());
            };
            listing.push_str(&format!(
                "{hash}\t{}\n",
                file.display()
                    .to_string()
                    .replace(&self.build_dir, BUILD_MARK)
            ));
        }
        let mut name = ContentHash::new();
        name.piece(listing.as_bytes());
        let stem = dir.join(name.short_hex());
        std::fs::create_dir_all(dir)?;
        let asm = text.replace(&self.final_dir, FINAL_MARK);
        // The listing last: an entry is found by it, and by then the rest is in place.
        write_renamed(&stem.with_extension("s"), asm.as_bytes())?;
        write_renamed(&stem.with_extension("err"), diagnostics)?;
        write_renamed(&stem.with_extension("deps"), listing.as_bytes())?;
        self.prune_stale(dir, &stem.with_extension("deps"));
        Ok(())
    }
}

/// The first rule of a make dependency file: the object's, before the empty rules `-MP`
/// adds for each header.
fn first_rule(text: &str) -> &str {
    let bytes = text.as_bytes();
    let end = (0..bytes.len())
        .find(|&i| bytes[i] == b'\n' && (i == 0 || bytes[i - 1] != b'\\'))
        .unwrap_or(bytes.len());
    &text[..end]
}

/// Writes `bytes` to a temporary file beside `path`, then renames it to `path`.
fn write_renamed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}-{nanos}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_rule_ends_at_its_last_continued_line() {
        let text = "a.s: a.c \\\n b.h \\\n c.h\nb.h:\n\nc.h:\n";
        assert_eq!(first_rule(text), "a.s: a.c \\\n b.h \\\n c.h");
        assert_eq!(
            parse_rule(first_rule(text)),
            ["a.c", "b.h", "c.h"].map(PathBuf::from)
        );
        assert_eq!(first_rule("x.s: x.c"), "x.s: x.c");
    }
}
