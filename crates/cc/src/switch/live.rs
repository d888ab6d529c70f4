//! The preemption state of every instruction: the registers a task preempted right before that
//! instruction needs back when it resumes, computed over the whole program.
//!
//! Why the set is sufficient (docs/ccs.md): a register is in the state at instruction `p` of
//! function `f` if some path from `p` reads it before writing it, where a path continues past
//! `f`'s returns into what `f`'s callers still need (`exit_live(f)`), and calls are modelled by
//! what they really do:
//! - a direct call to a function of the program reads sp and the argument registers live on
//!   the callee's entry, and writes only the caller-saved registers the callee (transitively)
//!   writes, so a value a caller keeps in an untouched caller-saved register across the call
//!   (GCC's `-fipa-ra`) stays live before it; a call to a libgcc routine reads its operands
//!   ([`libgcc_args`]), one to `port_syscall` a0-a4, any other call a0-a7;
//! - a call to code outside the program (libgcc, the kernel) or through a register follows the
//!   ilp32 convention: it may write every caller-saved register;
//! - `exit_live(f)` is the union over the call sites of `f` of what is live right after them
//!   (for a tail call, the tail-calling function's own `exit_live`), solved to a fixed point
//!   from the roots: a task entry, which returns into the kernel's exit path and needs only sp
//!   and s1 (the exit function the kernel's `port_task_return_to` jumps to), and every
//!   function the program calls from elsewhere or takes the address of, which needs what the
//!   ABI promises its caller (ra, sp, gp, tp, s0-s11, a0/a1), but in a closed world
//!   ([`super::closed`]) an address-taken function only the task code can reach through a
//!   pointer, which needs the union of what is live after the task code's indirect calls;
//! - a tail call (or a jump through a register) reads ra, which the callee returns through:
//!   a tail call to code outside the program (`j memcpy`) would otherwise leave ra dead in
//!   the tail-calling function, and a resume with a stale ra sends memcpy's `ret` elsewhere;
//! - an inline-asm line the IR does not know reads every register, and a block whose
//!   successors are unknown has every register live after it.
//!
//! Every register the state omits is written before it is read on every path from `p`, so a
//! resume that leaves garbage in it cannot change what the task computes. gp and tp are never
//! part of the state (gp is constant and tp is set by every resume), sp always is.

use super::closed::ClosedWorld;
use crate::program::Program;
use cactus_asm::callgraph::Target;
use cactus_asm::dataflow::{ABI_ARGS, CALLER_SAVED, EXIT_LIVE};
use cactus_asm::{AsmFile, Flow, Item};
use cactus_isa::{Reg, RegSet};

const SP: RegSet = RegSet(1 << 2);
/// The return address, which a tail call or a jump through a register passes on.
const RA: RegSet = RegSet(1 << 1);
/// What a task entry's return needs: sp, and s1, where the kernel's context initialisation
/// puts the task's exit function for `port_task_return_to` (kernel/arch/rv32/switch.S) to jump
/// to. An entry that never touches s1 leaves it live throughout.
pub const TASK_EXIT_LIVE: RegSet = RegSet((1 << 2) | (1 << 9));
/// Every register but x0.
pub const ALL: RegSet = RegSet(!1);
/// The registers a full context switch saves: x1, x2 and x5-x31 (29).
pub const FULL_STATE: RegSet = RegSet(!1 & !(1 << 3) & !(1 << 4));

/// The preemption state of every instruction of every function.
#[derive(Clone, Debug)]
pub struct StateLiveness {
    /// `exit_live[f]`: registers `f`'s callers need intact when `f` returns.
    pub exit_live: Vec<RegSet>,
    /// `clobbers[f]`: registers `f` and what it calls may write (callee-saved ones included:
    /// a call only kills the caller-saved part).
    pub clobbers: Vec<RegSet>,
    /// `before[f][b][k]`: the state right before the `k`-th instruction of block `b` of `f`.
    pub before: Vec<Vec<Vec<RegSet>>>,
}

/// How a function is entered from outside what the analysis sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Root {
    /// A task's entry: it returns into the kernel's exit path, which needs sp and s1 kept
    /// ([`TASK_EXIT_LIVE`]).
    TaskEntry,
    /// Called by code the analysis does not see (or through a pointer): the ABI's promise.
    Abi,
}

impl StateLiveness {
    /// Solves the state of every instruction of `prog` (built from `files`). `roots` names the
    /// task entries (the caller vouches that the kernel's task table is the only other way in);
    /// every other function that is address-taken or has no caller in the program is an ABI
    /// root, but the closed ones of `world` ([`super::closed`]): their `exit_live` is the union
    /// of what every indirect call site of the functions `world` feeds needs after it.
    pub fn compute(
        files: &[AsmFile],
        prog: &Program,
        roots: &[(usize, Root)],
        world: &ClosedWorld,
    ) -> StateLiveness {
        let closed = &world.closed;
        let n = prog.funcs.len();
        let clobbers = clobbers(files, prog);
        let mut exit_live: Vec<RegSet> = (0..n)
            .map(|f| {
                if closed.contains(&f) {
                    RegSet::EMPTY
                } else if prog.address_taken.contains(&f) || prog.callers[f].is_empty() {
                    EXIT_LIVE
                } else {
                    RegSet::EMPTY
                }
            })
            .collect();
        for &(f, root) in roots {
            exit_live[f] = match root {
                Root::TaskEntry => TASK_EXIT_LIVE,
                Root::Abi => EXIT_LIVE,
            };
        }
        let mut before;
        // What a call to each function reads of a0-a7: its live-in at entry (least fixed
        // point, grown with exit_live).
        let mut args = vec![RegSet::EMPTY; n];
        loop {
            let solved = (0..n)
                .map(|f| {
                    let facts = Facts {
                        prog,
                        clobbers: &clobbers,
                        args: &args,
                        world,
                    };
                    solve(files, &facts, &exit_live, f)
                })
                .collect::<Vec<_>>();
            let live_in: Vec<Vec<RegSet>> = solved.iter().map(|s| s.0.clone()).collect();
            let next_args: Vec<RegSet> = live_in
                .iter()
                .map(|l| RegSet(l.first().map_or(0, |r| r.0) & ABI_ARGS.0))
                .collect();
            before = solved.into_iter().map(|s| s.1).collect::<Vec<_>>();
            let mut next = exit_live.clone();
            // What any indirect call site needs after it: the closed functions' exit_live.
            let mut indirect = RegSet::EMPTY;
            for (f, info) in prog.funcs.iter().enumerate() {
                if world.dead.contains(&f) {
                    continue;
                }
                for e in &prog.graph.calls[f] {
                    let need = || {
                        if e.tail {
                            exit_live[f]
                        } else {
                            after_call(info, &before[f], &live_in[f], exit_live[f], e.entry)
                        }
                    };
                    match e.target {
                        Target::Func(g) => next[g] = next[g].union(need()),
                        Target::Indirect if world.feeds.contains(&f) => {
                            indirect = indirect.union(need())
                        }
                        _ => {}
                    }
                }
            }
            for &g in closed {
                next[g] = next[g].union(indirect);
            }
            if next == exit_live && next_args == args {
                break;
            }
            exit_live = next;
            args = next_args;
        }
        StateLiveness {
            exit_live,
            clobbers,
            before,
        }
    }
}

/// What is live right after the call at entry `idx` of `info`: the state before the next
/// instruction, or the block's live-out if the call ends its block.
fn after_call(
    info: &crate::program::FuncInfo,
    before: &[Vec<RegSet>],
    live_in: &[RegSet],
    exit_live: RegSet,
    idx: usize,
) -> RegSet {
    for (b, block) in info.cfg.blocks.iter().enumerate() {
        if let Some(k) = block.insts.iter().position(|&i| i == idx) {
            if k + 1 < block.insts.len() {
                return before[b][k + 1];
            }
            return state(live_out(info, live_in, exit_live, b));
        }
    }
    ALL
}

/// Live after block `b`: every register if its successors are unknown, `exit_live` if it
/// leaves the function, and what its successors need on entry.
fn live_out(
    info: &crate::program::FuncInfo,
    live_in: &[RegSet],
    exit_live: RegSet,
    b: usize,
) -> RegSet {
    let block = &info.cfg.blocks[b];
    if matches!(block.end, Flow::Unknown { .. }) {
        return ALL;
    }
    let base = if info.cfg.exits.contains(&b) && block.succs.is_empty() {
        exit_live
    } else {
        RegSet::EMPTY
    };
    block
        .succs
        .iter()
        .fold(base, |acc, &s| acc.union(live_in[s]))
}

/// Registers each function and its callees may write (fixed point over the call graph).
fn clobbers(files: &[AsmFile], prog: &Program) -> Vec<RegSet> {
    let n = prog.funcs.len();
    let mut own = vec![RegSet::EMPTY; n];
    for (f, info) in prog.funcs.iter().enumerate() {
        let file = &files[info.unit];
        let mut w = RegSet::EMPTY;
        for (_, s) in info.func.insts(file) {
            w = w.union(s.writes());
        }
        for e in &prog.graph.calls[f] {
            if !matches!(e.target, Target::Func(_)) {
                w = w.union(CALLER_SAVED);
            }
        }
        if has_opaque(file, info) {
            w = ALL;
        }
        own[f] = w;
    }
    let mut all = own;
    let mut changed = true;
    while changed {
        changed = false;
        for f in 0..n {
            for g in prog.graph.callees(f) {
                let next = all[f].union(all[g]);
                if next != all[f] {
                    all[f] = next;
                    changed = true;
                }
            }
        }
    }
    all
}

fn has_opaque(file: &AsmFile, info: &crate::program::FuncInfo) -> bool {
    (info.func.start + 1..info.func.end).any(|i| matches!(file.entries[i].item, Item::Opaque(_)))
}

/// What the per-instruction effects depend on besides the instruction: the program, every
/// function's clobbers and argument reads (this round's), and the closed world.
#[derive(Clone, Copy)]
struct Facts<'a> {
    prog: &'a Program,
    clobbers: &'a [RegSet],
    args: &'a [RegSet],
    world: &'a ClosedWorld,
}

/// (read, written) of the instruction at entry `idx` of function `f` for the state analysis.
fn effects(
    file: &AsmFile,
    facts: &Facts,
    exit_live: RegSet,
    f: usize,
    idx: usize,
) -> (RegSet, RegSet) {
    let Facts {
        prog,
        clobbers,
        args,
        world,
    } = *facts;
    let s = match &file.entries[idx].item {
        Item::Inst(s) => s,
        Item::Opaque(_) => return (ALL, RegSet::EMPTY),
        _ => return (RegSet::EMPTY, RegSet::EMPTY),
    };
    let (r, w) = (s.reads(), s.writes());
    let target = || {
        prog.graph.calls[f]
            .iter()
            .find(|e| e.entry == idx)
            .map(|e| e.target.clone())
    };
    // The argument registers a call or tail call reads: a function of the program's own
    // live-in, a known libgcc routine's operands, else all eight.
    let reads_args = |t: &Option<Target>| match t {
        Some(Target::Func(g)) => args[*g],
        Some(Target::Indirect) if world.feeds.contains(&f) => world
            .targets
            .iter()
            .fold(RegSet::EMPTY, |acc, &g| acc.union(args[g])),
        Some(Target::External(name)) => libgcc_args(name)
            .or_else(|| kernel_asm_args(name))
            .unwrap_or(ABI_ARGS),
        _ => ABI_ARGS,
    };
    match Flow::of(s) {
        Flow::Call(_) => {
            let target = target();
            let kill = match target {
                Some(Target::Func(g)) => RegSet(clobbers[g].0 & CALLER_SAVED.0),
                _ => CALLER_SAVED,
            };
            (
                r.union(reads_args(&target)).union(SP),
                w.union(kill).union(RegSet::of(1)),
            )
        }
        // A tail call hands its callee the return address: the callee's return reads ra (a
        // callee outside the program, memcpy say, is not analysed, so ra must be read here).
        Flow::TailCall(_) => (r.union(reads_args(&target())).union(exit_live).union(RA), w),
        Flow::IndirectJump(_) => (r.union(ABI_ARGS).union(exit_live).union(RA), w),
        Flow::Return => (r.union(exit_live), w),
        _ => (r, w),
    }
}

/// Backward dataflow over `f`'s blocks; returns the live set on entry to every block and the
/// state before every instruction.
fn solve(
    files: &[AsmFile],
    facts: &Facts,
    exit_live: &[RegSet],
    f: usize,
) -> (Vec<RegSet>, Vec<Vec<RegSet>>) {
    let info = &facts.prog.funcs[f];
    let file = &files[info.unit];
    let cfg = &info.cfg;
    let exit = exit_live[f];
    let fx: Vec<Vec<(RegSet, RegSet)>> = cfg
        .blocks
        .iter()
        .map(|b| {
            b.insts
                .iter()
                .map(|&i| effects(file, facts, exit, f, i))
                .collect()
        })
        .collect();
    let n = cfg.blocks.len();
    let mut live_in = vec![RegSet::EMPTY; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut live = live_out(info, &live_in, exit, b);
            for &(r, w) in fx[b].iter().rev() {
                live = r.union(live.minus(w));
            }
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    let before = (0..n)
        .map(|b| {
            let mut live = live_out(info, &live_in, exit, b);
            let mut out = vec![RegSet::EMPTY; fx[b].len()];
            for (k, &(r, w)) in fx[b].iter().enumerate().rev() {
                live = r.union(live.minus(w));
                out[k] = state(live);
            }
            out
        })
        .collect();
    (live_in, before)
}

/// The argument registers a libgcc routine reads, by its name (GCC's libgcc ABI: a double or
/// a 64-bit integer is a register pair, a float or a 32-bit integer one register), for the
/// routines the soft-float and integer code of RV32IMAC calls; None for any other name.
pub fn libgcc_args(name: &str) -> Option<RegSet> {
    let body = name.strip_prefix("__")?;
    let a = |n: u8| RegSet((0..n).fold(0, |m, k| m | 1 << (10 + k)));
    let ops = |mode: &str| match mode {
        "df" | "di" => Some(2),
        "sf" | "si" => Some(1),
        _ => None,
    };
    // Binary arithmetic and comparisons: two operands of the mode.
    for op in [
        "add", "sub", "mul", "div", "udiv", "mod", "umod", "eq", "ne", "lt", "le", "gt", "ge",
        "unord", "cmp", "ucmp",
    ] {
        if let Some(rest) = body.strip_prefix(op) {
            let (mode, arity) = rest.split_at(rest.len().saturating_sub(1));
            if matches!(arity, "2" | "3") {
                if let Some(k) = ops(mode) {
                    return Some(a(2 * k));
                }
            }
        }
    }
    // Shifts of a 64-bit value by a 32-bit count.
    if matches!(body, "ashldi3" | "ashrdi3" | "lshrdi3") {
        return Some(a(3));
    }
    // Unary: negation, bit counts, conversions (float/fix/extend/trunc FROM the first mode).
    let unary = [
        ("neg", 2),
        ("abs", 2),
        ("clz", 2),
        ("ctz", 2),
        ("popcount", 2),
        ("bswap", 2),
        ("ffs", 2),
        ("parity", 2),
    ];
    for (op, arity) in unary {
        if let Some(mode) = body
            .strip_prefix(op)
            .and_then(|r| r.strip_suffix(char::from(b'0' + arity)))
        {
            return ops(mode).map(a);
        }
    }
    for op in ["floatun", "float", "fixuns", "fix", "extend", "trunc"] {
        if let Some(rest) = body.strip_prefix(op) {
            let rest = rest.strip_suffix('2').unwrap_or(rest);
            if rest.len() == 4 {
                return ops(&rest[..2]).map(a);
            }
        }
    }
    None
}

/// The argument registers a routine of the kernel's assembly reads, for those task code
/// reaches through the kernel's C: `port_syscall(a0, a1, a2, a3, fn)` (kernel/arch/rv32/port.h)
/// reads a0-a4 and passes a0-a3 to `fn`, a kernel function (analysed as an ABI root).
pub fn kernel_asm_args(name: &str) -> Option<RegSet> {
    match name {
        "port_syscall" => Some(RegSet(0b11111 << 10)),
        _ => None,
    }
}

/// The saved part of a live set: sp always, never x0, gp or tp.
pub fn state(live: RegSet) -> RegSet {
    RegSet(live.union(SP).0 & FULL_STATE.0)
}

/// The register numbers of a set, for messages and reports.
pub fn names(set: RegSet) -> Vec<&'static str> {
    set.iter().map(|r: Reg| cactus_isa::reg_name(r)).collect()
}
