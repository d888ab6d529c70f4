//! Register liveness: backward dataflow over the CFG with per-instruction read and write
//! sets from the isa table, plus the ilp32 calling convention at calls and exits.

use crate::cfg::Cfg;
use crate::file::{AsmFile, Item};
use crate::flow::Flow;
use cactus_isa::{Reg, RegSet};
use std::collections::BTreeSet;

const fn set(regs: &[Reg]) -> RegSet {
    let mut bits = 0u32;
    let mut i = 0;
    while i < regs.len() {
        bits |= 1 << regs[i];
        i += 1;
    }
    RegSet(bits)
}

/// Argument registers a0-a7: a call reads them (the IR does not know the callee's arity).
pub const ABI_ARGS: RegSet = set(&[10, 11, 12, 13, 14, 15, 16, 17]);
/// Registers a call may clobber under ilp32: ra, t0-t6, a0-a7.
pub const CALLER_SAVED: RegSet = set(&[1, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31]);
/// Registers live when the function is left (return, tail call, falling off the end):
/// the return values a0/a1, `ra`, `sp`, `gp`, `tp` and the callee-saved s0-s11, whose
/// values the caller expects back.
pub const EXIT_LIVE: RegSet = set(&[
    1, 2, 3, 4, 8, 9, 10, 11, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
]);
/// Every register but x0.
const ALL: RegSet = RegSet(!1);
const SP: RegSet = set(&[2]);

/// Live registers at the start and end of every block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Liveness {
    /// Live on entry to each block.
    pub live_in: Vec<RegSet>,
    /// Live on exit from each block.
    pub live_out: Vec<RegSet>,
    /// Entry indices of calls known never to return ([`Liveness::compute_noreturn`]):
    /// nothing is live after them.
    pub noreturn: BTreeSet<usize>,
}

/// What one item reads and writes for liveness.
///
/// Calls read `sp` and a0-a7 and write every caller-saved register; returns and tail
/// calls read [`EXIT_LIVE`] (tail calls also a0-a7); inline-asm lines the IR does not
/// know read every register.
pub fn effects(item: &Item) -> (RegSet, RegSet) {
    match item {
        Item::Inst(s) => {
            let (r, w) = (s.reads(), s.writes());
            match Flow::of(s) {
                Flow::Call(_) => (r.union(ABI_ARGS).union(SP), w.union(CALLER_SAVED)),
                Flow::TailCall(_) | Flow::IndirectJump(_) => {
                    (r.union(ABI_ARGS).union(EXIT_LIVE).minus(w), w)
                }
                Flow::Return => (r.union(EXIT_LIVE), w),
                _ => (r, w),
            }
        }
        Item::Opaque(_) => (ALL, RegSet::EMPTY),
        _ => (RegSet::EMPTY, RegSet::EMPTY),
    }
}

impl Liveness {
    /// Solves liveness to a fixed point. A block without successors that is not a
    /// return has [`EXIT_LIVE`] live out; a block whose successors are unknown (numeric
    /// branch offsets) has every register live out.
    pub fn compute(file: &AsmFile, cfg: &Cfg) -> Liveness {
        Liveness::compute_noreturn(file, cfg, BTreeSet::new())
    }

    /// Like [`Liveness::compute`], where the calls at the entry indices `noreturn` never
    /// return (their callee has no path back: `abort`, a panic ending in an infinite loop):
    /// nothing is live after them, so whatever follows such a call in the layout (GCC puts
    /// the next block there) does not keep registers live before it.
    pub fn compute_noreturn(file: &AsmFile, cfg: &Cfg, noreturn: BTreeSet<usize>) -> Liveness {
        let n = cfg.blocks.len();
        let mut use_def = Vec::with_capacity(n);
        // `closed[b]`: block b ends in effect at a never-returning call.
        let mut closed = vec![false; n];
        for (bi, b) in cfg.blocks.iter().enumerate() {
            let (mut uses, mut defs) = (RegSet::EMPTY, RegSet::EMPTY);
            for &i in &b.insts {
                let (r, w) = effects(&file.entries[i].item);
                uses = uses.union(r.minus(defs));
                defs = defs.union(w);
                if noreturn.contains(&i) {
                    closed[bi] = true;
                    break;
                }
            }
            use_def.push((uses, defs));
        }
        let boundary: Vec<RegSet> = cfg
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| match &b.end {
                Flow::Unknown { .. } => ALL,
                _ if cfg.exits.contains(&i) => EXIT_LIVE,
                _ => RegSet::EMPTY,
            })
            .collect();
        let mut live_in = vec![RegSet::EMPTY; n];
        let mut live_out = vec![RegSet::EMPTY; n];
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..n).rev() {
                let out = cfg.blocks[b]
                    .succs
                    .iter()
                    .fold(boundary[b], |acc, &s| acc.union(live_in[s]));
                let (uses, defs) = use_def[b];
                let inn = if closed[b] {
                    uses
                } else {
                    uses.union(out.minus(defs))
                };
                if out != live_out[b] || inn != live_in[b] {
                    live_out[b] = out;
                    live_in[b] = inn;
                    changed = true;
                }
            }
        }
        Liveness {
            live_in,
            live_out,
            noreturn,
        }
    }

    /// Live registers after each instruction of block `b` (same order as its `insts`).
    pub fn live_after(&self, file: &AsmFile, cfg: &Cfg, b: usize) -> Vec<RegSet> {
        let insts = &cfg.blocks[b].insts;
        let mut out = vec![RegSet::EMPTY; insts.len()];
        let mut live = self.live_out[b];
        for (k, &i) in insts.iter().enumerate().rev() {
            if self.noreturn.contains(&i) {
                live = RegSet::EMPTY;
            }
            out[k] = live;
            let (r, w) = effects(&file.entries[i].item);
            live = r.union(live.minus(w));
        }
        out
    }
}
