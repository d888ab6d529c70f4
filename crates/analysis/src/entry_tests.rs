//! Unit tests of [`super::Program::entry`] on hand-written assembly.

use super::*;
use crate::analyze_with_externals;
use crate::test_asm::func;

fn files(funcs: &[String]) -> Vec<AsmFile> {
    vec![AsmFile::parse(&format!("\t.text\n{}", funcs.concat()), "t.s").unwrap()]
}

fn ann(calls: &[(&str, &[&str])], recursion: &[(&str, u32)]) -> Annotations {
    Annotations {
        calls: calls
            .iter()
            .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
            .collect(),
        recursion: recursion.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
    }
}

fn names(e: &EntryDepth) -> Vec<(&str, u32)> {
    e.path
        .iter()
        .map(|s| (s.function.as_str(), s.offset))
        .collect()
}

#[test]
fn path_follows_the_deepest_callee_and_matches_the_whole_program_depth() {
    let f = files(&[
        func("top", 16, &["call left", "call right", "tail leaf"]),
        func("left", 64, &["call leaf"]),
        func("right", 16, &["call leaf"]),
        func("leaf", 48, &[]),
    ]);
    let none = BTreeMap::new();
    let e = Program::new(&f, &none)
        .entry("top", &Annotations::default())
        .unwrap()
        .unwrap();
    assert_eq!(e.depth, Depth::Bounded(16 + 64 + 48));
    assert_eq!(names(&e), vec![("top", 0), ("left", 16), ("leaf", 80)]);
    let whole = analyze_with_externals(&f, &none);
    assert_eq!(whole[0].depth, e.depth);
}

#[test]
fn unknown_entry_is_none() {
    let f = files(&[func("a", 16, &[])]);
    let none = BTreeMap::new();
    let p = Program::new(&f, &none);
    assert_eq!(p.entry("b", &Annotations::default()).unwrap(), None);
}

#[test]
fn machine_code_callee_ends_the_path_with_its_depth() {
    let f = files(&[func("a", 16, &["call memcpy", "call k"])]);
    let ext = BTreeMap::from([
        ("memcpy".to_string(), MachineDepth::Bytes(0)),
        ("k".to_string(), MachineDepth::Bytes(40)),
    ]);
    let e = Program::new(&f, &ext)
        .entry("a", &Annotations::default())
        .unwrap()
        .unwrap();
    assert_eq!(e.depth, Depth::Bounded(56));
    assert!(e.path[1].machine);
    assert_eq!(names(&e), vec![("a", 0), ("k", 16)]);
}

#[test]
fn indirect_call_is_unbounded_until_its_targets_are_given() {
    let f = files(&[
        func("main", 16, &["call f"]),
        func("f", 16, &["jalr a5"]),
        func("small", 8, &[]),
        func("big", 96, &[]),
    ]);
    let none = BTreeMap::new();
    let p = Program::new(&f, &none);
    let plain = p.entry("main", &Annotations::default()).unwrap().unwrap();
    assert_eq!(
        plain.depth,
        Depth::Unbounded(Unbounded::Indirect {
            function: "f".into()
        })
    );
    assert!(plain.path.is_empty());
    let e = p
        .entry("main", &ann(&[("f", &["small", "big"])], &[]))
        .unwrap()
        .unwrap();
    assert_eq!(e.depth, Depth::Bounded(16 + 16 + 96));
    assert!(e.path[2].indirect);
    // `*` serves every function not listed by name.
    let star = p
        .entry("main", &ann(&[("*", &["small"])], &[]))
        .unwrap()
        .unwrap();
    assert_eq!(star.depth, Depth::Bounded(40));
}

#[test]
fn recursion_bound_unrolls_the_cycle_that_many_times() {
    let f = files(&[
        func("main", 16, &["call walk"]),
        func("walk", 32, &["call walk", "call leaf"]),
        func("leaf", 8, &[]),
    ]);
    let none = BTreeMap::new();
    let p = Program::new(&f, &none);
    let plain = p.entry("main", &Annotations::default()).unwrap().unwrap();
    assert_eq!(
        plain.depth,
        Depth::Unbounded(Unbounded::Recursion(vec!["walk".into()]))
    );
    for n in 1..5u32 {
        let e = p.entry("main", &ann(&[], &[("walk", n)])).unwrap().unwrap();
        assert_eq!(e.depth, Depth::Bounded(16 + 32 * n + 8), "bound {n}");
        assert_eq!(e.path.len(), 1 + n as usize + 1);
    }
}

#[test]
fn mutual_recursion_is_bounded_through_any_annotated_member() {
    let f = files(&[
        func("even", 16, &["call odd"]),
        func("odd", 48, &["call even"]),
    ]);
    let none = BTreeMap::new();
    let p = Program::new(&f, &none);
    let e = p.entry("even", &ann(&[], &[("odd", 2)])).unwrap().unwrap();
    // even odd even odd even: odd twice, the third call to odd cannot happen.
    assert_eq!(e.depth, Depth::Bounded(16 * 3 + 48 * 2));
    let plain = p.entry("even", &Annotations::default()).unwrap().unwrap();
    assert_eq!(
        plain.depth,
        Depth::Unbounded(Unbounded::Recursion(vec!["even".into(), "odd".into()]))
    );
}

#[test]
fn annotations_naming_nothing_are_errors() {
    let f = files(&[func("a", 16, &["jalr a5"])]);
    let none = BTreeMap::new();
    let p = Program::new(&f, &none);
    assert_eq!(
        p.entry("a", &ann(&[("nope", &["a"])], &[])),
        Err(AnnotationError::UnknownFunction {
            kind: "calls",
            name: "nope".into()
        })
    );
    assert_eq!(
        p.entry("a", &ann(&[("a", &["ghost"])], &[])),
        Err(AnnotationError::UnknownTarget {
            caller: "a".into(),
            target: "ghost".into()
        })
    );
    assert_eq!(
        p.entry("a", &ann(&[], &[("a", 0)])),
        Err(AnnotationError::ZeroRecursion { name: "a".into() })
    );
    assert!(matches!(
        p.entry("a", &ann(&[], &[("b", 1)])),
        Err(AnnotationError::UnknownFunction {
            kind: "recursion",
            ..
        })
    ));
}
