//! The C compilations of a firmware build: each task source once, in manifest order, then
//! the generated glue, each with the flags it gets beyond the fixed ones.

use crate::codegen;
use crate::manifest::Manifest;
#[cfg(doc)]
use crate::toolchain::{ARCH_FLAGS, COMPILE_FLAGS};
use std::path::{Path, PathBuf};

/// One compilation of a firmware build: a C file and the flags it gets beyond the fixed
/// [`ARCH_FLAGS`] and [`COMPILE_FLAGS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The C file.
    pub source: PathBuf,
    /// Its flags beyond the fixed ones (include directories, manifest and task `cflags`).
    pub flags: Vec<String>,
}

/// Every C unit `build` compiles for `m`, with the flags it gets: each distinct task source
/// in manifest order, then the generated glue `<gen_dir>/`[`codegen::SOURCE_NAME`] (the
/// kernel library is built separately, by its Makefile).
pub fn units(m: &Manifest, root: &Path, gen_dir: &Path) -> Vec<Unit> {
    let base = |extra_inc: &[PathBuf], extra_flags: &[String]| {
        let mut flags = vec![
            format!("-I{}", root.join("kernel/include").display()),
            format!("-I{}", gen_dir.display()),
        ];
        flags.extend(
            m.include
                .iter()
                .chain(extra_inc)
                .map(|d| format!("-I{}", d.display())),
        );
        flags.extend(m.cflags.iter().chain(extra_flags).cloned());
        flags
    };
    let mut out: Vec<Unit> = Vec::new();
    for t in &m.tasks {
        for s in &t.sources {
            if !out.iter().any(|u| &u.source == s) {
                out.push(Unit {
                    source: s.clone(),
                    flags: base(&t.include, &t.cflags),
                });
            }
        }
    }
    out.push(Unit {
        source: gen_dir.join(codegen::SOURCE_NAME),
        flags: base(&[], &[]),
    });
    out
}

pub(crate) fn stem(source: &Path) -> String {
    source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
