//! Switch points and switch blocks (paper 002, section 3.2): in every loop (a hotspot), the
//! instruction with the smallest preemption state and the basic block with the smallest union
//! of states, and how far a preemption may be deferred before execution reaches the point.

use crate::program::Program;
use crate::switch::live::StateLiveness;
use cactus_asm::dataflow::{natural_loops, DomTree};
use cactus_asm::{AsmFile, Flow, Item};
use cactus_isa::RegSet;
use std::collections::BTreeMap;

/// The switch point and switch block chosen for one loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSwitch {
    /// The function (index into [`Program::funcs`]).
    pub func: usize,
    /// The loop header's first label, or `block N`.
    pub header: String,
    /// Loop nesting depth (1 = outermost loop of the function).
    pub depth: usize,
    /// Instructions in the loop body.
    pub insts: usize,
    /// Entry index of the switch point (the state is taken right before it).
    pub point: usize,
    /// The state at the switch point.
    pub point_state: RegSet,
    /// The switch block (index into the function's CFG blocks).
    pub block: usize,
    /// The union of the states of the switch block's instructions.
    pub block_state: RegSet,
    /// The largest state of any instruction of the loop.
    pub max_state: RegSet,
    /// The most instructions the loop can execute, from any of its instructions, before it
    /// reaches the switch point without leaving the loop; None when some cycle of the loop
    /// avoids the point (an inner loop or a branch around it).
    pub deferral: Option<u32>,
    /// Whether the loop calls anything (a callee's instructions are not in `deferral`).
    pub calls: bool,
}

/// The switch point and block of every loop of every function in `funcs` (indices into
/// `prog.funcs`), in function then header order.
pub fn loop_switches(
    files: &[AsmFile],
    prog: &Program,
    live: &StateLiveness,
    funcs: &[usize],
) -> Vec<LoopSwitch> {
    let mut out = Vec::new();
    for &f in funcs {
        let info = &prog.funcs[f];
        let file = &files[info.unit];
        let cfg = &info.cfg;
        let dom = DomTree::dominators(cfg);
        let loops = natural_loops(cfg, &dom);
        for lp in &loops {
            let depth = loops
                .iter()
                .filter(|o| o.body.is_superset(&lp.body))
                .count();
            let mut insts: Vec<(usize, usize, usize)> = Vec::new(); // (block, k, entry)
            for &b in &lp.body {
                for (k, &i) in cfg.blocks[b].insts.iter().enumerate() {
                    insts.push((b, k, i));
                }
            }
            if insts.is_empty() {
                continue;
            }
            let st = |&(b, k, _): &(usize, usize, usize)| live.before[f][b][k];
            let max_state = insts.iter().fold(RegSet::EMPTY, |a, x| a.union(st(x)));
            let least = insts.iter().map(|x| st(x).len()).min().unwrap_or(0);
            let mut best: Option<((usize, usize, usize), Option<u32>)> = None;
            for x in insts.iter().filter(|x| st(x).len() == least) {
                let d = deferral(cfg, &lp.body, (x.0, x.1));
                let better = match &best {
                    None => true,
                    Some((_, bd)) => match (d, *bd) {
                        (Some(a), Some(b)) => a < b,
                        (Some(_), None) => true,
                        _ => false,
                    },
                };
                if better {
                    best = Some((*x, d));
                }
            }
            let Some(((pb, pk, pi), deferral)) = best else {
                continue;
            };
            let block_states: BTreeMap<usize, RegSet> = lp
                .body
                .iter()
                .map(|&b| {
                    let u = live.before[f][b]
                        .iter()
                        .fold(RegSet::EMPTY, |a, s| a.union(*s));
                    (b, u)
                })
                .filter(|(b, _)| !cfg.blocks[*b].insts.is_empty())
                .collect();
            let (&block, &block_state) = block_states
                .iter()
                .min_by_key(|(_, s)| s.len())
                .expect("a loop with instructions has a non-empty block");
            let calls = insts.iter().any(|&(_, _, i)| match &file.entries[i].item {
                Item::Inst(s) => matches!(Flow::of(s), Flow::Call(_)),
                _ => false,
            });
            let header = cfg.blocks[lp.header]
                .labels
                .first()
                .cloned()
                .unwrap_or_else(|| format!("block {}", lp.header));
            out.push(LoopSwitch {
                func: f,
                header,
                depth,
                insts: insts.len(),
                point: pi,
                point_state: live.before[f][pb][pk],
                block,
                block_state,
                max_state,
                deferral,
                calls,
            });
        }
    }
    out
}

/// The longest run of instructions inside the loop `body` from any of its instructions to the
/// point `(block, k)` (exclusive), or None if a cycle of the loop avoids the point.
fn deferral(
    cfg: &cactus_asm::Cfg,
    body: &std::collections::BTreeSet<usize>,
    point: (usize, usize),
) -> Option<u32> {
    // Nodes: (block, k) of the loop's instructions. The longest path to the point from a node
    // is memoized; a node on the current DFS path again means a cycle without the point.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Fresh,
        Active,
        Done(Option<u32>),
    }
    let mut marks: BTreeMap<(usize, usize), Mark> = BTreeMap::new();
    fn succs(
        cfg: &cactus_asm::Cfg,
        body: &std::collections::BTreeSet<usize>,
        (b, k): (usize, usize),
    ) -> Vec<(usize, usize)> {
        if k + 1 < cfg.blocks[b].insts.len() {
            return vec![(b, k + 1)];
        }
        let mut out = Vec::new();
        for &s in &cfg.blocks[b].succs {
            if !body.contains(&s) {
                continue;
            }
            // Skip empty blocks (labels only) by following them.
            let mut t = s;
            let mut seen = 0;
            while cfg.blocks[t].insts.is_empty() && seen < cfg.blocks.len() {
                match cfg.blocks[t].succs.first() {
                    Some(&n) if body.contains(&n) => t = n,
                    _ => break,
                }
                seen += 1;
            }
            if !cfg.blocks[t].insts.is_empty() {
                out.push((t, 0));
            }
        }
        out
    }
    // Iterative DFS returning the longest distance (in instructions) to the point; None on a
    // cycle; Some(0) at the point. A node whose every successor leaves the loop reaches
    // nothing: it does not count (the loop ends, the deferral is another hotspot's).
    fn visit(
        cfg: &cactus_asm::Cfg,
        body: &std::collections::BTreeSet<usize>,
        point: (usize, usize),
        node: (usize, usize),
        marks: &mut BTreeMap<(usize, usize), Mark>,
    ) -> Result<Option<u32>, ()> {
        if node == point {
            return Ok(Some(0));
        }
        match marks.get(&node).copied().unwrap_or(Mark::Fresh) {
            Mark::Done(d) => return Ok(d),
            Mark::Active => return Err(()),
            Mark::Fresh => {}
        }
        marks.insert(node, Mark::Active);
        let mut best: Option<u32> = None;
        for s in succs(cfg, body, node) {
            if let Some(d) = visit(cfg, body, point, s, marks)? {
                best = Some(best.map_or(d + 1, |b: u32| b.max(d + 1)));
            }
        }
        marks.insert(node, Mark::Done(best));
        Ok(best)
    }
    let mut worst = 0;
    for &b in body {
        for k in 0..cfg.blocks[b].insts.len() {
            match visit(cfg, body, point, (b, k), &mut marks) {
                Ok(Some(d)) => worst = worst.max(d),
                Ok(None) => {}
                Err(()) => return None,
            }
        }
    }
    Some(worst)
}
