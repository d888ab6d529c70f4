//! Basic blocks and the control-flow graph of one function.

use crate::file::{AsmFile, Item};
use crate::flow::{Callee, Flow};
use crate::function::{imm_of, Function};
use std::collections::{BTreeMap, BTreeSet};

/// A basic block: labels, then straight-line instructions, the last of which may transfer
/// control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Labels defined at the start of the block.
    pub labels: Vec<String>,
    /// Entry indices (into [`AsmFile::entries`]) of the block's instructions, including
    /// [`Item::Opaque`] inline-asm lines, in order.
    pub insts: Vec<usize>,
    /// Successor blocks (indices into [`Cfg::blocks`]), without duplicates.
    pub succs: Vec<usize>,
    /// Predecessor blocks.
    pub preds: Vec<usize>,
    /// How the block ends: the flow of its last instruction ([`Flow::Next`] if it falls
    /// into a leader).
    pub end: Flow,
}

/// The control-flow graph of a function. Block 0 is the entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// The blocks in layout order.
    pub blocks: Vec<Block>,
    /// Blocks that leave the function (return, tail call, indirect jump without a jump
    /// table, or falling off the end).
    pub exits: Vec<usize>,
    /// True if some successor could not be determined (a numeric branch offset, a branch
    /// to a label outside the function, or an inline-asm line the IR does not know);
    /// analyses must then be conservative.
    pub unknown_successors: bool,
    /// Calls and tail calls: (entry index, callee, is_tail).
    pub calls: Vec<(usize, Callee, bool)>,
}

impl Cfg {
    /// Builds the CFG of `func`. Leaders are the first instruction, labels that are branch
    /// or jump-table targets (and numeric local labels), and instructions after a branch
    /// or jump. `jr` through a register other than `ra` goes to every label of the jump
    /// tables the function references (by `%hi`/`%lo`/`lla` of the table's label); with
    /// no such table it is an indirect tail call (an exit).
    pub fn build(file: &AsmFile, func: &Function) -> Cfg {
        let tables = file.jump_tables();
        let range = func.start + 1..func.end;
        let mut targets = BTreeSet::new();
        let mut table_targets = Vec::new();
        for i in range.clone() {
            if let Item::Inst(s) = &file.entries[i].item {
                match Flow::of(s) {
                    Flow::Branch(l) | Flow::Jump(l) => {
                        targets.insert(l);
                    }
                    _ => {}
                }
                if let Some(e) = imm_of(s).and_then(crate::flow::sym) {
                    if let Some(t) = tables.get(&e.text) {
                        for l in t {
                            if !table_targets.contains(l) {
                                table_targets.push(l.clone());
                            }
                        }
                    }
                }
            }
        }
        targets.extend(table_targets.iter().cloned());

        let mut blocks: Vec<Block> = vec![new_block()];
        for i in range {
            match &file.entries[i].item {
                Item::Label(l) => {
                    let numeric = l.chars().all(|c| c.is_ascii_digit());
                    if targets.contains(l) || numeric {
                        let cur = blocks.last().expect("at least one block");
                        if !cur.insts.is_empty() {
                            blocks.push(new_block());
                        }
                        blocks.last_mut().expect("block").labels.push(l.clone());
                    }
                }
                Item::Inst(s) => {
                    let flow = Flow::of(s);
                    let cur = blocks.last_mut().expect("block");
                    cur.insts.push(i);
                    if flow.ends_block() {
                        cur.end = flow;
                        blocks.push(new_block());
                    }
                }
                Item::Opaque(_) => blocks.last_mut().expect("block").insts.push(i),
                _ => {}
            }
        }
        if blocks.len() > 1
            && blocks
                .last()
                .is_some_and(|b| b.insts.is_empty() && b.labels.is_empty())
        {
            blocks.pop();
        }

        let mut label_block = BTreeMap::new();
        for (b, block) in blocks.iter().enumerate() {
            for l in &block.labels {
                label_block.insert(l.clone(), b);
            }
        }
        let mut cfg = Cfg {
            blocks,
            exits: Vec::new(),
            unknown_successors: false,
            calls: Vec::new(),
        };
        let n = cfg.blocks.len();
        for b in 0..n {
            let end = cfg.blocks[b].end.clone();
            let mut succs = Vec::new();
            let mut resolve =
                |l: &str, cfg: &mut Cfg| match resolve_label(l, b, &label_block, &cfg.blocks) {
                    Some(t) => succs.push(t),
                    None => cfg.unknown_successors = true,
                };
            match &end {
                Flow::Branch(l) | Flow::Jump(l) => resolve(l, &mut cfg),
                Flow::IndirectJump(_) if !table_targets.is_empty() => {
                    for l in &table_targets {
                        resolve(l, &mut cfg);
                    }
                }
                Flow::Unknown { .. } => cfg.unknown_successors = true,
                _ => {}
            }
            let has_opaque = cfg.blocks[b]
                .insts
                .iter()
                .any(|&i| matches!(file.entries[i].item, Item::Opaque(_)));
            cfg.unknown_successors |= has_opaque;
            if end.falls_through() {
                if b + 1 < n {
                    succs.push(b + 1);
                } else {
                    cfg.exits.push(b);
                }
            }
            if matches!(end, Flow::Return | Flow::TailCall(_))
                || (matches!(end, Flow::IndirectJump(_)) && table_targets.is_empty())
            {
                cfg.exits.push(b);
            }
            succs.dedup();
            let mut seen = BTreeSet::new();
            succs.retain(|s| seen.insert(*s));
            cfg.blocks[b].succs = succs;
        }
        for b in 0..n {
            for s in cfg.blocks[b].succs.clone() {
                cfg.blocks[s].preds.push(b);
            }
        }
        for b in &cfg.blocks {
            for &i in &b.insts {
                if let Item::Inst(s) = &file.entries[i].item {
                    match Flow::of(s) {
                        Flow::Call(c) => cfg.calls.push((i, c, false)),
                        Flow::TailCall(c) => cfg.calls.push((i, c, true)),
                        Flow::IndirectJump(r) if table_targets.is_empty() => {
                            cfg.calls.push((i, Callee::Indirect(r), true))
                        }
                        _ => {}
                    }
                }
            }
        }
        cfg
    }

    /// Whether the function makes no calls (tail calls count as calls).
    pub fn is_leaf(&self) -> bool {
        self.calls.is_empty()
    }
}

fn new_block() -> Block {
    Block {
        labels: Vec::new(),
        insts: Vec::new(),
        succs: Vec::new(),
        preds: Vec::new(),
        end: Flow::Next,
    }
}

/// The block a label names, as seen from block `from`; `1b`/`1f` are the nearest numeric
/// label `1` backward (at or before `from`) or forward (after `from`).
fn resolve_label(
    l: &str,
    from: usize,
    by_name: &BTreeMap<String, usize>,
    blocks: &[Block],
) -> Option<usize> {
    let has = |b: &Block, n: &str| b.labels.iter().any(|x| x == n);
    if let Some(n) = l
        .strip_suffix('b')
        .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
    {
        return (0..=from).rev().find(|&b| has(&blocks[b], n));
    }
    if let Some(n) = l
        .strip_suffix('f')
        .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
    {
        return (from + 1..blocks.len()).find(|&b| has(&blocks[b], n));
    }
    by_name.get(l).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg_of(body: &str) -> Cfg {
        let text = format!("\t.text\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n");
        let file = AsmFile::parse(&text, "t.s").unwrap();
        let f = &file.functions()[0];
        Cfg::build(&file, f)
    }

    #[test]
    fn loop_with_branch_and_call() {
        let c = cfg_of(
            "\taddi sp,sp,-16\n.L2:\n\tcall g\n\taddi a0,a0,-1\n\tbnez a0,.L2\n\taddi sp,sp,16\n\tret\n",
        );
        assert_eq!(c.blocks.len(), 3);
        assert_eq!(c.blocks[0].succs, vec![1]);
        assert_eq!(c.blocks[1].succs, vec![1, 2]);
        assert_eq!(c.blocks[1].preds, vec![0, 1]);
        assert_eq!(c.exits, vec![2]);
        assert!(!c.is_leaf());
        assert!(!c.unknown_successors);
    }

    #[test]
    fn jump_table_and_tail_call() {
        let text = "\t.text\n\t.type\tf, @function\nf:\n\tlui a5,%hi(.L4)\n\taddi a5,a5,%lo(.L4)\n\tjr a5\n\t.section\t.rodata\n.L4:\n\t.word\t.L3\n\t.word\t.L5\n\t.text\n.L3:\n\tret\n.L5:\n\ttail h\n\t.size\tf, .-f\n";
        let file = AsmFile::parse(text, "t.s").unwrap();
        let c = Cfg::build(&file, &file.functions()[0]);
        assert_eq!(c.blocks[0].succs, vec![1, 2]);
        assert_eq!(c.exits, vec![1, 2]);
        assert_eq!(c.calls.len(), 1);
        assert!(c.calls[0].2);
    }

    #[test]
    fn numeric_local_labels_and_indirect_tail() {
        let c = cfg_of(
            "1:\n\tlr.w a5,0(a0)\n\tbne a5,a1,1f\n\tsc.w a4,a2,0(a0)\n\tbnez a4,1b\n1:\n\tjr a5\n",
        );
        assert_eq!(c.blocks[0].succs, vec![2, 1]);
        assert_eq!(c.blocks[1].succs, vec![0, 2]);
        assert_eq!(c.exits, vec![2]);
        assert_eq!(
            c.calls,
            vec![(c.blocks[2].insts[0], Callee::Indirect(15), true)]
        );
    }
}
