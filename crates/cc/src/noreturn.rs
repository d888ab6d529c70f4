//! Which functions never return: no path from their entry reaches a return, a tail call to a
//! function that may return, an indirect jump or the end of the function, counting a call
//! into a never-returning function as the end of its path. GCC lays out whatever block comes
//! next right after such a call (`k_panic(...)` then another branch's code), so a liveness
//! that lets the call fall through sees registers live across it that nothing will ever read.

use cactus_asm::callgraph::{CallGraph, Target};
use cactus_asm::flow::{Callee, Flow};
use cactus_asm::{AsmFile, Cfg, Item};
use std::collections::{BTreeMap, BTreeSet};

/// Functions the units do not define that never return (C's and picolibc's).
pub const KNOWN_NORETURN: &[&str] = &["abort", "exit", "_exit", "_Exit", "__assert_func"];

/// `never[f]` for every function of `graph` (`cfgs[f]` its CFG, `files` the units): the
/// greatest fixed point of "every path ends in a call to a never-returning function or loops
/// forever" (a function with unknown successors or inline assembly may return).
pub fn never_returns(files: &[AsmFile], cfgs: &[&Cfg], graph: &CallGraph) -> Vec<bool> {
    let n = graph.nodes.len();
    let mut never = vec![true; n];
    let mut changed = true;
    while changed {
        changed = false;
        for f in 0..n {
            if never[f] && may_return(&files[graph.nodes[f].file], cfgs[f], graph, f, &never) {
                never[f] = false;
                changed = true;
            }
        }
    }
    never
}

/// Entry indices of function `f`'s calls (not tail calls) into a function that never returns.
pub fn noreturn_calls(graph: &CallGraph, f: usize, never: &[bool]) -> BTreeSet<usize> {
    graph.calls[f]
        .iter()
        .filter(|e| !e.tail && target_never_returns(&e.target, never))
        .map(|e| e.entry)
        .collect()
}

fn target_never_returns(t: &Target, never: &[bool]) -> bool {
    match t {
        Target::Func(g) => never[*g],
        Target::External(name) => KNOWN_NORETURN.contains(&name.as_str()),
        Target::Indirect => false,
    }
}

/// Whether some path of function `f` leaves it, given the current `never`.
fn may_return(file: &AsmFile, cfg: &Cfg, graph: &CallGraph, f: usize, never: &[bool]) -> bool {
    if cfg.unknown_successors || cfg.blocks.is_empty() {
        return true;
    }
    let targets: BTreeMap<usize, &Target> = graph.calls[f]
        .iter()
        .map(|e| (e.entry, &e.target))
        .collect();
    let stops = |i: usize| {
        targets
            .get(&i)
            .is_some_and(|t| target_never_returns(t, never))
    };
    let mut seen = vec![false; cfg.blocks.len()];
    let mut work = vec![0usize];
    while let Some(b) = work.pop() {
        if std::mem::replace(&mut seen[b], true) {
            continue;
        }
        let block = &cfg.blocks[b];
        // A call that never returns ends the path (a tail call to one too).
        let stopped = block.insts.iter().any(|&i| {
            stops(i)
                && matches!(&file.entries[i].item, Item::Inst(s)
                    if matches!(Flow::of(s), Flow::Call(Callee::Direct(_)) | Flow::TailCall(Callee::Direct(_))))
        });
        if stopped {
            continue;
        }
        if cfg.exits.contains(&b) {
            return true;
        }
        work.extend(block.succs.iter().copied());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(name: &str, body: &str) -> String {
        format!("\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
    }

    fn analyse(text: &str) -> (CallGraph, Vec<bool>) {
        let file = AsmFile::parse(text, "t.s").unwrap();
        let files = [file];
        let graph = CallGraph::build(&files);
        let cfgs: Vec<Cfg> = files[0]
            .functions()
            .iter()
            .map(|f| Cfg::build(&files[0], f))
            .collect();
        let refs: Vec<&Cfg> = cfgs.iter().collect();
        let never = never_returns(&files, &refs, &graph);
        (graph, never)
    }

    #[test]
    fn loops_known_externals_and_calls_into_them() {
        let text = "\t.text\n".to_string()
            + &func("spin", ".L1:\n\tj .L1\n")
            + &func("panic", "\tcall puts\n\tcall spin\n")
            + &func("die", "\tcall abort\n")
            + &func("tail", "\ttail panic\n")
            + &func("maybe", "\tbeqz a0,.L2\n\tcall panic\n.L2:\n\tret\n")
            + &func("ends", "\tcall puts\n")
            + &func("loop_a", "\tcall loop_b\n\tret\n")
            + &func("loop_b", "\tcall loop_a\n\tret\n")
            + &func("ind", "\tjalr a5\n\tcall spin\n");
        let (g, never) = analyse(&text);
        let names: Vec<&str> = g.nodes.iter().map(|n| n.name.as_str()).collect();
        let got: Vec<(&str, bool)> = names.iter().copied().zip(never.iter().copied()).collect();
        assert_eq!(
            got,
            vec![
                ("spin", true),
                ("panic", true),
                ("die", true),
                ("tail", true),
                ("maybe", false),
                // Falling off the end after a call that may return is a way out.
                ("ends", false),
                // Endless recursion has no way out either.
                ("loop_a", true),
                ("loop_b", true),
                ("ind", true),
            ]
        );
        assert_eq!(noreturn_calls(&g, 4, &never).len(), 1);
        assert!(
            noreturn_calls(&g, 3, &never).is_empty(),
            "tail calls are exits"
        );
    }

    #[test]
    fn opaque_inline_asm_may_return() {
        let text =
            "\t.text\n".to_string() + &func("f", "#APP\n\tmystery\n#NO_APP\n.L1:\n\tj .L1\n");
        let (_, never) = analyse(&text);
        assert_eq!(never, vec![false]);
    }
}
