//! Closed-world indirect calls (docs/ccs.md, "Closed-world indirect calls"): which
//! address-taken functions are reached through pointers only by indirect calls the analysis
//! sees, so that what their callers need when they return (`exit_live`) can be the union over
//! those call sites instead of the ABI's promise.
//!
//! Guarantees: a function is returned as closed only if
//! - its address is taken (else it is not reached through a pointer) and it is not a task entry;
//! - every reference to it is an `la`/`lui`/`addi` operand or a data word of a unit that is
//!   neither the kernel library's nor the generated glue (so the kernel's assembly, which is
//!   not analysed, never gets its address from kernel C or from the task table), and none is
//!   in inline assembly the IR does not know;
//! - the task units call no code outside the program but [`pointer_free`] routines (libgcc's
//!   arithmetic, the string routines), no kernel function of [`POINTER_API`] (those that take
//!   a function pointer), name no kernel symbol but as a direct call and no symbol outside the
//!   program at all (the kernel's API returns no function pointer), and have no inline
//!   assembly that calls or jumps, so a pointer a task unit holds reaches only the indirect
//!   call sites of the task units' code that can run ([`ClosedWorld::feeds`]): the closed functions' callers.
//!
//! Otherwise the function stays an ABI root; [`ClosedWorld::off`] says why the whole program
//! fell back, if it did.

use crate::program::Program;
use crate::refs::address_refs;
use crate::switch::KERNEL_PREFIX;
use cactus_asm::callgraph::Target;
use cactus_asm::{AsmFile, Item};
use std::collections::BTreeSet;

/// Kernel functions that take a function pointer from their caller (kernel/include/cactus,
/// kernel/arch/rv32/port.h): Carousel's method calls (which hand it to the kernel's
/// assembly), interrupt handlers, software timers' callbacks, SRP jobs, the start
/// configuration's hooks, a context's entry and exit, a kernel call's function. A task unit
/// that calls one of them (or takes the address of any kernel symbol, or names a kernel data
/// symbol it might store a pointer into) could hand a pointer to code whose indirect calls are
/// not counted, so the program is not closed.
pub const POINTER_API: &[&str] = &[
    "carousel_invoke",
    "carousel_call_method",
    "cactus_irq_attach",
    "cactus_timer_init",
    "cactus_srp_main",
    "cactus_start",
    "port_context_init",
    "port_syscall",
    "port_syscall_isr",
];

/// Whether an external routine is known never to call through a pointer it is given:
/// libgcc's integer and soft-float arithmetic (`__` + lowercase name ending in a machine mode,
/// optionally an arity digit: `__adddf3`, `__mulsi3`, `__floatsidf`) and the C string and memory routines.
pub fn pointer_free(name: &str) -> bool {
    const STRING: &[&str] = &[
        "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strcmp", "strncmp", "strcpy",
        "strncpy", "strchr", "strrchr", "strcat", "strncat", "strnlen",
    ];
    if STRING.contains(&name) {
        return true;
    }
    let Some(body) = name.strip_prefix("__") else {
        return false;
    };
    let stem = body
        .strip_suffix(|c: char| c.is_ascii_digit())
        .unwrap_or(body);
    stem.chars().all(|c| c.is_ascii_lowercase())
        && ["si", "di", "ti", "sf", "df", "tf"]
            .iter()
            .any(|mode| stem.len() > mode.len() && stem.ends_with(mode))
}

/// The closed functions of a program and, when there are none because the precondition fails,
/// why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClosedWorld {
    /// The closed functions (indices into [`Program::funcs`]).
    pub closed: BTreeSet<usize>,
    /// Why the program as a whole is not closed (then `closed` is empty).
    pub off: Option<String>,
    /// The functions whose indirect call sites may call a closed function: those of the task
    /// units and the glue that can run at all (reached from a task entry or from kernel or
    /// glue code); a closed function's address never reaches kernel code.
    pub feeds: BTreeSet<usize>,
    /// The functions of the task units and the glue that cannot run (not reached as above):
    /// their call sites add nothing to their callees' `exit_live`.
    pub dead: BTreeSet<usize>,
    /// What an indirect call of [`ClosedWorld::feeds`] can reach: the address-taken functions
    /// a task unit or the glue names.
    pub targets: BTreeSet<usize>,
}

fn kernel(files: &[AsmFile], u: usize) -> bool {
    files[u].origin.starts_with(KERNEL_PREFIX)
}

/// The symbols `file` defines: its labels but local ones, and its common symbols.
fn defines(file: &AsmFile) -> impl Iterator<Item = &str> {
    file.entries.iter().filter_map(|e| match &e.item {
        Item::Label(l) if !l.starts_with(".L") => Some(l.as_str()),
        Item::Directive { name, text } if name == ".comm" || name == ".lcomm" => {
            let body = text.trim_start();
            let rest = body.split_once(char::is_whitespace).map_or("", |(_, r)| r);
            rest.split(',').next().map(str::trim)
        }
        _ => None,
    })
}

/// The closed functions of `prog` (built from `files`); `glue` is the generated unit, `entries`
/// the task entries (roots of their own).
pub fn closed_world(
    files: &[AsmFile],
    prog: &Program,
    glue: Option<usize>,
    entries: &BTreeSet<usize>,
) -> ClosedWorld {
    for (f, info) in prog.funcs.iter().enumerate() {
        if kernel(files, info.unit) || Some(info.unit) == glue {
            continue;
        }
        for e in &prog.graph.calls[f] {
            let escape = match &e.target {
                Target::External(name) if !pointer_free(name) => {
                    Some(format!("calls {name}, outside the program"))
                }
                Target::Func(g) if POINTER_API.contains(&prog.funcs[*g].func.name.as_str()) => {
                    Some(format!(
                        "calls {}, which takes a function pointer",
                        prog.funcs[*g].func.name
                    ))
                }
                _ => None,
            };
            if let Some(why) = escape {
                return ClosedWorld {
                    closed: BTreeSet::new(),
                    off: Some(format!("{} {why}", info.func.name)),
                    feeds: BTreeSet::new(),
                    dead: BTreeSet::new(),
                    targets: BTreeSet::new(),
                };
            }
        }
    }
    for (u, file) in files.iter().enumerate() {
        if kernel(files, u) || Some(u) == glue {
            continue;
        }
        let calls = |t: &str| {
            t.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| matches!(w, "call" | "tail" | "jal" | "jalr" | "jr"))
        };
        if let Some(e) = file
            .entries
            .iter()
            .find(|e| matches!(&e.item, Item::Opaque(t) if calls(t)))
        {
            return ClosedWorld {
                closed: BTreeSet::new(),
                off: Some(format!(
                    "{} line {}: inline assembly that calls or jumps",
                    file.origin, e.line
                )),
                feeds: BTreeSet::new(),
                dead: BTreeSet::new(),
                targets: BTreeSet::new(),
            };
        }
    }
    // A task unit naming a kernel symbol other than by a direct call.
    let kernel_symbols: BTreeSet<&str> = files
        .iter()
        .enumerate()
        .filter(|(u, _)| kernel(files, *u))
        .flat_map(|(_, file)| defines(file))
        .collect();
    for (u, file) in files.iter().enumerate() {
        if kernel(files, u) || Some(u) == glue {
            continue;
        }
        if let Some((_, name)) = address_refs(file)
            .into_iter()
            .find(|(_, n)| kernel_symbols.contains(n.as_str()))
        {
            return ClosedWorld {
                closed: BTreeSet::new(),
                off: Some(format!("{} names the kernel's {name}", file.origin)),
                feeds: BTreeSet::new(),
                dead: BTreeSet::new(),
                targets: BTreeSet::new(),
            };
        }
    }
    // A task unit naming a symbol no unit defines (the linker's, a library's): an indirect
    // call of the task code could then reach code whose arguments are unknown.
    let defined: BTreeSet<&str> = files.iter().flat_map(defines).collect();
    for (u, refs) in prog.external_refs.iter().enumerate() {
        if kernel(files, u) || Some(u) == glue {
            continue;
        }
        if let Some((_, name)) = refs.iter().find(|(_, n)| !defined.contains(n.as_str())) {
            return ClosedWorld {
                closed: BTreeSet::new(),
                off: Some(format!(
                    "{} names {name}, outside the program",
                    files[u].origin
                )),
                feeds: BTreeSet::new(),
                dead: BTreeSet::new(),
                targets: BTreeSet::new(),
            };
        }
    }
    // What an indirect call of the task code can reach: a function a task unit or the glue
    // names (the kernel's API hands out no function pointer).
    let mut named: BTreeSet<String> = BTreeSet::new();
    for (u, file) in files.iter().enumerate() {
        if !kernel(files, u) {
            named.extend(address_refs(file).into_iter().map(|(_, n)| n));
        }
    }
    let targets: BTreeSet<usize> = prog
        .address_taken
        .iter()
        .copied()
        .filter(|&f| named.contains(&prog.funcs[f].func.name))
        .collect();
    // Names referenced where the kernel's assembly may get them, or unknowably.
    let mut escaped: BTreeSet<String> = BTreeSet::new();
    for (u, file) in files.iter().enumerate() {
        let kernelish = kernel(files, u) || Some(u) == glue;
        for (i, name) in address_refs(file) {
            if kernelish || matches!(file.entries[i].item, Item::Opaque(_)) {
                escaped.insert(name);
            }
        }
    }
    let closed = prog
        .address_taken
        .iter()
        .copied()
        .filter(|f| !entries.contains(f))
        .filter(|&f| !escaped.contains(&prog.funcs[f].func.name))
        .collect();
    // The code that can run: the task entries, the kernel's and the glue's functions and what
    // they name, and everything these call (through a pointer: every address-taken
    // function). The kernel's assembly calls by name only kernel and glue functions (main).
    let mut feeds = BTreeSet::new();
    let mut stack: Vec<usize> = entries.iter().copied().collect();
    let task_code = |f: usize| !kernel(files, prog.funcs[f].unit);
    for (f, info) in prog.funcs.iter().enumerate() {
        if kernel(files, info.unit) || Some(info.unit) == glue || escaped.contains(&info.func.name)
        {
            stack.push(f);
        }
    }
    while let Some(f) = stack.pop() {
        if !feeds.insert(f) {
            continue;
        }
        stack.extend(prog.graph.callees(f));
        if prog.graph.calls[f]
            .iter()
            .any(|e| e.target == Target::Indirect)
        {
            if task_code(f) {
                stack.extend(targets.iter().copied());
            } else {
                stack.extend(prog.address_taken.iter().copied());
            }
        }
    }
    feeds.retain(|&f| !kernel(files, prog.funcs[f].unit));
    let dead = (0..prog.funcs.len())
        .filter(|&f| !kernel(files, prog.funcs[f].unit) && !feeds.contains(&f))
        .collect();
    ClosedWorld {
        closed,
        off: None,
        feeds,
        dead,
        targets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libgcc_and_string_routines_are_pointer_free() {
        for n in ["__adddf3", "__mulsi3", "__clzsi2", "__floatsidf", "memcpy"] {
            assert!(pointer_free(n), "{n}");
        }
        for n in [
            "qsort",
            "__libc_init",
            "__x",
            "__adddf33",
            "port_syscall",
            "bsearch",
        ] {
            assert!(!pointer_free(n), "{n}");
        }
    }
}
