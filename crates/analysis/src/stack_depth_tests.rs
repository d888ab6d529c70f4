//! Unit tests of [`super::analyze`] on hand-written assembly.

use super::*;
use crate::test_asm::func;

fn program(funcs: &[String]) -> Vec<FunctionStack> {
    let text = format!("\t.text\n{}", funcs.concat());
    analyze(&[AsmFile::parse(&text, "t.s").unwrap()])
}

fn depth_of(report: &[FunctionStack], name: &str) -> Depth {
    report
        .iter()
        .find(|f| f.name == name)
        .unwrap()
        .depth
        .clone()
}

#[test]
fn chain_sums_frames() {
    let r = program(&[
        func("a", 16, &["call b"]),
        func("b", 32, &["call c"]),
        func("c", 0, &[]),
    ]);
    assert_eq!(depth_of(&r, "a"), Depth::Bounded(48));
    assert_eq!(depth_of(&r, "b"), Depth::Bounded(32));
    assert_eq!(depth_of(&r, "c"), Depth::Bounded(0));
    assert_eq!(r[0].frame, 16);
    assert_eq!(r[0].callees, vec!["b".to_string()]);
}

#[test]
fn diamond_takes_deepest_branch() {
    let r = program(&[
        func("top", 16, &["call left", "call right"]),
        func("left", 64, &["call leaf"]),
        func("right", 16, &["call leaf"]),
        func("leaf", 48, &[]),
    ]);
    assert_eq!(depth_of(&r, "top"), Depth::Bounded(16 + 64 + 48));
}

#[test]
fn tail_call_replaces_frame() {
    let text = "\t.text\n\t.globl\tt\n\t.type\tt, @function\nt:\n\taddi\tsp,sp,-16\n\taddi\tsp,sp,16\n\ttail\tleaf\n\t.size\tt, .-t\n"
        .to_string()
        + &func("leaf", 48, &[]);
    let r = analyze(&[AsmFile::parse(&text, "t.s").unwrap()]);
    assert_eq!(depth_of(&r, "t"), Depth::Bounded(48));
    assert_eq!(r[0].callees, vec!["leaf (tail)".to_string()]);
}

#[test]
fn recursion_names_cycle() {
    let r = program(&[
        func("main", 16, &["call even"]),
        func("even", 16, &["call odd"]),
        func("odd", 16, &["call even"]),
    ]);
    let cycle = Unbounded::Recursion(vec!["even".into(), "odd".into()]);
    assert_eq!(depth_of(&r, "main"), Depth::Unbounded(cycle.clone()));
    assert_eq!(depth_of(&r, "even"), Depth::Unbounded(cycle));
    assert!(matches!(
        depth_of(&r, "odd"),
        Depth::Unbounded(Unbounded::Recursion(_))
    ));
}

#[test]
fn indirect_call_is_unbounded() {
    let r = program(&[func("main", 16, &["call f"]), func("f", 16, &["jalr a5"])]);
    let why = Unbounded::Indirect {
        function: "f".into(),
    };
    assert_eq!(depth_of(&r, "main"), Depth::Unbounded(why));
}

#[test]
fn alloca_is_unbounded() {
    let r = program(&[
        func("main", 16, &["call v"]),
        func("v", 16, &["sub\tsp,sp,a0", "call leaf"]),
        func("leaf", 0, &[]),
    ]);
    assert!(r.iter().find(|f| f.name == "v").unwrap().dynamic);
    let why = Unbounded::Dynamic {
        function: "v".into(),
    };
    assert_eq!(depth_of(&r, "main"), Depth::Unbounded(why));
    assert_eq!(depth_of(&r, "leaf"), Depth::Bounded(0));
}

#[test]
fn external_callee_is_unbounded() {
    let r = program(&[
        func("main", 16, &["call ok", "call memcpy"]),
        func("ok", 8, &[]),
    ]);
    let why = Unbounded::External {
        name: "memcpy".into(),
        caller: "main".into(),
    };
    assert_eq!(
        depth_of(&r, "main").to_string(),
        "unbounded: external callee memcpy (called by main)"
    );
    assert_eq!(depth_of(&r, "main"), Depth::Unbounded(why));
}

#[test]
fn across_files() {
    let a = format!("\t.text\n{}", func("a", 16, &["call b"]));
    let b = format!("\t.text\n{}", func("b", 24, &[]));
    let r = analyze(&[
        AsmFile::parse(&a, "a.s").unwrap(),
        AsmFile::parse(&b, "b.s").unwrap(),
    ]);
    assert_eq!(depth_of(&r, "a"), Depth::Bounded(40));
    assert_eq!(r[1].file, "b.s");
}

#[test]
fn self_recursion_is_a_cycle_of_one() {
    let r = program(&[func("f", 16, &["call f"]), func("g", 8, &[])]);
    assert_eq!(
        depth_of(&r, "f"),
        Depth::Unbounded(Unbounded::Recursion(vec!["f".into()]))
    );
    assert_eq!(depth_of(&r, "g"), Depth::Bounded(8));
}

#[test]
fn machine_code_depths_serve_external_callees() {
    let text = format!(
        "\t.text\n{}{}{}",
        func("main", 16, &["call memcpy", "call ok"]),
        func("ok", 8, &[]),
        "\t.globl\tt\n\t.type\tt, @function\nt:\n\ttail\tmemcpy\n\t.size\tt, .-t\n"
    );
    let files = [AsmFile::parse(&text, "t.s").unwrap()];
    let mut ext = BTreeMap::new();
    ext.insert("memcpy".to_string(), MachineDepth::Bytes(40));
    let r = analyze_with_externals(&files, &ext);
    assert_eq!(depth_of(&r, "main"), Depth::Bounded(56));
    assert_eq!(depth_of(&r, "t"), Depth::Bounded(40));
    ext.insert(
        "memcpy".to_string(),
        MachineDepth::Unbounded("indirect call at memcpy+0x4".into()),
    );
    let r = analyze_with_externals(&files, &ext);
    assert_eq!(
        depth_of(&r, "main").to_string(),
        "unbounded: memcpy (machine code): indirect call at memcpy+0x4"
    );
}
