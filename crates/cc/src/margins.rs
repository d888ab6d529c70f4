//! The MTSS lending margin per resume point (docs/mtss.md, "A margin per resume point"): for
//! every instruction of every function, the most bytes below the `sp` there that the task
//! may still write before it executes another stack check, emitted as a table
//! (`cactus_margins`) the kernel searches by a switched-out lender's resume pc.
//!
//! A task resumed at pc P in function f, with `sp` at offset o(P) ≤ 0 from f's entry `sp`,
//! writes below its `sp` before the next check only (1) in f and the code rolled into f's
//! check (together at most E(f) = the rolling decision's effective size, below f's entry
//! `sp`), and (2) after f returns, in the callers it returns to and what is rolled into
//! them. So with R(f) = max(E(f), max over call sites c → f of R(c) − depth(c at the call)),
//! the margin at P is R(f) + o(P). A function reached through a register or from
//! uninstrumented code takes the largest R of any function making such a call; a function
//! whose `sp` is not a constant at every instruction (dynamic allocation, unknown code), or
//! that such a function may call, has no entry: the kernel then uses the firmware-wide
//! margin (the largest need of any check), which bounds every entry.

use crate::program::Program;
use cactus_asm::callgraph::Target;
use cactus_asm::{Entry, Item};

/// Table value for "no entry here": the kernel uses its firmware-wide margin.
pub const NO_MARGIN: u32 = u32::MAX;

/// Per function: R(f) (see the module documentation), or None when unknown. `e[f]` is E(f):
/// the bytes below f's entry `sp` its passed check entitles it to (the rolling decision's
/// effective size; 0 for a function whose check is the hardware bound's alone).
pub fn reach(p: &Program, e: &[u32]) -> Vec<Option<i64>> {
    let n = p.funcs.len();
    let known = |f: usize| {
        let i = &p.funcs[f];
        i.stack.sp_known && i.frame.exact && !i.stack.save_restore && !i.frame.dynamic
    };
    // Bytes below the caller's entry sp at call site `entry` of c (0 when unknown: that
    // only makes the callee's reach larger).
    let depth = |c: usize, entry: usize| -> i64 {
        p.funcs[c]
            .stack
            .sp_before
            .get(&entry)
            .map_or(0, |&o| -i64::from(o.min(0)))
    };
    let mut r: Vec<Option<i64>> = (0..n).map(|f| known(f).then(|| i64::from(e[f]))).collect();
    // Callers of each function with the call-site depth: (caller, depth).
    let mut into: Vec<Vec<(usize, i64)>> = vec![Vec::new(); n];
    let mut unknown_sites: Vec<(usize, i64)> = Vec::new();
    for c in 0..n {
        for e in &p.graph.calls[c] {
            match e.target {
                Target::Func(f) => into[f].push((c, depth(c, e.entry))),
                Target::Indirect | Target::External(_) => {
                    unknown_sites.push((c, depth(c, e.entry)))
                }
            }
        }
    }
    // Values only grow (or become unknown) and are bounded by the largest E: this ends.
    for _ in 0..=n + 1 {
        let via = |sites: &[(usize, i64)], r: &[Option<i64>]| -> Option<i64> {
            sites
                .iter()
                .try_fold(i64::MIN, |acc, &(c, dep)| r[c].map(|rc| acc.max(rc - dep)))
        };
        let unknown = via(&unknown_sites, &r);
        let mut changed = false;
        for f in 0..n {
            let Some(old) = r[f] else { continue };
            let mut new = via(&into[f], &r).map(|v| v.max(old));
            if p.address_taken.contains(&f) {
                new = match (new, unknown) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
            }
            if new != Some(old) {
                r[f] = new;
                changed = true;
            }
        }
        if !changed {
            return r;
        }
    }
    vec![None; n]
}

/// The margin table of function `f`: (entry index, margin) at every statement where the
/// margin changes, in file order, ending with [`NO_MARGIN`] at `end` (the stubs and whatever
/// follows are not covered).
pub fn ranges(p: &Program, f: usize, reach: Option<i64>, end: usize) -> Vec<(usize, u32)> {
    let info = &p.funcs[f];
    let mut out: Vec<(usize, u32)> = Vec::new();
    for (&i, &o) in info.stack.sp_before.range(info.func.start..end) {
        let m = match reach {
            Some(r) => u32::try_from((r + i64::from(o)).max(0)).unwrap_or(NO_MARGIN),
            None => NO_MARGIN,
        };
        if out.last().map(|&(_, last)| last) != Some(m) {
            out.push((i, m));
        }
    }
    if !out.is_empty() {
        out.push((end, NO_MARGIN));
    }
    out
}

/// The labels to insert (by entry index) and the table section for one function's ranges;
/// `label` names the k-th label of the unit.
pub fn emit(ranges: &[(usize, u32)], label: &dyn Fn(usize) -> String) -> Vec<(usize, Entry)> {
    ranges
        .iter()
        .enumerate()
        .map(|(k, &(at, _))| {
            (
                at,
                Entry {
                    line: 0,
                    item: Item::Label(label(k)),
                },
            )
        })
        .collect()
}

/// The `cactus_margins` section entries for `ranges` whose labels are `label(k)`: one
/// `(pc, margin)` pair of words per range, in a section linked to the function's first
/// label so that the linker orders the table like the code and drops it with the function.
pub fn table(ranges: &[(usize, u32)], label: &dyn Fn(usize) -> String) -> Vec<Entry> {
    let Some(first) = ranges.first().map(|_| label(0)) else {
        return Vec::new();
    };
    let d = |t: String| Entry {
        line: 0,
        item: Item::Directive {
            name: t.split_whitespace().next().unwrap_or("").to_string(),
            text: t,
        },
    };
    let mut out = vec![
        d(format!(
            ".pushsection\tcactus_margins,\"ao\",@progbits,{first}"
        )),
        d(".p2align\t2".to_string()),
    ];
    for (k, &(_, m)) in ranges.iter().enumerate() {
        out.push(d(format!(".word\t{}", label(k))));
        out.push(d(format!(".word\t{m}")));
    }
    out.push(d(".popsection".to_string()));
    out
}
