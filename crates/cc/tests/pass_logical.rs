//! The logical-stack pass (docs/sensmart.md "The software variant") never changes what a
//! program does: every fixture program at -O0/-O1/-O2/-Os, built with the pass and the fixture
//! runtime's displacement set so that its logical stack ends at the aperture's top
//! (0x7000_0000: every pointer to a local is an address no memory answers), alone and after
//! the detect checks, prints the same output and exits the same way as without the pass; and
//! the translations are what makes that so: dropping a single one (its displacement add) from
//! the instrumented text breaks a program.

use crate::pass_support::*;
use cactus_cc::{CheckMode, PassOptions, Unit};

const PROGRAMS: [&str; 6] = [
    "recurse.c",
    "fnptr.c",
    "varargs.c",
    "dynamic.c",
    "bigframe.c",
    "structs.c",
];

/// The stack's top (link.ld) less the logical top: physical - logical.
const DISP: u32 = 0x8022_0000 - 0x7000_0000;

/// The unit defining the runtime's displacement word (crt0.S `cactus_lstack_disp`).
fn disp_unit() -> Unit {
    Unit {
        origin: "disp.s".into(),
        text: format!("\t.globl\tcactus_lstack_disp\n\t.set\tcactus_lstack_disp, {DISP:#x}\n"),
        library: true,
    }
}

fn opts(mode: CheckMode, logical: bool) -> PassOptions {
    PassOptions {
        mode,
        logical_stack: logical,
        ..PassOptions::default()
    }
}

#[test]
fn same_behaviour_with_every_stack_pointer_logical() {
    if !have_gcc() {
        return;
    }
    let mut translations = 0;
    for prog in PROGRAMS {
        for opt in OPT_LEVELS {
            let mut units = program(prog, opt, &[]);
            let (elf, _, _) = build(&units, &opts(CheckMode::None, false));
            let base = run(&elf);
            assert_eq!(base.exit, Some(0), "{prog} {opt}: {}", base.output);
            units.push(disp_unit());
            for mode in [CheckMode::None, CheckMode::Detect] {
                let (elf, _, texts) = build(&units, &opts(mode, true));
                translations += texts[0].matches("port_lstack_").count();
                assert!(
                    !texts[1].contains(".Lcactus_ls"),
                    "{prog} {opt}: the runtime is library code: never translated"
                );
                let got = run(&elf);
                assert_eq!(got, base, "{prog} {opt} {mode:?} with --logical-stack");
            }
        }
    }
    assert!(
        translations > 0,
        "the fixtures access memory through pointers"
    );
}

#[test]
fn dropping_one_translation_breaks_a_program() {
    if !have_gcc() {
        return;
    }
    let mut units = program("structs.c", "-O1", &[]);
    let (elf, _, _) = build(&units, &opts(CheckMode::None, false));
    let base = run(&elf);
    units.push(disp_unit());
    let (_, _, texts) = build(&units, &opts(CheckMode::None, true));
    let lines: Vec<&str> = texts[0].lines().collect();
    // The displacement adds of the translations: `add T,T,U` right after `lw U,32(tp)`.
    let adds: Vec<usize> = (1..lines.len())
        .filter(|&i| {
            lines[i - 1].trim().ends_with(",32(tp)") && lines[i].trim().starts_with("add ")
        })
        .filter(|&i| lines[i - 1].trim().starts_with("lw "))
        .collect();
    assert!(!adds.is_empty(), "{}", texts[0]);
    let mut broken = 0;
    for &i in &adds {
        let mut mutated: Vec<&str> = lines.clone();
        mutated.remove(i);
        let mut mu = units.clone();
        mu[0].text = mutated.join("\n") + "\n";
        let (elf, _, _) = build(&mu, &opts(CheckMode::None, false));
        if run(&elf) != base {
            broken += 1;
        }
    }
    assert!(
        broken > 0,
        "no single translation of {} matters: the test cannot fail",
        adds.len()
    );
}
