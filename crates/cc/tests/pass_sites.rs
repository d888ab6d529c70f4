//! Check sites on small hand-written assembly units: their exact code and table entries,
//! scratch registers, dynamic allocation, thunks, blind margins, KIND 2, untouched units.

use crate::pass_snippets::*;
use cactus_cc::{
    instrument_units, CcError, CheckMode, PassOptions, Reserve, Reserves, RollingRules, Unit,
};

#[test]
fn large_extra_is_materialised_in_a_second_register() {
    let g = "\tli t0,-3008\n\tadd sp,sp,t0\n\tsw a0,0(sp)\n\tli t0,3008\n\tadd sp,sp,t0\n\tret\n";
    let text = func("g", false, g) + &func("f", true, &caller_body(16, "g", false));
    let (out, r) = run(&text, &opts(CERTAINTY), &Reserves::default());
    assert_eq!(entry(&r, "g").rule, "certainty");
    assert_eq!(entry(&r, "f").effective, 3024);
    assert!(
        out.contains(
            "\taddi sp,sp,-16\n\tlw t0,-4(tp)\n\tli t1,3008\n\tadd t0,t0,t1\n\tbltu sp,t0,"
        ),
        "{out}"
    );
    // g alone: the check follows its two-instruction decrement.
    let (out, _) = run(
        &func("g", true, g),
        &opts(RollingRules::NONE),
        &Reserves::default(),
    );
    assert!(
        out.contains("\tadd sp,sp,t0\n\tlw t0,-4(tp)\n\tbltu sp,t0,"),
        "{out}"
    );
    assert_eq!(table(&out), vec![(3008, 3008)]);
}

#[test]
fn with_every_temporary_live_after_the_decrement_the_check_moves_to_the_entry() {
    // The scheduler filled t0-t6 before the decrement (csmith seed 2211 at -O2 did): the check
    // goes before the first instruction, where the ABI leaves the temporaries dead, and
    // covers the whole frame from the entry sp (F1 = 0).
    let body = "\tlw t0,0(a0)\n\tlw t1,4(a0)\n\tlw t2,8(a0)\n\tlw t3,12(a0)\n\tlw t4,16(a0)\n\tlw t5,20(a0)\n\tlw t6,24(a0)\n\taddi sp,sp,-16\n\tadd a0,t0,t1\n\tadd a0,a0,t2\n\tadd a0,a0,t3\n\tadd a0,a0,t4\n\tadd a0,a0,t5\n\tadd a0,a0,t6\n\tsw a0,0(sp)\n\taddi sp,sp,16\n\tret\n";
    let (out, _) = run(
        &func("busy", true, body),
        &opts(RollingRules::ALL),
        &Reserves::default(),
    );
    assert!(
        out.contains("busy:\n\tlw t0,-4(tp)\n\taddi t0,t0,16\n\tbltu sp,t0,"),
        "{out}"
    );
    assert_eq!(table(&out), vec![(16, 0)]);
}

#[test]
fn no_dead_scratch_register_is_an_error_naming_the_function() {
    // A caller keeps every temporary live across its call (what -fipa-ra allows within a
    // unit): neither after the decrement nor at the entry may the check clobber one.
    let busy = "\taddi sp,sp,-16\n\tsw a0,0(sp)\n\taddi sp,sp,16\n\tret\n";
    let caller = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tli t0,1\n\tli t1,2\n\tli t2,3\n\tli t3,4\n\tli t4,5\n\tli t5,6\n\tli t6,7\n\tcall busy\n\tadd a0,t0,t1\n\tadd a0,a0,t2\n\tadd a0,a0,t3\n\tadd a0,a0,t4\n\tadd a0,a0,t5\n\tadd a0,a0,t6\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
    let units = [Unit {
        origin: "t.s".into(),
        text: func("busy", true, busy) + &func("caller", true, caller),
        library: false,
    }];
    let err =
        instrument_units(&units, &opts(RollingRules::NONE), &Reserves::default()).unwrap_err();
    assert!(
        matches!(&err, CcError::Function { origin, function, .. } if origin == "t.s" && function == "busy"),
        "{err}"
    );
}

#[test]
fn registers_after_a_call_that_never_returns_are_not_kept_live() {
    // `k_panic` never returns (it ends in a call into an endless loop); GCC lays out the next
    // block, which reads every temporary, right after `call k_panic`. Only a liveness that
    // lets the call fall through sees them live across it and finds no scratch register.
    let spin = ".L9:\n\tj .L9\n";
    let panic = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tsw a0,0(sp)\n\tcall spin\n";
    let caller = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tli t0,1\n\tli t1,2\n\tli t2,3\n\tli t3,4\n\tli t4,5\n\tli t5,6\n\tli t6,7\n\tbnez a0,.L2\n\tcall k_panic\n.L2:\n\tadd a0,t0,t1\n\tadd a0,a0,t2\n\tadd a0,a0,t3\n\tadd a0,a0,t4\n\tadd a0,a0,t5\n\tadd a0,a0,t6\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
    let text =
        func("spin", true, spin) + &func("k_panic", true, panic) + &func("caller", true, caller);
    let (out, _) = run(&text, &opts(RollingRules::NONE), &Reserves::default());
    assert!(
        out.contains("k_panic:\n\taddi sp,sp,-16\n\tlw t0,-4(tp)\n\tbltu sp,t0,"),
        "{out}"
    );
    // A callee that may return keeps them live: the same caller calling one is refused.
    let may = func(
        "k_warn",
        true,
        "\taddi sp,sp,-16\n\tsw a0,0(sp)\n\taddi sp,sp,16\n\tret\n",
    ) + &func("caller", true, &caller.replace("k_panic", "k_warn"));
    let units = [Unit {
        origin: "t.s".into(),
        text: may,
        library: false,
    }];
    assert!(instrument_units(&units, &opts(RollingRules::NONE), &Reserves::default()).is_err());
}

#[test]
fn uninstrumented_callees_and_thunks() {
    let f = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall puts\n\tlui a5,%hi(puts)\n\taddi a0,a5,%lo(puts)\n\tcall reg\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
    let text = func("f", true, f) + "\t.section\t.sdata\nptr:\n\t.word\tputs\n";
    let reserves: Reserves = [("puts".to_string(), Reserve::Bytes(200))]
        .into_iter()
        .collect();
    let (out, r) = run(&text, &opts(RollingRules::ALL), &reserves);
    assert_eq!(entry(&r, "f").effective, 216);
    assert!(out.contains("\tcall puts\n"));
    assert!(
        out.contains("\tlui a5,%hi(__cactus_thunk_puts)\n\taddi a0,a5,%lo(__cactus_thunk_puts)\n"),
        "{out}"
    );
    assert!(out.contains("\t.word\t__cactus_thunk_puts\n"), "{out}");
    assert!(
        out.contains("__cactus_thunk_puts:\n\tlw t0,-4(tp)\n\taddi t0,t0,200\n"),
        "{out}"
    );
    assert_eq!(entry(&r, "__cactus_thunk_puts").effective, 200);
    // Unbounded depth: the blind margin, with a warning.
    let reserves: Reserves = [("puts".to_string(), Reserve::Unbounded("recursion".into()))]
        .into_iter()
        .collect();
    let (_, r) = run(&text, &opts(RollingRules::ALL), &reserves);
    assert_eq!(entry(&r, "f").effective, 16 + 1024);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.contains("t.s:f") && w.contains("puts")),
        "{:?}",
        r.warnings
    );
}

#[test]
fn unknown_frames_get_a_blind_entry_check_and_a_warning() {
    let body = "\taddi sp,sp,-16\n\tbeqz a0,.L1\n\taddi sp,sp,-16\n.L1:\n\tsw a0,0(sp)\n\taddi sp,sp,16\n\tret\n";
    let (out, r) = run(
        &func("odd", true, body),
        &opts(RollingRules::ALL),
        &Reserves::default(),
    );
    let e = entry(&r, "odd");
    assert!(e.checked);
    assert_eq!(e.effective, 32 + 1024);
    assert!(
        r.warnings.iter().any(|w| w.contains("t.s:odd")),
        "{:?}",
        r.warnings
    );
    assert!(
        out.contains("odd:\n\tlw t0,-4(tp)\n\taddi t0,t0,1056\n"),
        "{out}"
    );
}

#[test]
fn mtss_pins_variadic_frames() {
    let body = "\taddi sp,sp,-48\n\tsw a1,20(sp)\n\tsw a7,44(sp)\n\tlw a0,20(sp)\n\taddi sp,sp,48\n\tret\n";
    let text = func("va", true, body);
    let (out, _) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(table(&out), vec![(48, 48)]);
    let o = PassOptions {
        mode: CheckMode::Mtss,
        ..opts(RollingRules::ALL)
    };
    let (out, _) = run(&text, &o, &Reserves::default());
    assert_eq!(table(&out), vec![(48, 48 | 2 << 30)]);
}

#[test]
fn untouched_units_and_mode_none_return_the_text_unchanged() {
    let text = "\t.text\n\t.type\tleaf, @function\nleaf:\n\tadd\ta0,a0,a1   # sum\n\tret\n\t.size\tleaf, .-leaf\n";
    let (out, r) = run(text, &opts(RollingRules::ALL), &Reserves::default());
    assert_eq!(out, text);
    assert_eq!(entry(&r, "leaf").rule, "zero-size");
    let o = PassOptions::default();
    let (out, r) = run(text, &o, &Reserves::default());
    assert_eq!((out.as_str(), r.functions.len()), (text, 0));
}

#[test]
fn registers_callers_keep_across_calls_are_not_scratch() {
    // `f` relies on `g` not clobbering t0 (as GCC's -fipa-ra allows within a unit), and so
    // transitively on `h`: neither check may use t0.
    let f = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tli t0,7\n\tcall g\n\tadd a0,a0,t0\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
    let text = func("h", false, &leaf_body(16))
        + &func("g", false, &caller_body(16, "h", true))
        + &func("f", true, f);
    let (out, _) = run(&text, &opts(RollingRules::NONE), &Reserves::default());
    assert!(
        out.contains("g:\n\taddi sp,sp,-16\n\tlw t1,-4(tp)\n"),
        "{out}"
    );
    assert!(
        out.contains("h:\n\taddi sp,sp,-16\n\tlw t1,-4(tp)\n"),
        "{out}"
    );
    assert!(
        out.contains("f:\n\taddi sp,sp,-16\n\tlw t0,-4(tp)\n"),
        "{out}"
    );
}

#[test]
fn save_restore_millicode_gets_a_blind_entry_check() {
    let body = "\tjal t0,__riscv_save_2\n\taddi sp,sp,-16\n\tcall g\n\taddi sp,sp,16\n\ttail __riscv_restore_2\n";
    let text = func("m", false, body) + &func("f", true, &caller_body(16, "m", false));
    let (out, r) = run(&text, &opts(RollingRules::ALL), &Reserves::default());
    let m = entry(&r, "m");
    assert_eq!((m.checked, m.effective), (true, 16 + 1024), "{m:?}");
    assert_eq!(m.rule, "kept: -msave-restore millicode");
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("t.s:m") && w.contains("-msave-restore")));
    assert!(
        out.contains("m:\n\tlw t0,-4(tp)\n\taddi t0,t0,1040\n\tbltu sp,t0,"),
        "{out}"
    );
}

#[test]
fn inline_asm_the_ir_does_not_know_gets_an_entry_check_with_an_abi_dead_scratch() {
    // The opaque line makes liveness assume every register is read; at the entry t0 still
    // carries nothing under the ABI, so the check uses it.
    let body = "\taddi sp,sp,-16\n#APP\n\tfrobnicate a0\n#NO_APP\n\taddi sp,sp,16\n\tret\n";
    let (out, r) = run(
        &func("asmy", true, body),
        &opts(RollingRules::ALL),
        &Reserves::default(),
    );
    assert!(
        out.contains("asmy:\n\tlw t0,-4(tp)\n\taddi t0,t0,1040\n"),
        "{out}"
    );
    assert!(out.contains("\tfrobnicate a0\n"), "{out}");
    assert!(r
        .warnings
        .iter()
        .any(|w| w.contains("t.s:asmy") && w.contains("not understood")));
}

#[test]
fn mtss_follows_tail_call_chains_for_args_and_pinning() {
    // f tail-calls g, which reads 8 bytes of incoming stack arguments and tail-calls h.
    let f =
        "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall k\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\ttail g\n";
    let g = "\tlw a5,4(sp)\n\tadd a0,a0,a5\n\ttail h\n";
    let h = "\tret\n";
    let mtss = PassOptions {
        mode: CheckMode::Mtss,
        ..opts(RollingRules::NONE)
    };
    let text = func("h", false, h) + &func("g", false, g) + &func("f", true, f);
    let (out, _) = run(&text, &mtss, &Reserves::default());
    let f_entry = table(&out)[2];
    assert_eq!(f_entry, (16, 16 | 8 << 16), "{out}");
    // With h outside the unit, g's stack arguments for h are unknown: f is pinned.
    let text = func("g", false, g) + &func("f", true, f);
    let (out, _) = run(&text, &mtss, &Reserves::default());
    assert_eq!(table(&out)[1], (16, 16 | 8 << 16 | 2 << 30), "{out}");
}

#[test]
fn an_interrupt_function_gets_no_check() {
    // GCC's `interrupt` attribute (a direct handler, docs/interrupts.md): every register at
    // its entry is the interrupted code's, so a check's scratch register would corrupt it.
    let isr = "\taddi sp,sp,-16\n\tsw a5,12(sp)\n\tlui a5,%hi(x)\n\tsw zero,%lo(x)(a5)\n\tlw a5,12(sp)\n\taddi sp,sp,16\n\tmret\n";
    let (out, _) = run(
        &func("isr", true, isr),
        &opts(RollingRules::NONE),
        &Reserves::default(),
    );
    assert!(
        out.contains("isr:\n\taddi sp,sp,-16\n\tsw a5,12(sp)\n"),
        "{out}"
    );
    assert!(!out.contains("-4(tp)"), "{out}");
    // The same body returning with ret is an ordinary function: it is checked.
    let (out, _) = run(
        &func("plain", true, &isr.replace("mret", "ret")),
        &opts(RollingRules::NONE),
        &Reserves::default(),
    );
    assert!(out.contains("-4(tp)"), "{out}");
}
