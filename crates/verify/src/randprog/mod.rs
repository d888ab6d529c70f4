//! Seeded random RV32IMAC programs for differential testing.
//!
//! A program is one self-contained GNU assembly file: a prologue that installs the trap
//! handler and initialises every register from the seed, a random body (`randprog/body.rs`), and
//! the runtime from `firmware/runtime.S`, which resumes after traps and at the end prints
//! x1..x31, a hash of the scratch buffer and the trap count and hash over the UART and exits
//! through the test finisher. docs/testing.md describes the whole format. The same seed always gives the
//! same text, on every machine (ChaCha8 stream, no platform-dependent sampling).

mod body;
mod ops;

use body::{BodyGen, BASE_REG, COUNTER_REG, TRAP_REG};
use cactus_isa::reg_name;
use ops::EDGE_VALUES;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write;

/// The runtime appended to every generated program.
pub const RUNTIME_S: &str = include_str!("../../firmware/runtime.S");
/// The linker script generated programs are linked with (code page, then data pages).
pub const LINK_LD: &str = include_str!("../../firmware/link.ld");

/// Shape of the generated programs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Top-level items in the body (an item is an instruction, a loop or a branch over a block).
    pub items: usize,
    /// Size of the scratch buffer loads and stores go to; a multiple of 4, at most 2048.
    pub scratch_bytes: u32,
    /// Whether loads and stores may be misaligned (QEMU performs them; so must the simulator's
    /// default profile for the programs to agree).
    pub misaligned: bool,
    /// Whether the body contains instructions that trap (ecall, ebreak, illegal instructions,
    /// misaligned LR); the runtime's handler counts them and resumes.
    pub traps: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            items: 120,
            scratch_bytes: 256,
            misaligned: true,
            traps: true,
        }
    }
}

/// A generated program: its seed and complete assembly source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The seed it was generated from.
    pub seed: u64,
    /// GNU assembly for `riscv64-unknown-elf-gcc -march=rv32imac_zicsr`, linked with [`LINK_LD`].
    pub asm: String,
}

/// Generates the program for `seed`. Deterministic: equal seeds and configs give equal text.
pub fn generate(seed: u64, config: &GenConfig) -> Program {
    let scratch_bytes = config.scratch_bytes.clamp(4, 2048) & !3;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut asm = String::new();
    let _ = writeln!(asm, "# cactus difftest random program, seed {seed}");
    let _ = writeln!(asm, "# replay: cactus difftest --random 1 --seed {seed}");
    let _ = writeln!(asm, "    .equ SCRATCH_BYTES, {scratch_bytes}");
    asm.push_str("    .section .text.init,\"ax\",@progbits\n    .globl _start\n_start:\n");
    let _ = writeln!(asm, "    la {}, __cactus_trap_area", reg_name(TRAP_REG));
    asm.push_str("    la t0, __cactus_trap\n    csrw mtvec, t0\n");
    for r in 1..32u8 {
        let name = reg_name(r);
        if r == TRAP_REG {
            continue;
        } else if r == BASE_REG {
            let _ = writeln!(asm, "    la {name},scratch");
        } else if r == COUNTER_REG {
            let _ = writeln!(asm, "    li {name},0");
        } else {
            let v: u32 = if rng.random_ratio(1, 4) {
                *EDGE_VALUES.choose(&mut rng).unwrap_or(&0)
            } else {
                rng.random()
            };
            let _ = writeln!(asm, "    li {name},{v:#x}");
        }
    }
    let mut body = BodyGen::new(&mut rng, scratch_bytes, config.misaligned, config.traps);
    body.emit_items(config.items);
    asm.push_str(&body.out);
    asm.push_str("    j __cactus_epilogue\n\n");
    asm.push_str(RUNTIME_S);
    asm.push_str("\n    .data\n    .align 4\n    .globl scratch\nscratch:\n");
    for _ in 0..scratch_bytes / 4 {
        let w: u32 = rng.random();
        let _ = writeln!(asm, "    .word {w:#010x}");
    }
    Program { seed, asm }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_text() {
        let c = GenConfig::default();
        assert_eq!(generate(7, &c), generate(7, &c));
    }

    #[test]
    fn different_seeds_differ() {
        let c = GenConfig::default();
        assert_ne!(generate(1, &c).asm, generate(2, &c).asm);
    }

    #[test]
    fn body_never_writes_base_and_writes_counter_only_in_loop_code() {
        let c = GenConfig::default();
        for seed in 0..50 {
            let p = generate(seed, &c);
            let init_end = p.asm.find("    li t6,").expect("prologue sets x31 (t6)");
            let body = &p.asm[init_end..];
            let body = &body[body.find('\n').expect("line end") + 1..];
            let mut checked = 0;
            for line in body
                .lines()
                .take_while(|l| !l.contains("j __cactus_epilogue"))
            {
                let l = line.trim();
                let Some((op, operands)) = l.split_once(' ') else {
                    continue;
                };
                let rd = operands.split(',').next().unwrap_or_default();
                checked += 1;
                if matches!(op, "sb" | "sh" | "sw") || op.starts_with('b') || op.ends_with(':') {
                    continue;
                }
                assert_ne!(rd, "s0", "seed {seed}: {l}");
                assert_ne!(rd, "tp", "seed {seed}: {l}");
                if rd == "s1" {
                    let loop_code = l.starts_with("li s1,") || l == "addi s1,s1,-1";
                    assert!(loop_code, "seed {seed}: {l}");
                }
            }
            assert!(checked > c.items, "seed {seed}: only {checked} body lines");
        }
    }
}
