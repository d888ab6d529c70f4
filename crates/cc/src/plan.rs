//! Where each function's checks go: the entry site (after the first `sp` decrement of the
//! entry block; at the entry when there is no usable decrement or no temporary is dead after
//! it), the dynamic-allocation sites, and, in `mtss` mode, whether
//! the frame is pinned (KIND 2) and why.

use crate::checks::{scratch, Site, KIND_DYNAMIC, KIND_ENTRY, KIND_PINNED};
use crate::program::Program;
use crate::rolling::Decisions;
use crate::CheckMode;
use cactus_asm::callgraph::Target;
use cactus_asm::{AsmFile, Item};
use cactus_isa::asm::Statement;
use cactus_isa::{Op, RegSet};

/// Registers that carry nothing into a function under the ilp32 ABI: t0, t1, t3-t6 (t2 is
/// GCC's static-chain register for nested functions, so it is left to liveness). An
/// entry-point check may use them even where liveness is conservative (inline asm).
const DEAD_AT_ENTRY: RegSet = RegSet(1 << 5 | 1 << 6 | 0xf << 28);

/// A site and the entry index it is inserted before.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Insert before this entry index.
    pub at: usize,
    /// The check.
    pub site: Site,
}

/// `f` and every function it reaches through chains of direct tail calls: they all run on
/// `f`'s entry `sp` and read `f`'s incoming-argument area.
fn tail_closure(p: &Program, f: usize) -> Vec<usize> {
    let mut seen = vec![f];
    let mut k = 0;
    while k < seen.len() {
        for e in p.graph.calls[seen[k]].iter().filter(|e| e.tail) {
            if let Target::Func(g) = e.target {
                if !seen.contains(&g) {
                    seen.push(g);
                }
            }
        }
        k += 1;
    }
    seen
}

/// Why function `f`'s frame must not be moved by MTSS, or `None` if it may be.
pub fn pin_reason(p: &Program, f: usize) -> Option<&'static str> {
    if let Some(why) = own_pin_reason(p, f) {
        return Some(why);
    }
    for t in tail_closure(p, f) {
        if t != f && own_pin_reason(p, t).is_some() {
            return Some("tail call to a pinned function");
        }
        let unknown = p.graph.calls[t]
            .iter()
            .any(|e| e.tail && !matches!(e.target, Target::Func(_)));
        if unknown {
            return Some("tail call to code whose stack arguments are unknown");
        }
    }
    None
}

/// The pin reasons found in `f`'s own code.
fn own_pin_reason(p: &Program, f: usize) -> Option<&'static str> {
    let info = &p.funcs[f];
    let s = &info.stack;
    if !info.frame.exact {
        return Some("frame not understood");
    }
    if s.save_restore {
        return Some("-msave-restore millicode");
    }
    if s.store_before_check {
        return Some("store before the check point");
    }
    if s.variadic {
        return Some("variadic (va_arg reads past the copied arguments)");
    }
    if s.incoming_pointer {
        // Unless every such address only feeds comparisons (`crate::frame_end`).
        if let Some(why) = p.frame_end[f] {
            return Some(why);
        }
    }
    None
}

/// The incoming-argument bytes a moved frame must bring along: the most any function of
/// its tail-call closure reads.
fn args_of(p: &Program, f: usize) -> u32 {
    tail_closure(p, f)
        .into_iter()
        .map(|t| p.funcs[t].frame.incoming_args)
        .max()
        .unwrap_or(0)
}

/// The index of the first entry after the function label that is not a directive or
/// comment: where an entry check goes when no decrement is usable.
fn entry_point(file: &AsmFile, start: usize, end: usize) -> usize {
    (start + 1..end)
        .find(|&i| {
            !matches!(
                file.entries[i].item,
                Item::Directive { .. } | Item::Verbatim(_)
            )
        })
        .unwrap_or(end)
}

/// Whether function `f`'s entry check is the hardware bound's alone (`cactus cc
/// --stack-bound`): its whole frame is its first `sp` decrement and it calls no uninstrumented
/// code, so the hardware refusing that decrement is the whole check.
pub fn bound_entry(p: &Program, f: usize, d: &Decisions) -> bool {
    let info = &p.funcs[f];
    matches!(info.stack.first_dec, Some((_, f1)) if info.frame.static_size == f1)
        && info.frame.exact
        && !info.stack.save_restore
        && d.reserve[f] == 0
}

/// Whether function `f` is an interrupt function (GCC's `interrupt` attribute, as a direct
/// handler is: docs/interrupts.md): it returns with `mret`, so at its entry every register
/// holds the interrupted code's value and no temporary is free for a check.
fn is_interrupt_function(file: &AsmFile, p: &Program, f: usize) -> bool {
    let info = &p.funcs[f];
    (info.func.start..info.func.end).any(
        |i| matches!(&file.entries[i].item, Item::Inst(Statement::Base(a)) if a.op == Op::Mret),
    )
}

/// The sites of function `f` under `mode`. With `hardware_bound`, an entry site whose whole
/// need is the first `sp` decrement goes right before that decrement as a bound site (no
/// instruction: the hardware refuses the decrement, `checks::Site::bound`), and every other
/// entry site goes to the entry (a check after the decrement would come too late).
pub fn sites(
    file: &AsmFile,
    p: &Program,
    f: usize,
    d: &Decisions,
    mode: CheckMode,
    hardware_bound: bool,
) -> Vec<Planned> {
    let info = &p.funcs[f];
    let kept = p.kept_live[f];
    let mut out = Vec::new();
    // An interrupt function gets no check (it would overwrite a register of the code it
    // interrupted); it runs on the kernel's interrupt stack, which the hardware bound (when
    // armed) still guards and `cactus stack-report` bounds.
    if is_interrupt_function(file, p, f) {
        return out;
    }
    // With the hardware bound every decrement needs its entry, rolled or not.
    if d.checked(f) || (hardware_bound && info.stack.first_dec.is_some()) {
        let kind = if mode.relocates() && pin_reason(p, f).is_some() {
            KIND_PINNED
        } else {
            KIND_ENTRY
        };
        let need = d.effective[f];
        let at_entry = || {
            (
                entry_point(file, info.func.start, info.func.end),
                0,
                info.live
                    .live_in
                    .first()
                    .copied()
                    .unwrap_or(RegSet(!1))
                    .minus(DEAD_AT_ENTRY),
            )
        };
        let (at, f1, live_set) = match info.stack.first_dec {
            Some((idx, f1)) if hardware_bound && bound_entry(p, f, d) => {
                out.push(Planned {
                    at: idx,
                    site: Site {
                        f1: 0,
                        need: need.max(f1),
                        args: args_of(p, f),
                        kind,
                        live: RegSet::EMPTY,
                        bound: true,
                    },
                });
                return with_dynamic(out, file, p, f, d);
            }
            // The hardware would refuse the decrement before a check after it could run.
            _ if hardware_bound => at_entry(),
            Some((idx, f1)) if info.frame.exact && !info.stack.save_restore => {
                let live = info.live_after(file, idx);
                // The scheduler may have filled every temporary before the decrement (a
                // leaf loading many globals): then the check goes to the entry, where the
                // ABI leaves them dead, and covers the whole effective size from there.
                let wanted = if need.saturating_sub(f1) > 2047 { 2 } else { 1 };
                if scratch(live.union(kept), wanted).is_some() {
                    (idx + 1, f1, live)
                } else {
                    at_entry()
                }
            }
            _ => at_entry(),
        };
        out.push(Planned {
            at,
            site: Site {
                f1,
                need: need.max(f1),
                args: args_of(p, f),
                kind,
                live: live_set.union(kept),
                bound: false,
            },
        });
    }
    with_dynamic(out, file, p, f, d)
}

/// `out` followed by the dynamic-allocation sites of function `f`.
fn with_dynamic(
    mut out: Vec<Planned>,
    file: &AsmFile,
    p: &Program,
    f: usize,
    d: &Decisions,
) -> Vec<Planned> {
    let info = &p.funcs[f];
    let kept = p.kept_live[f];
    for &idx in &info.stack.dynamic_sites {
        out.push(Planned {
            at: idx + 1,
            site: Site {
                f1: 0,
                need: d.reserve[f],
                args: 0,
                kind: KIND_DYNAMIC,
                live: info.live_after(file, idx).union(kept),
                bound: false,
            },
        });
    }
    out
}

/// Where out-of-line stubs of function `f` go: right after its last instruction.
pub fn stub_point(file: &AsmFile, p: &Program, f: usize) -> usize {
    let func = &p.funcs[f].func;
    (func.start..func.end)
        .rev()
        .find(|&i| matches!(file.entries[i].item, Item::Inst(_) | Item::Opaque(_)))
        .map_or(func.end, |i| i + 1)
}
