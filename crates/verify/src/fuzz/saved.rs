//! What a case leaves on disk, and reading a saved case back for replay.
//!
//! A case directory holds `prog.c`, the runtime sources (`crt0.S`, `fuzz_rt.c`, `string.c`, `link.ld`),
//! the compiler's assembly per level (`O2.s`), one directory per variant (`prog.s` and
//! `fuzz_rt.s` after the pass, `prog.elf`, `output.txt`, `ending.txt` and, for tight runs,
//! `output-tight.txt`, `ending-tight.txt`), `report.txt` (the findings and the replay
//! command) and `case.json` (what [`load_options`] needs to run it again).

use crate::fuzz::case::{CaseOutcome, CaseStatus, FuzzOptions};
use crate::fuzz::csmith::command_line;
use crate::fuzz::error::{io_at, FuzzError};
use crate::fuzz::variant::parse_variant;
use crate::fuzz::verdict::Finding;
use serde::{Deserialize, Serialize};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The contents of `case.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseFile {
    /// The csmith seed, if the program came from csmith unchanged.
    pub seed: Option<u64>,
    /// The command that regenerates `prog.c`, if it came from csmith.
    pub csmith: Option<String>,
    /// Every variant built, by name, reference first.
    pub variants: Vec<String>,
    /// Cycle limit of the reference run.
    pub max_cycles: u64,
    /// Whether tight-stack runs were made.
    pub tight: bool,
    /// Whether the reference also ran on QEMU.
    pub qemu: bool,
    /// QEMU's timeout in seconds.
    pub qemu_timeout_secs: f64,
    /// "passed", "failed" or "skipped: why".
    pub status: String,
    /// Problems found.
    pub findings: Vec<Finding>,
    /// Baseline disagreements found.
    pub baseline: Vec<Finding>,
}

/// Writes `report.txt` and `case.json` for `outcome` into `dir`.
pub fn write_case_files(
    dir: &Path,
    outcome: &CaseOutcome,
    options: &FuzzOptions,
) -> Result<(), FuzzError> {
    let file = CaseFile {
        seed: outcome.seed,
        csmith: outcome.seed.map(command_line),
        variants: options.variants.iter().map(|v| v.name()).collect(),
        max_cycles: options.max_cycles,
        tight: options.tight,
        qemu: options.qemu,
        qemu_timeout_secs: options.qemu_timeout.as_secs_f64(),
        status: match &outcome.status {
            CaseStatus::Passed => "passed".into(),
            CaseStatus::Failed => "failed".into(),
            CaseStatus::Skipped(why) => format!("skipped: {why}"),
        },
        findings: outcome.findings.clone(),
        baseline: outcome.baseline.clone(),
    };
    let json = dir.join("case.json");
    let text = serde_json::to_string_pretty(&file).map_err(|e| FuzzError::BadCase {
        path: json.clone(),
        reason: e.to_string(),
    })?;
    std::fs::write(&json, text).map_err(io_at(&json))?;
    let report = dir.join("report.txt");
    std::fs::write(&report, describe(&file)).map_err(io_at(&report))
}

/// The human-readable report of a case: status, findings, how to replay and reduce it.
pub fn describe(file: &CaseFile) -> String {
    let mut out = String::new();
    let what = file
        .seed
        .map_or("program".to_string(), |s| format!("seed {s}"));
    let _ = writeln!(out, "{what}: {}", file.status);
    for f in &file.findings {
        let _ = write!(out, "  {}", indent(&f.to_string()));
    }
    for f in &file.baseline {
        let _ = write!(
            out,
            "  baseline disagreement (not a cactus failure): {}",
            indent(&f.to_string())
        );
    }
    if let Some(cmd) = &file.csmith {
        let _ = writeln!(out, "regenerate: {cmd}");
    }
    let _ = writeln!(out, "replay:     cactus fuzz replay <this directory>");
    if let Some(f) = file.findings.first() {
        let _ = writeln!(
            out,
            "reduce:     cactus fuzz replay <this directory> --reduce --expect '{}'",
            f.signature()
        );
    }
    out
}

fn indent(text: &str) -> String {
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap_or_default());
    for line in lines {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// Reads `dir/case.json` and rebuilds the options it was run with (failing cases are kept
/// under `out`).
pub fn load_options(dir: &Path, out: PathBuf) -> Result<(CaseFile, FuzzOptions), FuzzError> {
    let json = dir.join("case.json");
    let text = std::fs::read_to_string(&json).map_err(io_at(&json))?;
    let bad = |reason: String| FuzzError::BadCase {
        path: json.clone(),
        reason,
    };
    let file: CaseFile = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let variants = file
        .variants
        .iter()
        .map(|name| parse_variant(name).ok_or_else(|| bad(format!("unknown variant `{name}`"))))
        .collect::<Result<Vec<_>, _>>()?;
    if variants.is_empty() {
        return Err(bad("no variants".into()));
    }
    if !(file.qemu_timeout_secs > 0.0 && file.qemu_timeout_secs.is_finite()) {
        return Err(bad(format!(
            "bad qemu_timeout_secs {}",
            file.qemu_timeout_secs
        )));
    }
    let options = FuzzOptions {
        variants,
        max_cycles: file.max_cycles,
        tight: file.tight,
        qemu: file.qemu,
        qemu_timeout: Duration::from_secs_f64(file.qemu_timeout_secs),
        out,
    };
    Ok((file, options))
}

/// Copies the case directory `from` to `to`, replacing whatever `to` held.
pub fn keep_case(from: &Path, to: &Path) -> Result<(), FuzzError> {
    if to.exists() {
        std::fs::remove_dir_all(to).map_err(io_at(to))?;
    }
    copy_dir(from, to)
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), FuzzError> {
    std::fs::create_dir_all(to).map_err(io_at(to))?;
    for entry in std::fs::read_dir(from).map_err(io_at(from))? {
        let entry = entry.map_err(io_at(from))?;
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            std::fs::copy(&path, &target).map_err(io_at(&target))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::variant::{variants, OptLevel};
    use crate::fuzz::verdict::FindingKind;
    use cactus_cc::CheckMode;

    fn outcome() -> CaseOutcome {
        CaseOutcome {
            seed: Some(42),
            status: CaseStatus::Failed,
            findings: vec![Finding {
                variant: "O2-detect-rolling".into(),
                kind: FindingKind::Mismatch,
                detail: "output differs at line 3".into(),
            }],
            baseline: Vec::new(),
            runs: 8,
            reference_cycles: 1000,
            saved: None,
            program: None,
            wall: Duration::ZERO,
        }
    }

    #[test]
    fn case_files_read_back_and_name_the_replay() {
        let dir = tempfile::tempdir().unwrap();
        let options = FuzzOptions {
            variants: variants(&[OptLevel::O2], &[CheckMode::Detect]),
            max_cycles: 5000,
            tight: true,
            qemu: false,
            qemu_timeout: Duration::from_secs(3),
            out: dir.path().into(),
        };
        write_case_files(dir.path(), &outcome(), &options).unwrap();
        let report = std::fs::read_to_string(dir.path().join("report.txt")).unwrap();
        assert!(report.starts_with("seed 42: failed\n"), "{report}");
        assert!(report.contains("O2-detect-rolling: mismatch"), "{report}");
        assert!(report.contains("cactus fuzz replay"), "{report}");
        assert!(report.contains("regenerate: csmith --seed 42 "), "{report}");
        let (file, back) = load_options(dir.path(), dir.path().into()).unwrap();
        assert_eq!(file.findings, outcome().findings);
        let names: Vec<String> = back.variants.iter().map(|v| v.name()).collect();
        assert_eq!(
            names,
            [
                "O0-none",
                "O2-none",
                "O2-detect-rolling",
                "O2-detect-norolling"
            ]
        );
        assert_eq!(back.max_cycles, 5000);
        assert!(back.tight && !back.qemu);
    }

    #[test]
    fn bad_case_files_are_rejected_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let err = load_options(dir.path(), dir.path().into()).unwrap_err();
        assert!(err.to_string().contains("case.json"), "{err}");
        std::fs::write(dir.path().join("case.json"), "{\"seed\": 1}").unwrap();
        assert!(load_options(dir.path(), dir.path().into()).is_err());
    }

    #[test]
    fn kept_cases_copy_variant_directories() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        std::fs::create_dir(from.path().join("O0-none")).unwrap();
        std::fs::write(from.path().join("O0-none/output.txt"), "x").unwrap();
        std::fs::write(from.path().join("prog.c"), "int main;").unwrap();
        let target = to.path().join("seed-1");
        std::fs::create_dir(&target).unwrap();
        std::fs::write(target.join("stale.txt"), "old").unwrap();
        keep_case(from.path(), &target).unwrap();
        assert_eq!(
            std::fs::read_to_string(target.join("O0-none/output.txt")).unwrap(),
            "x"
        );
        assert!(target.join("prog.c").exists());
        assert!(!target.join("stale.txt").exists());
    }
}
