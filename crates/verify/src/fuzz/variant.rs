//! Harness variants: how one build of a program is made. A variant is an optimization level
//! and a [`Pass`] over the compiler's assembly; later passes (split stacks, switch points,
//! ...) plug in by implementing [`Pass`].

use cactus_cc::{CheckMode, Reserve, Reserves, Unit};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// Bytes of stack assumed for a call into libgcc (soft 64-bit division, soft float), which
/// is not instrumented. Its arithmetic helpers use at most 96 bytes (largest `sp` decrement
/// of those functions in libgcc.a for rv32imac/ilp32); the tight-stack runs check the bound.
pub const LIBGCC_RESERVE: u32 = 256;

/// A GCC optimization level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptLevel {
    /// `-O0`.
    O0,
    /// `-O1`.
    O1,
    /// `-O2`.
    O2,
    /// `-Os`.
    Os,
}

impl OptLevel {
    /// Every level, in the order they are built.
    pub const ALL: [OptLevel; 4] = [OptLevel::O0, OptLevel::O1, OptLevel::O2, OptLevel::Os];

    /// The GCC flag (`-O2`).
    pub fn flag(self) -> String {
        format!("-{self}")
    }

    /// Parses `O0`, `O1`, `O2`, `Os` (a leading `-` is allowed).
    pub fn parse(text: &str) -> Option<OptLevel> {
        match text.trim().trim_start_matches('-') {
            "O0" => Some(OptLevel::O0),
            "O1" => Some(OptLevel::O1),
            "O2" => Some(OptLevel::O2),
            "Os" => Some(OptLevel::Os),
            _ => None,
        }
    }
}

impl fmt::Display for OptLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OptLevel::O0 => "O0",
            OptLevel::O1 => "O1",
            OptLevel::O2 => "O2",
            OptLevel::Os => "Os",
        })
    }
}

pub use cactus_cc::selection::{CheckPass, IsolatePass, LogicalPass, Pass, PreemptPass};

/// The name of a check mode as the command line spells it.
pub fn mode_name(mode: CheckMode) -> &'static str {
    mode.name()
}

/// Parses `none`, `detect` or `mtss`.
pub fn parse_mode(text: &str) -> Option<CheckMode> {
    CheckMode::parse(text)
}

/// One way of building a program: an optimization level and a pass.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The optimization level GCC compiles with.
    pub opt: OptLevel,
    /// What is done to the assembly.
    pub pass: Arc<dyn Pass>,
}

impl Variant {
    /// The uninstrumented build at `opt`.
    pub fn baseline(opt: OptLevel) -> Variant {
        Variant {
            opt,
            pass: Arc::new(CheckPass {
                mode: CheckMode::None,
                rolling: true,
            }),
        }
    }

    /// `O2-detect-rolling`: unique among a case's variants, used as its directory name.
    pub fn name(&self) -> String {
        format!("{}-{}", self.opt, self.pass.name())
    }
}

/// The variants for `opts` and `modes`: at each level the baseline, and for each mode other
/// than `none` the check pass with and without rolling. The reference (`O0-none`) is always
/// first, whether or not `O0` is asked for.
pub fn variants(opts: &[OptLevel], modes: &[CheckMode]) -> Vec<Variant> {
    let mut levels: BTreeSet<OptLevel> = opts.iter().copied().collect();
    levels.insert(OptLevel::O0);
    let mut out = Vec::new();
    for opt in levels {
        out.push(Variant::baseline(opt));
        if opt == OptLevel::O0 && !opts.contains(&OptLevel::O0) {
            continue;
        }
        for &mode in modes {
            if mode == CheckMode::None {
                continue;
            }
            for rolling in [true, false] {
                out.push(Variant {
                    opt,
                    pass: Arc::new(CheckPass { mode, rolling }),
                });
            }
        }
    }
    out
}

/// The pass called `name` (as [`Pass::name`] spells it), for replaying saved cases. New passes
/// add their names here.
pub fn parse_pass(name: &str) -> Option<Arc<dyn Pass>> {
    if let Some(p) = PreemptPass::parse(name) {
        return Some(Arc::new(p));
    }
    if let Some(p) = IsolatePass::parse(name) {
        return Some(Arc::new(p));
    }
    if let Some(p) = LogicalPass::parse(name) {
        return Some(Arc::new(p));
    }
    CheckPass::parse(name).map(|p| Arc::new(p) as Arc<dyn Pass>)
}

/// One preempt-traps variant (`detect-rolling-preempt<N>`, docs/sensmart.md) per level of
/// `opts`: the detect checks with every rolling rule, then the counter at every backward
/// branch with period `period`; the fuzz runtime's `port_preempt_<reg>` reloads it.
pub fn preempt_variants(opts: &[OptLevel], period: u32) -> Vec<Variant> {
    after_detect_checks(opts, |checks| Arc::new(PreemptPass { checks, period }))
}

/// One variant per distinct level of `opts`, its pass `pass` made over the detect checks with
/// every rolling rule.
fn after_detect_checks(
    opts: &[OptLevel],
    pass: impl Fn(CheckPass) -> Arc<dyn Pass>,
) -> Vec<Variant> {
    let levels: BTreeSet<OptLevel> = opts.iter().copied().collect();
    let checks = CheckPass {
        mode: CheckMode::Detect,
        rolling: true,
    };
    levels
        .into_iter()
        .map(|opt| Variant {
            opt,
            pass: pass(checks),
        })
        .collect()
}

/// One isolate variant (`detect-rolling-isolate`, docs/sensmart.md) per level of `opts`: the
/// detect checks with every rolling rule, then the isolate pass; the fuzz runtime's
/// `isolate.S` holds the program's windows and decides the slow path exactly.
pub fn isolate_variants(opts: &[OptLevel]) -> Vec<Variant> {
    after_detect_checks(opts, |checks| Arc::new(IsolatePass { checks }))
}

/// One logical-stack variant (`detect-rolling-logical`, docs/sensmart.md "The software
/// variant") per level of `opts`: the detect checks with every rolling rule and the
/// logical-stack pass; the fuzz runtime gives the program a displacement that puts its logical
/// stack at the aperture's top, so every escaping stack address is logical and translated.
pub fn logical_variants(opts: &[OptLevel]) -> Vec<Variant> {
    after_detect_checks(opts, |checks| Arc::new(LogicalPass { checks }))
}

/// The variant called `name` (`O2-detect-rolling`), the inverse of [`Variant::name`].
pub fn parse_variant(name: &str) -> Option<Variant> {
    let (opt, pass) = name.split_once('-')?;
    Some(Variant {
        opt: OptLevel::parse(opt)?,
        pass: parse_pass(pass)?,
    })
}

/// A reserve of [`LIBGCC_RESERVE`] bytes for every function the units call (`call`/`tail`)
/// but do not define: in a fuzz build those are libgcc's, the only uninstrumented code.
pub fn libgcc_reserves(units: &[Unit]) -> Reserves {
    let mut defined = BTreeSet::new();
    let mut called = BTreeSet::new();
    for unit in units {
        for line in unit.text.lines() {
            let line = line.trim();
            if let Some(label) = line.strip_suffix(':') {
                defined.insert(label.to_string());
            }
            let mut words = line.split_whitespace();
            if let (Some("call" | "tail"), Some(target)) = (words.next(), words.next()) {
                called.insert(target.trim_end_matches("@plt").to_string());
            }
        }
    }
    called
        .difference(&defined)
        .map(|name| (name.clone(), Reserve::Bytes(LIBGCC_RESERVE)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_unique_and_reference_first() {
        let all = variants(
            &OptLevel::ALL,
            &[CheckMode::None, CheckMode::Detect, CheckMode::Mtss],
        );
        assert_eq!(all.len(), 20);
        assert_eq!(all[0].name(), "O0-none");
        let names: BTreeSet<String> = all.iter().map(Variant::name).collect();
        assert_eq!(names.len(), all.len());
        assert!(names.contains("Os-mtss-norolling"));
        for v in &all {
            assert_eq!(parse_variant(&v.name()).map(|p| p.name()), Some(v.name()));
        }
        assert!(parse_variant("O3-none").is_none());
        let only_o2 = variants(&[OptLevel::O2], &[CheckMode::Detect]);
        let names: Vec<String> = only_o2.iter().map(Variant::name).collect();
        assert_eq!(
            names,
            [
                "O0-none",
                "O2-none",
                "O2-detect-rolling",
                "O2-detect-norolling"
            ]
        );
    }

    #[test]
    fn logical_variants_are_named_and_parse_back() {
        let all = logical_variants(&[OptLevel::O2, OptLevel::O0, OptLevel::O2]);
        let names: Vec<String> = all.iter().map(Variant::name).collect();
        assert_eq!(
            names,
            ["O0-detect-rolling-logical", "O2-detect-rolling-logical"]
        );
        for v in &all {
            assert_eq!(parse_variant(&v.name()).map(|p| p.name()), Some(v.name()));
        }
        assert!(parse_variant("O2-detect-rolling-logic").is_none());
    }

    #[test]
    fn levels_and_modes_parse() {
        assert_eq!(OptLevel::parse("-Os"), Some(OptLevel::Os));
        assert_eq!(OptLevel::parse("O3"), None);
        assert_eq!(parse_mode("mtss"), Some(CheckMode::Mtss));
        assert_eq!(parse_mode("fast"), None);
    }

    #[test]
    fn reserves_cover_only_undefined_callees() {
        let unit = Unit {
            origin: "p.s".into(),
            text: "f:\n\tcall\t__divdi3\n\tcall\tg\n\ttail\tmemcpy\ng:\n\tret\n".into(),
            library: false,
        };
        let r = libgcc_reserves(&[unit]);
        assert_eq!(r.get("__divdi3"), Some(&Reserve::Bytes(LIBGCC_RESERVE)));
        assert_eq!(r.get("memcpy"), Some(&Reserve::Bytes(LIBGCC_RESERVE)));
        assert_eq!(r.get("g"), None);
    }
}
