//! The preempt-traps pass (docs/sensmart.md "Preemption by counted branches") never changes
//! what a program does: every fixture program at -O0/-O1/-O2/-Os, built with the counter at
//! every backward branch (N = 3, so the runtime's entry runs often), alone and after the detect
//! checks, prints the same output and exits the same way on cactus-sim with the guard below the
//! stack untouched; only application units are counted, and a function whose counter code
//! spills below `sp` gets that word counted by its stack check.

use crate::pass_support::*;
use cactus_cc::{instrument_units, CheckMode, PassOptions, Reserves, Unit};

const PROGRAMS: [&str; 6] = [
    "recurse.c",
    "fnptr.c",
    "varargs.c",
    "dynamic.c",
    "bigframe.c",
    "structs.c",
];

fn opts(mode: CheckMode, preempt: Option<u32>) -> PassOptions {
    PassOptions {
        mode,
        preempt_traps: preempt,
        ..PassOptions::default()
    }
}

#[test]
fn same_behaviour_with_the_counter_at_every_backward_branch() {
    if !have_gcc() {
        return;
    }
    let mut counted = 0;
    for prog in PROGRAMS {
        for opt in OPT_LEVELS {
            let units = program(prog, opt, &[]);
            let (elf, _, _) = build(&units, &opts(CheckMode::None, None));
            let base = run(&elf);
            assert_eq!(base.exit, Some(0), "{prog} {opt}: {}", base.output);
            for mode in [CheckMode::None, CheckMode::Detect] {
                let (elf, _, texts) = build(&units, &opts(mode, Some(3)));
                counted += texts[0].matches("port_preempt_").count();
                assert_eq!(
                    texts[1].matches("port_preempt_").count(),
                    0,
                    "{prog} {opt}: the runtime unit is library code: never counted"
                );
                let got = run(&elf);
                assert_eq!(got, base, "{prog} {opt} {mode:?} with --preempt-traps=3");
            }
        }
    }
    assert!(
        counted > 0,
        "the fixtures have loops: some branch was counted"
    );
}

#[test]
fn a_spill_below_sp_is_counted_by_the_stack_check() {
    // A frameless leaf whose loop keeps every register live: without the pass the zero-size
    // rule leaves it unchecked; with it, t0 is spilled at sp - 4 and the check covers 4 bytes.
    let mut body = String::from("\t.text\n\t.globl\tz\n\t.type\tz, @function\nz:\n.L9:\n");
    let regs = [
        "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
        "ra", "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
    ];
    for n in regs {
        body.push_str(&format!("\taddi\t{n},{n},1\n"));
    }
    body.push_str("\tbnez\ta0,.L9\n");
    for n in regs {
        body.push_str(&format!("\tmv\tzero,{n}\n"));
    }
    body.push_str("\tret\n\t.size\tz, .-z\n");
    let units = [Unit {
        origin: "z.s".into(),
        text: body,
        library: false,
    }];
    let report = |o: &PassOptions| {
        let (texts, r) = instrument_units(&units, o, &Reserves::default()).unwrap();
        let z = r.functions.iter().find(|f| f.name == "z").cloned().unwrap();
        (texts, z)
    };
    let (_, plain) = report(&opts(CheckMode::Detect, None));
    assert!(!plain.checked, "{plain:?}");
    let (texts, spilled) = report(&opts(CheckMode::Detect, Some(256)));
    assert!(spilled.checked && spilled.effective >= 4, "{spilled:?}");
    assert!(texts[0].contains("sw t0,-4(sp)"), "{}", texts[0]);
}
