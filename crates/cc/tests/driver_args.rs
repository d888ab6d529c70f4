//! How the driver reads gcc command lines: what goes to gcc unchanged, what is compiled
//! through assembly, the names of outputs and the command of every step. No gcc is run.

use cactus_cc::driver::{classify, response, Build, Passthrough, Plan, Stage};
use std::path::Path;

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

fn plan(line: &str) -> Plan {
    classify(&words(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn build(line: &str) -> Build {
    match plan(line) {
        Plan::Build(b) => b,
        other => panic!("{line}: expected a build, got {other:?}"),
    }
}

fn passthrough(line: &str) -> Passthrough {
    match plan(line) {
        Plan::Passthrough(p) => p,
        other => panic!("{line}: expected a passthrough, got {other:?}"),
    }
}

fn products(b: &Build) -> Vec<Option<String>> {
    b.sources.iter().map(|s| b.product(s)).collect()
}

fn some(s: &str) -> Option<String> {
    Some(s.to_string())
}

#[test]
fn queries_and_preprocessing_go_to_gcc_unchanged() {
    for line in [
        "--version",
        "-print-libgcc-file-name -march=rv32imac -mabi=ilp32",
        "-dumpmachine",
        "--help",
        "-print-multi-directory a.c",
    ] {
        assert_eq!(passthrough(line), Passthrough::Query, "{line}");
    }
    for line in ["-E a.c", "-E -c a.c -o a.o", "-M a.c", "-MM -MD -c a.c"] {
        assert_eq!(passthrough(line), Passthrough::Preprocess, "{line}");
    }
    assert_eq!(passthrough("-fsyntax-only a.c"), Passthrough::SyntaxOnly);
}

#[test]
fn command_lines_without_c_go_to_gcc_unchanged() {
    for line in [
        "-v",
        "a.o b.o -o prog -lm",
        "-c start.S -o start.o",
        "-S x.s",
        "-c a.cpp",
        "-x assembler-with-cpp -c a.c",
        "main.o -T link.ld",
    ] {
        assert_eq!(passthrough(line), Passthrough::NoCSource, "{line}");
    }
}

#[test]
fn combinations_gcc_rejects_are_left_to_gcc() {
    assert_eq!(passthrough("-c a.c b.c -o x.o"), Passthrough::Rejected);
    assert_eq!(passthrough("-c a.c s.S -o x.o"), Passthrough::Rejected);
    assert_eq!(passthrough("-c a.c -o -"), Passthrough::Rejected);
    // A linker input does not count as a second file (gcc only warns about it).
    assert_eq!(build("-c a.c x.o -o y.o").output, some("y.o"));
}

#[test]
fn objects_are_named_as_gcc_names_them() {
    for (line, want) in [
        ("-c src/a.c", "a.o"),
        ("-c src/a.c -o obj/a.o", "obj/a.o"),
        ("-c src/a.c -oobj/joined.o", "obj/joined.o"),
        ("-c src/a.c --output=obj/long.o", "obj/long.o"),
        ("-c src/a.c --output obj/long2.o", "obj/long2.o"),
        ("-S src/a.c", "a.s"),
        ("-S -c src/a.c", "a.s"),
        ("-S src/a.c -o out.s", "out.s"),
        ("-c a.i", "a.o"),
    ] {
        let b = build(line);
        assert_eq!(products(&b), vec![some(want)], "{line}");
    }
    let b = build("-O2 -c a.c dir/b.c");
    assert_eq!(b.stage, Stage::Object);
    assert_eq!(products(&b), vec![some("a.o"), some("b.o")]);
    let b = build("a.c b.c -o prog");
    assert_eq!(b.stage, Stage::Link);
    assert_eq!(products(&b), vec![None, None]);
}

#[test]
fn a_forced_language_makes_any_file_c_and_is_kept_for_it() {
    let b = build("-c -x c prog.txt -x none other.S");
    assert_eq!(b.sources.len(), 1);
    assert_eq!(b.sources[0].path, "prog.txt");
    assert_eq!(b.sources[0].lang, some("c"));
    let args = b.compile_args(&b.sources[0], Path::new("/t/0.s"), Path::new("/t/0.d"));
    assert_eq!(&args[args.len() - 3..], ["-x", "c", "prog.txt"]);
    let rest = b.rest_args().expect("the .S is compiled by gcc");
    assert_eq!(rest, words("-c -x c -x none other.S"));
    let b = build("-xc main.h");
    assert_eq!(b.sources[0].lang, some("c"));
}

#[test]
fn dependency_files_name_the_object() {
    let b = build("-c -MD src/a.c -o obj/a.o");
    let s = &b.sources[0];
    assert_eq!(b.dep_file(s), some("obj/a.d"));
    assert_eq!(b.dep_target(s), some("obj/a.o"));
    let b = build("-c -MMD src/a.c");
    assert_eq!(b.dep_file(&b.sources[0]), some("a.d"));
    assert_eq!(b.dep_target(&b.sources[0]), some("a.o"));
    let b = build("-S -MD a.c -o x.s");
    assert_eq!(b.dep_file(&b.sources[0]), some("x.d"));
    assert_eq!(b.dep_target(&b.sources[0]), some("x.s"));
    let b = build("-c -MD -MF deps/a.dep -MT mine a.c -o obj/a.o");
    assert_eq!(b.dep_file(&b.sources[0]), some("deps/a.dep"));
    assert_eq!(
        b.dep_target(&b.sources[0]),
        None,
        "-MT given: gcc's own target stays"
    );
    let b = build("-c -MMD -MFjoined.d -MQ q a.c");
    assert_eq!(b.dep_file(&b.sources[0]), some("joined.d"));
    assert_eq!(b.dep_target(&b.sources[0]), None);
    let b = build("-MD a.c b.c -o prog");
    assert_eq!(b.dep_file(&b.sources[1]), some("prog.d"));
    assert_eq!(b.dep_target(&b.sources[1]), some("prog"));
    let b = build("-c a.c -MF x.d");
    assert_eq!(b.dep_file(&b.sources[0]), None, "-MF alone writes nothing");
}

#[test]
fn the_compile_step_writes_assembly_and_redirects_dependencies() {
    let b = build(
        "-march=rv32imac_zicsr_zifencei -mabi=ilp32 -O2 -g -Iinc -DX=1 -MMD -MF d/a.d -c \
         src/a.c -o obj/a.o -lm -Wl,--gc-sections -L lib",
    );
    let args = b.compile_args(&b.sources[0], Path::new("/t/0.s"), Path::new("/t/0.d"));
    let want = words(
        "-march=rv32imac_zicsr_zifencei -mabi=ilp32 -O2 -g -Iinc -DX=1 -MMD -MF /t/0.d \
         -MQ obj/a.o -dumpbase obj/a -S -o /t/0.s src/a.c",
    );
    assert_eq!(args, want);
}

#[test]
fn an_lto_compile_step_gets_machine_code() {
    let b = build("-O2 -flto -c src/a.c -o obj/a.o");
    let args = b.compile_args(&b.sources[0], Path::new("/t/0.s"), Path::new("/t/0.d"));
    let lto = args.iter().position(|a| a == "-flto").unwrap();
    let no_lto = args.iter().position(|a| a == "-fno-lto").unwrap();
    assert!(no_lto > lto, "{args:?}");
}

#[test]
fn the_assemble_step_keeps_target_and_debug_options_only() {
    let b = build(
        "-march=rv32imac_zicsr_zifencei -mabi=ilp32 -g -O2 -MD -MT t -Wa,-adhln=x -c \
         -x c a.c -o a.o -T link.ld -lc",
    );
    let args = b.assemble_args(Path::new("/t/0.s"), Path::new("/o/a.o"));
    let want =
        words("-march=rv32imac_zicsr_zifencei -mabi=ilp32 -g -O2 -Wa,-adhln=x -c -o /o/a.o /t/0.s");
    assert_eq!(args, want);
}

#[test]
fn auxiliary_outputs_keep_gccs_base_names() {
    let b = build("-c -fstack-usage src/a.c -o obj/a.o");
    assert_eq!(b.dump_base(&b.sources[0]), some("obj/a"));
    let b = build("-c -fstack-usage src/a.c");
    assert_eq!(b.dump_base(&b.sources[0]), some("a"));
    let b = build("a.c src/b.c -o out/prog");
    assert_eq!(b.dump_base(&b.sources[1]), some("out/prog-b"));
    let b = build("a.c");
    assert_eq!(b.dump_base(&b.sources[0]), some("a-a"));
    let b = build("-c a.c -dumpdir x/");
    assert_eq!(
        b.dump_base(&b.sources[0]),
        None,
        "the user's own -dumpdir stands"
    );
}

#[test]
fn linking_replaces_each_c_source_by_its_object_in_place() {
    let b = build("-march=rv32imac -mabi=ilp32 crt0.o a.c -x c b.txt -x none lib.a -o prog -lm");
    let objs = [Path::new("/t/0.o"), Path::new("/t/1.o")];
    let want = words(
        "-march=rv32imac -mabi=ilp32 crt0.o /t/0.o -x c -x none /t/1.o -x c -x none lib.a -o prog \
         -lm",
    );
    assert_eq!(b.link_args(&objs), want);
    assert_eq!(
        b.rest_args(),
        None,
        "linking compiles nothing else separately"
    );
}

#[test]
fn unusable_command_lines_are_errors_that_say_why() {
    for (line, want) in [
        (
            "-c -x c -",
            "-: compiling C from standard input is not supported",
        ),
        ("-c a.c -o", "-o: missing argument"),
        ("-c a.c -MF", "-MF: missing argument"),
    ] {
        let err = classify(&words(line)).expect_err(line).to_string();
        assert!(err.contains(want), "{line}: {err}");
    }
}

#[test]
fn response_files_are_read_like_gcc_reads_them() {
    let text = "-c  'my dir/a.c' \"-DMSG=\\\"hi there\\\"\"\n-o\tobj/a\\ b.o @more ''";
    assert_eq!(
        response::split(text, Path::new("a.rsp")).unwrap(),
        [
            "-c",
            "my dir/a.c",
            "-DMSG=\"hi there\"",
            "-o",
            "obj/a b.o",
            "@more",
            ""
        ]
    );
    let err = response::split("-c 'a.c", Path::new("dir/b.rsp")).unwrap_err();
    assert!(err.to_string().contains("dir/b.rsp"), "{err}");
    assert!(err.to_string().contains("unclosed quote"), "{err}");
    let dir = std::env::temp_dir().join(format!("cactus-rsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("outer.rsp"), "-c @inner.rsp -o x.o").unwrap();
    std::fs::write(dir.join("inner.rsp"), "-O2 a.c").unwrap();
    let expanded = response::expand(&words("-g @outer.rsp @missing.rsp"), Some(&dir)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(expanded, words("-g -c -O2 a.c -o x.o @missing.rsp"));
    let b = build(&expanded.join(" "));
    assert_eq!(products(&b), vec![some("x.o")]);
}
