//! A deep recursion on a 64 KiB stack: uninstrumented, it writes below the stack limit (the
//! control); instrumented, at every -O level, in both check modes, with every rolling rule
//! on and off, the check fails (exit code 42 from the fixture runtime) before anything below
//! the limit is written. Rolling removes checks and still catches it.

use crate::pass_support::*;
use cactus_cc::{CheckMode, PassOptions, RollingRules};

const DEEP: &str = "-DDEPTH=5000";

fn rule_sets() -> Vec<(&'static str, RollingRules)> {
    let only = |certainty, zero_size, limited_size| RollingRules {
        certainty,
        zero_size,
        limited_size,
    };
    vec![
        ("none", RollingRules::NONE),
        ("all", RollingRules::ALL),
        ("certainty", only(true, false, false)),
        ("zero-size", only(false, true, false)),
        ("limited-size", only(false, false, true)),
    ]
}

#[test]
fn uninstrumented_deep_recursion_writes_below_the_limit() {
    if !have_gcc() {
        return;
    }
    let units = program("recurse.c", "-O2", &[DEEP]);
    let (elf, _, _) = build(&units, &PassOptions::default());
    let r = run(&elf);
    assert!(!r.guard_intact, "the control must smash the guard: {r:?}");
    assert_ne!(r.exit, Some(CHECK_FAILED));
}

#[test]
fn checks_catch_the_overflow_before_the_limit_is_crossed() {
    if !have_gcc() {
        return;
    }
    for opt in OPT_LEVELS {
        let units = program("recurse.c", opt, &[DEEP]);
        for (i, (name, rules)) in rule_sets().into_iter().enumerate() {
            for mode in [CheckMode::Detect, CheckMode::Mtss] {
                let opts = PassOptions {
                    mode,
                    rolling: rules,
                    whole_program: i % 2 == 1,
                    ..PassOptions::default()
                };
                let (elf, _, _) = build(&units, &opts);
                let r = run(&elf);
                let ctx = format!("{opt} rules={name} {mode:?}");
                assert_eq!(r.exit, Some(CHECK_FAILED), "{ctx}: {r:?}");
                assert!(
                    r.guard_intact,
                    "{ctx}: something was written below the limit"
                );
            }
        }
    }
}

#[test]
fn rolling_removes_checks_and_still_catches() {
    if !have_gcc() {
        return;
    }
    for opt in OPT_LEVELS {
        let units = program("recurse.c", opt, &[DEEP]);
        let base = PassOptions {
            mode: CheckMode::Detect,
            rolling: RollingRules::NONE,
            ..PassOptions::default()
        };
        let rolled = PassOptions {
            rolling: RollingRules::ALL,
            ..base.clone()
        };
        let (_, r_none, _) = build(&units, &base);
        let (elf, r_all, _) = build(&units, &rolled);
        let (checked_none, sites_none) = counts(&r_none);
        let (checked_all, sites_all) = counts(&r_all);
        assert!(
            checked_all < checked_none && sites_all < sites_none,
            "{opt}: rolling kept {checked_all} of {checked_none} checks"
        );
        let removed: Vec<&str> = r_all
            .functions
            .iter()
            .filter(|f| !f.checked)
            .map(|f| f.rule.as_str())
            .collect();
        assert!(removed
            .iter()
            .all(|r| ["zero-size", "certainty", "limited-size"].contains(r)));
        let r = run(&elf);
        assert_eq!(r.exit, Some(CHECK_FAILED), "{opt}: {r:?}");
        assert!(r.guard_intact, "{opt}");
        // Recursion never rolls out of its cycle: `deep` keeps its check.
        let deep = r_all.functions.iter().find(|f| f.name == "deep").unwrap();
        assert!(deep.checked, "{opt}: {deep:?}");
    }
}

#[test]
fn qemu_agrees_with_the_simulator() {
    if !have_gcc() {
        return;
    }
    let opts = PassOptions {
        mode: CheckMode::Detect,
        ..PassOptions::default()
    };
    for (prog, defines) in [("recurse.c", vec![DEEP]), ("fnptr.c", vec![])] {
        let units = program(prog, "-O2", &defines);
        let (elf, _, _) = build(&units, &opts);
        let sim = run(&elf);
        let Some((output, code)) = run_qemu(&elf) else {
            return;
        };
        assert_eq!(output, sim.output, "{prog}");
        assert_eq!(Some(code as u32), sim.exit, "{prog}");
    }
}
