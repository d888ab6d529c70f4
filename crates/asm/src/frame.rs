//! Frame recovery: the static frame size, frame-pointer use, dynamic stack allocation and
//! the incoming stack-argument area, found by tracking `sp` (and `s0`) through the CFG.

use crate::cfg::Cfg;
use crate::file::{AsmFile, Item};
use cactus_isa::{Class, Inst, Op, Reg, RegSet};
use std::collections::BTreeMap;

const SP: Reg = 2;
const S0: Reg = 8;
/// Registers a callee may clobber under the ilp32 ABI (ra, t0-t6, a0-a7).
const CALLER_SAVED: [Reg; 16] = [1, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31];

/// What the prologue and body tell about a function's stack frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// The largest static depth below the entry `sp`, in bytes: the sum of constant `sp`
    /// decrements (`addi sp,sp,-N`, `li t0,-N; add sp,sp,t0`, `sub sp,sp,t0`), excluding
    /// dynamic allocation.
    pub static_size: u32,
    /// `s0` is set from `sp` (`addi s0,sp,N`): the function keeps a frame pointer.
    pub frame_pointer: bool,
    /// `sp` is changed by a register whose value is not a constant (alloca / VLA).
    pub dynamic: bool,
    /// Bytes of the caller's outgoing-argument area this function reads or writes: the
    /// highest `sp`-relative (or `s0`-relative) access at or above the entry `sp`, as an
    /// offset past the entry `sp`.
    pub incoming_args: u32,
    /// Callee-saved registers (ra, s0-s11) stored to the stack while still holding their
    /// value from the caller, with the slot's offset from the entry `sp` (negative: inside
    /// the frame), in the order first saved.
    pub saved: Vec<(Reg, i32)>,
    /// False if two paths reached a block with different `sp` offsets, or an
    /// instruction the IR cannot interpret (inline asm) was seen; the numbers are then a
    /// best effort.
    pub exact: bool,
}

impl Frame {
    /// No static frame at all.
    pub fn is_zero(&self) -> bool {
        self.static_size == 0 && !self.dynamic
    }

    /// Recovers the frame of the function whose CFG is `cfg`.
    pub fn recover(file: &AsmFile, cfg: &Cfg) -> Frame {
        let mut frame = Frame {
            exact: true,
            ..Frame::default()
        };
        let n = cfg.blocks.len();
        // sp and s0 offsets from the entry sp, at each block's start.
        type State = (Option<i32>, Option<i32>, RegSet);
        let mut at_start: Vec<Option<State>> = vec![None; n];
        if n == 0 {
            return frame;
        }
        at_start[0] = Some((Some(0), None, RegSet::EMPTY));
        let mut work = vec![0];
        let mut max_depth = 0i32;
        let mut max_arg = 0i32;
        while let Some(b) = work.pop() {
            let (mut sp, mut fp, mut written) = at_start[b].expect("queued blocks have a state");
            let mut consts: BTreeMap<Reg, i32> = BTreeMap::new();
            for &i in &cfg.blocks[b].insts {
                let stmt = match &file.entries[i].item {
                    Item::Inst(s) => s,
                    _ => {
                        frame.exact = false;
                        continue;
                    }
                };
                let Ok(insts) = stmt.expand() else {
                    let w = stmt.writes();
                    written = written.union(w);
                    if w.contains(SP) {
                        frame.dynamic = true;
                        sp = None;
                    }
                    if w.contains(S0) {
                        fp = None;
                    }
                    for r in w.iter() {
                        consts.remove(&r);
                    }
                    if matches!(crate::flow::Flow::of(stmt), crate::flow::Flow::Call(_)) {
                        for r in CALLER_SAVED {
                            consts.remove(&r);
                        }
                    }
                    continue;
                };
                for inst in insts {
                    if let Some(slot) = save_slot(&inst, sp, fp, written) {
                        if !frame.saved.iter().any(|&(r, _)| r == inst.rs2) {
                            frame.saved.push((inst.rs2, slot));
                        }
                    }
                    written = written.union(inst.writes());
                    step(&inst, &mut sp, &mut fp, &mut consts, &mut frame);
                    if let Some(off) = access_offset(&inst, sp, fp) {
                        max_arg = max_arg.max(off);
                    }
                    if let Some(s) = sp {
                        max_depth = max_depth.max(-s);
                    }
                }
            }
            for &s in &cfg.blocks[b].succs {
                match at_start[s] {
                    None => {
                        at_start[s] = Some((sp, fp, written));
                        work.push(s);
                    }
                    Some((sp2, _, _)) if sp2 != sp && sp.is_some() && sp2.is_some() => {
                        frame.exact = false;
                    }
                    _ => {}
                }
            }
        }
        frame.static_size = max_depth.max(0) as u32;
        frame.incoming_args = max_arg.max(0) as u32;
        frame
    }
}

/// Applies one instruction to the tracked `sp`, `s0` and constant registers.
fn step(
    inst: &Inst,
    sp: &mut Option<i32>,
    fp: &mut Option<i32>,
    consts: &mut BTreeMap<Reg, i32>,
    frame: &mut Frame,
) {
    let c = |r: Reg, consts: &BTreeMap<Reg, i32>| {
        if r == 0 {
            Some(0)
        } else {
            consts.get(&r).copied()
        }
    };
    let value_of = |r: Reg, consts: &BTreeMap<Reg, i32>, sp: Option<i32>, fp: Option<i32>| match r {
        SP => sp.map(Val::Stack),
        S0 if fp.is_some() => fp.map(Val::Stack),
        _ => c(r, consts).map(Val::Const),
    };
    let result = match inst.op {
        Op::Addi => match value_of(inst.rs1, consts, *sp, *fp) {
            Some(Val::Stack(v)) => Some(Val::Stack(v.wrapping_add(inst.imm))),
            Some(Val::Const(v)) => Some(Val::Const(v.wrapping_add(inst.imm))),
            None => None,
        },
        Op::Lui => Some(Val::Const(inst.imm)),
        Op::Add | Op::Sub => {
            let a = value_of(inst.rs1, consts, *sp, *fp);
            let b = value_of(inst.rs2, consts, *sp, *fp);
            let sub = inst.op == Op::Sub;
            match (a, b) {
                (Some(Val::Stack(x)), Some(Val::Const(y))) => Some(Val::Stack(if sub {
                    x.wrapping_sub(y)
                } else {
                    x.wrapping_add(y)
                })),
                (Some(Val::Const(x)), Some(Val::Stack(y))) if !sub => {
                    Some(Val::Stack(x.wrapping_add(y)))
                }
                (Some(Val::Const(x)), Some(Val::Const(y))) => Some(Val::Const(if sub {
                    x.wrapping_sub(y)
                } else {
                    x.wrapping_add(y)
                })),
                _ => None,
            }
        }
        _ => None,
    };
    for r in inst.writes().iter() {
        consts.remove(&r);
        match (r, &result) {
            (SP, Some(Val::Stack(v))) => *sp = Some(*v),
            (SP, _) => {
                *sp = None;
                frame.dynamic = true;
            }
            (S0, Some(Val::Stack(v))) => {
                *fp = Some(*v);
                frame.frame_pointer = true;
            }
            (S0, _) => *fp = None,
            (_, Some(Val::Const(v))) => {
                consts.insert(r, *v);
            }
            _ => {}
        }
    }
}

/// Callee-saved registers and `ra`.
const CALLEE_SAVED: RegSet = RegSet(
    1 << 1 | 1 << 8 | 1 << 9 | 0xffc << 16, // ra, s0, s1, s2-s11 (x18-x27)
);

/// For `sw r, off(base)` saving a callee-saved register not yet written on this path,
/// through `sp` or the frame pointer: the slot's offset from the entry `sp`.
fn save_slot(inst: &Inst, sp: Option<i32>, fp: Option<i32>, written: RegSet) -> Option<i32> {
    if inst.op != Op::Sw || !CALLEE_SAVED.contains(inst.rs2) || written.contains(inst.rs2) {
        return None;
    }
    let base = match inst.rs1 {
        SP => sp?,
        S0 => fp?,
        _ => return None,
    };
    Some(base.wrapping_add(inst.imm))
}

/// A tracked value: a constant, or an address relative to the entry `sp`.
#[derive(Clone, Copy)]
enum Val {
    Const(i32),
    Stack(i32),
}

/// For a load or store relative to `sp` or the frame pointer that reaches at or above the
/// entry `sp`: the end of the access as an offset past the entry `sp`.
fn access_offset(inst: &Inst, sp: Option<i32>, fp: Option<i32>) -> Option<i32> {
    if !matches!(inst.op.class(), Class::Load | Class::Store) {
        return None;
    }
    let width = inst.op.access_bytes()? as i32;
    let base = match inst.rs1 {
        SP => sp?,
        S0 => fp?,
        _ => return None,
    };
    let at = base.wrapping_add(inst.imm);
    (at >= 0).then_some(at + width)
}
