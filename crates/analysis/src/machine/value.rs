//! The abstract register values of the stack analysis and how instructions transform them:
//! enough to follow `sp` through frames, frame pointers (`addi s0,sp,N` ... `addi sp,s0,-N`),
//! constants (`li t1,-16; sub sp,sp,t1` in libgcc's `__riscv_save_N`, `auipc`+`jalr` pairs
//! in linked code) and the return address.

use cactus_isa::{Inst, Op};

/// What a register is known to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// Nothing useful.
    Unknown,
    /// The `sp` the function was entered with, plus this many bytes.
    Sp(i32),
    /// A known constant (in linked code, also absolute addresses).
    Const(u32),
    /// The return address the function was entered with (`ra` or the alternate link `t0`).
    Link,
}

/// The registers at one program point; `regs[2]` (`sp`) is always [`Val::Sp`] while a path
/// is followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// x0..x31.
    pub regs: [Val; 32],
}

/// The registers the standard calling convention lets a callee clobber (`ra`, `t0`-`t6`,
/// `a0`-`a7`), as a mask of register numbers: what a call to code of unknown behaviour may
/// change.
pub const CALLER_SAVED: u32 = (1 << 1) | (0b111 << 5) | (0xff << 10) | (0b1111 << 28);

impl State {
    /// The state at a function's entry: `sp` at offset 0, `ra` and `t0` the return address.
    pub fn entry() -> State {
        let mut regs = [Val::Unknown; 32];
        regs[2] = Val::Sp(0);
        regs[1] = Val::Link;
        regs[5] = Val::Link;
        State { regs }
    }

    /// The `sp` offset from the entry `sp` (0 if `sp` was lost, which callers rule out).
    pub fn sp(&self) -> i32 {
        match self.regs[2] {
            Val::Sp(k) => k,
            _ => 0,
        }
    }

    /// The state after a call returns with `sp` moved by `delta`, the callee having written
    /// at most the registers in the mask `clobbers` (those become unknown).
    pub fn after_call(&self, delta: i32, clobbers: u32) -> State {
        let mut s = self.clone();
        for (r, v) in s.regs.iter_mut().enumerate() {
            if clobbers & (1 << r) != 0 {
                *v = Val::Unknown;
            }
        }
        s.regs[2] = Val::Sp(self.sp().wrapping_add(delta));
        s
    }

    /// Pointwise join: registers that differ become unknown. Returns true if `self` changed.
    pub fn join(&mut self, other: &State) -> bool {
        let mut changed = false;
        for (a, b) in self.regs.iter_mut().zip(other.regs.iter()) {
            if *a != *b && *a != Val::Unknown {
                *a = Val::Unknown;
                changed = true;
            }
        }
        changed
    }
}

/// The value `inst` (at address `pc`) writes to its `rd`, given `state`. `linked` says
/// whether `auipc` yields a usable absolute address (in a relocatable object it does not).
pub fn result(inst: &Inst, pc: u64, state: &State, linked: bool) -> Val {
    let r = |n: u8| state.regs[n as usize];
    let zero = |n: u8| if n == 0 { Val::Const(0) } else { r(n) };
    match inst.op {
        Op::Addi => add(zero(inst.rs1), Val::Const(inst.imm as u32)),
        Op::Add => add(zero(inst.rs1), zero(inst.rs2)),
        Op::Sub => match (zero(inst.rs1), zero(inst.rs2)) {
            (Val::Sp(a), Val::Const(b)) => Val::Sp(a.wrapping_sub(b as i32)),
            (Val::Sp(a), Val::Sp(b)) => Val::Const(a.wrapping_sub(b) as u32),
            (Val::Const(a), Val::Const(b)) => Val::Const(a.wrapping_sub(b)),
            _ => Val::Unknown,
        },
        Op::Lui => Val::Const(inst.imm as u32),
        Op::Auipc if linked => Val::Const((pc as u32).wrapping_add(inst.imm as u32)),
        _ => Val::Unknown,
    }
}

fn add(a: Val, b: Val) -> Val {
    match (a, b) {
        (v, Val::Const(0)) | (Val::Const(0), v) => v,
        (Val::Sp(k), Val::Const(c)) | (Val::Const(c), Val::Sp(k)) => {
            Val::Sp(k.wrapping_add(c as i32))
        }
        (Val::Const(x), Val::Const(y)) => Val::Const(x.wrapping_add(y)),
        _ => Val::Unknown,
    }
}

/// True if `inst` writes a register (its `rd`, never `x0`).
pub fn writes_rd(inst: &Inst) -> bool {
    inst.rd != 0 && inst.op.format().fields().rd && !matches!(inst.op, Op::Fence | Op::FenceI)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_sp_through_frame_pointer_and_constants() {
        let mut s = State::entry();
        let addi = |rd, rs1, imm| Inst::new(Op::Addi, rd, rs1, 0, imm);
        s.regs[2] = result(&addi(2, 2, -32), 0, &s, false);
        s.regs[8] = result(&addi(8, 2, 32), 0, &s, false);
        assert_eq!(s.regs[8], Val::Sp(0));
        s.regs[6] = result(&addi(6, 0, -16), 0, &s, false);
        let sub = Inst::new(Op::Sub, 2, 2, 6, 0);
        assert_eq!(result(&sub, 0, &s, false), Val::Sp(-16));
        assert_eq!(result(&addi(2, 8, -8), 0, &s, false), Val::Sp(-8));
        let mv_ra = Inst::new(Op::Add, 5, 0, 1, 0);
        assert_eq!(result(&mv_ra, 0, &s, false), Val::Link);
        let dynamic = Inst::new(Op::Sub, 2, 2, 10, 0);
        assert_eq!(result(&dynamic, 0, &s, false), Val::Unknown);
    }

    #[test]
    fn auipc_is_an_address_only_in_linked_code() {
        let s = State::entry();
        let auipc = Inst::new(Op::Auipc, 1, 0, 0, 0x1000);
        assert_eq!(
            result(&auipc, 0x8000_0000, &s, true),
            Val::Const(0x8000_1000)
        );
        assert_eq!(result(&auipc, 0x40, &s, false), Val::Unknown);
    }

    #[test]
    fn calls_clobber_caller_saved_registers_only() {
        let mut s = State::entry();
        s.regs[8] = Val::Sp(-4);
        s.regs[10] = Val::Const(3);
        let after = s.after_call(-32, CALLER_SAVED);
        assert_eq!(after.regs[8], Val::Sp(-4));
        assert_eq!(after.regs[10], Val::Unknown);
        assert_eq!(after.regs[1], Val::Unknown);
        assert_eq!(after.sp(), -32);
        let narrow = s.after_call(0, 1 << 10);
        assert_eq!(narrow.regs[1], Val::Link);
        assert_eq!(narrow.regs[10], Val::Unknown);
    }
}
