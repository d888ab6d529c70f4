//! `cactus fuzz` end to end: csmith programs built uninstrumented and with detect checks at
//! -O0 and -O2, run on cactus-sim under the oracle, with tight-stack runs; and broken passes
//! that the harness must catch.

use cactus_cc::{CheckMode, Unit};
use cactus_verify::fuzz::case::{run_source, CaseStatus, FuzzOptions};
use cactus_verify::fuzz::csmith::generate;
use cactus_verify::fuzz::saved::load_options;
use cactus_verify::fuzz::variant::{variants, OptLevel, Pass, Variant};
use cactus_verify::fuzz::verdict::FindingKind;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

const SEEDS: [u64; 3] = [1, 2, 3];

fn tools_present() -> bool {
    let ok = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
    ok("csmith") && ok("riscv64-unknown-elf-gcc")
}

fn options(variants: Vec<Variant>, out: &Path) -> FuzzOptions {
    FuzzOptions {
        variants,
        max_cycles: 100_000_000,
        tight: true,
        qemu: false,
        qemu_timeout: Duration::from_secs(30),
        out: out.to_path_buf(),
    }
}

#[test]
fn fixed_seeds_pass_under_none_and_detect_at_o0_and_o2() {
    if !tools_present() {
        eprintln!("csmith or the RISC-V toolchain is missing: skipping");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let opts = options(
        variants(
            &[OptLevel::O0, OptLevel::O2],
            &[CheckMode::None, CheckMode::Detect],
        ),
        work.path(),
    );
    let mut caught = 0;
    for seed in SEEDS {
        let dir = work.path().join(format!("seed-{seed}"));
        std::fs::create_dir_all(&dir).unwrap();
        let source = generate(seed).unwrap().unwrap();
        let outcome = run_source(&dir, &source, Some(seed), &opts).unwrap();
        assert_eq!(
            outcome.status,
            CaseStatus::Passed,
            "seed {seed}: {:#?}",
            outcome.findings
        );
        // 6 builds, each run with the whole stack and with a tight one.
        assert_eq!(outcome.runs, 12, "seed {seed}");
        let out = std::fs::read_to_string(dir.join("O2-detect-rolling/output.txt")).unwrap();
        assert!(out.contains("checksum = "), "seed {seed}: {out}");
        let reference = std::fs::read_to_string(dir.join("O0-none/output.txt")).unwrap();
        assert_eq!(out, reference, "seed {seed}");
        let tight =
            std::fs::read_to_string(dir.join("O2-detect-rolling/ending-tight.txt")).unwrap();
        if tight.starts_with("exit 91") {
            caught += 1;
        }
        let blind = std::fs::read_to_string(dir.join("O2-none/ending-tight.txt")).unwrap();
        assert!(
            !blind.contains("oracle violations: 0\n"),
            "seed {seed}: {blind}"
        );
        // The saved description reads back into the same variants.
        let (file, replay) = load_options(&dir, work.path().to_path_buf()).unwrap();
        assert_eq!(file.seed, Some(seed));
        assert_eq!(replay.variants.len(), opts.variants.len());
    }
    assert!(caught > 0, "no tight run reported an overflow");
}

/// Claims to instrument but leaves the code as it is: tight runs overflow silently.
#[derive(Debug)]
struct NoChecks;

impl Pass for NoChecks {
    fn name(&self) -> String {
        "nochecks".into()
    }
    fn instruments(&self) -> bool {
        true
    }
    fn apply(&self, units: &[Unit], _: &cactus_cc::Reserves) -> Result<Vec<String>, String> {
        Ok(units.iter().map(|u| u.text.clone()).collect())
    }
}

/// Changes what the program prints: every "checksum = " becomes "checksum = 1".
#[derive(Debug)]
struct Corrupting;

impl Pass for Corrupting {
    fn name(&self) -> String {
        "corrupting".into()
    }
    fn instruments(&self) -> bool {
        true
    }
    fn apply(&self, units: &[Unit], _: &cactus_cc::Reserves) -> Result<Vec<String>, String> {
        Ok(units
            .iter()
            .map(|u| u.text.replace("checksum = %X", "checksum = 1%X"))
            .collect())
    }
}

#[test]
fn broken_passes_are_caught() {
    if !tools_present() {
        eprintln!("csmith or the RISC-V toolchain is missing: skipping");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let mut list = vec![Variant::baseline(OptLevel::O0)];
    for pass in [Arc::new(NoChecks) as Arc<dyn Pass>, Arc::new(Corrupting)] {
        list.push(Variant {
            opt: OptLevel::O0,
            pass,
        });
    }
    let opts = options(list, work.path());
    let source = generate(SEEDS[0]).unwrap().unwrap();
    let outcome = run_source(work.path(), &source, None, &opts).unwrap();
    assert_eq!(outcome.status, CaseStatus::Failed);
    let kinds: Vec<(String, FindingKind)> = outcome
        .findings
        .iter()
        .map(|f| (f.variant.clone(), f.kind))
        .collect();
    assert!(
        kinds.contains(&("O0-nochecks".into(), FindingKind::TightMismatch)),
        "{kinds:?}"
    );
    assert!(
        kinds.contains(&("O0-corrupting".into(), FindingKind::Mismatch)),
        "{kinds:?}"
    );
    let report = std::fs::read_to_string(work.path().join("report.txt")).unwrap();
    assert!(report.contains("O0-corrupting: mismatch"), "{report}");
}

#[test]
fn multitask_group_passes_and_starved_stacks_are_caught() {
    use cactus_verify::fuzz::multitask::{run_group, run_group_with};
    if !tools_present() {
        eprintln!("csmith or the RISC-V toolchain is missing: skipping");
        return;
    }
    let root = cactus_firmware::find_root(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let work = tempfile::tempdir().unwrap();
    let opts = options(variants(&[OptLevel::O2], &[CheckMode::Detect]), work.path());
    let mut profiles = Vec::new();
    for seed in [SEEDS[0], SEEDS[1]] {
        let dir = work.path().join(format!("single-{seed}"));
        std::fs::create_dir_all(&dir).unwrap();
        let source = generate(seed).unwrap().unwrap();
        let outcome = run_source(&dir, &source, Some(seed), &opts).unwrap();
        assert_eq!(
            outcome.status,
            CaseStatus::Passed,
            "{:#?}",
            outcome.findings
        );
        profiles.push((seed, outcome.program.unwrap()));
    }
    // Only the O2 uninstrumented and detect-with-rolling firmware: enough to show both
    // verdicts without building all four.
    let mut two = opts.clone();
    two.variants = vec![two.variants[1].clone(), two.variants[2].clone()];
    assert_eq!(two.variants[1].name(), "O2-detect-rolling");
    let members: Vec<(u64, &_)> = profiles.iter().map(|(s, p)| (*s, p)).collect();
    let good = run_group(&members, &two, &root).unwrap();
    assert!(good.findings.is_empty(), "{:#?}", good.findings);
    assert_eq!(good.builds, 2);

    // Give task 0 the 128-byte minimum, far less than it needs: the uninstrumented firmware
    // must be caught by the oracle; in the instrumented one the check must stop the task
    // before any write.
    let starve = |k: usize, hwm: u32, instrumented: bool| {
        if k == 0 {
            128
        } else {
            cactus_verify::fuzz::multitask::budget(hwm, instrumented)
        }
    };
    assert!(
        profiles[0].1.hwm.values().all(|&h| h > 128),
        "{:?}",
        profiles[0].1.hwm
    );
    let bad = run_group_with(&members, &two, &root, &starve).unwrap();
    let kinds: Vec<(String, FindingKind)> = bad
        .findings
        .iter()
        .map(|f| (f.variant.clone(), f.kind))
        .collect();
    assert!(
        kinds.contains(&("mt-O2-none".into(), FindingKind::OracleViolation)),
        "{kinds:?}"
    );
    assert!(
        !kinds.contains(&("mt-O2-detect-rolling".into(), FindingKind::OracleViolation)),
        "{kinds:?}"
    );
    assert!(bad.saved.unwrap().join("report.txt").exists());
}

/// The detect checks and the isolate pass, whose stack window reads the (empty) shared window
/// instead: every store
/// through a pointer into the stack takes the runtime's slow path, which must allow it and
/// return with every register intact.
#[derive(Debug)]
struct IsolateStackSlow;

impl Pass for IsolateStackSlow {
    fn name(&self) -> String {
        "isolate-stackslow".into()
    }
    fn instruments(&self) -> bool {
        true
    }
    fn apply(&self, units: &[Unit], r: &cactus_cc::Reserves) -> Result<Vec<String>, String> {
        let isolate = cactus_verify::fuzz::variant::IsolatePass {
            checks: cactus_verify::fuzz::variant::CheckPass {
                mode: CheckMode::Detect,
                rolling: true,
            },
        };
        Ok(isolate
            .apply(units, r)?
            .into_iter()
            .map(|t| {
                t.replace("cactus_iso_win+8)", "cactus_iso_win+16)")
                    .replace("cactus_iso_win+12)", "cactus_iso_win+20)")
            })
            .collect())
    }
}

#[test]
fn isolated_builds_pass_and_their_slow_path_allows_what_is_the_programs() {
    if !tools_present() {
        eprintln!("csmith or the RISC-V toolchain is missing: skipping");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let mut list = vec![Variant::baseline(OptLevel::O0)];
    list.extend(cactus_verify::fuzz::variant::isolate_variants(&[
        OptLevel::O2,
    ]));
    list.push(Variant {
        opt: OptLevel::O0,
        pass: Arc::new(IsolateStackSlow),
    });
    let opts = options(list, work.path());
    let source = generate(SEEDS[0]).unwrap().unwrap();
    let outcome = run_source(work.path(), &source, Some(SEEDS[0]), &opts).unwrap();
    assert_eq!(
        outcome.status,
        CaseStatus::Passed,
        "{:#?}",
        outcome.findings
    );
    for v in ["O2-detect-rolling-isolate", "O0-isolate-stackslow"] {
        let asm = std::fs::read_to_string(work.path().join(v).join("prog.s")).unwrap();
        assert!(asm.contains("port_isolate_w_"), "{v}: no checked store");
        let out = std::fs::read_to_string(work.path().join(v).join("output.txt")).unwrap();
        let reference = std::fs::read_to_string(work.path().join("O0-none/output.txt")).unwrap();
        assert_eq!(out, reference, "{v}");
    }
    let slow = std::fs::read_to_string(work.path().join("O0-isolate-stackslow/prog.s")).unwrap();
    assert!(!slow.contains("cactus_iso_win+8)"), "{slow}");
}

/// The detect checks and the logical-stack pass with its aperture test broken (`srli U, T,
/// 28; addi U, U, -5`): no address is ever translated, so a logical stack address is used as
/// it is and the access faults.
#[derive(Debug)]
struct LogicalUntranslated;

impl Pass for LogicalUntranslated {
    fn name(&self) -> String {
        "logical-untranslated".into()
    }
    fn instruments(&self) -> bool {
        true
    }
    fn apply(&self, units: &[Unit], r: &cactus_cc::Reserves) -> Result<Vec<String>, String> {
        let logical = cactus_verify::fuzz::variant::LogicalPass {
            checks: cactus_verify::fuzz::variant::CheckPass {
                mode: CheckMode::Detect,
                rolling: true,
            },
        };
        let regs = [
            "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6",
            "a7",
        ];
        Ok(logical
            .apply(units, r)?
            .into_iter()
            .map(|mut t| {
                for u in regs {
                    t = t.replace(
                        &format!("\taddi {u},{u},-6\n"),
                        &format!("\taddi {u},{u},-5\n"),
                    );
                }
                t
            })
            .collect())
    }
}

#[test]
fn logical_stack_builds_pass_and_an_untranslated_one_fails() {
    if !tools_present() {
        eprintln!("csmith or the RISC-V toolchain is missing: skipping");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let mut list = vec![Variant::baseline(OptLevel::O0)];
    list.extend(cactus_verify::fuzz::variant::logical_variants(&[
        OptLevel::O0,
        OptLevel::O2,
    ]));
    let opts = options(list, work.path());
    let source = generate(SEEDS[0]).unwrap().unwrap();
    let outcome = run_source(work.path(), &source, Some(SEEDS[0]), &opts).unwrap();
    assert_eq!(
        outcome.status,
        CaseStatus::Passed,
        "{:#?}",
        outcome.findings
    );
    // At -O0 the frame pointer is a logical stack address: without translation it faults.
    let bad = options(
        vec![
            Variant::baseline(OptLevel::O0),
            Variant {
                opt: OptLevel::O0,
                pass: Arc::new(LogicalUntranslated),
            },
        ],
        work.path(),
    );
    let outcome = run_source(work.path(), &source, Some(SEEDS[0]), &bad).unwrap();
    assert_ne!(outcome.status, CaseStatus::Passed);
}
