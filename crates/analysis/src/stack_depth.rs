//! Worst-case stack depth of every function of a program: its own static frame plus the
//! deepest callee (a tail call's callee replaces the frame), or the first reason no bound
//! exists (recursion, indirect call, dynamic frame, external callee). Callees defined outside
//! the assembly may be given depths computed from their machine code
//! ([`analyze_with_externals`], [`crate::machine`]).

use crate::machine::MachineDepth;
use cactus_asm::callgraph::Target;
use cactus_asm::{AsmFile, CallGraph, Cfg, Frame};
use std::collections::BTreeMap;
use std::fmt;

/// Why a function's stack depth has no static bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unbounded {
    /// A cycle of direct calls; the members in call order, starting where it was entered.
    Recursion(Vec<String>),
    /// `function` calls through a register.
    Indirect {
        /// The function containing the indirect call.
        function: String,
    },
    /// `function` moves `sp` by a non-constant amount (alloca / VLA).
    Dynamic {
        /// The function with the dynamic frame.
        function: String,
    },
    /// `caller` calls `name`, defined in none of the analysed files.
    External {
        /// The external symbol.
        name: String,
        /// The function that calls it.
        caller: String,
    },
    /// A callee outside the assembly whose machine code has no bound.
    Machine {
        /// The external symbol.
        name: String,
        /// Why its machine code has no bound.
        reason: String,
    },
}

impl fmt::Display for Unbounded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unbounded::Recursion(members) => write!(f, "recursion {}", members.join(" -> ")),
            Unbounded::Indirect { function } => write!(f, "indirect call in {function}"),
            Unbounded::Dynamic { function } => write!(f, "dynamic frame in {function}"),
            Unbounded::External { name, caller } => {
                write!(f, "external callee {name} (called by {caller})")
            }
            Unbounded::Machine { name, reason } => write!(f, "{name} (machine code): {reason}"),
        }
    }
}

/// Worst-case stack depth of a function, in bytes below its entry `sp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Depth {
    /// At most this many bytes, on every path through every callee.
    Bounded(u32),
    /// No static bound; the first cause found (calls in program order, depth first).
    Unbounded(Unbounded),
}

impl fmt::Display for Depth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Bounded(n) => write!(f, "{n}"),
            Depth::Unbounded(why) => write!(f, "unbounded: {why}"),
        }
    }
}

/// One function's frame, callees and worst-case depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionStack {
    /// Symbol name.
    pub name: String,
    /// Origin of the file defining it.
    pub file: String,
    /// Static frame size in bytes (see [`Frame::static_size`]).
    pub frame: u32,
    /// Whether the frame also grows by a non-constant amount.
    pub dynamic: bool,
    /// Callees in program order without duplicates: names, `*indirect` for calls through a
    /// register; tail calls are suffixed ` (tail)`.
    pub callees: Vec<String>,
    /// Worst-case depth including callees.
    pub depth: Depth,
}

/// Computes [`FunctionStack`] for every function of `files` (one program's compilation
/// units), in the order of [`CallGraph::build`]. Guarantees: a bounded depth is at least
/// the frame, and at least every non-tail callee's depth plus the frame, and every tail
/// callee's depth; a function is unbounded iff it has a dynamic frame, an indirect or
/// external call, lies on a cycle, or (transitively) calls such a function.
pub fn analyze(files: &[AsmFile]) -> Vec<FunctionStack> {
    analyze_with_externals(files, &BTreeMap::new())
}

/// Every function's recovered frame, in the order of [`CallGraph::build`]'s nodes.
pub(crate) fn recover_frames(files: &[AsmFile]) -> Vec<Frame> {
    files
        .iter()
        .flat_map(|file| {
            file.functions()
                .into_iter()
                .map(move |f| Frame::recover(file, &Cfg::build(file, &f)))
        })
        .collect()
}

/// [`analyze`], where a callee defined in none of `files` but listed in `externals` (depths
/// from machine code: libraries, hand-written assembly) counts with that depth, or makes its
/// callers [`Unbounded::Machine`]; a callee in neither is [`Unbounded::External`]. A name
/// defined in `files` always takes the assembly's depth.
pub fn analyze_with_externals(
    files: &[AsmFile],
    externals: &BTreeMap<String, MachineDepth>,
) -> Vec<FunctionStack> {
    let graph = CallGraph::build(files);
    let frames = recover_frames(files);
    let mut solver = Solver {
        graph: &graph,
        frames: &frames,
        externals,
        memo: vec![None; graph.nodes.len()],
        path: Vec::new(),
    };
    (0..graph.nodes.len())
        .map(|n| {
            let depth = solver.depth(n);
            FunctionStack {
                name: graph.nodes[n].name.clone(),
                file: files[graph.nodes[n].file].origin.clone(),
                frame: frames[n].static_size,
                dynamic: frames[n].dynamic,
                callees: callee_names(&graph, n),
                depth,
            }
        })
        .collect()
}

fn callee_names(graph: &CallGraph, n: usize) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for edge in &graph.calls[n] {
        let base = match &edge.target {
            Target::Func(t) => graph.nodes[*t].name.clone(),
            Target::External(name) => name.clone(),
            Target::Indirect => "*indirect".to_string(),
        };
        let name = if edge.tail {
            format!("{base} (tail)")
        } else {
            base
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Depth-first evaluation with memoisation; `path` holds the nodes being evaluated.
struct Solver<'a> {
    graph: &'a CallGraph,
    frames: &'a [Frame],
    externals: &'a BTreeMap<String, MachineDepth>,
    memo: Vec<Option<Depth>>,
    path: Vec<usize>,
}

impl Solver<'_> {
    fn depth(&mut self, n: usize) -> Depth {
        if let Some(d) = &self.memo[n] {
            return d.clone();
        }
        self.path.push(n);
        let d = self.compute(n);
        self.path.pop();
        self.memo[n] = Some(d.clone());
        d
    }

    fn compute(&mut self, n: usize) -> Depth {
        let name = &self.graph.nodes[n].name;
        let frame = self.frames[n].static_size;
        if self.frames[n].dynamic {
            return Depth::Unbounded(Unbounded::Dynamic {
                function: name.clone(),
            });
        }
        let mut worst = frame;
        for edge in &self.graph.calls[n] {
            let callee = match &edge.target {
                Target::Indirect => {
                    return Depth::Unbounded(Unbounded::Indirect {
                        function: name.clone(),
                    })
                }
                Target::External(ext) => match self.externals.get(ext) {
                    Some(MachineDepth::Bytes(d)) if edge.tail => {
                        worst = worst.max(*d);
                        continue;
                    }
                    Some(MachineDepth::Bytes(d)) => {
                        worst = worst.max(frame.saturating_add(*d));
                        continue;
                    }
                    Some(MachineDepth::Unbounded(reason)) => {
                        return Depth::Unbounded(Unbounded::Machine {
                            name: ext.clone(),
                            reason: reason.clone(),
                        })
                    }
                    None => {
                        return Depth::Unbounded(Unbounded::External {
                            name: ext.clone(),
                            caller: name.clone(),
                        })
                    }
                },
                Target::Func(t) => *t,
            };
            if let Some(at) = self.path.iter().position(|&p| p == callee) {
                let members = self.path[at..]
                    .iter()
                    .map(|&p| self.graph.nodes[p].name.clone())
                    .collect();
                return Depth::Unbounded(Unbounded::Recursion(members));
            }
            match self.depth(callee) {
                Depth::Unbounded(why) => return Depth::Unbounded(why),
                Depth::Bounded(d) if edge.tail => worst = worst.max(d),
                Depth::Bounded(d) => worst = worst.max(frame.saturating_add(d)),
            }
        }
        Depth::Bounded(worst)
    }
}

#[cfg(test)]
#[path = "stack_depth_tests.rs"]
mod tests;
