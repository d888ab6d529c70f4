//! Building real firmware with the cross compiler: the demo workload, the cache, a changed
//! source, and a compile error that leaves nothing behind. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, repo_root};
use cactus_firmware::{build, BuildError, Manifest, Overrides};
use std::path::Path;

/// Cache directories under `out` (hidden temporary build directories included).
fn entries(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(out)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn the_demo_builds_once_and_then_is_up_to_date() {
    if !have_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let m = Manifest::load(&repo_root().join("workloads/demo/demo.toml")).unwrap();
    let first = build(&m, &options(out.path())).unwrap();
    assert!(!first.up_to_date);
    let elf = std::fs::read(&first.elf).unwrap();
    assert_eq!(&elf[..4], b"\x7fELF");
    assert_eq!(elf[4], 1, "a 32-bit ELF");
    assert!(first.dir.join("manifest_gen.c").is_file());
    // The build ran in a temporary directory renamed into place: debug info names the
    // generated source where it is now (a debugger finds it), never the temporary path.
    let contains = |needle: &str| elf.windows(needle.len()).any(|w| w == needle.as_bytes());
    let generated = first.dir.join("manifest_gen.c").display().to_string();
    assert!(contains(&generated), "no debug path {generated}");
    assert!(
        !contains(".tmp-"),
        "a temporary build path in the debug info"
    );
    assert!(first.dir.join("cactus_firmware.h").is_file());
    assert!(first
        .dir
        .file_name()
        .unwrap()
        .to_string_lossy()
        .starts_with("demo-"));

    let second = build(&m, &options(out.path())).unwrap();
    assert!(second.up_to_date);
    assert_eq!(second.elf, first.elf);

    let mut qemu = m.clone();
    qemu.apply(&Overrides {
        stack: None,
        target: Some("qemu".into()),
        checks: None,
        ..Default::default()
    })
    .unwrap();
    let other = build(&qemu, &options(out.path())).unwrap();
    assert!(!other.up_to_date);
    assert_ne!(
        other.dir, first.dir,
        "a different trace backend is a different build"
    );
    assert_eq!(entries(out.path()).len(), 2, "{:?}", entries(out.path()));
}

/// Copies the demo into a fresh directory (so its sources can be changed).
fn demo_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(repo_root().join("workloads/demo")).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    dir
}

#[test]
fn changing_a_source_or_a_header_rebuilds() {
    if !have_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let src = demo_copy();
    let manifest = src.path().join("demo.toml");
    let a = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap();
    let consumer = src.path().join("consumer.c");
    let text = std::fs::read_to_string(&consumer).unwrap();
    std::fs::write(&consumer, format!("{text}/* changed */\n")).unwrap();
    let b = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap();
    assert!(!b.up_to_date);
    assert_ne!(a.dir, b.dir);
    let header = src.path().join("demo.h");
    let text = std::fs::read_to_string(&header).unwrap();
    std::fs::write(&header, format!("{text}/* changed */\n")).unwrap();
    let c = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap();
    assert!(!c.up_to_date);
    assert_ne!(b.dir, c.dir);
}

#[test]
fn a_compile_error_names_the_file_and_leaves_no_cache_entry() {
    if !have_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("bad.c"),
        "void f(void *arg) { undeclared_name = 1; }\n",
    )
    .unwrap();
    let manifest = src.path().join("bad.toml");
    std::fs::write(
        &manifest,
        "[firmware]\nname = \"bad\"\n[[task]]\nname = \"t\"\nsources = [\"bad.c\"]\n\
         entry = \"f\"\npriority = 1\nstack = 512\n",
    )
    .unwrap();
    let err = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap_err();
    match &err {
        BuildError::Compile {
            source_file,
            output,
        } => {
            assert!(source_file.ends_with("bad.c"));
            assert!(output.contains("undeclared_name"), "{output}");
        }
        other => panic!("expected a compile error, got {other}"),
    }
    assert!(entries(out.path()).is_empty(), "{:?}", entries(out.path()));
}
