//! The driver compiling with the real riscv64-unknown-elf-gcc under `--checks none`: objects,
//! assembly, dependency and auxiliary files named and made exactly as gcc makes them.

use crate::driver_support::*;

#[test]
fn objects_equal_gccs_and_link_into_the_same_text() {
    let dir = scratch("same-text");
    for sub in ["cactus", "gcc"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for src in ["a", "b"] {
        let c = format!("{src}.c");
        let out = run(
            &dir,
            &args(true, &["-c", &c, "-o", &format!("cactus/{src}.o")]),
        );
        assert_eq!(out.status, 0, "{}", stderr(&out));
        gcc_ok(
            &dir,
            &args(true, &["-c", &c, "-o", &format!("gcc/{src}.o")]),
        );
        let ours = std::fs::read(dir.join(format!("cactus/{src}.o"))).unwrap();
        let theirs = std::fs::read(dir.join(format!("gcc/{src}.o"))).unwrap();
        assert!(ours == theirs, "{src}.o differs from gcc's own");
    }
    for sub in ["cactus", "gcc"] {
        let mut link: Vec<String> = LDFLAGS.iter().map(|s| s.to_string()).collect();
        link.extend([format!("{sub}/a.o"), format!("{sub}/b.o"), "-o".into()]);
        link.push(format!("{sub}/prog.elf"));
        gcc_ok(&dir, &link);
    }
    let ours = section(&dir.join("cactus/prog.elf"), ".text");
    let theirs = section(&dir.join("gcc/prog.elf"), ".text");
    assert!(!ours.is_empty());
    assert_eq!(ours, theirs);
}

#[test]
fn objects_without_o_land_in_the_working_directory() {
    let dir = scratch("no-o");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::rename(dir.join("a.c"), dir.join("src/a.c")).unwrap();
    let out = run(
        &dir,
        &args(true, &["-Isrc", "-I.", "-c", "src/a.c", "b.c", "start.S"]),
    );
    assert_eq!(out.status, 0, "{}", stderr(&out));
    let names = files(&dir);
    for want in ["a.o", "b.o", "start.o"] {
        assert!(names.contains(&want.to_string()), "{want} not in {names:?}");
    }
    assert!(
        !names.iter().any(|n| n.starts_with('.')),
        "temporaries left: {names:?}"
    );
}

#[test]
fn dash_s_writes_gccs_assembly_where_gcc_would() {
    let dir = scratch("dash-s");
    let out = run(&dir, &args(true, &["-S", "a.c"]));
    assert_eq!(out.status, 0, "{}", stderr(&out));
    gcc_ok(&dir, &args(true, &["-S", "a.c", "-o", "ref.s"]));
    let ours = std::fs::read_to_string(dir.join("a.s")).unwrap();
    let theirs = std::fs::read_to_string(dir.join("ref.s")).unwrap();
    assert!(ours.contains("f:"), "{ours}");
    assert_eq!(ours, theirs);
}

/// Runs the same command with the driver in one directory and with gcc in another; returns
/// the file `name` each produced.
fn twin(test: &str, words: &[&str], name: &str) -> (String, String) {
    let dirs = [
        scratch(&format!("{test}-cactus")),
        scratch(&format!("{test}-gcc")),
    ];
    for d in &dirs {
        std::fs::create_dir_all(d.join("obj")).unwrap();
    }
    let out = run(&dirs[0], &args(true, words));
    assert_eq!(out.status, 0, "{}", stderr(&out));
    gcc_ok(&dirs[1], &args(true, words));
    let read = |d: &std::path::Path| {
        std::fs::read_to_string(d.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    (read(&dirs[0]), read(&dirs[1]))
}

#[test]
fn dependency_files_name_the_object_like_gccs() {
    let (ours, theirs) = twin("dep-md", &["-c", "-MD", "a.c", "-o", "obj/a.o"], "obj/a.d");
    assert!(ours.starts_with("obj/a.o: a.c"), "{ours}");
    assert!(ours.contains("a.h"), "{ours}");
    assert_eq!(ours, theirs);
    let words = [
        "-c",
        "-MMD",
        "-MP",
        "-MF",
        "obj/deps.d",
        "-MT",
        "custom",
        "b.c",
    ];
    let (ours, theirs) = twin("dep-mf", &words, "obj/deps.d");
    assert!(ours.starts_with("custom: b.c"), "{ours}");
    assert_eq!(ours, theirs);
    let (ours, theirs) = twin("dep-no-o", &["-c", "-MMD", "a.c"], "a.d");
    assert!(ours.starts_with("a.o: a.c"), "{ours}");
    assert_eq!(ours, theirs);
}

#[test]
fn stack_usage_files_keep_gccs_names() {
    let words = ["-fstack-usage", "-c", "a.c", "-o", "obj/a.o"];
    let (ours, theirs) = twin("stack-usage", &words, "obj/a.su");
    assert!(ours.contains("a.c:12:5:f\t"), "{ours}");
    assert_eq!(ours, theirs);
}

#[test]
fn dash_s_to_standard_output_writes_no_file() {
    let dir = scratch("dash-s-stdout");
    let before = files(&dir);
    let out = run(&dir, &args(true, &["-S", "a.c", "-o", "-"]));
    assert_eq!(out.status, 0, "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.captured.stdout);
    assert!(text.contains("\t.file\t\"a.c\""), "{text}");
    assert_eq!(files(&dir), before);
}
