//! Worst-case stack depth from one entry function (a task's real entry), with what the call
//! graph cannot know supplied by annotations: the targets of indirect calls and the depth of
//! recursion. Also gives the worst-case call path, from the entry to the deepest frame.

use crate::machine::MachineDepth;
use crate::stack_depth::{Depth, Unbounded};
use cactus_asm::callgraph::Target;
use cactus_asm::{AsmFile, CallGraph, Frame};
use std::collections::BTreeMap;

/// What the analysis is told beyond the code. Guarantees nothing by itself: a bound computed
/// with annotations holds only if they are true of every run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// Targets of the indirect calls (calls through a register) in a function, by the name of
    /// the function containing them; the key `"*"` gives the targets of every indirect call in
    /// a function not listed by name.
    pub calls: BTreeMap<String, Vec<String>>,
    /// At most this many activations of the function are on the stack at once (1: it never
    /// calls itself, even through others).
    pub recursion: BTreeMap<String, u32>,
}

/// An annotation naming something the program does not define.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotationError {
    /// A key of [`Annotations::calls`] or [`Annotations::recursion`] is no function of the
    /// assembly.
    #[error("{kind} annotation for {name}: no function {name} in the analysed assembly")]
    UnknownFunction {
        /// `calls` or `recursion`.
        kind: &'static str,
        /// The name given.
        name: String,
    },
    /// A listed indirect-call target is defined neither in the assembly nor in machine code.
    #[error("calls annotation for {caller}: target {target} is defined neither in the analysed assembly nor in machine code")]
    UnknownTarget {
        /// The annotated function (or `*`).
        caller: String,
        /// The target that does not exist.
        target: String,
    },
    /// A recursion bound of 0.
    #[error("recursion annotation for {name}: the bound must be at least 1")]
    ZeroRecursion {
        /// The annotated function.
        name: String,
    },
}

/// One function on a worst-case call path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Its name.
    pub function: String,
    /// Bytes below the entry's `sp` at which it is entered (its caller's frames).
    pub offset: u32,
    /// Its own static frame; for machine code, its whole depth.
    pub frame: u32,
    /// Whether its depth comes from machine code (nothing of it is expanded).
    pub machine: bool,
    /// Whether it was reached by an indirect call (an annotation's target).
    pub indirect: bool,
}

/// The worst case from one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryDepth {
    /// The depth, or why there is none.
    pub depth: Depth,
    /// For a bounded depth: the entry first, each callee on the deepest path after its caller;
    /// `depth == last.offset + last.frame`. Empty when unbounded.
    pub path: Vec<Step>,
}

/// A program (parsed assembly over machine-code depths) ready for per-entry queries.
pub struct Program<'a> {
    graph: CallGraph,
    frames: Vec<Frame>,
    externals: &'a BTreeMap<String, MachineDepth>,
}

impl<'a> Program<'a> {
    /// The call graph and frames of `files`; callees they do not define take their depth from
    /// `externals` (as in [`crate::analyze_with_externals`]).
    pub fn new(files: &[AsmFile], externals: &'a BTreeMap<String, MachineDepth>) -> Self {
        Program {
            graph: CallGraph::build(files),
            frames: crate::stack_depth::recover_frames(files),
            externals,
        }
    }

    /// Whether the assembly defines `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.graph.find(name).is_some()
    }

    /// The worst-case depth below the `sp` `entry` is called with, and the path to it, under
    /// `ann`. None if the assembly does not define `entry`. Guarantees: a bounded depth is at
    /// least that of [`crate::analyze_with_externals`] for the same function when `ann` is
    /// empty (it is the same number), and covers every call path in which no function has
    /// more activations than `ann.recursion` allows and every indirect call goes to one of
    /// its annotated targets.
    pub fn entry(
        &self,
        entry: &str,
        ann: &Annotations,
    ) -> Result<Option<EntryDepth>, AnnotationError> {
        let targets = self.resolve(ann)?;
        let Some(n) = self.graph.find(entry) else {
            return Ok(None);
        };
        let mut s = Solver {
            p: self,
            ann,
            targets: &targets,
            memo: vec![None; self.graph.nodes.len()],
            path: Vec::new(),
        };
        let (result, _) = s.depth(n);
        Ok(Some(match result {
            Ok(path) => EntryDepth {
                depth: Depth::Bounded(path.last().map_or(0, |s| s.offset + s.frame)),
                path,
            },
            Err(why) => EntryDepth {
                depth: Depth::Unbounded(why),
                path: Vec::new(),
            },
        }))
    }

    /// Every annotation resolved: indirect-call targets by caller (`*` included).
    fn resolve(&self, ann: &Annotations) -> Result<BTreeMap<String, Vec<Callee>>, AnnotationError> {
        for (name, &n) in &ann.recursion {
            if self.graph.find(name).is_none() {
                return Err(AnnotationError::UnknownFunction {
                    kind: "recursion",
                    name: name.clone(),
                });
            }
            if n == 0 {
                return Err(AnnotationError::ZeroRecursion { name: name.clone() });
            }
        }
        let mut out = BTreeMap::new();
        for (caller, list) in &ann.calls {
            if caller != "*" && self.graph.find(caller).is_none() {
                return Err(AnnotationError::UnknownFunction {
                    kind: "calls",
                    name: caller.clone(),
                });
            }
            let mut callees = Vec::new();
            for t in list {
                let c = match self.graph.find(t) {
                    Some(i) => Callee::Func(i),
                    None if self.externals.contains_key(t) => Callee::Machine(t.clone()),
                    None => {
                        return Err(AnnotationError::UnknownTarget {
                            caller: caller.clone(),
                            target: t.clone(),
                        })
                    }
                };
                callees.push(c);
            }
            out.insert(caller.clone(), callees);
        }
        Ok(out)
    }
}

/// Where one call goes, once resolved.
#[derive(Clone, Debug)]
enum Callee {
    Func(usize),
    Machine(String),
}

/// A path relative to the function it starts at, or why there is none.
type PathResult = Result<Vec<Step>, Unbounded>;

struct Solver<'p, 'a> {
    p: &'p Program<'a>,
    ann: &'p Annotations,
    targets: &'p BTreeMap<String, Vec<Callee>>,
    /// Results that do not depend on the functions being evaluated above them.
    memo: Vec<Option<PathResult>>,
    /// The functions being evaluated, outermost first.
    path: Vec<usize>,
}

impl Solver<'_, '_> {
    /// `n`'s worst path and the lowest index of `self.path` its result depends on
    /// (`usize::MAX`: none, so it was memoised).
    fn depth(&mut self, n: usize) -> (PathResult, usize) {
        if let Some(r) = &self.memo[n] {
            return (r.clone(), usize::MAX);
        }
        let at = self.path.len();
        self.path.push(n);
        let (r, low) = self.compute(n);
        self.path.pop();
        if low >= at {
            self.memo[n] = Some(r.clone());
            return (r, usize::MAX);
        }
        (r, low)
    }

    fn compute(&mut self, n: usize) -> (PathResult, usize) {
        let g = &self.p.graph;
        let name = &g.nodes[n].name;
        let frame = &self.p.frames[n];
        let mut low = usize::MAX;
        if frame.dynamic {
            let why = Unbounded::Dynamic {
                function: name.clone(),
            };
            return (Err(why), low);
        }
        let own = frame.static_size;
        let mut best: Vec<Step> = Vec::new();
        let mut worst = own;
        for edge in &g.calls[n] {
            let base = if edge.tail { 0 } else { own };
            let (callees, indirect): (Vec<Callee>, bool) = match &edge.target {
                Target::Func(t) => (vec![Callee::Func(*t)], false),
                Target::External(e) => (vec![Callee::Machine(e.clone())], false),
                Target::Indirect => {
                    let listed = self.targets.get(name).or_else(|| self.targets.get("*"));
                    match listed {
                        Some(list) => (list.clone(), true),
                        None => {
                            let why = Unbounded::Indirect {
                                function: name.clone(),
                            };
                            return (Err(why), low);
                        }
                    }
                }
            };
            for callee in callees {
                let sub = match callee {
                    Callee::Machine(ext) => match self.p.externals.get(&ext) {
                        Some(MachineDepth::Bytes(d)) => vec![Step {
                            function: ext.clone(),
                            offset: 0,
                            frame: *d,
                            machine: true,
                            indirect,
                        }],
                        Some(MachineDepth::Unbounded(reason)) => {
                            let why = Unbounded::Machine {
                                name: ext.clone(),
                                reason: reason.clone(),
                            };
                            return (Err(why), low);
                        }
                        None => {
                            let why = Unbounded::External {
                                name: ext.clone(),
                                caller: name.clone(),
                            };
                            return (Err(why), low);
                        }
                    },
                    Callee::Func(t) => {
                        if let Some(first) = self.path.iter().position(|&p| p == t) {
                            low = low.min(first);
                            match self.recursion_allows(t) {
                                Some(true) => {}
                                Some(false) => continue,
                                None => {
                                    let last =
                                        self.path.iter().rposition(|&p| p == t).unwrap_or(first);
                                    let members = self.path[last..]
                                        .iter()
                                        .map(|&p| g.nodes[p].name.clone())
                                        .collect();
                                    return (Err(Unbounded::Recursion(members)), low);
                                }
                            }
                        }
                        let (r, l) = self.depth(t);
                        low = low.min(l);
                        match r {
                            Ok(mut steps) => {
                                if let Some(first) = steps.first_mut() {
                                    first.indirect = indirect;
                                }
                                steps
                            }
                            Err(why) => return (Err(why), low),
                        }
                    }
                };
                let reach = sub.last().map_or(0, |s| s.offset + s.frame);
                if base + reach > worst {
                    worst = base + reach;
                    best = sub
                        .into_iter()
                        .map(|mut s| {
                            s.offset += base;
                            s
                        })
                        .collect();
                }
            }
        }
        let mut steps = vec![Step {
            function: name.clone(),
            offset: 0,
            frame: own,
            machine: false,
            indirect: false,
        }];
        steps.extend(best);
        (Ok(steps), low)
    }

    /// For a call to `t`, which is already being evaluated (a cycle): Some(true) to follow it
    /// (a member of the cycle has a recursion bound not yet reached), Some(false) to drop it
    /// (`t`'s own bound is reached: the call cannot happen), None when nothing bounds it.
    fn recursion_allows(&self, t: usize) -> Option<bool> {
        let g = &self.p.graph;
        let count = |f: usize| self.path.iter().filter(|&&p| p == f).count() as u64;
        if let Some(&limit) = self.ann.recursion.get(&g.nodes[t].name) {
            return Some(count(t) < u64::from(limit));
        }
        let last = self.path.iter().rposition(|&p| p == t)?;
        let bounded = self.path[last..]
            .iter()
            .any(|&p| self.ann.recursion.contains_key(&g.nodes[p].name));
        bounded.then_some(true)
    }
}

#[cfg(test)]
#[path = "entry_tests.rs"]
mod tests;
