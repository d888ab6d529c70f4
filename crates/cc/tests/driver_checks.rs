//! The driver with the pass on: objects compiled under `detect` carry the `cactus_checks`
//! table (docs/stack-checks.md), objects compiled under `none` do not, and the report names
//! the compiled functions.

use crate::driver_support::*;
use cactus_cc::CheckMode;
use std::path::Path;

/// Section headers of `object` (`objdump -h`).
fn sections(dir: &Path, object: &str) -> String {
    let out = tool(
        dir,
        "riscv64-unknown-elf-objdump",
        &["-h".into(), object.into()],
    );
    assert!(out.status.success(), "objdump -h {object}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn detect_objects_carry_the_check_table_and_none_objects_do_not() {
    let dir = scratch("checks-table");
    for (mode, object) in [(CheckMode::Detect, "det.o"), (CheckMode::None, "none.o")] {
        let out = driver(&dir, mode)
            .run(&args(true, &["-c", "a.c", "-o", object]))
            .expect("driver runs");
        assert_eq!(out.status, 0, "{}", stderr(&out));
        let report = out.report.expect("a report for a compile");
        let has_table = sections(&dir, object).contains("cactus_checks");
        match mode {
            CheckMode::None => {
                assert!(!has_table, "{object}");
                assert!(report.functions.is_empty(), "{report:?}");
            }
            _ => {
                assert!(has_table, "{object}: {}", sections(&dir, object));
                assert!(report.functions.iter().any(|f| f.name == "f"), "{report:?}");
            }
        }
    }
}

#[test]
fn all_sources_of_one_command_are_instrumented_together_into_one_report() {
    let dir = scratch("checks-together");
    let mut d = driver(&dir, CheckMode::Detect);
    d.report = Some("both.json".into());
    let out = d
        .run(&args(true, &["-c", "a.c", "b.c"]))
        .expect("driver runs");
    assert_eq!(out.status, 0, "{}", stderr(&out));
    let report = out.report.expect("a report");
    let units: Vec<&str> = report.functions.iter().map(|f| f.unit.as_str()).collect();
    assert!(
        units.contains(&"a.c") && units.contains(&"b.c"),
        "{units:?}"
    );
    let written = std::fs::read_to_string(dir.join("both.json")).expect("report written");
    assert_eq!(
        serde_json::from_str::<cactus_cc::Report>(&written).unwrap(),
        report
    );
    for object in ["a.o", "b.o"] {
        assert!(dir.join(object).exists(), "{object}");
    }
}

#[test]
fn a_failing_command_writes_no_report() {
    let dir = scratch("checks-no-report");
    let mut d = driver(&dir, CheckMode::Detect);
    d.report = Some("r.json".into());
    let out = d
        .run(&args(true, &["-c", "a.c", "bad.c"]))
        .expect("driver runs");
    assert_eq!(out.status, 1);
    assert!(dir.join("a.o").exists(), "gcc keeps the good object too");
    assert!(!dir.join("r.json").exists());
}
