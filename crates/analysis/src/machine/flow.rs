//! The stack behaviour of one function, from its machine code: a forward abstract
//! interpretation from the entry over every reachable instruction, tracking `sp` as an offset
//! from the entry `sp` (see [`super::value`]). Calls and tail calls ask the solver for the
//! callee's [`Bound`]; a callee's `sp` change at return (libgcc's `__riscv_save_N` returns
//! with the caller's frame allocated) is applied to the caller's state.

pub use super::code::Callee;
use super::code::{Code, Dest};
use super::unit::Unit;
use super::value::{result, writes_rd, State, Val, CALLER_SAVED};
use cactus_isa::{Inst, Op};
use object::elf;
use std::collections::HashMap;

/// What a function does to the stack, when bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Bytes below the entry `sp` it (and everything it calls) may use.
    pub depth: u32,
    /// How far `sp` is from the entry `sp` when it returns; None if it never returns.
    pub exit: Option<i32>,
    /// Mask of the registers it (or anything it calls) may write, `sp` aside.
    pub clobbers: u32,
}

/// The result of following one function.
#[derive(Clone, Debug)]
pub struct Flow {
    /// The bound, or why there is none.
    pub outcome: Result<Bound, String>,
    /// The deepest `sp` of the function's own code (its frame), in bytes.
    pub frame: u32,
    /// Callees in the order first met.
    pub callees: Vec<Callee>,
}

/// At most this many distinct `sp` values per instruction; more means the stack grows in a
/// loop.
const MAX_SP_VALUES: usize = 4;

/// Follows function `index` of `unit`. `resolve` gives a callee's bound (or why it has none).
/// In `switch_mode` (an annotated routine), a path that loads `sp` with a value not derived
/// from the entry `sp` has left this stack and ends there; otherwise that is unbounded. With
/// `hooks_free`, its calls through a register (the kernel's fault and halt hooks) count as
/// calls of depth 0 that may clobber every caller-saved register; otherwise they are
/// unbounded.
pub fn follow(
    unit: &Unit,
    index: usize,
    switch_mode: bool,
    hooks_free: bool,
    resolve: &mut dyn FnMut(&Callee) -> Result<Bound, String>,
) -> Flow {
    let mut walk = Walk {
        code: Code {
            unit,
            f: &unit.functions[index],
        },
        resolve,
        index,
        switch_mode,
        hooks_free,
        seen: HashMap::new(),
        work: vec![(unit.functions[index].start, State::entry())],
        frame: 0,
        depth: 0,
        exit: None,
        callees: Vec::new(),
        clobbers: 0,
    };
    let outcome = walk.run().map(|()| Bound {
        depth: walk.depth.max(walk.frame),
        exit: walk.exit,
        clobbers: walk.clobbers & !(1 << 2),
    });
    Flow {
        outcome,
        frame: walk.frame,
        callees: walk.callees,
    }
}

struct Walk<'u> {
    code: Code<'u>,
    resolve: &'u mut dyn FnMut(&Callee) -> Result<Bound, String>,
    index: usize,
    switch_mode: bool,
    hooks_free: bool,
    seen: HashMap<u64, Vec<State>>,
    work: Vec<(u64, State)>,
    frame: u32,
    depth: u32,
    exit: Option<i32>,
    callees: Vec<Callee>,
    clobbers: u32,
}

impl Walk<'_> {
    fn run(&mut self) -> Result<(), String> {
        while let Some((pc, incoming)) = self.work.pop() {
            let Some(state) = self.admit(pc, &incoming)? else {
                continue;
            };
            let below = u32::try_from(-state.sp()).unwrap_or(0);
            self.frame = self.frame.max(below);
            self.step(pc, state)?;
        }
        Ok(())
    }

    /// Joins `state` into what is known at `pc` for its `sp`; the joined state if that
    /// changed (to be followed again), None if it covers `state` already.
    fn admit(&mut self, pc: u64, state: &State) -> Result<Option<State>, String> {
        let at = self.code.at(pc);
        let states = self.seen.entry(pc).or_default();
        if let Some(old) = states.iter_mut().find(|s| s.sp() == state.sp()) {
            return Ok(old.join(state).then(|| old.clone()));
        }
        if states.len() >= MAX_SP_VALUES {
            return Err(format!(
                "sp takes more than {MAX_SP_VALUES} values at {at}: the stack grows in a loop"
            ));
        }
        states.push(state.clone());
        Ok(Some(state.clone()))
    }

    fn step(&mut self, pc: u64, state: State) -> Result<(), String> {
        let (inst, len) = self.code.decode_at(pc)?;
        let next = pc + len;
        if writes_rd(&inst) {
            self.clobbers |= 1 << inst.rd;
        }
        match inst.op {
            Op::Jal => {
                let dest =
                    self.code
                        .dest(pc, inst.imm, &[elf::R_RISCV_JAL.0, elf::R_RISCV_RVC_JUMP.0])?;
                if inst.rd == 0 {
                    self.jump(dest, state)
                } else {
                    self.call(pc, dest, &state, next)
                }
            }
            Op::Jalr => self.jalr(pc, &inst, state, next),
            Op::Beq | Op::Bne | Op::Blt | Op::Bge | Op::Bltu | Op::Bgeu => {
                let dest = self.code.dest(
                    pc,
                    inst.imm,
                    &[elf::R_RISCV_BRANCH.0, elf::R_RISCV_RVC_BRANCH.0],
                )?;
                self.jump(dest, state.clone())?;
                self.fall(next, state)
            }
            Op::Mret => Ok(()),
            _ if writes_rd(&inst) => {
                let mut s = state;
                s.regs[inst.rd as usize] = result(&inst, pc, &s, self.code.unit.linked);
                if inst.rd == 2 && !matches!(s.regs[2], Val::Sp(_)) {
                    if self.switch_mode {
                        return Ok(());
                    }
                    let moves_sp =
                        matches!(inst.op, Op::Add | Op::Sub) && (inst.rs1 == 2 || inst.rs2 == 2);
                    return Err(if moves_sp {
                        format!(
                            "dynamic sp adjustment at {} (alloca or VLA)",
                            self.code.at(pc)
                        )
                    } else {
                        format!(
                            "sp loaded with a value not derived from the entry sp at {} \
                             (a stack switch needs a .cactus.stack_depth annotation)",
                            self.code.at(pc)
                        )
                    });
                }
                self.fall(next, s)
            }
            _ => self.fall(next, state),
        }
    }

    /// `jalr`: a call or tail call through an `R_RISCV_CALL(_PLT)` pair, a return, a call
    /// to a known constant address (linked code), a jump-table dispatch, or unbounded.
    fn jalr(&mut self, pc: u64, inst: &Inst, state: State, next: u64) -> Result<(), String> {
        let reloc_dest = if pc >= self.code.f.start + 4 {
            self.code
                .reloc_dest(pc - 4, &[elf::R_RISCV_CALL.0, elf::R_RISCV_CALL_PLT.0])?
        } else {
            None
        };
        let dest = match reloc_dest {
            Some(d) => Some(d),
            None => match state.regs[inst.rs1 as usize] {
                Val::Const(c) if self.code.unit.linked => Some(
                    self.code
                        .address_dest(pc, u64::from(c.wrapping_add(inst.imm as u32)))?,
                ),
                _ => None,
            },
        };
        if let Some(dest) = dest {
            return if inst.rd == 0 {
                self.jump(dest, state)
            } else {
                self.call(pc, dest, &state, next)
            };
        }
        let is_link = inst.rs1 == 1 || state.regs[inst.rs1 as usize] == Val::Link;
        if inst.rd == 0 && inst.imm == 0 && is_link {
            return self.returns(state.sp());
        }
        if inst.rd != 0 && self.hooks_free {
            self.clobbers |= CALLER_SAVED;
            return self.fall(next, state.after_call(0, CALLER_SAVED));
        }
        if inst.rd != 0 {
            return Err(format!("indirect call at {}", self.code.at(pc)));
        }
        let targets: Vec<u64> = self
            .code
            .unit
            .data_refs
            .get(&self.code.f.section)
            .map(|set| {
                set.range(self.code.f.start..self.code.f.end)
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        if targets.is_empty() {
            return Err(format!(
                "indirect jump at {} (a tail call through a register: no jump table points \
                 into the function)",
                self.code.at(pc)
            ));
        }
        for t in targets {
            self.work.push((t, state.clone()));
        }
        Ok(())
    }

    fn returns(&mut self, sp: i32) -> Result<(), String> {
        match self.exit {
            Some(e) if e != sp => Err(format!(
                "{} returns with sp at entry{e:+} on one path and entry{sp:+} on another",
                self.code.f.name()
            )),
            _ => {
                self.exit = Some(sp);
                Ok(())
            }
        }
    }

    fn jump(&mut self, dest: Dest, state: State) -> Result<(), String> {
        match dest {
            Dest::Intra(to) => {
                self.work.push((to, state));
                Ok(())
            }
            Dest::Callee(c) => {
                let b = self.callee(c)?;
                let sp = state.sp();
                self.account(sp, b.depth);
                match b.exit {
                    Some(e) => self.returns(sp.wrapping_add(e)),
                    None => Ok(()),
                }
            }
        }
    }

    fn call(&mut self, pc: u64, dest: Dest, state: &State, next: u64) -> Result<(), String> {
        let c = match dest {
            Dest::Callee(c) => c,
            Dest::Intra(to) if to == self.code.f.start => Callee::Local(self.index),
            Dest::Intra(_) => {
                return Err(format!(
                    "call to a label inside the function at {}",
                    self.code.at(pc)
                ))
            }
        };
        let b = self.callee(c)?;
        self.account(state.sp(), b.depth);
        if let Some(e) = b.exit {
            let after = state.after_call(e, b.clobbers);
            self.fall(next, after)?;
        }
        Ok(())
    }

    fn callee(&mut self, c: Callee) -> Result<Bound, String> {
        if !self.callees.contains(&c) {
            self.callees.push(c.clone());
        }
        let b = (self.resolve)(&c)?;
        self.clobbers |= b.clobbers;
        Ok(b)
    }

    /// A callee of depth `depth` entered with `sp` at entry + `sp`.
    fn account(&mut self, sp: i32, depth: u32) {
        let below = i64::from(-sp).max(0) + i64::from(depth);
        self.depth = self.depth.max(u32::try_from(below).unwrap_or(u32::MAX));
    }

    /// Execution continues at `next`: inside the function, into the next symbol (assembly
    /// without `.size` falls through labels), or off the end of a sized function (only after a
    /// call that does not return: the path ends).
    fn fall(&mut self, next: u64, state: State) -> Result<(), String> {
        if next < self.code.f.end {
            self.work.push((next, state));
            return Ok(());
        }
        if self.code.f.sized {
            return Ok(());
        }
        match self.code.unit.function_at(self.code.f.section, next) {
            Some(i) if i != self.index => self.jump(Dest::Callee(Callee::Local(i)), state),
            _ => Err(format!(
                "execution runs past the end of {}",
                self.code.f.name()
            )),
        }
    }
}
