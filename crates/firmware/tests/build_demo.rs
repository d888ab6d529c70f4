//! Building real firmware with the cross compiler: the demo workload, the cache, a changed
//! source, and a compile error that leaves nothing behind. Skipped (with a message) only when
//! riscv64-unknown-elf-gcc is not installed.

use crate::support::{have_gcc, options, repo_root};
use cactus_firmware::{build, BuildError, Manifest, Overrides};
use std::path::Path;

/// Cache directories under `out` (hidden temporary build directories included; the unit
/// cache not).
fn entries(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(out)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name != cactus_firmware::unit_cache::DIR_NAME)
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
    let stored = cache_entries(out.path());
    assert!(stored > 0);
    let consumer = src.path().join("consumer.c");
    let text = std::fs::read_to_string(&consumer).unwrap();
    std::fs::write(&consumer, format!("{text}/* changed */\n")).unwrap();
    let b = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap();
    assert!(!b.up_to_date);
    assert_ne!(a.dir, b.dir);
    // The unit cache gave every unit but the changed one.
    let all = a.units.compiled;
    assert_eq!(b.units.compiled + b.units.reused, all, "{:?}", b.units);
    assert_eq!(b.units.compiled, 1, "consumer.c alone: {:?}", b.units);
    let header = src.path().join("demo.h");
    let text = std::fs::read_to_string(&header).unwrap();
    std::fs::write(&header, format!("{text}/* changed */\n")).unwrap();
    let c = build(&Manifest::load(&manifest).unwrap(), &options(out.path())).unwrap();
    assert!(!c.up_to_date);
    assert_ne!(b.dir, c.dir);
    // Exactly the units including demo.h are compiled again.
    let mut sources: Vec<_> = Manifest::load(&manifest)
        .unwrap()
        .tasks
        .iter()
        .flat_map(|t| t.sources.clone())
        .collect();
    sources.sort();
    sources.dedup();
    let includers = sources
        .iter()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("\"demo.h\"")))
        .count();
    assert!(includers > 1);
    assert_eq!(c.units.compiled, includers, "{:?}", c.units);
    // The entries the edits made useless were replaced, not kept beside the new ones.
    assert_eq!(cache_entries(out.path()), stored);
}

/// How many entries the unit cache under the build directory `out` holds (one listing each).
fn cache_entries(out: &std::path::Path) -> usize {
    let root = out.join(cactus_firmware::unit_cache::DIR_NAME);
    std::fs::read_dir(root)
        .unwrap()
        .flat_map(|key| std::fs::read_dir(key.unwrap().path()).unwrap())
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "deps")
        })
        .count()
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

#[test]
fn the_unit_cache_gives_the_same_elf_and_a_budget_probe_compiles_only_the_glue() {
    if !have_gcc() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let m = Manifest::load(&repo_root().join("workloads/demo/demo.toml")).unwrap();
    let uncached = cactus_firmware::BuildOptions {
        no_unit_cache: true,
        ..options(out.path())
    };
    let plain = build(&m, &uncached).unwrap();
    let reference = std::fs::read(&plain.elf).unwrap();
    assert_eq!(plain.units.reused, 0);
    assert!(!out
        .path()
        .join(cactus_firmware::unit_cache::DIR_NAME)
        .exists());
    std::fs::remove_dir_all(&plain.dir).unwrap();
    let filling = build(&m, &options(out.path())).unwrap();
    assert_eq!(
        filling.units, plain.units,
        "an empty cache compiles every unit"
    );
    std::fs::remove_dir_all(&filling.dir).unwrap();
    let cached = build(&m, &options(out.path())).unwrap();
    assert_eq!(cached.dir, plain.dir);
    assert_eq!(
        cached.units.reused, plain.units.compiled,
        "{:?}",
        cached.units
    );
    assert!(
        std::fs::read(&cached.elf).unwrap() == reference,
        "the ELF from cached units differs from the one compiled afresh"
    );
    // A budget probe changes the generated glue alone.
    let mut probe = m.clone();
    probe.tasks[0].stack += 64;
    let probed = build(&probe, &options(out.path())).unwrap();
    assert_eq!(probed.units.compiled, 1, "{:?}", probed.units);
}
