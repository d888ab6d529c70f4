//! The units as one program: every function with its CFG, frame and stack facts, the call
//! graph across units, which functions are address-taken, and the recursion cycles
//! (strongly connected components of the direct-call graph).

use crate::frame_end::frame_end_escapes;
use crate::noreturn::{never_returns, noreturn_calls};
use crate::refs::address_refs;
use crate::stack::StackFacts;
use cactus_asm::callgraph::{CallGraph, Target};
use cactus_asm::dataflow::{Liveness, CALLER_SAVED};
use cactus_asm::{AsmFile, Cfg, Frame, Function};
use cactus_isa::RegSet;
use std::collections::{BTreeMap, BTreeSet};

/// One function of the program.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    /// Index of its unit.
    pub unit: usize,
    /// The function's range in its unit.
    pub func: Function,
    /// Its CFG.
    pub cfg: Cfg,
    /// Its recovered frame.
    pub frame: Frame,
    /// Instruction-level stack facts.
    pub stack: StackFacts,
    /// Register liveness.
    pub live: Liveness,
}

impl FuncInfo {
    /// Registers live right after the instruction at entry index `idx` (every register if
    /// `idx` is not an instruction of the function).
    pub fn live_after(&self, file: &AsmFile, idx: usize) -> RegSet {
        for (b, block) in self.cfg.blocks.iter().enumerate() {
            if let Some(k) = block.insts.iter().position(|&i| i == idx) {
                return self.live.live_after(file, &self.cfg, b)[k];
            }
        }
        RegSet(!1)
    }
}

/// Every function of the units, indexed like [`CallGraph::nodes`].
#[derive(Clone, Debug)]
pub struct Program {
    /// Functions, unit by unit in unit order, each unit's in file order.
    pub funcs: Vec<FuncInfo>,
    /// Direct calls between them.
    pub graph: CallGraph,
    /// Functions named other than by a direct call somewhere in the units.
    pub address_taken: BTreeSet<usize>,
    /// Per unit: (entry index, symbol) of non-call references to symbols no unit defines.
    pub external_refs: Vec<Vec<(usize, String)>>,
    /// `scc[f]`: the index of `f`'s strongly connected component.
    pub scc: Vec<usize>,
    /// Whether `f` lies on a call cycle (its component has several functions, or it calls
    /// itself).
    pub recursive: Vec<bool>,
    /// `callers[g]`: the functions with a direct call or tail call to `g`.
    pub callers: Vec<BTreeSet<usize>>,
    /// `kept_live[f]`: caller-saved registers some caller keeps live across a call that
    /// reaches `f` (directly or through the functions it calls): GCC's `-fipa-ra` lets a
    /// caller rely on a same-unit callee not clobbering registers it does not touch, so
    /// checks in `f` must not use these as scratch.
    pub kept_live: Vec<RegSet>,
    /// `never_returns[f]`: no path of `f` leads back to its caller (it loops forever or ends
    /// in a call that never returns, `crate::noreturn`). Liveness treats calls into such a
    /// function as the end of the path, so registers used by the code GCC lays out after
    /// them are not live across them (and not in `kept_live`).
    pub never_returns: Vec<bool>,
    /// `frame_end[f]`: why the addresses at or above `f`'s entry `sp` that `f` makes pin its
    /// frame (`crate::frame_end`); `None` when it makes none or each only feeds comparisons.
    pub frame_end: Vec<Option<&'static str>>,
}

impl Program {
    /// Analyses `files` together.
    pub fn build(files: &[AsmFile]) -> Program {
        let graph = CallGraph::build(files);
        let mut parts = Vec::new();
        let mut local: BTreeMap<(usize, String), usize> = BTreeMap::new();
        let mut global: BTreeMap<String, usize> = BTreeMap::new();
        for (u, file) in files.iter().enumerate() {
            for func in file.functions() {
                let cfg = Cfg::build(file, &func);
                let id = parts.len();
                local.insert((u, func.name.clone()), id);
                if func.global {
                    global.entry(func.name.clone()).or_insert(id);
                }
                parts.push((u, func, cfg));
            }
        }
        let cfgs: Vec<&Cfg> = parts.iter().map(|(_, _, cfg)| cfg).collect();
        let never_returns = never_returns(files, &cfgs, &graph);
        let funcs: Vec<FuncInfo> = parts
            .into_iter()
            .enumerate()
            .map(|(f, (u, func, cfg))| {
                let file = &files[u];
                let frame = Frame::recover(file, &cfg);
                let stack = StackFacts::analyse(file, &cfg);
                let live = Liveness::compute_noreturn(
                    file,
                    &cfg,
                    noreturn_calls(&graph, f, &never_returns),
                );
                FuncInfo {
                    unit: u,
                    func,
                    cfg,
                    frame,
                    stack,
                    live,
                }
            })
            .collect();
        let mut address_taken = BTreeSet::new();
        let mut external_refs = vec![Vec::new(); files.len()];
        for (u, file) in files.iter().enumerate() {
            for (i, name) in address_refs(file) {
                let target = local.get(&(u, name.clone())).or_else(|| global.get(&name));
                match target {
                    Some(&f) => {
                        address_taken.insert(f);
                    }
                    None if !name.starts_with(".L") => external_refs[u].push((i, name)),
                    None => {}
                }
            }
        }
        let mut callers = vec![BTreeSet::new(); funcs.len()];
        for (f, edges) in graph.calls.iter().enumerate() {
            for e in edges {
                if let Target::Func(g) = e.target {
                    callers[g].insert(f);
                }
            }
        }
        let kept_live = kept_live(files, &funcs, &graph);
        let frame_end = frame_end_escapes(files, &funcs, &graph);
        let scc = components(&graph);
        let recursive = (0..funcs.len())
            .map(|f| {
                callers[f].contains(&f)
                    || scc.iter().enumerate().any(|(g, &c)| g != f && c == scc[f])
            })
            .collect();
        Program {
            funcs,
            graph,
            address_taken,
            external_refs,
            scc,
            recursive,
            callers,
            kept_live,
            never_returns,
            frame_end,
        }
    }

    /// The function's `unit:name` for messages.
    pub fn label(&self, f: usize, origins: &[String]) -> String {
        format!(
            "{}:{}",
            origins[self.funcs[f].unit], self.funcs[f].func.name
        )
    }
}

/// Caller-saved registers live after a direct call into each function, propagated down
/// the call graph (a register a caller keeps across `call f` must survive what `f` calls).
/// Nothing is live after a call into a function that never returns (the callers' liveness
/// knows them), so such calls add nothing.
fn kept_live(files: &[AsmFile], funcs: &[FuncInfo], graph: &CallGraph) -> Vec<RegSet> {
    let mut kept = vec![RegSet::EMPTY; funcs.len()];
    for (f, info) in funcs.iter().enumerate() {
        for e in graph.calls[f].iter().filter(|e| !e.tail) {
            if let Target::Func(g) = e.target {
                let live = info.live_after(&files[info.unit], e.entry);
                kept[g] = kept[g].union(RegSet(live.0 & CALLER_SAVED.0));
            }
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for f in 0..funcs.len() {
            for g in graph.callees(f) {
                let next = kept[g].union(kept[f]);
                if next != kept[g] {
                    kept[g] = next;
                    changed = true;
                }
            }
        }
    }
    kept
}

/// Tarjan's strongly connected components of the direct-call graph (iterative).
pub fn components(graph: &CallGraph) -> Vec<usize> {
    let n = graph.nodes.len();
    let succ: Vec<Vec<usize>> = (0..n)
        .map(|f| graph.callees(f).into_iter().collect())
        .collect();
    let (mut index, mut low) = (vec![usize::MAX; n], vec![0; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let mut comp = vec![usize::MAX; n];
    let (mut next, mut ncomp) = (0, 0);
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if let Some(&w) = succ[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                work.pop();
                if let Some(&(p, _)) = work.last() {
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == index[v] {
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(name: &str, body: &str) -> String {
        format!("\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
    }

    #[test]
    fn cycles_address_taken_and_external_references() {
        let text = "\t.text\n".to_string()
            + &func("a", "\tcall b\n\tret\n")
            + &func("b", "\tcall a\n\tret\n")
            + &func("s", "\tcall s\n\tret\n")
            + &func(
                "m",
                "\tcall a\n\tlui a5,%hi(s)\n\tlui a4,%hi(puts)\n\tret\n",
            );
        let file = AsmFile::parse(&text, "t.s").unwrap();
        let p = Program::build(&[file]);
        assert_eq!(p.scc[0], p.scc[1]);
        assert_ne!(p.scc[0], p.scc[3]);
        assert_eq!(p.recursive, vec![true, true, true, false]);
        assert_eq!(p.address_taken, BTreeSet::from([2]));
        assert_eq!(p.callers[0], BTreeSet::from([1, 3]));
        let names: Vec<&str> = p.external_refs[0].iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(names, vec!["puts"]);
        // Callees are completed first: a's component number is below m's.
        assert!(p.scc[0] < p.scc[3]);
    }
}
