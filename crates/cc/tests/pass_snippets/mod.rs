//! Helpers of the hand-written-assembly pass tests: build units from small function
//! bodies, run the pass, read the report and the `cactus_checks` table back.

#![allow(dead_code)]

use cactus_cc::{instrument_units, CheckMode, PassOptions, Report, Reserves, RollingRules, Unit};

/// One function: `.type`, optional `.globl`, label, body, `.size`.
pub fn func(name: &str, global: bool, body: &str) -> String {
    let globl = if global {
        format!("\t.globl\t{name}\n")
    } else {
        String::new()
    };
    format!("\t.text\n\t.align\t1\n{globl}\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
}

/// A body with a frame of `size` bytes that calls `callee` (unconditionally unless `cond`).
pub fn caller_body(size: u32, callee: &str, cond: bool) -> String {
    let skip = if cond {
        "\tbeqz a0,.Lskip_{callee}\n"
    } else {
        ""
    };
    let label = if cond { ".Lskip_{callee}:\n" } else { "" };
    format!(
        "\taddi sp,sp,-{size}\n\tsw ra,{}(sp)\n{}\tcall {callee}\n{}\tlw ra,{}(sp)\n\taddi sp,sp,{size}\n\tret\n",
        size - 4,
        skip.replace("{callee}", callee),
        label.replace("{callee}", callee),
        size - 4
    )
}

/// A leaf with a frame of `size` bytes.
pub fn leaf_body(size: u32) -> String {
    format!("\taddi sp,sp,-{size}\n\tsw a0,0(sp)\n\tlw a0,0(sp)\n\taddi sp,sp,{size}\n\tret\n")
}

/// Detect mode with the given rules, other options default.
pub fn opts(rolling: RollingRules) -> PassOptions {
    PassOptions {
        mode: CheckMode::Detect,
        rolling,
        ..PassOptions::default()
    }
}

/// Instruments one application unit `t.s`; returns its text and the report.
pub fn run(text: &str, o: &PassOptions, reserves: &Reserves) -> (String, Report) {
    run_unit(text, false, o, reserves)
}

/// Instruments one unit `t.s` (library code if `library`).
pub fn run_unit(
    text: &str,
    library: bool,
    o: &PassOptions,
    reserves: &Reserves,
) -> (String, Report) {
    let units = [Unit {
        origin: "t.s".into(),
        text: text.into(),
        library,
    }];
    let (mut texts, report) = instrument_units(&units, o, reserves).expect("instrument");
    (texts.remove(0), report)
}

/// The report entry of function `name`.
pub fn entry<'r>(r: &'r Report, name: &str) -> &'r cactus_cc::FunctionReport {
    r.functions.iter().find(|f| f.name == name).expect(name)
}

/// Table entries (need, info) of the output, in order.
pub fn table(text: &str) -> Vec<(u32, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("\t.word\t.Lcactus_ovf_") {
            let word = |k: usize| {
                lines[i + k]
                    .trim_start_matches("\t.word\t")
                    .parse()
                    .unwrap()
            };
            out.push((word(2), word(3)));
        }
    }
    out
}

/// Only the certainty rule.
pub const CERTAINTY: RollingRules = RollingRules {
    certainty: true,
    zero_size: false,
    limited_size: false,
};
/// Only the limited-size rule.
pub const LIMITED: RollingRules = RollingRules {
    certainty: false,
    zero_size: false,
    limited_size: true,
};
