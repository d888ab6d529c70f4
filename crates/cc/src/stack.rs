//! Instruction-level stack facts of one function, found by tracking `sp` and `s0` as offsets
//! from the entry `sp` through the CFG (constants tracked within a block, as the asm crate's
//! frame recovery does): where the prologue's first `sp` decrement is, which `sp` writes are
//! dynamic allocations, and the patterns that make a frame unsafe to relocate.

use cactus_asm::{AsmFile, Cfg, Item};
use cactus_isa::{Class, Inst, Op, Reg};
use std::collections::BTreeMap;

const SP: Reg = 2;
const S0: Reg = 8;
const A7: Reg = 17;

/// What the pass needs to know about a function's use of `sp`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StackFacts {
    /// The first `sp` write of the entry block, when it is a constant decrement from the
    /// entry `sp`: (entry index of the statement, bytes decremented = F1).
    pub first_dec: Option<(usize, u32)>,
    /// A store in the entry block before the first `sp` write (a save before the check
    /// point).
    pub store_before_check: bool,
    /// Entry indices of statements writing `sp` with a non-constant value (alloca, VLA).
    pub dynamic_sites: Vec<usize>,
    /// `a7` is stored just below the entry `sp`: the varargs register save area, through
    /// which `va_arg` walks on into the caller's outgoing arguments.
    pub variadic: bool,
    /// A register other than `sp`/`s0` was set to an address at or above the entry `sp` (a
    /// pointer into the incoming-argument area, or the frame's end).
    pub incoming_pointer: bool,
    /// Where such addresses are made: (entry index of the statement, position of the
    /// instruction in its expansion); the def-use scan (`crate::frame_end`) follows them.
    pub frame_end_defs: Vec<(usize, usize)>,
    /// One of them is made before the first `sp` write of the entry block, so it may hold
    /// the entry `sp` of the frame's place before a move at the check point.
    pub frame_end_before_check: bool,
    /// The function uses `-msave-restore` millicode (`__riscv_save_*`/`__riscv_restore_*`).
    pub save_restore: bool,
    /// `sp` before every instruction statement, as an offset from the entry `sp` (≤ 0 in a
    /// normal frame), by entry index; meaningful only when [`StackFacts::sp_known`].
    pub sp_before: BTreeMap<usize, i32>,
    /// Every statement's `sp` offset is a constant that is the same on every path into it
    /// (no dynamic allocation, no unknown instruction, no two paths that disagree).
    pub sp_known: bool,
    /// The lowest address below the entry `sp` (as a negative offset from it) that a store
    /// through `sp`/`s0` writes or an `addi` from them takes (the start of a local whose
    /// address is used); None when there is none.
    pub lowest_write: Option<i32>,
}

/// Tracked state: `sp` and `s0` offsets from the entry `sp`, if known.
type State = (Option<i32>, Option<i32>);

impl StackFacts {
    /// Analyses the function whose CFG is `cfg`.
    pub fn analyse(file: &AsmFile, cfg: &Cfg) -> StackFacts {
        let mut facts = StackFacts::default();
        let n = cfg.blocks.len();
        if n == 0 {
            return facts;
        }
        facts.sp_known = true;
        let mut at_start: Vec<Option<State>> = vec![None; n];
        at_start[0] = Some((Some(0), None));
        let mut work = vec![0];
        let mut entry_block_sp_written = false;
        while let Some(b) = work.pop() {
            let (mut sp, mut fp) = at_start[b].expect("queued blocks have a state");
            let mut consts: BTreeMap<Reg, i32> = BTreeMap::new();
            for &i in &cfg.blocks[b].insts {
                let Item::Inst(stmt) = &file.entries[i].item else {
                    facts.sp_known &= !matches!(file.entries[i].item, Item::Opaque(_));
                    continue;
                };
                match sp {
                    Some(o) => {
                        facts.sp_before.insert(i, o);
                    }
                    None => facts.sp_known = false,
                }
                if mentions_millicode(stmt) {
                    facts.save_restore = true;
                }
                // A call before the first decrement: the check point would come too late
                // for what that call needs, so the check goes to the entry instead.
                if b == 0 && !entry_block_sp_written && calls(stmt) {
                    entry_block_sp_written = true;
                }
                let insts = match stmt.expand() {
                    Ok(v) => v,
                    Err(_) => {
                        let w = stmt.writes();
                        if w.contains(SP) {
                            sp = None;
                            facts.dynamic_sites.push(i);
                            entry_block_sp_written |= b == 0;
                        }
                        if w.contains(S0) {
                            fp = None;
                        }
                        consts.retain(|r, _| !w.contains(*r));
                        continue;
                    }
                };
                let mut dynamic = false;
                let before = sp;
                for (k, inst) in insts.iter().enumerate() {
                    if observe(inst, sp, fp, &consts, &mut facts) {
                        facts.frame_end_defs.push((i, k));
                        facts.frame_end_before_check |= b == 0 && !entry_block_sp_written;
                    }
                    if b == 0 && !entry_block_sp_written && inst.op.class() == Class::Store {
                        facts.store_before_check = true;
                    }
                    dynamic |= step(inst, &mut sp, &mut fp, &mut consts);
                }
                if stmt.writes().contains(SP) {
                    if dynamic {
                        facts.dynamic_sites.push(i);
                    } else if b == 0 && !entry_block_sp_written {
                        if let (Some(0), Some(after)) = (before, sp) {
                            if after < 0 {
                                facts.first_dec = Some((i, after.unsigned_abs()));
                            }
                        }
                    }
                    entry_block_sp_written |= b == 0;
                }
            }
            for &s in &cfg.blocks[b].succs {
                match at_start[s] {
                    None => {
                        at_start[s] = Some((sp, fp));
                        work.push(s);
                    }
                    Some((other, _)) => facts.sp_known &= other == sp,
                }
            }
        }
        if facts.first_dec.is_none() {
            facts.store_before_check = false;
        }
        facts
    }
}

/// Whether a statement calls or tail-calls (directly or through a register).
fn calls(stmt: &cactus_isa::asm::Statement) -> bool {
    use cactus_asm::Flow;
    matches!(
        Flow::of(stmt),
        Flow::Call(_) | Flow::TailCall(_) | Flow::IndirectJump(_)
    )
}

/// Whether a statement names `-msave-restore` millicode.
fn mentions_millicode(stmt: &cactus_isa::asm::Statement) -> bool {
    let text = stmt.to_string();
    text.contains("__riscv_save_") || text.contains("__riscv_restore_")
}

/// Records the relocation hazards one instruction shows; true if it sets a register other
/// than `sp`/`s0` to an address at or above the entry `sp`.
fn observe(
    inst: &Inst,
    sp: Option<i32>,
    fp: Option<i32>,
    consts: &BTreeMap<Reg, i32>,
    facts: &mut StackFacts,
) -> bool {
    let base = |r: Reg| match r {
        SP => sp,
        S0 => fp,
        _ => None,
    };
    if inst.op.class() == Class::Store && inst.rs2 == A7 {
        if let Some(b) = base(inst.rs1) {
            if b.wrapping_add(inst.imm) == -4 {
                facts.variadic = true;
            }
        }
    }
    // A large frame's locals are reached with `li tX, N; add rd, sp, tX`.
    let konst = |r: Reg| {
        if r == 0 {
            Some(0)
        } else {
            consts.get(&r).copied()
        }
    };
    let to_local = inst.rd != SP && inst.rd != S0 && inst.rd != 0;
    let local = match inst.op.class() {
        Class::Store => base(inst.rs1).map(|b| b.wrapping_add(inst.imm)),
        _ if inst.op == Op::Addi && to_local => base(inst.rs1).map(|b| b.wrapping_add(inst.imm)),
        _ if inst.op == Op::Add && to_local => match (base(inst.rs1), base(inst.rs2)) {
            (Some(b), _) => konst(inst.rs2).map(|c| b.wrapping_add(c)),
            (_, Some(b)) => konst(inst.rs1).map(|c| b.wrapping_add(c)),
            _ => None,
        },
        _ => None,
    };
    if let Some(at) = local.filter(|&a| a < 0) {
        facts.lowest_write = Some(facts.lowest_write.map_or(at, |l| l.min(at)));
    }
    let high = inst.op.class() != Class::Store && local.is_some_and(|a| a >= 0);
    facts.incoming_pointer |= high;
    high
}

/// Applies one instruction to the tracked state; returns true if it wrote `sp` with a
/// value that is not a constant adjustment (a dynamic allocation). `addi sp,s0,N` is a
/// restore through the frame pointer and never dynamic.
fn step(
    inst: &Inst,
    sp: &mut Option<i32>,
    fp: &mut Option<i32>,
    consts: &mut BTreeMap<Reg, i32>,
) -> bool {
    let konst = |r: Reg, consts: &BTreeMap<Reg, i32>| {
        if r == 0 {
            Some(0)
        } else {
            consts.get(&r).copied()
        }
    };
    let stack = |r: Reg| match r {
        SP => Some(*sp),
        S0 => Some(*fp),
        _ => None,
    };
    let w = inst.writes();
    let mut dynamic = false;
    // New stack offset for sp/s0 (Some(x): tracked register value), or a constant.
    let mut new_stack: Option<Option<i32>> = None;
    let mut new_const: Option<i32> = None;
    match inst.op {
        Op::Addi => match stack(inst.rs1) {
            Some(v) => new_stack = Some(v.map(|v| v.wrapping_add(inst.imm))),
            None => new_const = konst(inst.rs1, consts).map(|v| v.wrapping_add(inst.imm)),
        },
        Op::Lui => new_const = Some(inst.imm),
        Op::Add | Op::Sub => {
            let sub = inst.op == Op::Sub;
            let (a, b) = (konst(inst.rs1, consts), konst(inst.rs2, consts));
            match (stack(inst.rs1), b) {
                (Some(v), Some(c)) => {
                    new_stack = Some(v.map(|v| {
                        if sub {
                            v.wrapping_sub(c)
                        } else {
                            v.wrapping_add(c)
                        }
                    }))
                }
                _ => match (a, stack(inst.rs2)) {
                    (Some(c), Some(v)) if !sub => new_stack = Some(v.map(|v| v.wrapping_add(c))),
                    _ => {
                        if let (Some(x), Some(y)) = (a, b) {
                            new_const = Some(if sub {
                                x.wrapping_sub(y)
                            } else {
                                x.wrapping_add(y)
                            });
                        }
                    }
                },
            }
        }
        _ => {}
    }
    for r in w.iter() {
        consts.remove(&r);
        match r {
            SP => match new_stack {
                Some(v) => *sp = v,
                None => {
                    *sp = None;
                    dynamic = true;
                }
            },
            S0 => *fp = new_stack.flatten(),
            _ => {
                if let Some(c) = new_const {
                    consts.insert(r, c);
                }
            }
        }
    }
    // `addi sp,rX,N` from a register other than sp/s0 (`mv sp,s1`) is caught above as
    // dynamic; `addi sp,s0,N` is a frame-pointer restore even when s0 is not tracked.
    if w.contains(SP) && inst.op == Op::Addi && inst.rs1 == S0 {
        dynamic = false;
    }
    dynamic
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(body: &str) -> (AsmFile, StackFacts) {
        let text = format!("\t.text\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n");
        let file = AsmFile::parse(&text, "t.s").unwrap();
        let cfg = Cfg::build(&file, &file.functions()[0]);
        let facts = StackFacts::analyse(&file, &cfg);
        (file, facts)
    }

    #[test]
    fn finds_the_first_decrement_in_its_forms() {
        let (_, s) = facts("\tslli a5,a0,2\n\taddi sp,sp,-16\n\tsw ra,12(sp)\n\tret\n");
        assert_eq!(s.first_dec, Some((4, 16)));
        let (_, s) = facts("\tli t0,-4096\n\tadd sp,sp,t0\n\tret\n");
        assert_eq!(s.first_dec, Some((4, 4096)));
        let (_, s) = facts("\tlui t0,1\n\taddi t0,t0,16\n\tsub sp,sp,t0\n\tret\n");
        assert_eq!(s.first_dec, Some((5, 4112)));
        // A call or a store before it moves the check point to the entry / pins the frame.
        let (_, s) = facts("\tcall g\n\taddi sp,sp,-16\n\tret\n");
        assert_eq!(s.first_dec, None);
        let (_, s) = facts("\tsw a0,0(sp)\n\taddi sp,sp,-16\n\tret\n");
        assert!(s.store_before_check && s.first_dec.is_some());
    }

    #[test]
    fn dynamic_sites_exclude_constant_and_frame_pointer_restores() {
        let body = "\taddi sp,sp,-16\n\taddi s0,sp,16\n\tsub sp,sp,a0\n\tmv sp,s1\n\taddi sp,s0,-16\n\taddi sp,sp,16\n\tret\n";
        let (_, s) = facts(body);
        assert_eq!(s.dynamic_sites, vec![5, 6]);
    }

    #[test]
    fn relocation_hazards() {
        let (_, s) = facts("\taddi sp,sp,-48\n\tsw a7,44(sp)\n\taddi sp,sp,48\n\tret\n");
        assert!(s.variadic && !s.incoming_pointer);
        let (_, s) = facts("\taddi sp,sp,-16\n\taddi a0,sp,20\n\taddi sp,sp,16\n\tret\n");
        assert!(s.incoming_pointer && !s.variadic);
        let (_, s) = facts("\taddi sp,sp,-16\n\taddi a0,sp,12\n\taddi sp,sp,16\n\tret\n");
        assert!(!s.incoming_pointer);
        let (_, s) = facts("\tjal t0,__riscv_save_0\n\ttail __riscv_restore_0\n");
        assert!(s.save_restore);
    }
}
