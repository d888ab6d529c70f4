//! Judging one program: building every variant, running each (and again with a tight
//! stack), comparing with the baselines, optionally with QEMU. [`crate::fuzz::case`] wraps
//! it with generation, reporting and saving.

use crate::fuzz::build::{build_variant, compile_program};
use crate::fuzz::error::{io_at, FuzzError};
use crate::fuzz::run::{run_elf, FuzzRun, RunSetup};
use crate::fuzz::tight::{judge_baseline, judge_instrumented, tight_stack};
use crate::fuzz::variant::{OptLevel, Variant};
use crate::fuzz::verdict::{behaviour_difference, exited_cleanly, violation, Finding, FindingKind};
use crate::fuzz::FuzzOptions;
use crate::qemu::{run_qemu_with, QemuClock, QemuError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The judge of one case directory (`prog.c` and the runtime sources already written).
pub(crate) struct Judge<'a> {
    pub(crate) dir: &'a Path,
    pub(crate) options: &'a FuzzOptions,
    pub(crate) findings: Vec<Finding>,
    pub(crate) baseline: Vec<Finding>,
    pub(crate) runs: u32,
    /// The reference's last output line and each level's baseline high water.
    pub(crate) profile: Option<(String, BTreeMap<OptLevel, u32>)>,
}

impl Judge<'_> {
    /// `Ok(Ok(reference cycles))` once judged, `Ok(Err(reason))` if the case is skipped.
    pub(crate) fn judge(&mut self) -> Result<Result<u64, String>, FuzzError> {
        let mut asm: BTreeMap<OptLevel, String> = BTreeMap::new();
        for variant in &self.options.variants {
            if asm.contains_key(&variant.opt) {
                continue;
            }
            match compile_program(self.dir, variant.opt)? {
                Ok(text) => {
                    asm.insert(variant.opt, text);
                }
                Err(stderr) => {
                    return Ok(Err(format!(
                        "GCC {} rejects the program: {stderr}",
                        variant.opt
                    )))
                }
            }
        }
        let Some(reference) = self.options.variants.first() else {
            return Ok(Err("no variants to build".into()));
        };
        let full = RunSetup {
            stack: 0,
            max_cycles: self.options.max_cycles,
        };
        let ref_elf = match build_variant(self.dir, reference, &asm[&reference.opt])? {
            Ok(elf) => elf,
            Err(why) => return Ok(Err(format!("reference does not build: {why}"))),
        };
        let ref_run = self.run(reference, &ref_elf, full, "")?;
        if ref_run.timed_out() {
            return Ok(Err(format!(
                "reference ran longer than {} cycles",
                self.options.max_cycles
            )));
        }
        if !exited_cleanly(&ref_run) || ref_run.violations > 0 {
            return Ok(Err(format!(
                "reference did not exit cleanly: {}{}",
                ref_run.ending_text(),
                violation(&ref_run).map_or(String::new(), |v| format!("; {v}"))
            )));
        }
        if self.options.qemu {
            self.compare_qemu(reference, &ref_elf, &ref_run)?;
        }
        let setup = RunSetup {
            stack: 0,
            max_cycles: ref_run.cycles.saturating_mul(4).saturating_add(1_000_000),
        };
        if self.options.tight {
            let baselines = BTreeMap::from([(reference.opt, ref_run.clone())]);
            self.tight(reference, &ref_elf, &ref_run, &baselines, setup.max_cycles)?;
        }
        // The uninstrumented run of each level: what its instrumented builds must match.
        let mut baselines: BTreeMap<OptLevel, FuzzRun> = BTreeMap::new();
        baselines.insert(reference.opt, ref_run.clone());
        for variant in &self.options.variants[1..] {
            let Some(elf) = self.build(variant, &asm[&variant.opt])? else {
                continue;
            };
            let run = self.run(variant, &elf, setup, "")?;
            let expected = if variant.pass.instruments() {
                baselines.get(&variant.opt).unwrap_or(&ref_run)
            } else {
                if let Some(diff) = behaviour_difference(&ref_run, &run) {
                    self.baseline.push(Finding {
                        variant: variant.name(),
                        kind: FindingKind::Mismatch,
                        detail: format!("differs from the reference {}:\n{diff}", reference.name()),
                    });
                }
                baselines.insert(variant.opt, run.clone());
                &ref_run
            };
            if variant.pass.instruments() {
                if let Some(diff) = behaviour_difference(expected, &run) {
                    self.finding(variant, FindingKind::Mismatch, diff);
                }
            }
            if let Some(v) = violation(&run) {
                self.finding(variant, FindingKind::OracleViolation, v);
            }
            if self.options.tight {
                self.tight(variant, &elf, &run, &baselines, setup.max_cycles)?;
            }
        }
        let checksum = String::from_utf8_lossy(&ref_run.uart)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string();
        let hwm = baselines.iter().map(|(&o, r)| (o, r.stack_hwm)).collect();
        self.profile = Some((checksum, hwm));
        Ok(Ok(ref_run.cycles))
    }

    fn build(&mut self, variant: &Variant, asm: &str) -> Result<Option<PathBuf>, FuzzError> {
        Ok(match build_variant(self.dir, variant, asm)? {
            Ok(elf) => Some(elf),
            Err(why) => {
                self.finding(variant, FindingKind::BuildFailed, why);
                None
            }
        })
    }

    /// Runs `elf` and writes `output<suffix>.txt` and `ending<suffix>.txt` beside it.
    fn run(
        &mut self,
        variant: &Variant,
        elf: &Path,
        setup: RunSetup,
        suffix: &str,
    ) -> Result<FuzzRun, FuzzError> {
        self.runs += 1;
        let run = run_elf(elf, setup)?;
        let dir = self.dir.join(variant.name());
        let out = dir.join(format!("output{suffix}.txt"));
        std::fs::write(&out, &run.uart).map_err(io_at(&out))?;
        let ending = dir.join(format!("ending{suffix}.txt"));
        let text = format!(
            "{}\nstack: {}\ncycles: {}\nstack high water: {}\noracle violations: {}\n{}",
            run.ending_text(),
            if setup.stack == 0 {
                "whole".to_string()
            } else {
                setup.stack.to_string()
            },
            run.cycles,
            run.stack_hwm,
            run.violations,
            run.first_violation.as_deref().unwrap_or("")
        );
        std::fs::write(&ending, text).map_err(io_at(&ending))?;
        Ok(run)
    }

    /// The tight-stack run of `variant`, with half the stack its level's baseline used (the
    /// baselines' own tight runs check the oracle).
    fn tight(
        &mut self,
        variant: &Variant,
        elf: &Path,
        full: &FuzzRun,
        baselines: &BTreeMap<OptLevel, FuzzRun>,
        max_cycles: u64,
    ) -> Result<(), FuzzError> {
        let Some(base) = baselines.get(&variant.opt) else {
            return Ok(());
        };
        let Some(stack) = tight_stack(base.stack_hwm) else {
            return Ok(());
        };
        let setup = RunSetup { stack, max_cycles };
        let run = self.run(variant, elf, setup, "-tight")?;
        let problem = if variant.pass.instruments() {
            judge_instrumented(full, &run).map(|p| (FindingKind::TightMismatch, p))
        } else {
            judge_baseline(&run, stack, base.stack_hwm).map(|p| (FindingKind::OracleBlind, p))
        };
        if let Some((kind, detail)) = problem {
            self.finding(variant, kind, format!("stack {stack} bytes: {detail}"));
        }
        Ok(())
    }

    fn compare_qemu(
        &mut self,
        reference: &Variant,
        elf: &Path,
        sim: &FuzzRun,
    ) -> Result<(), FuzzError> {
        let detail = match run_qemu_with(elf, self.options.qemu_timeout, QemuClock::Icount) {
            Ok(q) if q.status == 0 && q.uart == sim.uart => None,
            Ok(q) => Some(format!(
                "qemu exit status {}\n{}",
                q.status,
                crate::fuzz::verdict::first_difference(&sim.uart, &q.uart).unwrap_or_default()
            )),
            Err(QemuError::NotInstalled) => {
                return Err(FuzzError::NotInstalled {
                    tool: crate::qemu::QEMU,
                    package: crate::qemu::QEMU_PACKAGE,
                })
            }
            Err(e) => Some(e.to_string()),
        };
        if let Some(detail) = detail {
            self.finding(reference, FindingKind::QemuMismatch, detail);
        }
        Ok(())
    }

    fn finding(&mut self, variant: &Variant, kind: FindingKind, detail: String) {
        self.findings.push(Finding {
            variant: variant.name(),
            kind,
            detail,
        });
    }
}
