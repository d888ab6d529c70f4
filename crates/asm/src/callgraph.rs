//! The whole-program call graph across the compilation units of a firmware.

use crate::cfg::Cfg;
use crate::file::AsmFile;
use crate::flow::Callee;
use std::collections::{BTreeMap, BTreeSet};

/// A function of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Index of its file in the slice given to [`CallGraph::build`].
    pub file: usize,
    /// Symbol name.
    pub name: String,
    /// Whether it is `.globl`.
    pub global: bool,
}

/// Where a call goes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A function of the program (index into [`CallGraph::nodes`]).
    Func(usize),
    /// A symbol defined in none of the files (library, linker script, assembly).
    External(String),
    /// Through a register: any address-taken function may be the target.
    Indirect,
}

/// One call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallEdge {
    /// The callee.
    pub target: Target,
    /// A tail call (the caller's frame is gone when the callee runs).
    pub tail: bool,
    /// Entry index of the call instruction in the caller's file.
    pub entry: usize,
}

/// Functions of several files and their calls. Names resolve first to a function of the
/// caller's own file (static or global), then to a global function of another file; a
/// global defined twice resolves to the first file that defines it (the linker would
/// reject such a program).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallGraph {
    /// The functions, file by file in file order.
    pub nodes: Vec<Node>,
    /// Call sites of each node, in program order.
    pub calls: Vec<Vec<CallEdge>>,
}

impl CallGraph {
    /// Builds the call graph of `files`.
    pub fn build(files: &[AsmFile]) -> CallGraph {
        let mut nodes = Vec::new();
        let mut local: BTreeMap<(usize, String), usize> = BTreeMap::new();
        let mut global: BTreeMap<String, usize> = BTreeMap::new();
        let mut cfgs = Vec::new();
        for (fi, file) in files.iter().enumerate() {
            for f in file.functions() {
                let id = nodes.len();
                local.insert((fi, f.name.clone()), id);
                if f.global {
                    global.entry(f.name.clone()).or_insert(id);
                }
                cfgs.push(Cfg::build(file, &f));
                nodes.push(Node {
                    file: fi,
                    name: f.name,
                    global: f.global,
                });
            }
        }
        let calls = cfgs
            .iter()
            .zip(&nodes)
            .map(|(cfg, node)| {
                cfg.calls
                    .iter()
                    .map(|(entry, callee, tail)| {
                        let target = match callee {
                            Callee::Indirect(_) => Target::Indirect,
                            Callee::Direct(name) => {
                                let name = name.strip_suffix("@plt").unwrap_or(name);
                                local
                                    .get(&(node.file, name.to_string()))
                                    .or_else(|| global.get(name))
                                    .map_or_else(
                                        || Target::External(name.to_string()),
                                        |&i| Target::Func(i),
                                    )
                            }
                        };
                        CallEdge {
                            target,
                            tail: *tail,
                            entry: *entry,
                        }
                    })
                    .collect()
            })
            .collect();
        CallGraph { nodes, calls }
    }

    /// The node of a global function, or of the first function with that name.
    pub fn find(&self, name: &str) -> Option<usize> {
        let named = |n: &&Node| n.name == name;
        self.nodes
            .iter()
            .position(|n| named(&n) && n.global)
            .or_else(|| self.nodes.iter().position(|n| named(&n)))
    }

    /// The program functions `node` calls directly, without duplicates.
    pub fn callees(&self, node: usize) -> BTreeSet<usize> {
        self.calls[node]
            .iter()
            .filter_map(|e| match e.target {
                Target::Func(t) => Some(t),
                _ => None,
            })
            .collect()
    }

    /// Names called but defined in none of the files.
    pub fn externals(&self) -> BTreeSet<String> {
        self.calls
            .iter()
            .flatten()
            .filter_map(|e| match &e.target {
                Target::External(n) => Some(n.clone()),
                _ => None,
            })
            .collect()
    }

    /// Functions reachable from `node` through direct calls (including `node`).
    pub fn reachable(&self, node: usize) -> BTreeSet<usize> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if seen.insert(n) {
                stack.extend(self.callees(n));
            }
        }
        seen
    }

    /// Whether `node` can reach itself through direct calls (direct or mutual recursion).
    pub fn is_recursive(&self, node: usize) -> bool {
        self.callees(node)
            .into_iter()
            .any(|c| self.reachable(c).contains(&node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> AsmFile {
        AsmFile::parse(text, name).unwrap()
    }

    #[test]
    fn resolves_across_files() {
        let a = file(
            "a.s",
            "\t.text\n\t.globl\tmain\n\t.type\tmain, @function\nmain:\n\tcall helper\n\tcall putchar\n\ttail loop\n\t.size\tmain, .-main\n\t.type\tloop, @function\nloop:\n\tjalr a5\n\tcall loop\n\tret\n\t.size\tloop, .-loop\n",
        );
        let b = file(
            "b.s",
            "\t.text\n\t.globl\thelper\n\t.type\thelper, @function\nhelper:\n\tret\n\t.size\thelper, .-helper\n\t.type\tloop, @function\nloop:\n\tret\n\t.size\tloop, .-loop\n",
        );
        let g = CallGraph::build(&[a, b]);
        let main = g.find("main").unwrap();
        let helper = g.find("helper").unwrap();
        assert_eq!(g.nodes[helper].file, 1);
        let loop_a = 1;
        assert_eq!(
            g.nodes[loop_a],
            Node {
                file: 0,
                name: "loop".into(),
                global: false
            }
        );
        assert_eq!(g.callees(main), BTreeSet::from([helper, loop_a]));
        assert!(g.calls[main][2].tail);
        assert_eq!(g.externals(), BTreeSet::from(["putchar".to_string()]));
        assert_eq!(g.calls[loop_a][0].target, Target::Indirect);
        assert!(g.is_recursive(loop_a) && !g.is_recursive(main));
        assert_eq!(g.reachable(main).len(), 3);
    }
}
