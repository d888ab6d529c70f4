//! The stack-bound extension (docs/simulator-design.md, "Stack-bound extension"): the
//! machine-mode CSR `mstackbound` and the exception it raises. When the bound is nonzero, an
//! instruction whose result for x2 (sp) is unsigned-less-than the bound does not write sp and
//! raises [`CAUSE_STACK_BOUND`] instead (mepc = the instruction, mtval = the value it would
//! have written); nothing else it would have done architecturally happens.
//!
//! Where the check lives: nowhere in the hot loop. While the bound is *armed* (nonzero),
//! predecoding (`block.rs`) ends a block at every instruction that writes x2 and makes it the
//! block's terminator; [`Machine::exec_sp_write`] runs it outside the hot loop through
//! [`sp_write`], a small interpreter of the instructions that write a register, and checks the
//! value. While the bound is 0 (always, without the extension) blocks are predecoded exactly
//! as without the extension and the hot loop is the same code, so the disabled check costs
//! nothing. A write of `mstackbound` that arms or disarms the bound flushes the block cache
//! ([`Machine::arm_stack_bound`]); writes from one nonzero bound to another do not. CSR
//! instructions are terminators anyway and check rd = sp in `csr.rs`.

use crate::bus::{Bus, Ctx, Exc};
use crate::hart::amo::amo_bounded;
use crate::hart::block::{static_class, static_cycles, CInst};
use crate::hart::codemap::CodeMap;
use crate::machine::{Machine, RunOutcome};
use cactus_isa::{Class, Op};

/// The CSR number of `mstackbound`: custom machine-mode read/write range 0x7C0-0x7FF.
pub const MSTACKBOUND: u16 = 0x7C8;

/// mcause of the stack-bound exception: 24 is the first code "designated for custom use"
/// by the privileged spec.
pub const CAUSE_STACK_BOUND: u32 = 24;

impl Machine {
    /// After a write of `mstackbound`: if the bound went from 0 to nonzero or back, drops the
    /// predecoded blocks so that they are rebuilt with (or without) the checking ops.
    pub(crate) fn arm_stack_bound(&mut self) {
        let armed = self.hart.stack_bound != 0;
        if armed != self.cache.guard_sp {
            self.cache.flush(&mut self.bus.mem);
            self.cache.guard_sp = armed;
        }
    }

    /// Executes terminator `ins`, a write of sp predecoded while the bound was armed; `next`
    /// is the pc after it. Costs what the instruction costs in a block body (its class, the
    /// region latency of a data access); refused, it raises [`CAUSE_STACK_BOUND`].
    #[cold]
    #[inline(never)]
    pub(crate) fn exec_sp_write(&mut self, ins: CInst, next: u32) -> Option<RunOutcome> {
        let static_cost = static_cycles(ins.op, &self.cache.costs);
        let ctx = Ctx {
            cycle: self.hart.cycle,
            mcycle: self.hart.mcycle.value(self.hart.cycle),
            instret: self.hart.instret,
            pc: ins.pc,
            in_trap: self.hart.in_trap,
            static_cost,
        };
        let bound = self.hart.stack_bound;
        match sp_write(
            &ins,
            &self.hart.x,
            &mut self.bus,
            &self.cache.map,
            &ctx,
            next,
            bound,
        ) {
            Ok(w) => {
                let h = &mut self.hart;
                h.x[2] = w.value;
                h.cycle = h
                    .cycle
                    .wrapping_add(u64::from(static_cost))
                    .wrapping_add(w.delta);
                h.instret += 1;
                h.just_trapped = false;
                h.pc = w.next.unwrap_or(next);
                self.extra_counts[static_class(ins.op) as usize] += 1;
                // An AMO into sp may have hit code or a device.
                self.after_stop()
            }
            Err((cause, tval)) => self.take_trap(cause, tval, ins.pc),
        }
    }
}

/// What an instruction that writes sp does when the bound lets it.
pub(crate) struct SpWrite {
    /// The new sp.
    pub(crate) value: u32,
    /// Dynamic cycles (slow-path memory latency).
    pub(crate) delta: u64,
    /// The jump target of `jal`/`jalr`.
    pub(crate) next: Option<u32>,
    /// The block must stop after this instruction (a device or a store into code needs
    /// attention).
    pub(crate) stop: bool,
}

/// The result of an ALU, shift or M-extension instruction with operands `a` (rs1), `b` (rs2)
/// and `imm` (already decoded: `lui`'s value, `auipc`'s result).
fn alu(op: Op, a: u32, b: u32, imm: u32) -> u32 {
    match op {
        Op::Lui | Op::Auipc => imm,
        Op::Addi => a.wrapping_add(imm),
        Op::Slti => u32::from((a as i32) < (imm as i32)),
        Op::Sltiu => u32::from(a < imm),
        Op::Xori => a ^ imm,
        Op::Ori => a | imm,
        Op::Andi => a & imm,
        Op::Slli => a << (imm & 31),
        Op::Srli => a >> (imm & 31),
        Op::Srai => ((a as i32) >> (imm & 31)) as u32,
        Op::Add => a.wrapping_add(b),
        Op::Sub => a.wrapping_sub(b),
        Op::Sll => a << (b & 31),
        Op::Slt => u32::from((a as i32) < (b as i32)),
        Op::Sltu => u32::from(a < b),
        Op::Xor => a ^ b,
        Op::Srl => a >> (b & 31),
        Op::Sra => ((a as i32) >> (b & 31)) as u32,
        Op::Or => a | b,
        Op::And => a & b,
        Op::Mul => a.wrapping_mul(b),
        Op::Mulh => ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
        Op::Mulhsu => ((i64::from(a as i32) * i64::from(b)) >> 32) as u32,
        Op::Mulhu => ((u64::from(a) * u64::from(b)) >> 32) as u32,
        Op::Div => {
            if b == 0 {
                u32::MAX
            } else {
                (a as i32).wrapping_div(b as i32) as u32
            }
        }
        Op::Divu => a.checked_div(b).unwrap_or(u32::MAX),
        Op::Rem => {
            if b == 0 {
                a
            } else {
                (a as i32).wrapping_rem(b as i32) as u32
            }
        }
        Op::Remu => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        _ => unreachable!("{op:?} is not an ALU instruction"),
    }
}

/// Executes instruction `ins`, which writes sp, against `bound`: Ok with what to write
/// (the caller writes x2), or the exception: a memory exception of the instruction itself, or
/// ([`CAUSE_STACK_BOUND`], the value) if the value is below the bound. A load is performed
/// before the check (a device read has happened); an AMO or SC is checked between its read
/// and its write, so a refused one stores nothing. `link` is the pc after the instruction.
#[cold]
#[inline(never)]
pub(crate) fn sp_write(
    ins: &CInst,
    x: &[u32; 256],
    bus: &mut Bus,
    map: &CodeMap,
    ctx: &Ctx,
    link: u32,
    bound: u32,
) -> Result<SpWrite, Exc> {
    let a = x[ins.rs1 as usize];
    let b = x[ins.rs2 as usize];
    let mut w = SpWrite {
        value: 0,
        delta: 0,
        next: None,
        stop: false,
    };
    w.value = match ins.op {
        Op::Jal => {
            w.next = Some(ins.imm);
            link
        }
        Op::Jalr => {
            w.next = Some(a.wrapping_add(ins.imm) & !1);
            link
        }
        Op::Lb | Op::Lh | Op::Lw | Op::Lbu | Op::Lhu => {
            let width = match ins.op {
                Op::Lb | Op::Lbu => 1,
                Op::Lh | Op::Lhu => 2,
                _ => 4,
            };
            let (v, delta) = bus.load(a.wrapping_add(ins.imm), width, ctx)?;
            w.delta = delta;
            match ins.op {
                Op::Lb => v as u8 as i8 as i32 as u32,
                Op::Lh => v as u16 as i16 as i32 as u32,
                _ => v,
            }
        }
        op if op.class() == Class::Amo => {
            // amo_bounded() checks the bound itself, before its store.
            let (v, delta, stop) = amo_bounded(ins, a, b, bus, map, ctx, bound)?;
            w.delta = delta;
            w.stop = stop;
            v
        }
        op => alu(op, a, b, ins.imm),
    };
    if w.value < bound {
        return Err((CAUSE_STACK_BOUND, w.value));
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::alu;
    use cactus_isa::Op;

    #[test]
    fn alu_matches_the_spec_on_edge_cases() {
        assert_eq!(alu(Op::Addi, 0x8000_0010, 0, (-16i32) as u32), 0x8000_0000);
        assert_eq!(alu(Op::Sub, 5, 7, 0), (-2i32) as u32);
        assert_eq!(alu(Op::Div, 7, 0, 0), u32::MAX);
        assert_eq!(alu(Op::Div, 0x8000_0000, u32::MAX, 0), 0x8000_0000);
        assert_eq!(alu(Op::Rem, 0x8000_0000, u32::MAX, 0), 0);
        assert_eq!(alu(Op::Remu, 9, 0, 0), 9);
        assert_eq!(alu(Op::Mulh, u32::MAX, u32::MAX, 0), 0);
        assert_eq!(alu(Op::Mulhsu, u32::MAX, u32::MAX, 0), u32::MAX);
        assert_eq!(alu(Op::Mulhu, u32::MAX, u32::MAX, 0), 0xFFFF_FFFE);
        assert_eq!(alu(Op::Srai, 0x8000_0000, 0, 31), u32::MAX);
        assert_eq!(alu(Op::Sltiu, 1, 0, u32::MAX), 1);
        assert_eq!(alu(Op::Lui, 3, 4, 0x1234_5000), 0x1234_5000);
    }
}
