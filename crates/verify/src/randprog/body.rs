//! The random body of a generated program: straight-line RV32IMAC instructions, forward
//! branches and jumps over random blocks, counted loops, loads, stores, AMOs and LR/SC pairs
//! on the scratch buffer, `mscratch` CSR operations and fences. Emitted as GNU assembly text;
//! the assembler picks compressed forms where they exist (`-march=rv32imac`).

use super::ops::{
    AMO_OPS, BRANCH_OPS, CSR_OPS, EDGE_VALUES, I_OPS, LOADS, MSCRATCH, M_OPS, R_OPS, SHIFT_OPS,
    STORES,
};
use cactus_isa::{reg_name, Inst, Op};
use rand::seq::IndexedRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// Holds the scratch buffer's address for the whole program (never written by the body).
/// `s0` is one of the registers compressed loads and stores can use.
pub const BASE_REG: u8 = 8;
/// Points at the runtime's trap save area for the whole program (never written by the body).
pub const TRAP_REG: u8 = 4;
/// The loop counter (never written by the body except by the loop code itself); in the
/// compressed-register range so `addi`/`bnez` on it compress.
pub const COUNTER_REG: u8 = 9;

/// Emits a random body into `out`.
pub(crate) struct BodyGen<'a> {
    pub rng: &'a mut ChaCha8Rng,
    pub out: String,
    pub scratch_bytes: u32,
    pub misaligned: bool,
    pub traps: bool,
    labels: u32,
}

impl<'a> BodyGen<'a> {
    pub fn new(rng: &'a mut ChaCha8Rng, scratch_bytes: u32, misaligned: bool, traps: bool) -> Self {
        BodyGen {
            rng,
            out: String::new(),
            scratch_bytes,
            misaligned,
            traps,
            labels: 0,
        }
    }

    /// Emits `items` top-level items (instructions, loops, branches over blocks).
    pub fn emit_items(&mut self, items: usize) {
        for _ in 0..items {
            match self.rng.random_range(0..100) {
                0..=7 => self.emit_loop(),
                8..=15 => self.emit_forward_branch(true),
                16..=18 => self.emit_forward_jal(),
                _ => self.emit_simple(),
            }
        }
    }

    fn line(&mut self, text: &str) {
        let _ = writeln!(self.out, "    {text}");
    }

    /// One instruction, printed by cactus-isa's GNU-syntax printer (so GNU as also checks
    /// the printer: a wrong spelling fails to assemble or behaves differently).
    fn inst(&mut self, op: Op, rd: u8, rs1: u8, rs2: u8, imm: i32) {
        let text = Inst::new(op, rd, rs1, rs2, imm).to_string();
        self.line(&text);
    }

    /// `li rd, value` (a pseudo-instruction the assembler expands to `lui`/`addi`).
    fn li(&mut self, rd: u8, value: u32) {
        self.line(&format!("li {},{value:#x}", reg_name(rd)));
    }

    fn new_label(&mut self) -> String {
        self.labels += 1;
        format!(".Lr{}", self.labels)
    }

    /// A register the body may write: anything but x0 (rarely allowed), the base and counter.
    fn dest(&mut self) -> u8 {
        if self.rng.random_ratio(1, 40) {
            return 0;
        }
        loop {
            let r = self.rng.random_range(1..32u8);
            if r != BASE_REG && r != COUNTER_REG && r != TRAP_REG {
                return r;
            }
        }
    }

    /// Any register may be read.
    fn src(&mut self) -> u8 {
        self.rng.random_range(0..32u8)
    }

    fn imm12(&mut self) -> i32 {
        if self.rng.random_ratio(1, 4) {
            *[-2048, -1, 0, 1, 2047].choose(self.rng).unwrap_or(&0)
        } else {
            self.rng.random_range(-2048..2048)
        }
    }

    fn edge_or_random(&mut self) -> u32 {
        if self.rng.random_bool(0.6) {
            *EDGE_VALUES.choose(self.rng).unwrap_or(&0)
        } else {
            self.rng.random()
        }
    }

    /// An offset into the scratch buffer for an access of `width` bytes.
    fn offset(&mut self, width: u32, allow_misaligned: bool) -> u32 {
        let max = self.scratch_bytes - width;
        let off = self.rng.random_range(0..=max);
        if allow_misaligned && self.misaligned && self.rng.random_ratio(1, 4) {
            off
        } else {
            off & !(width - 1)
        }
    }

    /// One instruction (or a short fixed group such as an LR/SC pair).
    fn emit_simple(&mut self) {
        match self.rng.random_range(0..107) {
            0..=19 => {
                let op = *R_OPS.choose(self.rng).unwrap_or(&Op::Add);
                let (rd, a, b) = (self.dest(), self.src(), self.src());
                self.inst(op, rd, a, b, 0);
            }
            20..=33 => {
                let op = *I_OPS.choose(self.rng).unwrap_or(&Op::Addi);
                let (rd, a, imm) = (self.dest(), self.src(), self.imm12());
                self.inst(op, rd, a, 0, imm);
            }
            34..=40 => {
                let op = *SHIFT_OPS.choose(self.rng).unwrap_or(&Op::Slli);
                let (rd, a, sh) = (self.dest(), self.src(), self.rng.random_range(0..32));
                self.inst(op, rd, a, 0, sh);
            }
            41..=44 => {
                let op = if self.rng.random_bool(0.5) {
                    Op::Lui
                } else {
                    Op::Auipc
                };
                let (rd, imm20) = (self.dest(), self.rng.random_range(0..0x10_0000u32));
                self.inst(op, rd, 0, 0, (imm20 << 12) as i32);
            }
            45..=47 => {
                let (rd, v) = (self.dest(), self.edge_or_random());
                self.li(rd, v);
            }
            48..=65 => self.emit_mul_div(),
            66..=77 => {
                let &(op, width) = LOADS.choose(self.rng).unwrap_or(&(Op::Lw, 4));
                let (rd, off) = (self.dest(), self.offset(width, true));
                self.inst(op, rd, BASE_REG, 0, off as i32);
            }
            78..=89 => {
                let &(op, width) = STORES.choose(self.rng).unwrap_or(&(Op::Sw, 4));
                let (rs, off) = (self.src(), self.offset(width, true));
                self.inst(op, 0, BASE_REG, rs, off as i32);
            }
            90..=96 => self.emit_amo(),
            97..=99 => self.emit_lr_sc(),
            100..=102 => {
                let op = *CSR_OPS.choose(self.rng).unwrap_or(&Op::Csrrw);
                let (rd, src) = (self.dest(), self.src());
                self.inst(op, rd, src, 0, MSCRATCH);
            }
            103 => {
                let pred_succ = self.rng.random_range(1..16) << 4 | self.rng.random_range(1..16);
                self.inst(Op::Fence, 0, 0, 0, pred_succ);
            }
            _ if self.traps => self.emit_trap(),
            _ => self.emit_lr_sc(),
        }
    }

    /// An M-extension op, half the time on freshly loaded edge operands.
    fn emit_mul_div(&mut self) {
        let op = *M_OPS.choose(self.rng).unwrap_or(&Op::Mul);
        let (a, b) = (self.dest(), self.dest());
        if self.rng.random_bool(0.5) {
            let (va, vb) = (self.edge_or_random(), self.edge_or_random());
            self.li(a, va);
            self.li(b, vb);
        }
        let rd = self.dest();
        self.inst(op, rd, a, b, 0);
    }

    /// A non-zero register other than the base and counter, used as an address.
    fn addr_reg(&mut self) -> u8 {
        loop {
            let r = self.dest();
            if r != 0 {
                return r;
            }
        }
    }

    /// Random `.aq`/`.rl` bits (no effect on a single hart, but they must decode).
    fn aqrl(&mut self) -> i32 {
        self.rng.random_range(0..4)
    }

    fn emit_amo(&mut self) {
        let op = *AMO_OPS.choose(self.rng).unwrap_or(&Op::AmoaddW);
        let (addr, off) = (self.addr_reg(), self.offset(4, false));
        let (rd, rs2, aqrl) = (self.dest(), self.src(), self.aqrl());
        self.inst(Op::Addi, addr, BASE_REG, 0, off as i32);
        self.inst(op, rd, addr, rs2, aqrl);
    }

    fn emit_lr_sc(&mut self) {
        let (addr, off) = (self.addr_reg(), self.offset(4, false));
        let mut rd = self.dest();
        while rd == addr {
            rd = self.dest();
        }
        let (rs2, sc_rd) = (self.src(), self.dest());
        let (lr_aqrl, sc_aqrl) = (self.aqrl(), self.aqrl());
        self.inst(Op::Addi, addr, BASE_REG, 0, off as i32);
        self.inst(Op::LrW, rd, addr, 0, lr_aqrl);
        self.inst(Op::ScW, sc_rd, addr, rs2, sc_aqrl);
    }

    /// An instruction that traps; the runtime's handler resumes after it.
    ///
    /// NOTE: no misaligned AMOs: QEMU 7.2 (Debian 12) reports them as load address-misaligned
    /// (cause 4) where the privileged spec names store/AMO address-misaligned (cause 6), which
    /// cactus-sim raises, so every such program would be a QEMU-side mismatch.
    fn emit_trap(&mut self) {
        match self.rng.random_range(0..5) {
            0 => self.line("ecall"),
            1 => self.line("ebreak"),
            // c.unimp: the all-zero halfword is defined to be illegal.
            2 => self.line(".half 0"),
            // csrrw x0, cycle, x0: a write to a read-only CSR is illegal.
            3 => self.line(".word 0xc0001073"),
            _ => {
                // A misaligned LR: load address-misaligned (rd is not written).
                let (addr, off) = (self.addr_reg(), self.misaligned_word_offset());
                let rd = self.dest();
                self.inst(Op::Addi, addr, BASE_REG, 0, off as i32);
                self.inst(Op::LrW, rd, addr, 0, 0);
            }
        }
    }

    /// A scratch-buffer offset for a word access that is not 4-byte aligned.
    fn misaligned_word_offset(&mut self) -> u32 {
        (self.offset(4, false) + self.rng.random_range(1..4)).min(self.scratch_bytes - 5)
    }

    /// A branch on random registers over a block of 1..=6 simple items (which may hold one
    /// more forward branch when `nest` is set).
    fn emit_forward_branch(&mut self, nest: bool) {
        let op = *BRANCH_OPS.choose(self.rng).unwrap_or(&"beq");
        let (a, b) = (reg_name(self.src()), reg_name(self.src()));
        let label = self.new_label();
        self.line(&format!("{op} {a},{b},{label}"));
        for _ in 0..self.rng.random_range(1..=6) {
            if nest && self.rng.random_ratio(1, 6) {
                self.emit_forward_branch(false);
            } else {
                self.emit_simple();
            }
        }
        let _ = writeln!(self.out, "{label}:");
    }

    /// `jal rd` over a block: rd receives a pc-relative link value.
    fn emit_forward_jal(&mut self) {
        let rd = reg_name(self.dest());
        let label = self.new_label();
        self.line(&format!("jal {rd},{label}"));
        for _ in 0..self.rng.random_range(1..=4) {
            self.emit_simple();
        }
        let _ = writeln!(self.out, "{label}:");
    }

    /// A counted loop (1..=8 iterations) over simple items and forward branches.
    fn emit_loop(&mut self) {
        let count = self.rng.random_range(1..=8);
        let label = self.new_label();
        self.li(COUNTER_REG, count);
        let _ = writeln!(self.out, "{label}:");
        for _ in 0..self.rng.random_range(2..=8) {
            if self.rng.random_ratio(1, 5) {
                self.emit_forward_branch(false);
            } else {
                self.emit_simple();
            }
        }
        let counter = reg_name(COUNTER_REG);
        self.line(&format!("addi {counter},{counter},-1"));
        self.line(&format!("bnez {counter},{label}"));
    }
}
