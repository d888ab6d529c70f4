//! Choosing a pass over a program's assembly: the [`Pass`] interface every instrumentation
//! implements, and [`CheckPass`], the stack checks in one mode with every rolling rule or
//! none. Builds, the fuzzer and the evaluations all select passes here, so no build path
//! depends on a harness.

use crate::{instrument_units, CheckMode, PassOptions, Reserves, RollingRules, Unit};
use std::fmt;

/// A transformation of a program's assembly units (the program first, then its runtime).
pub trait Pass: Send + Sync + fmt::Debug {
    /// A short name, unique among passes, usable in a file name (`detect-rolling`).
    fn name(&self) -> String;
    /// False for the identity (the uninstrumented baseline).
    fn instruments(&self) -> bool;
    /// The new text of every unit, in order, or why the pass refused the input; calls into
    /// code outside the units cost what `reserves` says.
    fn apply(&self, units: &[Unit], reserves: &Reserves) -> Result<Vec<String>, String>;
    /// How a kernel firmware build expresses this pass (`kernel.checks` and the rolling
    /// rules); None if it cannot (then the pass is for single programs only).
    fn firmware_checks(&self) -> Option<(CheckMode, RollingRules)> {
        None
    }
}

/// The stack-check pass in one mode, with every rolling rule or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckPass {
    /// Which checks.
    pub mode: CheckMode,
    /// All rolling rules on (true) or all off.
    pub rolling: bool,
}

impl CheckPass {
    /// The rolling rules in force.
    pub fn rules(self) -> RollingRules {
        if self.rolling {
            RollingRules::ALL
        } else {
            RollingRules::NONE
        }
    }

    /// The pass called `name` (as [`Pass::name`] spells it: `none`, `detect-rolling`,
    /// `mtss-norolling`, ...).
    pub fn parse(name: &str) -> Option<CheckPass> {
        if name == "none" {
            return Some(CheckPass {
                mode: CheckMode::None,
                rolling: true,
            });
        }
        let (mode, rolling) = name.split_once('-')?;
        let mode = CheckMode::parse(mode).filter(|m| *m != CheckMode::None)?;
        let rolling = match rolling {
            "rolling" => true,
            "norolling" => false,
            _ => return None,
        };
        Some(CheckPass { mode, rolling })
    }
}

impl CheckPass {
    /// `units` instrumented by `options` with this pass's check mode and rolling rules (the
    /// passes that run after the checks set their own fields of `options`).
    fn instrument(
        &self,
        units: &[Unit],
        reserves: &Reserves,
        options: PassOptions,
    ) -> Result<Vec<String>, String> {
        let options = PassOptions {
            mode: self.mode,
            rolling: self.rules(),
            ..options
        };
        instrument_units(units, &options, reserves)
            .map(|(texts, _report)| texts)
            .map_err(|e| e.to_string())
    }
}

impl Pass for CheckPass {
    fn name(&self) -> String {
        match self.mode {
            CheckMode::None => "none".into(),
            mode => format!(
                "{mode}-{}",
                if self.rolling { "rolling" } else { "norolling" }
            ),
        }
    }

    fn instruments(&self) -> bool {
        self.mode != CheckMode::None
    }

    fn apply(&self, units: &[Unit], reserves: &Reserves) -> Result<Vec<String>, String> {
        self.instrument(units, reserves, PassOptions::default())
    }

    fn firmware_checks(&self) -> Option<(CheckMode, RollingRules)> {
        Some((self.mode, self.rules()))
    }
}

/// A check pass followed by the preempt-traps pass with period N (docs/sensmart.md): the
/// checks keep the fuzzer's tight-stack judgement meaningful, the counter code is what is
/// under test. Named `<check pass>-preempt<N>` (`detect-rolling-preempt4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreemptPass {
    /// The stack checks that run first.
    pub checks: CheckPass,
    /// N: every N-th backward branch enters the runtime.
    pub period: u32,
}

impl PreemptPass {
    /// The pass called `name` (as [`Pass::name`] spells it).
    pub fn parse(name: &str) -> Option<PreemptPass> {
        let (checks, period) = name.rsplit_once("-preempt")?;
        let period: u32 = period.parse().ok().filter(|&n| n > 0)?;
        Some(PreemptPass {
            checks: CheckPass::parse(checks)?,
            period,
        })
    }
}

impl Pass for PreemptPass {
    fn name(&self) -> String {
        format!("{}-preempt{}", self.checks.name(), self.period)
    }

    fn instruments(&self) -> bool {
        true
    }

    fn apply(&self, units: &[Unit], reserves: &Reserves) -> Result<Vec<String>, String> {
        let options = PassOptions {
            preempt_traps: Some(self.period),
            ..PassOptions::default()
        };
        self.checks.instrument(units, reserves, options)
    }
}

/// A check pass followed by the isolate pass (docs/sensmart.md "Memory isolation"): every
/// store through a pointer, indirect jump, return and C library writer call is checked against
/// the running task's windows (`cactus_iso_win`); the runtime decides the rest exactly. Named
/// `<check pass>-isolate` (`detect-rolling-isolate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IsolatePass {
    /// The stack checks that run first.
    pub checks: CheckPass,
}

impl IsolatePass {
    /// The pass called `name` (as [`Pass::name`] spells it).
    pub fn parse(name: &str) -> Option<IsolatePass> {
        Some(IsolatePass {
            checks: CheckPass::parse(name.strip_suffix("-isolate")?)?,
        })
    }
}

impl Pass for IsolatePass {
    fn name(&self) -> String {
        format!("{}-isolate", self.checks.name())
    }

    fn instruments(&self) -> bool {
        true
    }

    fn apply(&self, units: &[Unit], reserves: &Reserves) -> Result<Vec<String>, String> {
        let options = PassOptions {
            isolate: true,
            ..PassOptions::default()
        };
        self.checks.instrument(units, reserves, options)
    }
}

/// A check pass followed by the logical-stack pass (docs/sensmart.md "The software variant"):
/// stack addresses that leave `sp` become logical, every access through another base is
/// translated with the running code's displacement (the word at `tp + 32`) and compared with
/// its physical bound (`tp - 4`). Named `<check pass>-logical` (`detect-rolling-logical`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalPass {
    /// The stack checks that run with it.
    pub checks: CheckPass,
}

impl LogicalPass {
    /// The pass called `name` (as [`Pass::name`] spells it).
    pub fn parse(name: &str) -> Option<LogicalPass> {
        Some(LogicalPass {
            checks: CheckPass::parse(name.strip_suffix("-logical")?)?,
        })
    }
}

impl Pass for LogicalPass {
    fn name(&self) -> String {
        format!("{}-logical", self.checks.name())
    }

    fn instruments(&self) -> bool {
        true
    }

    fn apply(&self, units: &[Unit], reserves: &Reserves) -> Result<Vec<String>, String> {
        let options = PassOptions {
            logical_stack: true,
            ..PassOptions::default()
        };
        self.checks.instrument(units, reserves, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for mode in CheckMode::ALL {
            for rolling in [true, false] {
                let p = CheckPass { mode, rolling };
                let back = CheckPass::parse(&p.name()).unwrap();
                assert_eq!(back.name(), p.name());
            }
        }
        assert_eq!(CheckPass::parse("none-rolling"), None);
        assert_eq!(CheckPass::parse("fast-rolling"), None);
        assert_eq!(CheckMode::parse(" mtss "), Some(CheckMode::Mtss));
        assert_eq!(CheckMode::parse("fast"), None);
    }

    #[test]
    fn preempt_pass_names_parse_back() {
        let p = PreemptPass {
            checks: CheckPass {
                mode: CheckMode::Detect,
                rolling: true,
            },
            period: 4,
        };
        assert_eq!(p.name(), "detect-rolling-preempt4");
        assert_eq!(PreemptPass::parse(&p.name()), Some(p));
        assert_eq!(PreemptPass::parse("detect-rolling-preempt0"), None);
        assert_eq!(PreemptPass::parse("detect-rolling"), None);
    }

    #[test]
    fn isolate_pass_names_parse_back() {
        let p = IsolatePass {
            checks: CheckPass {
                mode: CheckMode::Detect,
                rolling: true,
            },
        };
        assert_eq!(p.name(), "detect-rolling-isolate");
        assert_eq!(IsolatePass::parse(&p.name()), Some(p));
        assert_eq!(IsolatePass::parse("detect-rolling"), None);
        assert_eq!(IsolatePass::parse("fast-isolate"), None);
    }
}
