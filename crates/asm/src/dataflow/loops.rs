//! Natural loops: one per header, the union of the natural loops of its back edges.

use super::dom::DomTree;
use crate::cfg::Cfg;
use std::collections::BTreeSet;

/// A natural loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The header block, which dominates every block of the loop.
    pub header: usize,
    /// Sources of back edges to the header.
    pub latches: Vec<usize>,
    /// All blocks of the loop, header included.
    pub body: BTreeSet<usize>,
}

/// The natural loops of `cfg` (back edges `b -> h` with `h` dominating `b`), ordered by
/// header. Irreducible cycles (no dominating header) are not loops here.
pub fn natural_loops(cfg: &Cfg, dom: &DomTree) -> Vec<Loop> {
    let mut loops: Vec<Loop> = Vec::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for &h in &block.succs {
            if !dom.dominates(h, b) {
                continue;
            }
            let idx = match loops.iter().position(|l| l.header == h) {
                Some(i) => i,
                None => {
                    loops.push(Loop {
                        header: h,
                        latches: Vec::new(),
                        body: BTreeSet::from([h]),
                    });
                    loops.len() - 1
                }
            };
            let lp = &mut loops[idx];
            lp.latches.push(b);
            let mut stack = vec![b];
            while let Some(x) = stack.pop() {
                if lp.body.insert(x) {
                    stack.extend(cfg.blocks[x].preds.iter().copied());
                }
            }
        }
    }
    loops.sort_by_key(|l| l.header);
    loops
}
