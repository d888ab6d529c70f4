//! `--stack-bound` (PassOptions::hardware_bound): which entry checks become bound sites (no
//! instruction, the table naming the `sp` decrement twice), which keep their instructions at
//! the entry, and that a function rolled into its callers gets its entry back.

use crate::pass_snippets::*;
use cactus_cc::{PassOptions, Reserve, Reserves, RollingRules};

const LEAF: &str = "\taddi sp,sp,-16\n\tsw a0,0(sp)\n\tlw a0,0(sp)\n\taddi sp,sp,16\n\tret\n";
const CALLS_PUTS: &str =
    "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall puts\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";

fn bound(rolling: RollingRules) -> PassOptions {
    PassOptions {
        hardware_bound: true,
        ..opts(rolling)
    }
}

/// The (word 0, word 1, need) of every table entry in `out`, labels as written.
fn entries(out: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(5)
        .filter(|w| w[0].starts_with("\t.pushsection\tcactus_checks"))
        .map(|w| {
            let word = |l: &str| l.trim_start_matches("\t.word\t").to_string();
            (word(w[2]), word(w[3]), word(w[4]))
        })
        .collect()
}

#[test]
fn a_whole_frame_decrement_is_a_bound_site_with_no_instruction() {
    let text = func("g", false, LEAF) + &func("f", true, &caller_body(16, "g", false));
    let (out, r) = run(&text, &bound(CERTAINTY), &Reserves::default());
    // g is rolled into f, but the hardware checks its decrement too: it keeps an entry.
    assert_eq!(entry(&r, "g").rule, "certainty");
    assert!(!out.contains("-4(tp)"), "{out}");
    assert!(!out.contains("ecall"), "{out}");
    assert!(
        out.contains("g:\n.Lcactus_ok_0:\n\taddi sp,sp,-16\n"),
        "{out}"
    );
    let e = entries(&out);
    assert_eq!(e.len(), 2, "{out}");
    for (site, resume, _) in &e {
        assert_eq!(site, resume, "{out}");
    }
    // f's entry asks for its rolled effective size: its frame and g's.
    assert!(e.iter().any(|(_, _, need)| need == "32"), "{e:?}");
    assert!(e.iter().any(|(_, _, need)| need == "16"), "{e:?}");
}

#[test]
fn a_call_into_uninstrumented_code_keeps_its_check_at_the_entry() {
    let reserves: Reserves = [("puts".to_string(), Reserve::Bytes(200))]
        .into_iter()
        .collect();
    let (out, _) = run(
        &func("h", true, CALLS_PUTS),
        &bound(RollingRules::ALL),
        &reserves,
    );
    // Before the decrement (the hardware would refuse it before a later check ran), covering
    // the frame and puts' reserve from the entry sp.
    assert!(
        out.contains("h:\n\tlw t0,-4(tp)\n\taddi t0,t0,216\n\tbltu sp,t0,"),
        "{out}"
    );
    assert_eq!(table(&out), vec![(216, 0)]);
    // Without the bound the same check follows the decrement.
    let (out, _) = run(
        &func("h", true, CALLS_PUTS),
        &opts(RollingRules::ALL),
        &reserves,
    );
    assert!(out.contains("\taddi sp,sp,-16\n\tlw t0,-4(tp)\n"), "{out}");
}
