//! Shared helpers for the GCC-driven tests: find the repo's C files and compile them to
//! assembly (with `-fstack-usage`) with riscv64-unknown-elf-gcc.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The GCC driver used for all tests.
pub const GCC: &str = "riscv64-unknown-elf-gcc";

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Whether the cross toolchain is installed; prints a note when it is not.
pub fn toolchain_present() -> bool {
    let ok = Command::new(GCC).arg("--version").output().is_ok();
    if !ok {
        eprintln!("note: {GCC} not installed; skipping");
    }
    ok
}

/// Every `.c` file under kernel/, tests/, workloads/, bench/, sorted.
pub fn c_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for top in ["kernel", "tests", "workloads", "bench"] {
        walk(&repo_root().join(top), &mut |p| {
            if p.extension().is_some_and(|e| e == "c") {
                out.push(p.to_path_buf());
            }
        });
    }
    out.sort();
    out
}

/// Directories named `include` or `common` under the source trees, then every kernel
/// directory holding headers (`port.h` lives in kernel/arch/rv32): the include paths the
/// repo's C files use.
pub fn include_dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut kernel_dirs = Vec::new();
    walk(&repo_root().join("kernel"), &mut |p| {
        if p.extension().is_some_and(|e| e == "h") {
            if let Some(d) = p.parent() {
                if !kernel_dirs.contains(&d.to_path_buf()) {
                    kernel_dirs.push(d.to_path_buf());
                }
            }
        }
    });
    for top in ["kernel", "tests", "workloads", "bench"] {
        walk_dirs(&repo_root().join(top), &mut |p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "include" || name == "common" {
                out.push(p.to_path_buf());
            }
        });
    }
    kernel_dirs.sort();
    out.extend(
        kernel_dirs
            .into_iter()
            .filter(|d| !d.ends_with("include/cactus")),
    );
    out
}

fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, f);
        } else {
            f(&p);
        }
    }
}

fn walk_dirs(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            f(&p);
            walk_dirs(&p, f);
        }
    }
}

/// A compiled C file: its assembly text and GCC's `-fstack-usage` report.
pub struct Compiled {
    /// The assembly.
    pub asm: String,
    /// The `.su` file contents.
    pub stack_usage: String,
}

/// The optimization levels the corpus is compiled at.
pub const OPT_LEVELS: [&str; 4] = ["-O0", "-O1", "-O2", "-Os"];

/// One compilation of the corpus: a C file, its optimization level, and GCC's output (None
/// when GCC rejects the file standalone).
pub struct CorpusEntry {
    /// The C file.
    pub source: PathBuf,
    /// Its level, one of [`OPT_LEVELS`].
    pub opt: &'static str,
    /// The compile.
    pub compiled: Option<Compiled>,
}

/// Every C file of the repo ([`c_files`]) compiled at every level of [`OPT_LEVELS`], once per
/// test process: the suites that walk the corpus (round trip, frames against `-fstack-usage`,
/// the CFG invariants) share it instead of each compiling it again.
pub fn corpus() -> &'static [CorpusEntry] {
    static CORPUS: std::sync::OnceLock<Vec<CorpusEntry>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let dir = scratch("corpus");
        let includes = include_dirs();
        let jobs: Vec<(PathBuf, &'static str)> = c_files()
            .into_iter()
            .flat_map(|f| OPT_LEVELS.map(|opt| (f.clone(), opt)))
            .collect();
        let compiled = par_map(&jobs, |(src, opt)| compile(src, opt, &dir, &includes));
        // Everything is in memory now.
        let _ = std::fs::remove_dir_all(&dir);
        jobs.into_iter()
            .zip(compiled)
            .map(|((source, opt), compiled)| CorpusEntry {
                source,
                opt,
                compiled,
            })
            .collect()
    })
}

/// Compiles `src` at `opt` (e.g. "-O2") to assembly in `out_dir`, with `includes` as include
/// directories. `None` if GCC rejects the file standalone.
fn compile(src: &Path, opt: &str, out_dir: &Path, includes: &[PathBuf]) -> Option<Compiled> {
    let stem = src.file_stem()?.to_str()?;
    let tag = src.to_string_lossy().replace(['/', '.'], "_");
    let asm_path = out_dir.join(format!("{tag}{opt}.s"));
    let mut cmd = Command::new(GCC);
    cmd.args([
        "-march=rv32imac_zicsr_zifencei",
        "-mabi=ilp32",
        "-ffreestanding",
    ])
    .arg(opt)
    .args(["-S", "-fstack-usage", "-w"])
    .arg(src)
    .arg("-o")
    .arg(&asm_path);
    if let Some(parent) = src.parent() {
        cmd.arg("-I").arg(parent);
    }
    for d in includes {
        cmd.arg("-I").arg(d);
    }
    let status = cmd.output().ok()?;
    if !status.status.success() {
        return None;
    }
    let _ = stem;
    let su_path = asm_path.with_extension("su");
    Some(Compiled {
        asm: std::fs::read_to_string(&asm_path).ok()?,
        stack_usage: std::fs::read_to_string(su_path).unwrap_or_default(),
    })
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cactus-asm-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Runs `f` over `items` on two threads (the machine is shared), collecting results in order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let half = items.len().div_ceil(2);
    std::thread::scope(|s| {
        let (a, b) = items.split_at(half);
        let f = &f;
        let h = s.spawn(move || a.iter().map(f).collect::<Vec<_>>());
        let mut second: Vec<R> = b.iter().map(f).collect();
        let mut first = h.join().expect("worker thread");
        first.append(&mut second);
        first
    })
}
