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
        let options = PassOptions {
            mode: self.mode,
            rolling: self.rules(),
            ..PassOptions::default()
        };
        instrument_units(units, &options, reserves)
            .map(|(texts, _report)| texts)
            .map_err(|e| e.to_string())
    }

    fn firmware_checks(&self) -> Option<(CheckMode, RollingRules)> {
        Some((self.mode, self.rules()))
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
}
