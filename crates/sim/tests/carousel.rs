//! The memory-system extensions on guest programs (`carousel-paper`, `cache-wt`, `cache-wb`
//! profiles): Carousel open/close with real data semantics (the external copy keeps its old
//! bytes until the DMA copies the block back), fetches through a tag, the timing rule per
//! instruction (external 50, SPM 1, DMA 130 per block), the same cycles from `run` and
//! `step`, the caches' hit/miss/write-back costs, guest errors as access faults, and the
//! profile keys' errors.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{Machine, MachineConfig, MemSysStats, Profile, RunOutcome, Stats};

/// The OS scratchpad: code placed here fetches in one cycle.
const OS_SPM: u32 = 0x2000_0000;
/// Carousel SPM window S, tag window, DMA window (carousel-paper defaults).
const SPM: u32 = 0x3000_0000;
const TAGS: u32 = 0x0F00_0000;
const DMA: u32 = 0x0F00_1000;
/// A block of external RAM holding data.
const B: u32 = RAM + 0x1000;

fn profile(name: &str) -> Profile {
    Profile::builtin(name).unwrap()
}

/// A `profile` machine with `prog` at `at`.
fn machine_at(name: &str, at: u32, prog: &[Inst]) -> Machine {
    let mut m = Machine::new(MachineConfig::new(profile(name)));
    load(&mut m, at, prog);
    m.set_pc(at);
    m
}

fn mem_stats(s: &Stats) -> &MemSysStats {
    s.memory_system.as_ref().expect("memory-system statistics")
}

/// Steps to the final `ebreak`, returning the cycles of every instruction.
fn step_costs(m: &mut Machine) -> Vec<u64> {
    let mut costs = Vec::new();
    loop {
        let before = m.stats().cycles;
        match m.step() {
            None => costs.push(m.stats().cycles - before),
            Some(RunOutcome::Fault(f)) if f.cause == 3 => return costs,
            Some(other) => panic!("{other:?}"),
        }
    }
}

/// `dma_copy(dst, src, len)` through the registers (s2 = DMA base; clobbers t0).
fn dma_copy(dst: u8, src: u8, len: u32) -> Vec<Inst> {
    cat(&[
        vec![s(Op::Sw, src, S2, 0), s(Op::Sw, dst, S2, 4)],
        li(T0, len),
        vec![s(Op::Sw, T0, S2, 8)],
        li(T0, 1),
        vec![s(Op::Sw, T0, S2, 12)],
    ])
}

const S2: u8 = 18;
const S3: u8 = 19;
const S4: u8 = 20;
const S5: u8 = 21;

/// open(B, 0), load and store through the tag, then close(0), as the paper's Carousel OS
/// does it; returns the program and the indices of the instructions whose costs matter
/// (external load, tag write, DMA start, SPM load, SPM store, SPM-window load, second DMA
/// start, external load after close) and the index of the first instruction after the
/// store through the tag.
fn open_close() -> (Vec<Inst>, [usize; 8], usize) {
    let mut p = cat(&[li(S0, B), li(S1, TAGS), li(S2, DMA), li(S3, SPM)]);
    let mut at = [0; 8];
    at[0] = p.len();
    p.push(i(Op::Lw, A0, S0, 8)); // external: 1 + 49
    at[1] = p.len();
    p.push(s(Op::Sw, S0, S1, 0)); // r_0 = B
    p.extend(dma_copy(S3, S0, 128)); // open: SPM block 0 <- B
    at[2] = p.len() - 1;
    at[3] = p.len();
    p.push(i(Op::Lw, A1, S0, 8)); // through the tag: SPM, 1 cycle
    p.extend(li(T1, 0x2222_2222));
    at[4] = p.len();
    p.push(s(Op::Sw, T1, S0, 8)); // SPM
    at[5] = p.len();
    p.push(i(Op::Lw, A2, S3, 8)); // the SPM window directly
    let after_store = p.len();
    p.extend(dma_copy(S0, S3, 128)); // close: B <- SPM block 0
    at[6] = p.len() - 1;
    p.extend(li(T0, 0xFFFF_FFFF));
    p.push(s(Op::Sw, T0, S1, 0)); // r_0 = UNUSED
    at[7] = p.len();
    p.push(i(Op::Lw, A3, S0, 8)); // external again
    p.push(sys(Op::Ebreak));
    (p, at, after_store)
}

#[test]
fn open_load_store_close_keeps_the_external_copy_until_the_dma_writes_it_back() {
    let (prog, _, after_store) = open_close();
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    m.write_debug(B + 8, &0x1111_1111u32.to_le_bytes()).unwrap();
    m.add_breakpoint(OS_SPM + 4 * after_store as u32);
    assert!(matches!(m.run(), RunOutcome::Breakpoint { .. }));
    assert_eq!(m.reg(A0 as usize), 0x1111_1111, "external load before open");
    assert_eq!(
        m.reg(A1 as usize),
        0x1111_1111,
        "through the tag after open's copy"
    );
    assert_eq!(
        m.reg(A2 as usize),
        0x2222_2222,
        "the SPM window holds the store"
    );
    assert_eq!(word(&m, SPM + 8), 0x2222_2222);
    assert_eq!(
        word(&m, B + 8),
        0x1111_1111,
        "external RAM keeps the old bytes"
    );
    m.remove_breakpoint(OS_SPM + 4 * after_store as u32);
    run_to_ebreak(&mut m);
    assert_eq!(word(&m, B + 8), 0x2222_2222, "close copied the block back");
    assert_eq!(
        m.reg(A3 as usize),
        0x2222_2222,
        "and the unmapped load sees it"
    );
    let s = m.stats();
    let ms = mem_stats(&s);
    assert_eq!((ms.spm_data, ms.external_data), (2, 2));
    assert_eq!((ms.external_transactions, ms.external_cycles), (2, 100));
    assert_eq!(
        (
            ms.dma_copies,
            ms.dma_bytes,
            ms.dma_transactions,
            ms.dma_cycles
        ),
        (2, 256, 4, 260)
    );
    assert_eq!(
        ms.spm_fetches + ms.external_fetches,
        0,
        "code in the OS scratchpad"
    );
}

#[test]
fn every_instruction_costs_its_class_plus_its_access_times_minus_one() {
    let (prog, at, _) = open_close();
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    let costs = step_costs(&mut m);
    assert_eq!(costs.len(), prog.len() - 1);
    // load/store class 1; the device latency 1 for register stores.
    assert_eq!(costs[at[0]], 50, "a word from external RAM");
    assert_eq!(costs[at[1]], 2, "tag write: store + device latency");
    assert_eq!(
        costs[at[2]],
        2 + 130,
        "DMA of a 128-byte block: two 64-byte transactions"
    );
    assert_eq!(costs[at[3]], 1, "load through the tag");
    assert_eq!(costs[at[4]], 1, "store through the tag");
    assert_eq!(costs[at[5]], 1, "load from the SPM window");
    assert_eq!(costs[at[6]], 2 + 130);
    assert_eq!(costs[at[7]], 50);
    // Everything else is an ALU op or a register store at class cost.
    let special: u64 = at.iter().map(|&k| costs[k]).sum();
    let others = costs.len() - at.len();
    // The six other DMA register stores and the UNUSED tag write: store + device latency.
    let reg_stores = 7;
    assert_eq!(
        costs.iter().sum::<u64>(),
        special + (others as u64) + reg_stores,
        "{costs:?}"
    );
    // run() gives the same cycles as step().
    let mut r = machine_at("carousel-paper", OS_SPM, &prog);
    run_to_ebreak(&mut r);
    assert_eq!(r.stats().cycles, m.stats().cycles);
    assert_eq!(r.stats().instructions, m.stats().instructions);
}

/// Two queued copies of B into SPM block 0 (CTRL = 5), a load from the OS scratchpad, a load
/// from the SPM window, a third queued copy and a read of WAIT; returns the program and the
/// indices of the first start, the two loads, the third start and the WAIT read.
fn queued_copies() -> (Vec<Inst>, [usize; 6]) {
    let mut p = cat(&[
        li(S0, B),
        li(S2, DMA),
        li(S3, SPM),
        li(S4, OS_SPM + 0x1000),
        vec![s(Op::Sw, S0, S2, 0), s(Op::Sw, S3, S2, 4)],
        li(T0, 128),
        vec![s(Op::Sw, T0, S2, 8)],
        li(T0, 5),
    ]);
    let mut at = [0; 6];
    at[0] = p.len();
    p.push(s(Op::Sw, T0, S2, 12)); // queued: the store returns at once
    at[1] = p.len();
    p.push(s(Op::Sw, T0, S2, 12)); // a second one, behind the first
    at[2] = p.len();
    p.push(i(Op::Lw, A0, S4, 0)); // the OS scratchpad: no copy uses it
    at[3] = p.len();
    p.push(i(Op::Lw, A1, S3, 8)); // the SPM window: waits for both copies
    at[4] = p.len();
    p.push(s(Op::Sw, T0, S2, 12));
    at[5] = p.len();
    p.push(i(Op::Lw, A2, S2, 0x14)); // WAIT
    p.push(sys(Op::Ebreak));
    (p, at)
}

#[test]
fn queued_copies_overlap_the_core_and_accesses_to_their_memories_wait() {
    let (prog, at) = queued_copies();
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    m.write_debug(B + 8, &0x5555_5555u32.to_le_bytes()).unwrap();
    let costs = step_costs(&mut m);
    assert_eq!(costs[at[0]], 2, "a queued start: store + device latency");
    assert_eq!(costs[at[1]], 2);
    assert_eq!(costs[at[2]], 1, "the OS scratchpad is not waited for");
    // Both copies end 260 cycles after the first start; 5 of them have passed.
    assert_eq!(costs[at[3]], 1 + 260 - 5, "the SPM waits for the engine");
    assert_eq!(m.reg(A1 as usize), 0x5555_5555);
    assert_eq!(costs[at[4]], 2);
    assert_eq!(
        costs[at[5]],
        2 + 130 - 2,
        "WAIT: until the third copy has ended"
    );
    let s = m.stats();
    assert_eq!(mem_stats(&s).dma_copies, 3);
    // run() gives the same cycles as step().
    let mut r = machine_at("carousel-paper", OS_SPM, &prog);
    r.write_debug(B + 8, &0x5555_5555u32.to_le_bytes()).unwrap();
    run_to_ebreak(&mut r);
    assert_eq!(r.stats().cycles, s.cycles);
}

#[test]
fn a_fetch_from_memory_a_queued_copy_uses_waits_for_it() {
    // The same program from external RAM: the instruction after a queued start cannot be
    // fetched until the engine is idle, so the starts gain nothing there.
    let (prog, at) = queued_copies();
    let mut m = machine_at("carousel-paper", RAM, &prog);
    let costs = step_costs(&mut m);
    assert_eq!(
        costs[at[0]],
        50 + 1,
        "fetch 50, store 1, device 1, less one"
    );
    // Its fetch waits for the first copy (130 cycles from the start, 51 have passed).
    assert_eq!(costs[at[1]], 130 - 51 + 51);
    assert_eq!(costs[at[2]], 130 - 51 + 50, "and this one for the second");
    let mut r = machine_at("carousel-paper", RAM, &prog);
    run_to_ebreak(&mut r);
    assert_eq!(r.stats().cycles, m.stats().cycles, "run() = step()");
}

#[test]
fn fetching_from_external_ram_adds_49_cycles_per_instruction() {
    let (prog, _, _) = open_close();
    let mut local = machine_at("carousel-paper", OS_SPM, &prog);
    run_to_ebreak(&mut local);
    let mut ext = machine_at("carousel-paper", RAM, &prog);
    run_to_ebreak(&mut ext);
    let (l, e) = (local.stats(), ext.stats());
    assert_eq!(l.instructions, e.instructions);
    // Every fetch (the final ebreak's too) is one 4-byte transaction: 50 instead of 1.
    let fetches = e.instructions + 1;
    assert_eq!(mem_stats(&e).external_fetches, fetches);
    assert_eq!(e.cycles - l.cycles, 49 * fetches);
    assert_eq!(word(&ext, B + 8), 0x2222_2222);
}

#[test]
fn a_compressed_fetch_from_external_ram_is_a_whole_transaction() {
    // c.nop; c.nop; c.addi a0, 1; ebreak
    let mut m = Machine::new(MachineConfig::new(profile("carousel-paper")));
    let bytes = [0x01, 0x00, 0x01, 0x00, 0x05, 0x05, 0x73, 0x00, 0x10, 0x00];
    m.write_debug(RAM, &bytes).unwrap();
    m.set_pc(RAM);
    assert_eq!(step_costs(&mut m), [50, 50, 50]);
    assert_eq!(m.reg(A0 as usize), 1);
}

#[test]
fn code_mapped_by_a_tag_runs_from_the_spm_copy() {
    // Two versions of a function in two external blocks; the second is DMA'd into SPM block 1
    // and the first block's address is mapped to it.
    let c = RAM + 0x2000;
    let d = c + 128;
    let f = |v| vec![i(Op::Addi, A0, ZERO, v), i(Op::Jalr, ZERO, RA, 0)];
    let prog = cat(&[
        li(S0, c),
        li(S1, TAGS),
        li(S2, DMA),
        li(S3, SPM + 128),
        li(S5, d),
        vec![i(Op::Jalr, RA, S0, 0), i(Op::Addi, S4, A0, 0)],
        dma_copy(S3, S5, 8),
        vec![
            s(Op::Sw, S0, S1, 4), // r_1 = c
            i(Op::Jalr, RA, S0, 0),
            i(Op::Addi, S5, A0, 0),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    load(&mut m, c, &f(1));
    load(&mut m, d, &f(2));
    let costs = step_costs(&mut m);
    assert_eq!(m.reg(S4 as usize), 1, "unmapped: the external version");
    assert_eq!(
        m.reg(S5 as usize),
        2,
        "mapped: the SPM copy, not the predecoded external one"
    );
    let s = m.stats();
    assert_eq!(mem_stats(&s).spm_fetches, 2);
    assert_eq!(mem_stats(&s).external_fetches, 2);
    // addi from external RAM 50, from SPM 1; jalr (jump 3) 52 and 3.
    let n = costs.len();
    assert_eq!(
        &costs[n - 4..],
        &[3, 1, 3, 1],
        "jalr; addi, jalr in SPM; addi back home"
    );
    assert!(costs.windows(2).any(|w| w == [50, 52]), "{costs:?}");
    let mut r = machine_at("carousel-paper", OS_SPM, &prog);
    load(&mut r, c, &f(1));
    load(&mut r, d, &f(2));
    run_to_ebreak(&mut r);
    assert_eq!((r.stats().cycles, r.reg(S5 as usize)), (s.cycles, 2));
}

fn fault(m: &mut Machine) -> (u32, u32, u32) {
    match m.run() {
        RunOutcome::Fault(f) => (f.cause, f.tval, f.pc),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_dma_and_tag_writes_are_store_access_faults() {
    // A DMA from an unmapped address: mcause 7, mtval the bad address, nothing copied.
    let prog = cat(&[
        li(S2, DMA),
        li(S0, 0x4000_0000),
        li(S3, SPM),
        dma_copy(S3, S0, 16),
    ]);
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    let start = OS_SPM + 4 * (prog.len() as u32 - 1);
    assert_eq!(fault(&mut m), (7, 0x4000_0000, start));
    assert_eq!(mem_stats(&m.stats()).dma_bytes, 0);
    // A copy that runs off the end of the SPM window names its first byte past the end.
    let prog = cat(&[
        li(S2, DMA),
        li(S0, RAM),
        li(S3, SPM + 0x7F0),
        dma_copy(S3, S0, 32),
    ]);
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    assert_eq!(fault(&mut m).1, SPM + 0x800);
    // A tag naming a block that is not block-aligned external RAM.
    for bad in [RAM + 4, OS_SPM] {
        let prog = cat(&[li(S1, TAGS), li(T0, bad), vec![s(Op::Sw, T0, S1, 8)]]);
        let mut m = machine_at("carousel-paper", OS_SPM, &prog);
        assert_eq!(fault(&mut m), (7, TAGS + 8, OS_SPM + 16));
    }
    // Byte access to a register.
    let prog = cat(&[li(S1, TAGS), vec![i(Op::Lb, A0, S1, 0)]]);
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    assert_eq!(fault(&mut m).0, 5);
}

#[test]
fn the_registers_read_back() {
    let prog = cat(&[
        li(S1, TAGS),
        li(S2, DMA),
        li(T0, RAM + 0x180),
        vec![
            s(Op::Sw, T0, S1, 60), // r_15
            i(Op::Lw, A0, S1, 60),
            i(Op::Lw, A1, S1, 0),
            i(Op::Lw, A2, S1, 0x100),
            i(Op::Lw, A3, S1, 0x104),
            s(Op::Sw, T0, S2, 8),
            i(Op::Lw, A4, S2, 8),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine_at("carousel-paper", OS_SPM, &prog);
    run_to_ebreak(&mut m);
    let r = |k: u8| m.reg(k as usize);
    assert_eq!(
        (r(A0), r(A1), r(A2), r(A3), r(A4)),
        (RAM + 0x180, 0xFFFF_FFFF, 16 | 7 << 8, SPM, RAM + 0x180)
    );
}

/// Loads/stores on external data from code in the OS scratchpad: (costs, stats).
fn cache_run(name: &str) -> (Vec<u64>, Stats) {
    let prog = cat(&[
        li(S0, B),
        li(S1, B + 0x400), // same slot in a 1 KiB direct-mapped cache
        vec![
            i(Op::Lw, A0, S0, 0),
            i(Op::Lw, A1, S0, 4),
            s(Op::Sw, A1, S0, 8),
            i(Op::Lw, A2, S1, 0),
            i(Op::Lw, A3, S0, 0),
            sys(Op::Ebreak),
        ],
    ]);
    let mut m = machine_at(name, OS_SPM, &prog);
    let costs = step_costs(&mut m);
    (costs[4..].to_vec(), m.stats())
}

#[test]
fn write_through_and_write_back_caches_cost_what_the_policy_says() {
    let (wt, s) = cache_run("cache-wt");
    // miss (fill 53), hit, store to the bus (50), conflict miss, miss again.
    assert_eq!(wt, [53, 1, 50, 53, 53]);
    let d = mem_stats(&s).dcache.unwrap();
    assert_eq!((d.hits, d.misses, d.writebacks), (2, 3, 0));
    let (wb, s) = cache_run("cache-wb");
    // the store hits and dirties the line; the conflict miss writes it back first.
    assert_eq!(wb, [53, 1, 1, 106, 53]);
    let d = mem_stats(&s).dcache.unwrap();
    assert_eq!((d.hits, d.misses, d.writebacks), (2, 3, 1));
    assert_eq!(
        mem_stats(&s).icache.unwrap().misses,
        0,
        "code in the OS scratchpad"
    );
}

#[test]
fn the_instruction_cache_fills_a_line_per_miss() {
    // Eight addi + ebreak from external RAM: lines of 4 instructions.
    let mut prog: Vec<Inst> = (0..8).map(|k| i(Op::Addi, A0, A0, k)).collect();
    prog.push(sys(Op::Ebreak));
    let mut m = machine_at("cache-wt", RAM, &prog);
    let costs = step_costs(&mut m);
    assert_eq!(costs, [53, 1, 1, 1, 53, 1, 1, 1]);
    let ic = mem_stats(&m.stats()).icache.unwrap();
    assert_eq!((ic.hits, ic.misses), (6, 3), "the ebreak's line too");
}

#[test]
fn profile_keys_are_checked_and_errors_name_them() {
    let base = include_str!("../../../profiles/carousel-paper.toml");
    let err = |text: &str| Profile::from_toml(text, "p.toml").unwrap_err().to_string();
    let without_external = base.replace("[external]", "[unused_external]");
    assert!(err(&without_external).contains("unused_external"));
    let no_ext: String = {
        let a = base.find("[external]").unwrap();
        let b = base.find("[carousel]").unwrap();
        format!("{}{}", &base[..a], &base[b..])
    };
    assert!(err(&no_ext).contains("key `carousel`: needs an [external] table"));
    let e = err(&base.replace("block_bits = 7", "block_bitz = 7"));
    assert!(e.contains("block_bitz"), "{e}");
    let e = err(&base.replace("spm_base = 0x3000_0000", "spm_base = 0x2000_0000"));
    assert!(
        e.contains("key `carousel.spm_base`") && e.contains("os_spm"),
        "{e}"
    );
    let e = err(&base.replace("spm_base = 0x3000_0000", "spm_base = 0x3000_0010"));
    assert!(e.contains("not aligned"), "{e}");
    let e = err(&base.replace("base = 0x0F00_1000", "base = 0x0F00_0100"));
    assert!(
        e.contains("key `dma.base`") && e.contains("tag registers"),
        "{e}"
    );
    let e = err(&base.replace("base = 0x0F00_1000", "base = 0x0C00_1000"));
    assert!(e.contains("PLIC"), "{e}");
    let e = err(&base.replace("blocks = 16", "blocks = 65"));
    assert!(e.contains("key `carousel.blocks`"), "{e}");
    let e = err(&base.replace("region = \"ram\"", "region = \"dram\""));
    assert!(e.contains("key `external.region`"), "{e}");
    let wt = include_str!("../../../profiles/cache-wt.toml");
    let e = err(&wt.replace("line = 16", "line = 24"));
    assert!(e.contains("key `cache.line`"), "{e}");
    let e = err(&wt.replace("policy = \"write-through\"", "policy = \"write-around\""));
    assert!(e.contains("cache.policy"), "{e}");
    let both = format!("{base}\n[cache]\nsize = 1024\nline = 16\npolicy = \"write-back\"\n");
    assert!(err(&both).contains("cannot be combined with [carousel]"));
    for name in ["carousel-paper", "cache-wt", "cache-wb"] {
        assert!(Profile::builtin_names().contains(&name));
        assert!(profile(name).external().is_some());
    }
    assert!(profile("mcu").external().is_none());
}

#[test]
fn without_the_extensions_nothing_changes() {
    let prog = cat(&[li(S0, B), vec![i(Op::Lw, A0, S0, 0), sys(Op::Ebreak)]]);
    let mut m = machine_with(Profile::default_mcu(), &prog);
    run_to_ebreak(&mut m);
    assert!(m.stats().memory_system.is_none());
    // The Carousel windows are unmapped on mcu.
    let prog = cat(&[li(S1, TAGS), vec![i(Op::Lw, A0, S1, 0)]]);
    let mut m = machine_with(Profile::default_mcu(), &prog);
    assert_eq!(fault(&mut m).0, 5);
}

/// A timer interrupt inside a loop of external loads, fetched from external RAM: what the
/// handler saw (mepc, mcycle, minstret) and the final cycles.
fn timer_run(name: &str, ticks: u32, how: &dyn Fn(&mut Machine)) -> (u32, u32, u32, u64) {
    let prog = cat(&[
        set_mtvec(HANDLER),
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
        li(T1, 0x80),
        vec![
            csr(Op::Csrrw, ZERO, MIE, T1),
            csr(Op::Csrrsi, ZERO, 0x300, 0x8),
        ],
        li(S0, B),
        li(T2, 200),
        vec![
            i(Op::Lw, A3, S0, 0),
            i(Op::Addi, T2, T2, -1),
            b(Op::Bne, T2, ZERO, -8),
        ],
        exit_code(1),
    ]);
    let handler = cat(&[
        vec![
            csr(Op::Csrrs, A3, 0x341, ZERO),
            csr(Op::Csrrs, A4, 0xB00, ZERO),
            csr(Op::Csrrs, A5, 0xB02, ZERO),
        ],
        exit_ok(),
    ]);
    let mut m = machine_at(name, RAM, &prog);
    load(&mut m, HANDLER, &handler);
    how(&mut m);
    let r = |k: u8| m.reg(k as usize);
    (r(A3), r(A4), r(A5), m.stats().cycles)
}

#[test]
fn interrupts_are_taken_at_the_same_instruction_by_run_step_and_slices() {
    let run = |m: &mut Machine| match m.run() {
        RunOutcome::Exited { code: 0 } => {}
        other => panic!("{other:?} after {} cycles", m.stats().cycles),
    };
    let step = |m: &mut Machine| loop {
        match m.step() {
            None => {}
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(other) => panic!("{other:?}"),
        }
    };
    // Deadlines from the first iterations on (a loop iteration is about 200 cycles fetched
    // from external RAM, 5 from the instruction cache; a tick is 10 cycles).
    for (name, first, stride) in [
        ("carousel-paper", 150, 53),
        ("cache-wb", 20, 7),
        ("cache-wt", 20, 7),
    ] {
        let mut mepcs = std::collections::BTreeSet::new();
        for ticks in (first..first + 12 * stride).step_by(stride as usize) {
            let whole = timer_run(name, ticks, &run);
            mepcs.insert(whole.0);
            assert_eq!(
                timer_run(name, ticks, &step),
                whole,
                "{name} {ticks}: steps"
            );
            for slice in [1, 5, 64] {
                let sliced = |m: &mut Machine| loop {
                    match m.run_for(slice) {
                        None => {}
                        Some(RunOutcome::Exited { code: 0 }) => break,
                        Some(other) => panic!("{other:?}"),
                    }
                };
                assert_eq!(
                    timer_run(name, ticks, &sliced),
                    whole,
                    "{name} {ticks}: {slice}"
                );
            }
        }
        assert!(mepcs.len() >= 3, "{name}: the timer fell at {mepcs:x?}");
    }
}
