//! Dominator and post-dominator trees by the iterative algorithm of Cooper, Harvey and
//! Kennedy ("A Simple, Fast Dominance Algorithm").

use crate::cfg::Cfg;

/// Immediate (post-)dominators of a CFG's blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomTree {
    /// `idom[b]`: the immediate dominator of block `b`; `None` for the root and for
    /// blocks the root does not reach. For post-dominators the root is a virtual exit
    /// node with index `blocks.len()`, which immediately post-dominates every exit.
    pub idom: Vec<Option<usize>>,
    /// The root's index (0 for dominators, `blocks.len()` for post-dominators).
    pub root: usize,
}

impl DomTree {
    /// Dominators: block 0 is the root.
    pub fn dominators(cfg: &Cfg) -> DomTree {
        let succs: Vec<Vec<usize>> = cfg.blocks.iter().map(|b| b.succs.clone()).collect();
        compute(&succs, 0)
    }

    /// Post-dominators: the root is a virtual exit node (index `blocks.len()`) that
    /// every exit block flows to. Blocks that cannot reach an exit (infinite loops) have
    /// no post-dominator.
    pub fn post_dominators(cfg: &Cfg) -> DomTree {
        let n = cfg.blocks.len();
        // Reverse graph: edges from successor to predecessor; the exit node reaches exits.
        let mut rev: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (b, block) in cfg.blocks.iter().enumerate() {
            for &s in &block.succs {
                rev[s].push(b);
            }
        }
        rev[n] = cfg.exits.clone();
        compute(&rev, n)
    }

    /// Whether `a` (post-)dominates `b` (every block dominates itself). False if `b` is
    /// unreachable from the root.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        if b != self.root && self.idom.get(b).copied().flatten().is_none() {
            return false;
        }
        let mut x = b;
        loop {
            if x == a {
                return true;
            }
            match self.idom[x] {
                Some(p) => x = p,
                None => return false,
            }
        }
    }
}

/// The iterative algorithm over `succs` from `root`.
fn compute(succs: &[Vec<usize>], root: usize) -> DomTree {
    let n = succs.len();
    // Reverse postorder by iterative DFS.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(root, 0usize)];
    seen[root] = true;
    while let Some(&mut (node, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[node].get(*next) {
            *next += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(node);
            stack.pop();
        }
    }
    order.reverse();
    let mut rpo_index = vec![usize::MAX; n];
    for (i, &b) in order.iter().enumerate() {
        rpo_index[b] = i;
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        if seen[b] {
            for &s in ss {
                preds[s].push(b);
            }
        }
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    idom[root] = Some(root);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &preds[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(cur) => intersect(&idom, &rpo_index, p, cur),
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom[root] = None;
    DomTree { idom, root }
}

fn intersect(idom: &[Option<usize>], rpo: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while rpo[a] > rpo[b] {
            a = idom[a].expect("processed node has an idom");
        }
        while rpo[b] > rpo[a] {
            b = idom[b].expect("processed node has an idom");
        }
    }
    a
}
