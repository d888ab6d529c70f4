//! The rolling-checks optimization (MTSS section 5, profile independent): which functions
//! keep an entry check and with which effective size. Order: zero-size for leaves,
//! certainty, zero-size for the rest, limited-size (callees before callers). See
//! docs/stack-checks.md, "Implementation notes (crates/cc)".

pub use crate::needs::Context;
use crate::needs::{own_needs, Needs};
use crate::program::Program;
use cactus_asm::callgraph::Target;
use cactus_asm::dataflow::DomTree;
use std::collections::BTreeMap;

/// Why a function has or has no entry check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Check kept; the text says why it could not be removed.
    Kept(String),
    /// Removed: the function uses no stack.
    ZeroSize,
    /// Rolled into its callers, which certainly call it.
    Certainty,
    /// Rolled into its callers, its effective size being at most K.
    LimitedSize,
}

/// The decision for every function of a [`Program`].
#[derive(Clone, Debug)]
pub struct Decisions {
    /// Per function: the rule that applied.
    pub rule: Vec<Rule>,
    /// Per function: its effective size (bytes below its entry `sp` it and everything rolled
    /// into it may use).
    pub effective: Vec<u32>,
    /// Per function: the largest reserve of the uninstrumented code it calls.
    pub reserve: Vec<u32>,
    /// Conservative assumptions made (blind margins).
    pub warnings: Vec<String>,
}

impl Decisions {
    /// Whether function `f` keeps its entry check.
    pub fn checked(&self, f: usize) -> bool {
        matches!(self.rule[f], Rule::Kept(_))
    }
}

/// In `mtss` mode, certainty rolling moves at most this many bytes (a callee's E) into a
/// caller's check. A passed check entitles its task to its need below the frame until the
/// next check, and the kernel must keep that much of a switched-out task's stack (its lending
/// margin, docs/mtss.md): without a cap one large certainly-called callee makes every task's
/// margin large, and stacks lend little. Limited-size rolling is capped by K already.
pub const MTSS_ROLL_CAP: u32 = 256;

/// Decides the checks of every function of `p`.
pub fn decide(p: &Program, cx: &Context) -> Decisions {
    let n = p.funcs.len();
    let Needs {
        base,
        reserve,
        warnings,
    } = own_needs(p, cx);
    let mut d = Decider {
        p,
        cx,
        base,
        reserve,
        rule: vec![None; n],
    };
    // Leaves first (they receive nothing, so no roll can depend on them), then certainty,
    // then every function that still uses no stack, then limited-size.
    d.zero_size(true);
    d.certainty();
    d.zero_size(false);
    d.limited_size();
    let rule: Vec<Rule> = (0..n)
        .map(|f| {
            d.rule[f]
                .clone()
                .unwrap_or_else(|| Rule::Kept(d.kept_reason(f)))
        })
        .collect();
    let effective = (0..n).map(|f| d.effective(f)).collect();
    Decisions {
        rule,
        effective,
        reserve: d.reserve,
        warnings,
    }
}

struct Decider<'a> {
    p: &'a Program,
    cx: &'a Context<'a>,
    base: Vec<u32>,
    reserve: Vec<u32>,
    /// Decided removals; `None` = keeps its check (so far).
    rule: Vec<Option<Rule>>,
}

impl Decider<'_> {
    fn dynamic(&self, f: usize) -> bool {
        let i = &self.p.funcs[f];
        i.frame.dynamic || !i.stack.dynamic_sites.is_empty()
    }

    fn rolled(&self, f: usize) -> bool {
        matches!(self.rule[f], Some(Rule::Certainty | Rule::LimitedSize))
    }

    /// Why `g` may not roll into its callers at all, or `None` if it may.
    fn illegal(&self, g: usize) -> Option<String> {
        let p = self.p;
        let info = &p.funcs[g];
        let callers = &p.callers[g];
        if p.address_taken.contains(&g) {
            return Some("address taken".into());
        }
        if info.func.global && !self.cx.opts.whole_program {
            return Some("global (per-unit mode)".into());
        }
        if callers.is_empty() {
            return Some("no known caller".into());
        }
        if self.dynamic(g) {
            return Some("dynamic frame".into());
        }
        if !info.frame.exact {
            return Some("frame not understood".into());
        }
        if info.stack.save_restore {
            return Some("-msave-restore millicode".into());
        }
        if callers
            .iter()
            .any(|&c| self.dynamic(c) || !p.funcs[c].frame.exact)
        {
            return Some("a caller has a dynamic or unknown frame".into());
        }
        if p.recursive[g] && callers.iter().any(|&c| p.scc[c] != p.scc[g]) {
            return Some("recursive, called from outside its cycle".into());
        }
        None
    }

    /// Whether marking `g` rolled keeps every cycle checked: no path of rolled functions
    /// (through direct calls) leads from `g` back to `g`.
    fn acyclic_with(&self, g: usize) -> bool {
        let mut stack: Vec<usize> = self.p.graph.callees(g).into_iter().collect();
        let mut seen = vec![false; self.p.funcs.len()];
        while let Some(x) = stack.pop() {
            if x == g {
                return false;
            }
            if seen[x] || !self.rolled(x) {
                continue;
            }
            seen[x] = true;
            stack.extend(self.p.graph.callees(x));
        }
        true
    }

    /// Whether caller `c` certainly calls `g`: every call site of `g` in `c` post-dominates
    /// `c`'s entry block (the contract's wording; one such site would already suffice).
    fn certainly_calls(&self, c: usize, g: usize) -> bool {
        let info = &self.p.funcs[c];
        if info.cfg.unknown_successors || info.cfg.blocks.is_empty() {
            return false;
        }
        let pdom = DomTree::post_dominators(&info.cfg);
        self.p.graph.calls[c]
            .iter()
            .filter(|e| e.target == Target::Func(g))
            .all(|e| {
                info.cfg
                    .blocks
                    .iter()
                    .position(|b| b.insts.contains(&e.entry))
                    .is_some_and(|b| pdom.dominates(b, 0))
            })
    }

    fn certainty(&mut self) {
        if !self.cx.opts.rolling.certainty {
            return;
        }
        // Callees before callers, so a callee's E is final when the cap looks at it.
        let mut order: Vec<usize> = (0..self.p.funcs.len()).collect();
        order.sort_by_key(|&f| (self.p.scc[f], f));
        for g in order {
            if self.rule[g].is_some() || self.illegal(g).is_some() {
                continue;
            }
            if self.cx.opts.mode.relocates() && self.effective(g) > MTSS_ROLL_CAP {
                continue;
            }
            // Callers removed by zero-size carry no check to roll into.
            let all_certain = self.p.callers[g]
                .iter()
                .all(|&c| self.rule[c] != Some(Rule::ZeroSize) && self.certainly_calls(c, g));
            if all_certain && self.acyclic_with(g) {
                self.rule[g] = Some(Rule::Certainty);
            }
        }
    }

    /// Removes the checks of functions that use no stack (only leaves if `leaves_only`).
    fn zero_size(&mut self, leaves_only: bool) {
        if !self.cx.opts.rolling.zero_size {
            return;
        }
        for f in 0..self.p.funcs.len() {
            let info = &self.p.funcs[f];
            if self.rule[f].is_none()
                && (!leaves_only || info.cfg.is_leaf())
                && info.frame.exact
                && info.frame.is_zero()
                && !self.dynamic(f)
                && self.effective(f) == 0
            {
                self.rule[f] = Some(Rule::ZeroSize);
            }
        }
    }

    fn limited_size(&mut self) {
        if !self.cx.opts.rolling.limited_size {
            return;
        }
        let mut order: Vec<usize> = (0..self.p.funcs.len()).collect();
        order.sort_by_key(|&f| (self.p.scc[f], f));
        for g in order {
            if self.rule[g].is_some() || self.illegal(g).is_some() {
                continue;
            }
            let k = if self.cx.library[self.p.funcs[g].unit] {
                self.cx.opts.k_lib
            } else {
                self.cx.opts.k_app
            };
            let callers_checked = self.p.callers[g].iter().all(|&c| self.rule[c].is_none());
            if self.effective(g) <= k && callers_checked && self.acyclic_with(g) {
                self.rule[g] = Some(Rule::LimitedSize);
            }
        }
    }

    /// E(f) = own frame + max(largest reserve, largest E of a rolled callee).
    fn effective(&self, f: usize) -> u32 {
        let mut memo = BTreeMap::new();
        self.effective_memo(f, &mut memo)
    }

    fn effective_memo(&self, f: usize, memo: &mut BTreeMap<usize, u32>) -> u32 {
        if let Some(&e) = memo.get(&f) {
            return e;
        }
        let mut below = self.reserve[f];
        for c in self.p.graph.callees(f) {
            if c != f && self.rolled(c) {
                below = below.max(self.effective_memo(c, memo));
            }
        }
        let e = self.base[f].saturating_add(below);
        memo.insert(f, e);
        e
    }

    /// The reason a kept check could not be removed.
    fn kept_reason(&self, f: usize) -> String {
        if let Some(why) = self.illegal(f) {
            return why;
        }
        let rules = self.cx.opts.rolling;
        if !rules.certainty && !rules.limited_size {
            return "rolling rules off".into();
        }
        if !self.acyclic_with(f) {
            return "keeps its call cycle checked".into();
        }
        if self.p.callers[f].iter().any(|&c| self.rule[c].is_some()) {
            return "a caller has no check of its own".into();
        }
        let e = self.effective(f);
        if self.cx.opts.mode.relocates() && e > MTSS_ROLL_CAP && rules.certainty {
            let certain = self.p.callers[f]
                .iter()
                .all(|&c| self.certainly_calls(c, f));
            if certain {
                return format!("E = {e} > the mtss roll cap {MTSS_ROLL_CAP}");
            }
        }
        format!("not certainly called and E = {e} > K")
    }
}
