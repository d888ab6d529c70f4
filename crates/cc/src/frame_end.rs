//! The def-use scan that decides whether a frame whose end address is taken may still move.
//!
//! A function that sets a register to an address at or above its entry `sp` (the frame's
//! end, or a pointer into the incoming-argument area: `StackFacts::frame_end_defs`) would be
//! pinned: a move copies only the argument bytes the function is seen to read through `sp`,
//! so a load or store through such a pointer could reach past the copy, into the loan record
//! or another task's memory. GCC makes such addresses for another reason too: a loop over a
//! local array ending at the frame's end compares its cursor with the entry `sp` (telecomm's
//! `crc32_round`). This scan follows every value derived from such an address (through any
//! instruction that reads it and writes a register) and lets the frame move only if each of
//! them ends in comparisons: a branch, or `slt`/`sltu`/`slti`/`sltiu`, whose result is a
//! truth value and no address; or a direct call to a function of the program whose parameter
//! register it lands in obeys the same rule there (a greatest fixpoint over the call graph).
//! Anything else pins the frame: a load or store through it, a store of it, `sp` written
//! from it, the value still in `a0`/`a1` at a return, any argument register holding it at a
//! tail call, an indirect call or jump or a call into code no unit defines, a statement the
//! pass cannot read (inline assembly), or the address made before the check point (the value
//! would then be the frame's old place after a move). Since the frame moves only at its own
//! entry check, every such value made after the check is the moved frame's, as the cursor it
//! is compared with is: the comparisons give the same answers in the moved frame.

use crate::program::FuncInfo;
use cactus_asm::callgraph::{CallGraph, Target};
use cactus_asm::{AsmFile, Flow, Item};
use cactus_isa::{Class, Op, Reg, RegSet};
use std::collections::{BTreeMap, BTreeSet};

const SP: Reg = 2;
/// a0..a7: the argument registers of the ilp32 ABI.
const ARGS: RegSet = RegSet(0xff << 10);
/// a0, a1: the return-value registers.
const RETS: RegSet = RegSet(0b11 << 10);
/// Registers a call may clobber under the ilp32 ABI (ra, t0-t6, a0-a7).
const CALLER_SAVED: RegSet = RegSet(1 << 1 | 0b111 << 5 | 0xff << 10 | 0xf << 28);

/// A (function, argument register) pair: "does the value this parameter arrives in only
/// feed comparisons?"
type Param = (usize, Reg);

/// What a function does with the value a parameter arrives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Only compares it (and passes it to callees that only compare it).
    Compared,
    /// The same, but it may still be in these of `a0`/`a1` when the function returns: the
    /// caller keeps following them.
    Returned(RegSet),
    /// Anything else.
    Escapes,
}

/// For every function, why the addresses at or above its entry `sp` that it makes pin its
/// frame: `None` when it makes none or each of them only feeds comparisons.
pub fn frame_end_escapes(
    files: &[AsmFile],
    funcs: &[FuncInfo],
    graph: &CallGraph,
) -> Vec<Option<&'static str>> {
    // Greatest fixpoint over the parameters the scans ask about: assume each only feeds
    // comparisons (a pair met for the first time counts as true and is added), scan it, and
    // withdraw the assumption from every one a scan refutes, until nothing is added or
    // withdrawn (the pairs are finite and only go from true to false, so it ends).
    let mut params: BTreeMap<Param, Verdict> = BTreeMap::new();
    let mut asked: BTreeSet<Param> = BTreeSet::new();
    for (f, info) in funcs.iter().enumerate() {
        if info.stack.incoming_pointer {
            let _ = scan(files, funcs, graph, f, None, &params, &mut asked);
        }
    }
    loop {
        let mut changed = false;
        for q in &asked {
            if !params.contains_key(q) {
                params.insert(*q, Verdict::Compared);
                changed = true;
            }
        }
        let live: Vec<Param> = params
            .iter()
            .filter(|(_, &v)| v != Verdict::Escapes)
            .map(|(&q, _)| q)
            .collect();
        for (g, r) in live {
            let next = match (
                scan(files, funcs, graph, g, Some(r), &params, &mut asked),
                params[&(g, r)],
            ) {
                (Err(_), _) => Verdict::Escapes,
                // Once returned, always: the set only grows, as the taint it comes from.
                (Ok(back), Verdict::Returned(old)) => Verdict::Returned(old.union(back)),
                (Ok(back), _) if !back.is_empty() => Verdict::Returned(back),
                (Ok(_), old) => old,
            };
            if next != params[&(g, r)] {
                params.insert((g, r), next);
                changed = true;
            }
        }
        if !changed && asked.iter().all(|q| params.contains_key(q)) {
            break;
        }
    }
    let before = asked.len();
    let out = (0..funcs.len())
        .map(|f| {
            if !funcs[f].stack.incoming_pointer {
                return None;
            }
            if funcs[f].stack.frame_end_before_check {
                return Some("pointer into the incoming-argument area made before the check point");
            }
            scan(files, funcs, graph, f, None, &params, &mut asked).err()
        })
        .collect();
    debug_assert_eq!(
        asked.len(),
        before,
        "the fixpoint settled every pair the scans ask about"
    );
    out
}

/// Follows the values of function `f` that derive from its frame-end addresses (`param` =
/// None) or from the value its parameter register `param` arrives in; `Err` with the first
/// use that is not a comparison, else which of `a0`/`a1` may hold such a value at a return
/// (for a parameter; for the frame's own end that is an escape). A call passing such a value
/// to parameter `(g, r)` is fine if `params` says so; a pair `params` does not know is added
/// to `asked` and, until the fixpoint has settled it, assumed only compared.
fn scan(
    files: &[AsmFile],
    funcs: &[FuncInfo],
    graph: &CallGraph,
    f: usize,
    param: Option<Reg>,
    params: &BTreeMap<Param, Verdict>,
    asked: &mut BTreeSet<Param>,
) -> Result<RegSet, &'static str> {
    let info = &funcs[f];
    let file = &files[info.unit];
    let cfg = &info.cfg;
    let n = cfg.blocks.len();
    let mut returned = RegSet::EMPTY;
    if n == 0 {
        return Ok(returned);
    }
    let defs: BTreeSet<(usize, usize)> = match param {
        None => info.stack.frame_end_defs.iter().copied().collect(),
        Some(_) => BTreeSet::new(),
    };
    let edges: BTreeMap<usize, &Target> = graph.calls[f]
        .iter()
        .map(|e| (e.entry, &e.target))
        .collect();
    let mut at_start: Vec<Option<RegSet>> = vec![None; n];
    at_start[0] = Some(param.map_or(RegSet::EMPTY, RegSet::of));
    let mut work = vec![0];
    while let Some(b) = work.pop() {
        let mut taint = at_start[b].expect("queued blocks have a state");
        for &i in &cfg.blocks[b].insts {
            let stmt =
                match &file.entries[i].item {
                    Item::Inst(s) => s,
                    Item::Opaque(_) if !taint.is_empty() => return Err(
                        "pointer into the incoming-argument area reaches code the pass cannot read",
                    ),
                    _ => continue,
                };
            let reads = stmt.reads();
            let tainted_reads = RegSet(reads.0 & taint.0);
            let flow = Flow::of(stmt);
            match flow {
                // A branch compares; a jump to a label reads nothing.
                Flow::Branch(_) | Flow::Jump(_) => continue,
                Flow::Call(_) | Flow::TailCall(_) => {
                    let tail = matches!(flow, Flow::TailCall(_));
                    let passed = RegSet(taint.0 & ARGS.0);
                    if !passed.is_empty() {
                        // The function's own frame end is the entry sp of the function it
                        // tail-calls, which may move: refused (a parameter's value is a
                        // caller's frame, which no tail call moves).
                        if tail && param.is_none() {
                            return Err(
                                "pointer into the incoming-argument area passed on a tail call",
                            );
                        }
                        let Some(Target::Func(g)) = edges.get(&i).copied() else {
                            return Err("pointer into the incoming-argument area passed to code outside the program");
                        };
                        let mut back = RegSet::EMPTY;
                        for r in passed.iter() {
                            match params.get(&(*g, r)) {
                                Some(Verdict::Compared) => {}
                                Some(Verdict::Returned(regs)) => back = back.union(*regs),
                                Some(Verdict::Escapes) => return Err("pointer into the incoming-argument area passed to a callee that uses it"),
                                None => {
                                    asked.insert((*g, r));
                                }
                            }
                        }
                        if tail {
                            // The callee returns it to our caller.
                            returned = returned.union(back);
                        }
                        if !RegSet(tainted_reads.0 & !ARGS.0).is_empty() {
                            return Err("pointer into the incoming-argument area used by a call");
                        }
                        taint = taint.minus(CALLER_SAVED).union(back);
                        continue;
                    }
                    if !RegSet(tainted_reads.0 & !ARGS.0).is_empty() {
                        return Err("pointer into the incoming-argument area used by a call");
                    }
                    taint = taint.minus(CALLER_SAVED);
                    continue;
                }
                Flow::IndirectJump(_)
                    if !RegSet(taint.0 & ARGS.0).is_empty() || !tainted_reads.is_empty() =>
                {
                    return Err(
                        "pointer into the incoming-argument area passed on an indirect jump",
                    );
                }
                Flow::Return if !RegSet(taint.0 & RETS.0).is_empty() => {
                    if param.is_none() {
                        return Err("pointer into the incoming-argument area returned");
                    }
                    returned = returned.union(RegSet(taint.0 & RETS.0));
                }
                _ => {}
            }
            let insts = match stmt.expand() {
                Ok(v) => v,
                Err(_) => {
                    if !tainted_reads.is_empty() {
                        return Err("pointer into the incoming-argument area used by a symbolic instruction");
                    }
                    taint = taint.minus(stmt.writes());
                    continue;
                }
            };
            for (k, inst) in insts.iter().enumerate() {
                let read = RegSet(inst.reads().0 & taint.0);
                let class = inst.op.class();
                match class {
                    Class::Load | Class::Store | Class::Amo if !read.is_empty() => {
                        return Err(if class == Class::Store && read == RegSet::of(inst.rs2) {
                            "pointer into the incoming-argument area stored to memory"
                        } else {
                            "pointer into the incoming-argument area dereferenced"
                        });
                    }
                    Class::Jump | Class::Csr | Class::System if !read.is_empty() => {
                        return Err("pointer into the incoming-argument area used by a jump or system instruction");
                    }
                    _ => {}
                }
                let compare = class == Class::Branch
                    || matches!(inst.op, Op::Slt | Op::Sltu | Op::Slti | Op::Sltiu);
                let w = inst.writes();
                if defs.contains(&(i, k)) || (!compare && !read.is_empty()) {
                    if w.contains(SP) {
                        return Err("pointer into the incoming-argument area written to sp");
                    }
                    taint = taint.union(w);
                } else {
                    taint = taint.minus(w);
                }
            }
        }
        for &s in &cfg.blocks[b].succs {
            let next = match at_start[s] {
                None => taint,
                Some(old) => old.union(taint),
            };
            if at_start[s] != Some(next) {
                at_start[s] = Some(next);
                work.push(s);
            }
        }
    }
    Ok(returned)
}

#[cfg(test)]
mod tests {
    use crate::plan::pin_reason;
    use crate::program::Program;
    use cactus_asm::AsmFile;

    fn func(name: &str, body: &str) -> String {
        format!("\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
    }

    /// Why each named function of `text` is pinned (None: it may move).
    fn pins(text: &str, names: &[&str]) -> Vec<Option<&'static str>> {
        let file = AsmFile::parse(&format!("\t.text\n{text}"), "t.s").unwrap();
        let p = Program::build(&[file]);
        names
            .iter()
            .map(|n| {
                let f = p.funcs.iter().position(|i| i.func.name == *n).unwrap();
                pin_reason(&p, f)
            })
            .collect()
    }

    /// A leaf that fills its 64-byte local array up to the frame's end: the cursor runs from
    /// sp to the entry sp, which GCC keeps in a0 (`crc32_round`'s shape). `use_end` is what
    /// it then does with the end address besides the loop's comparison.
    fn filler(use_end: &str) -> String {
        format!(
            "\taddi sp,sp,-64\n\tmv a5,sp\n\taddi a0,sp,64\n.L1:\n\tsw zero,0(a5)\n\
             \taddi a5,a5,4\n\tbne a5,a0,.L1\n\tsltu a1,a5,a0\n{use_end}\taddi sp,sp,64\n\tli a0,0\n\tret\n"
        )
    }

    #[test]
    fn a_loop_bound_from_sp_does_not_pin() {
        assert_eq!(pins(&func("f", &filler("")), &["f"]), vec![None]);
        // Derived values that are only compared do not either.
        let f = filler("\taddi a2,a0,-4\n\tmv a3,a2\n\tbgeu a3,a5,.L1\n");
        assert_eq!(pins(&func("f", &f), &["f"]), vec![None]);
    }

    #[test]
    fn an_address_stored_dereferenced_or_returned_still_pins() {
        let stored = filler("\tlui a4,%hi(g)\n\tsw a0,%lo(g)(a4)\n");
        let read = filler("\taddi a2,a0,-8\n\tlw a1,0(a2)\n");
        let past = filler("\tlw a1,4(a0)\n");
        let returned = "\taddi sp,sp,-16\n\taddi a0,sp,16\n\taddi sp,sp,16\n\tret\n";
        let text =
            func("s", &stored) + &func("r", &read) + &func("p", &past) + &func("q", returned);
        let why = pins(&text, &["s", "r", "p", "q"]);
        assert!(why[0].unwrap().contains("used by a symbolic"), "{why:?}");
        assert!(why[1].unwrap().contains("dereferenced"), "{why:?}");
        assert!(why[2].unwrap().contains("dereferenced"), "{why:?}");
        assert!(why[3].unwrap().contains("returned"), "{why:?}");
        let plain = filler("\taddi a4,sp,16\n\tsw a0,0(a4)\n");
        assert!(pins(&func("f", &plain), &["f"])[0]
            .unwrap()
            .contains("stored"));
    }

    #[test]
    fn passed_to_an_unknown_callee_or_on_a_tail_call_still_pins() {
        let call = |callee: &str| {
            format!(
                "\taddi sp,sp,-64\n\tsw ra,60(sp)\n\tmv a1,sp\n\taddi a0,sp,64\n\tcall {callee}\n\
                 \tlw ra,60(sp)\n\taddi sp,sp,64\n\tret\n"
            )
        };
        // `ext` is defined nowhere: uninstrumented code may keep the address.
        assert!(pins(&func("f", &call("ext")), &["f"])[0]
            .unwrap()
            .contains("outside the program"));
        let indirect = call("ext").replace("call ext", "jalr a5");
        assert!(pins(&func("f", &indirect), &["f"])[0].is_some());
        let tail = "\taddi sp,sp,-16\n\taddi a0,sp,16\n\taddi sp,sp,16\n\ttail g\n";
        let text = func("g", "\tret\n") + &func("f", tail);
        assert!(pins(&text, &["f"])[0].unwrap().contains("tail call"));
    }

    #[test]
    fn a_callee_that_only_compares_it_does_not_pin_one_that_keeps_it_does() {
        let call = |callee: &str| {
            format!(
                "\taddi sp,sp,-64\n\tsw ra,60(sp)\n\tmv a0,sp\n\taddi a1,sp,64\n\tcall {callee}\n\
                 \tli a1,0\n\tlw ra,60(sp)\n\taddi sp,sp,64\n\tret\n"
            )
        };
        // (The caller clears a1: walk leaves the end there, where a 64-bit result would be,
        // so the scan follows it back into the caller.)
        // walk(p, end): zeroes p..end, comparing with end; recursing with end passes it on.
        let walk = "\tbeq a0,a1,.L9\n\tsw zero,0(a0)\n\taddi a0,a0,4\n\ttail walk\n.L9:\n\tret\n";
        let keep = "\tlui a4,%hi(g)\n\tsw a1,%lo(g)(a4)\n\tret\n";
        let deref = "\tlw a0,-4(a1)\n\tret\n";
        let via = "\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tcall keep\n\tlw ra,12(sp)\n\taddi sp,sp,16\n\tret\n";
        let text = func("walk", walk)
            + &func("keep", keep)
            + &func("deref", deref)
            + &func("via", via)
            + &func("a", &call("walk"))
            + &func("b", &call("keep"))
            + &func("c", &call("deref"))
            + &func("d", &call("via"));
        let why = pins(&text, &["a", "b", "c", "d"]);
        assert_eq!(why[0], None, "{why:?}");
        let kept = call("walk").replace("\tli a1,0\n", "");
        assert!(pins(&(func("walk", walk) + &func("a", &kept)), &["a"])[0]
            .unwrap()
            .contains("returned"));
        for w in &why[1..] {
            assert!(w.unwrap().contains("callee that uses it"), "{why:?}");
        }
    }

    #[test]
    fn an_address_made_before_the_check_point_pins() {
        // Made from the entry sp before the decrement the check follows: after a move it would
        // still be the frame's old end.
        let f = "\tmv a0,sp\n\taddi sp,sp,-64\n\tmv a5,sp\n.L1:\n\tsw zero,0(a5)\n\
                 \taddi a5,a5,4\n\tbne a5,a0,.L1\n\taddi sp,sp,64\n\tret\n";
        assert!(pins(&func("f", f), &["f"])[0]
            .unwrap()
            .contains("before the check point"));
    }
}
