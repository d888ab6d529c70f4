//! The whole-program solver: resolves callees across units (global names, strong definitions
//! over weak ones, first definition in input order), evaluates each function once with
//! memoisation, detects recursion through the chain of functions being evaluated, applies
//! `.cactus.stack_depth` annotations and falls back to caller-supplied depths for names no
//! unit defines.

use super::error::MachineError;
use super::flow::{follow, Bound, Callee};
use super::unit::{Binding, Unit};
use super::value::CALLER_SAVED;
use super::{Assumptions, MachineDepth, MachineFunction};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A function: (unit index, function index).
type Id = (usize, usize);

/// The analysis of every function of `units`; names no unit defines take their depth from
/// `externals` (for example the toolchain libraries' depths), or are unresolved externals.
/// Errors only for annotations naming no function of their (relocatable) object.
/// `assume` names code that runs on another stack than its caller's and code whose calls
/// through a register are hooks counted as 0 ([`Assumptions`]).
pub fn solve(
    units: &[Unit],
    externals: &BTreeMap<String, MachineDepth>,
    assume: &Assumptions,
) -> Result<(Vec<MachineFunction>, BTreeMap<String, MachineDepth>), MachineError> {
    let mut globals: HashMap<&str, (Id, Binding)> = HashMap::new();
    let mut annotations: HashMap<Id, u32> = HashMap::new();
    for (u, unit) in units.iter().enumerate() {
        for (i, f) in unit.functions.iter().enumerate() {
            for (name, binding) in &f.names {
                if *binding == Binding::Local {
                    continue;
                }
                let replace = match globals.get(name.as_str()) {
                    None => true,
                    Some((_, old)) => *old == Binding::Weak && *binding == Binding::Global,
                };
                if replace {
                    globals.insert(name, ((u, i), *binding));
                }
            }
        }
        for (name, bytes) in &unit.annotations {
            let Some(i) = unit
                .functions
                .iter()
                .position(|f| f.names.iter().any(|(n, _)| n == name))
            else {
                if unit.linked {
                    // The linker may drop a routine but keeps the non-allocated section.
                    continue;
                }
                return Err(MachineError::Annotation {
                    origin: unit.origin.clone(),
                    entry: format!("{name} {bytes}"),
                    problem: "no function of this name in the object".into(),
                });
            };
            annotations.insert((u, i), *bytes);
        }
    }
    let mut solver = Solver {
        units,
        globals: globals.iter().map(|(n, (id, _))| (*n, *id)).collect(),
        annotations,
        externals,
        elsewhere: &assume.elsewhere,
        hooks: &assume.hooks,
        memo: HashMap::new(),
        path: Vec::new(),
    };
    let mut functions = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        for (i, f) in unit.functions.iter().enumerate() {
            let done = solver.solve((u, i));
            functions.push(MachineFunction {
                names: f.names.iter().map(|(n, _)| n.clone()).collect(),
                origin: unit.origin.clone(),
                frame: done.frame,
                callees: done.callees.clone(),
                depth: to_depth(&done.outcome),
            });
        }
    }
    let depths = globals
        .iter()
        .map(|(name, (id, _))| (name.to_string(), to_depth(&solver.memo[id].outcome)))
        .collect();
    Ok((functions, depths))
}

fn to_depth(outcome: &Result<Bound, String>) -> MachineDepth {
    match outcome {
        Ok(b) => MachineDepth::Bytes(b.depth),
        Err(why) => MachineDepth::Unbounded(why.clone()),
    }
}

/// A finished function.
#[derive(Clone)]
struct Done {
    outcome: Result<Bound, String>,
    frame: u32,
    callees: Vec<String>,
}

struct Solver<'a> {
    units: &'a [Unit],
    globals: HashMap<&'a str, Id>,
    annotations: HashMap<Id, u32>,
    externals: &'a BTreeMap<String, MachineDepth>,
    elsewhere: &'a BTreeSet<String>,
    hooks: &'a BTreeSet<String>,
    memo: HashMap<Id, Done>,
    path: Vec<Id>,
}

impl Solver<'_> {
    fn name(&self, id: Id) -> &str {
        self.units[id.0].functions[id.1].name()
    }

    fn solve(&mut self, id: Id) -> Done {
        if let Some(d) = self.memo.get(&id) {
            return d.clone();
        }
        self.path.push(id);
        let done = self.compute(id);
        self.path.pop();
        self.memo.insert(id, done.clone());
        done
    }

    fn compute(&mut self, id: Id) -> Done {
        let units = self.units;
        let unit = &units[id.0];
        let declared = self.annotations.get(&id).copied();
        let hooks_free = unit.functions[id.1]
            .names
            .iter()
            .any(|(n, _)| self.hooks.contains(n));
        let flow = follow(unit, id.1, declared.is_some(), hooks_free, &mut |c| {
            self.resolve(id, c)
        });
        let callees = flow
            .callees
            .iter()
            .map(|c| match c {
                Callee::Named(n) => n.clone(),
                Callee::Local(i) => unit.functions[*i].name().to_string(),
            })
            .collect();
        let outcome = match (declared, flow.outcome) {
            (Some(bytes), Ok(b)) if b.depth > bytes => Err(format!(
                "{}: .cactus.stack_depth declares {bytes} bytes but its code uses {} before \
                 switching stacks",
                self.name(id),
                b.depth
            )),
            (Some(bytes), Ok(_)) => Ok(Bound {
                depth: bytes,
                exit: Some(0),
                clobbers: CALLER_SAVED,
            }),
            (_, outcome) => outcome,
        };
        Done {
            outcome,
            frame: flow.frame,
            callees,
        }
    }

    fn resolve(&mut self, caller: Id, callee: &Callee) -> Result<Bound, String> {
        let target = match callee {
            Callee::Local(i) => (caller.0, *i),
            Callee::Named(name) => match self.globals.get(name.as_str()) {
                Some(&id) => id,
                None => {
                    return match self.externals.get(name) {
                        Some(MachineDepth::Bytes(n)) => Ok(Bound {
                            depth: *n,
                            exit: Some(0),
                            clobbers: CALLER_SAVED,
                        }),
                        Some(MachineDepth::Unbounded(why)) => Err(why.clone()),
                        None => Err(format!(
                            "unresolved external {name} (called by {})",
                            self.name(caller)
                        )),
                    }
                }
            },
        };
        let f = &self.units[target.0].functions[target.1];
        if f.names.iter().any(|(n, _)| self.elsewhere.contains(n)) {
            // Runs on another stack (the caller's stack is left as it is, and the path ends
            // there for this stack).
            return Ok(Bound {
                depth: 0,
                exit: None,
                clobbers: CALLER_SAVED,
            });
        }
        if let Some(at) = self.path.iter().position(|&p| p == target) {
            let mut cycle: Vec<&str> = self.path[at..].iter().map(|&p| self.name(p)).collect();
            cycle.push(self.name(target));
            return Err(format!("recursion {}", cycle.join(" -> ")));
        }
        self.solve(target).outcome
    }
}
