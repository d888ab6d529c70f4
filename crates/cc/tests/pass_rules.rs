//! Each rule of the rolling-checks optimization on small hand-written assembly units.

use crate::pass_snippets::*;
use cactus_cc::{CheckMode, PassOptions, Reserves, RollingRules};

#[test]
fn zero_size_leaf_needs_no_check_unless_the_rule_is_off() {
    let text = func("leaf", false, "\tadd a0,a0,a1\n\tret\n")
        + &func("f", true, &caller_body(16, "leaf", false));
    let (_, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(
        (entry(&r, "leaf").checked, entry(&r, "leaf").rule.as_str()),
        (false, "zero-size")
    );
    let (out, r) = run(&text, &opts(RollingRules::NONE), &Reserves::default());
    assert!(entry(&r, "leaf").checked);
    assert!(
        out.contains("leaf:\n\tlw t0,-4(tp)\n\tbltu sp,t0,.Lcactus_ovf_0\n"),
        "{out}"
    );
}

#[test]
fn certainty_rolls_transitively() {
    let text = func("h", false, &leaf_body(16))
        + &func("g", false, &caller_body(32, "h", false))
        + &func("f", true, &caller_body(48, "g", false));
    let (out, r) = run(&text, &opts(CERTAINTY), &Reserves::default());
    assert_eq!(entry(&r, "h").rule, "certainty");
    assert_eq!(entry(&r, "g").rule, "certainty");
    assert_eq!(entry(&r, "f").effective, 48 + 32 + 16);
    assert_eq!(table(&out), vec![(96, 48)]);
    assert!(
        out.contains("\taddi sp,sp,-48\n\tlw t0,-4(tp)\n\taddi t0,t0,48\n\tbltu sp,t0,"),
        "{out}"
    );
    // A conditional call is not certain.
    let text = func("g", false, &leaf_body(16)) + &func("f", true, &caller_body(16, "g", true));
    let (_, r) = run(&text, &opts(CERTAINTY), &Reserves::default());
    assert!(entry(&r, "g").checked);
}

#[test]
fn mtss_mode_caps_what_certainty_rolls() {
    // g (E = 264 > 256) is certainly called by f: rolled in detect mode, kept in mtss mode so
    // that no check entitles its task to more than the cap below its frame.
    let text = func("g", false, &leaf_body(264)) + &func("f", true, &caller_body(16, "g", false));
    let (_, r) = run(&text, &opts(CERTAINTY), &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "certainty");
    let mut o = opts(CERTAINTY);
    o.mode = CheckMode::Mtss;
    let (_, r) = run(&text, &o, &Reserves::default());
    assert!(entry(&r, "g").checked, "{:?}", entry(&r, "g"));
    assert_eq!(entry(&r, "g").rule, "kept: E = 264 > the mtss roll cap 256");
    assert_eq!(entry(&r, "f").effective, 16);
    // At the cap it still rolls.
    let text = func("g", false, &leaf_body(256)) + &func("f", true, &caller_body(16, "g", false));
    let (_, r) = run(&text, &o, &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "certainty");
    assert_eq!(entry(&r, "f").effective, 16 + 256);
}

#[test]
fn limited_size_respects_k() {
    let text = func("g", false, &leaf_body(16)) + &func("f", true, &caller_body(16, "g", true));
    let mut o = opts(LIMITED);
    o.k_app = 16;
    let (_, r) = run(&text, &o, &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "limited-size");
    assert_eq!(entry(&r, "f").effective, 32);
    o.k_app = 15;
    let (_, r) = run(&text, &o, &Reserves::default());
    assert!(entry(&r, "g").checked, "{:?}", entry(&r, "g"));
    assert!(entry(&r, "g").rule.contains("> K"));
    // Library units use k_lib instead.
    o.k_lib = 16;
    let (_, r) = run_unit(&text, true, &o, &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "limited-size");
}

#[test]
fn address_taken_functions_keep_their_checks() {
    let text = func("g", false, &leaf_body(16))
        + &func("h", false, &leaf_body(16))
        + &func(
            "f",
            true,
            "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall g\n\tcall h\n\tlui a5,%hi(h)\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n",
        )
        + "\t.section\t.sdata\n\t.align\t2\nptr:\n\t.word\tg\n";
    let (_, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "kept: address taken");
    assert_eq!(entry(&r, "h").rule, "kept: address taken");
}

#[test]
fn globals_roll_only_in_whole_program_mode() {
    let text = func("g", true, &leaf_body(16)) + &func("f", true, &caller_body(16, "g", false));
    let (_, r) = run(&text, &opts(CERTAINTY), &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "kept: global (per-unit mode)");
    let o = PassOptions {
        whole_program: true,
        ..opts(CERTAINTY)
    };
    let (_, r) = run(&text, &o, &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "certainty");
    // `f` has no caller in the program: it keeps its check even in whole-program mode.
    assert_eq!(entry(&r, "f").rule, "kept: no known caller");
}

#[test]
fn recursion_never_rolls_out_of_its_cycle_and_cycles_keep_a_check() {
    let rec = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tbeqz a0,.Lr\n\taddi a0,a0,-1\n\tcall g\n.Lr:\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
    let text = func("g", false, rec) + &func("f", true, &caller_body(16, "g", false));
    let (_, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(
        entry(&r, "g").rule,
        "kept: recursive, called from outside its cycle"
    );
    // a <-> b, each calling the other unconditionally, no outside caller: one keeps a check.
    let text = func("a", false, &caller_body(16, "b", false))
        + &func("b", false, &caller_body(16, "a", false));
    let (_, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    let kept: Vec<_> = r.functions.iter().filter(|f| f.checked).collect();
    assert_eq!(kept.len(), 1, "{r:?}");
    assert_eq!(kept[0].rule, "kept: keeps its call cycle checked");
    assert_eq!(kept[0].effective, 32);
    // A function calling only itself cannot roll into itself.
    let text = func("s", false, &caller_body(16, "s", false));
    let (_, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert!(entry(&r, "s").checked);
}

#[test]
fn dynamic_frames_neither_roll_nor_receive() {
    let v = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tsw s0,8(sp)\n\taddi s0,sp,16\n\tsub sp,sp,a0\n\tmv a0,sp\n\tcall k\n\taddi sp,s0,-16\n\tlw ra,12(sp)\n\tlw s0,8(sp)\n\taddi sp,sp,16\n\tret\n";
    let text = func("k", false, &leaf_body(16))
        + &func("v", false, v)
        + &func("f", true, &caller_body(16, "v", false));
    let (out, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(entry(&r, "v").rule, "kept: dynamic frame");
    assert_eq!(entry(&r, "v").sites, 2);
    assert!(entry(&r, "v").dynamic);
    assert_eq!(
        entry(&r, "k").rule,
        "kept: a caller has a dynamic or unknown frame"
    );
    assert!(
        out.contains("\tsub sp,sp,a0\n\tlw t0,-4(tp)\n\tbltu sp,t0,"),
        "{out}"
    );
    assert!(table(&out).contains(&(0, 1 << 30)), "{out}");
}
