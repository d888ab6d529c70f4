//! Every C file of the repo (kernel/, tests/, workloads/, bench/) at -O0, -O2 and -Os:
//! instrumented in detect and mtss mode, the result assembles, every function is in the
//! report, and every site the report counts is in the text. Files GCC rejects standalone
//! (host-only programs, generated headers) are skipped, as in the asm crate's round-trip test.

use crate::pass_support::{have_gcc, GCC};
use cactus_cc::{instrument_units, CheckMode, PassOptions, Reserves, Unit};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// (C files, include directories: every directory holding a header, with
/// `include/cactus` standing for its `include`).
fn sources() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut all = Vec::new();
    for top in ["kernel", "tests", "workloads", "bench"] {
        walk(&repo().join(top), &mut all);
    }
    let mut c: Vec<PathBuf> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .cloned()
        .collect();
    c.sort();
    let mut inc: Vec<PathBuf> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "h"))
        .filter_map(|p| p.parent().map(Path::to_path_buf))
        .map(|d| {
            if d.ends_with("include/cactus") {
                d.parent().map_or(d.clone(), Path::to_path_buf)
            } else {
                d
            }
        })
        .collect();
    inc.sort();
    inc.dedup();
    (c, inc)
}

fn gcc(args: &[&str], src: &Path, inc: &[PathBuf], extra: &[&str]) -> Option<Vec<u8>> {
    let mut cmd = Command::new(GCC);
    cmd.args([
        "-march=rv32imac_zicsr_zifencei",
        "-mabi=ilp32",
        "-ffreestanding",
        "-w",
    ])
    .args(args)
    .arg(src)
    .args(extra);
    if let Some(parent) = src.parent() {
        cmd.arg("-I").arg(parent);
    }
    for d in inc {
        cmd.arg("-I").arg(d);
    }
    let out = cmd.output().ok()?;
    out.status.success().then_some(out.stdout)
}

#[test]
fn every_repo_c_file_instruments_and_assembles() {
    if !have_gcc() {
        return;
    }
    let (files, inc) = sources();
    let tmp = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let dir = tmp.path();
    let (mut units_done, mut functions, mut sites, mut skipped) = (0, 0, 0u32, 0);
    for (k, src) in files.iter().enumerate() {
        for opt in ["-O0", "-O2", "-Os"] {
            let Some(asm) = gcc(&[opt, "-S", "-o", "-"], src, &inc, &[]) else {
                skipped += 1;
                continue;
            };
            let unit = Unit {
                origin: src.display().to_string(),
                text: String::from_utf8(asm).unwrap(),
                library: false,
            };
            for mode in [CheckMode::Detect, CheckMode::Mtss] {
                let opts = PassOptions {
                    mode,
                    ..PassOptions::default()
                };
                let (texts, report) =
                    instrument_units(std::slice::from_ref(&unit), &opts, &Reserves::default())
                        .unwrap_or_else(|e| panic!("{e}"));
                let s = dir.join(format!("f{k}{opt}.s"));
                std::fs::write(&s, &texts[0]).unwrap();
                let o = s.with_extension("o");
                let ok = Command::new(GCC)
                    .args(["-march=rv32imac_zicsr_zifencei", "-mabi=ilp32", "-c"])
                    .arg(&s)
                    .arg("-o")
                    .arg(&o)
                    .status()
                    .unwrap()
                    .success();
                assert!(
                    ok,
                    "{} {opt} {mode:?}: instrumented output does not assemble",
                    src.display()
                );
                let n_sites: u32 = report.functions.iter().map(|f| f.sites).sum();
                let inserted = ecalls(&texts[0]) - ecalls(&unit.text);
                assert_eq!(inserted as u32, n_sites, "{} {opt} {mode:?}", src.display());
                functions += report.functions.len();
                sites += n_sites;
            }
            units_done += 1;
        }
    }
    eprintln!("{units_done} compilations instrumented twice: {functions} function reports, {sites} sites; {skipped} skipped");
    assert!(units_done > 100, "the corpus should be found");
}

/// The `ecall` instructions of an assembly text.
fn ecalls(text: &str) -> usize {
    let file = cactus_asm::AsmFile::parse(text, "t.s").expect("parses");
    file.items()
        .filter(|i| matches!(i, cactus_asm::Item::Inst(s) if s.to_string() == "ecall"))
        .count()
}
