//! The register-page extension (rmcs; docs/simulator-design.md, "Register-page extension"):
//! `mrfmap` exists only with a pool configured; a write maps pool pages onto architectural
//! pages 1-3 in one CSR instruction, a pool page keeps its values while unmapped, and a bad
//! page number is an illegal-instruction trap naming the `csrw`, with nothing changed.

use crate::common::*;
use cactus_isa::Op;
use cactus_sim::{Machine, MachineConfig, Profile, MRFMAP};

const S2: u8 = 18;
const S8: u8 = 24;

/// A machine with a pool of `pages` running `prog` from RAM.
fn pooled(pages: u8, prog: &[cactus_isa::Inst]) -> Machine {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.reg_pool_pages = pages;
    cfg.max_cycles = Some(100_000);
    let mut m = Machine::new(cfg);
    load(&mut m, RAM, prog);
    m.set_pc(RAM);
    m
}

#[test]
fn mrfmap_exists_only_with_a_pool() {
    assert_eq!(MRFMAP, 0x7CE);
    assert_eq!(MachineConfig::new(Profile::default_mcu()).reg_pool_pages, 0);
    let mut m = machine(&[csrw(MRFMAP, T0)]);
    assert_eq!(m.csr(MRFMAP), None);
    assert_eq!(m.reg_page_stats(), None);
    assert_eq!(fault(m.run()).cause, 2, "an unimplemented CSR is illegal");
}

#[test]
fn a_task_page_survives_another_mapping_and_costs_one_csr_instruction() {
    // s2 = 11 in the base file; map pool page 1 at page 2 (x16-x23), s2 = 22 there; map pool
    // page 2 there instead (s2 = 33), back to pool page 1 (s2 must read 22), then the base
    // file (11). a0..a3 collect what s2 read; a4 the mapping csrrw returned.
    let prog = cat(&[
        li(S2, 11),
        li(T0, 0x10),
        vec![csrw(MRFMAP, T0)],
        vec![r(Op::Add, A0, S2, ZERO)],
        li(S2, 22),
        li(T0, 0x20),
        vec![csrw(MRFMAP, T0)],
        li(S2, 33),
        li(T0, 0x10),
        vec![csrw(MRFMAP, T0)],
        vec![r(Op::Add, A1, S2, ZERO)],
        li(T0, 0),
        vec![csr(Op::Csrrw, A4, MRFMAP, T0)],
        vec![r(Op::Add, A2, S2, ZERO)],
        exit_ok(),
    ]);
    let mut m = pooled(2, &prog);
    run_to_exit(&mut m, 0);
    // a0 reads s2 under pool page 1 before any write: 0. a0 is in page 1, which stays the
    // base file's throughout.
    assert_eq!(m.reg(A0 as usize), 0);
    assert_eq!(
        m.reg(A1 as usize),
        22,
        "pool page 1 kept s2 while page 2 was mapped"
    );
    assert_eq!(m.reg(A2 as usize), 11, "the base file's s2 is back");
    assert_eq!(m.reg(A4 as usize), 0x10, "csrrw returns the old mapping");
    assert_eq!(m.csr(MRFMAP), Some(0));
    assert_eq!(m.reg_page_stats().unwrap().remaps, 4);

    // Cost: the same program with the CSR writes replaced by plain CSR writes (mscratch)
    // takes the same cycles: a remap is one `csr` instruction, no data moves.
    let plain: Vec<_> = prog
        .iter()
        .map(|ins| {
            if ins.op == Op::Csrrw && ins.imm as u16 == MRFMAP {
                csr(Op::Csrrw, ins.rd, MSCRATCH, ins.rs1)
            } else {
                *ins
            }
        })
        .collect();
    let mut p = pooled(2, &plain);
    run_to_exit(&mut p, 0);
    assert_eq!(p.stats().cycles, m.stats().cycles);
}

#[test]
fn a_bad_page_number_is_an_illegal_instruction_at_the_csrw() {
    for (pages, bad) in [(1u8, 0x2u32), (2, 0x110), (3, 0x1000), (3, 0x4)] {
        let prog = cat(&[
            set_mtvec(HANDLER),
            li(S8, 5),
            li(T0, bad),
            vec![csrw(MRFMAP, T0)],
            exit_ok(),
        ]);
        let csrw_pc = RAM + 4 * (prog.len() as u32 - exit_ok().len() as u32 - 1);
        let mut m = pooled(pages, &prog);
        load(
            &mut m,
            HANDLER,
            &cat(&[vec![csrr(A6, MEPC), csrr(A7, MCAUSE)], exit_ok()]),
        );
        run_to_exit(&mut m, 0);
        assert_eq!(m.reg(A7 as usize), 2, "illegal instruction for {bad:#x}");
        assert_eq!(m.reg(A6 as usize), csrw_pc, "mepc names the csrw");
        assert_eq!(m.csr(MRFMAP), Some(0), "nothing mapped");
        assert_eq!(m.reg(S8 as usize), 5, "page 3 untouched");
        assert_eq!(m.reg_page_stats().unwrap().refused, 1);
    }
}

const A6: u8 = 16;
const A7: u8 = 17;
