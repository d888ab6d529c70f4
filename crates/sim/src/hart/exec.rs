//! The hot loop: executes predecoded blocks, chaining from one block to the next without
//! leaving the loop while nothing needs attention.
//!
//! Loads and stores that hit region 0 (aligned, or misaligned under the emulate policy) and,
//! for stores, an unflagged page, are done inline with one bounds comparison; everything else
//! goes to the bus slow path. Counters are not touched per instruction: a whole block adds its
//! static cycles, its instruction count and one execution count, plus the dynamic `extra`
//! cycles (taken branches, slow-path latencies).

use crate::bus::{Bus, Ctx};
use crate::hart::block::{BlockCache, NO_BLOCK};
use crate::hart::Hart;
use crate::memory::PAGE_CODE;
use cactus_isa::Op;

/// How [`run_blocks`] ended.
pub(crate) enum Exit {
    /// Whole blocks ran and are accounted; `hart.pc` is the next pc (an event is due, the
    /// next block is not predecoded, or chaining is off).
    Continue,
    /// The first `n` body instructions of block `id` retired but are not accounted yet;
    /// `hart.pc` is the next pc. `stopped` means the block must not go on to its terminator
    /// (a store hit code, a device needs attention, the run ends).
    Retired {
        id: u32,
        n: u32,
        extra: u64,
        stopped: bool,
    },
    /// Body instruction `n` of block `id` raised an exception (the `n` before it retired and
    /// are not accounted; `hart.pc` is stale).
    Exception {
        id: u32,
        n: u32,
        extra: u64,
        cause: u32,
        tval: u32,
    },
}

/// Dynamic cost parameters of the hot loop.
pub(crate) struct DynCosts {
    /// branch_taken - branch_not_taken (wrapping).
    pub(crate) taken_delta: u64,
}

#[inline]
fn div(a: u32, b: u32) -> u32 {
    let (a, b) = (a as i32, b as i32);
    if b == 0 {
        u32::MAX
    } else {
        a.wrapping_div(b) as u32
    }
}

#[inline]
fn rem(a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    if sb == 0 {
        a
    } else {
        sa.wrapping_rem(sb) as u32
    }
}

/// Runs block `first` and, if `chain`, the blocks after it until the cycle counter reaches
/// `next_event`, a block has a terminator, or the next block is not predecoded. At most
/// `limit` body instructions of the first block run.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_blocks(
    hart: &mut Hart,
    bus: &mut Bus,
    cache: &mut BlockCache,
    first: u32,
    limit: u32,
    next_event: u64,
    chain: bool,
    costs: &DynCosts,
    taken: &mut u64,
) -> Exit {
    let BlockCache {
        map,
        blocks,
        insts,
        state,
        costs: scosts,
        ..
    } = cache;
    let ram_base = bus.mem.ram_base;
    let load_lim = bus.mem.load_lim;
    let store_lim = bus.mem.store_lim;
    let mis = bus.mis_mask;
    let in_trap = hart.in_trap;
    let mcycle_off = hart.mcycle_off;
    let mut id = first;
    loop {
        let block = &blocks[id as usize];
        let body = &insts[block.start as usize..][..block.body as usize];
        let n = block.body.min(limit) as usize;
        let mut next = body.get(n).map_or(block.fall_pc, |i| i.pc);
        let mut extra: u64 = 0;
        let base_cycle = hart.cycle;
        let base_instret = hart.instret;

        macro_rules! ctx {
            ($i:expr, $ins:expr) => {{
                let cycle = base_cycle
                    .wrapping_add(u64::from($ins.pre))
                    .wrapping_add(extra);
                Ctx {
                    cycle,
                    mcycle: cycle.wrapping_add(mcycle_off),
                    instret: base_instret + $i as u64,
                    pc: $ins.pc,
                    in_trap,
                    static_cost: crate::hart::block::static_cycles($ins.op, scosts),
                }
            }};
        }
        macro_rules! next_after {
            ($i:expr) => {
                body.get($i + 1).map_or(block.fall_pc, |i| i.pc)
            };
        }

        for (i, ins) in body[..n].iter().enumerate() {
            let x = &mut hart.x;
            let a = x[ins.rs1 as usize];
            let b = x[ins.rs2 as usize];
            let rd = ins.rd as usize;
            let imm = ins.imm;

            macro_rules! load {
                ($w:expr, $conv:expr) => {{
                    let addr = a.wrapping_add(imm);
                    let off = addr.wrapping_sub(ram_base);
                    let v: u32 = if off < load_lim[$w] && addr & mis[$w] == 0 {
                        let o = off as usize;
                        let d = &bus.mem.ram.data;
                        match $w {
                            1 => u32::from(d[o]),
                            // One bounds check; `off < load_lim` guarantees the range is in
                            // bounds, so the defaults are never used.
                            2 => d.get(o..o + 2).map_or(0, |s| {
                                u32::from(u16::from_le_bytes(s.try_into().unwrap_or_default()))
                            }),
                            _ => d.get(o..o + 4).map_or(0, |s| {
                                u32::from_le_bytes(s.try_into().unwrap_or_default())
                            }),
                        }
                    } else {
                        let c = ctx!(i, ins);
                        match bus.load(addr, $w, &c) {
                            Ok((v, delta)) => {
                                extra = extra.wrapping_add(delta);
                                v
                            }
                            Err((cause, tval)) => {
                                return Exit::Exception {
                                    id,
                                    n: i as u32,
                                    extra,
                                    cause,
                                    tval,
                                }
                            }
                        }
                    };
                    hart.x[rd] = $conv(v);
                }};
            }
            macro_rules! store {
                ($w:expr) => {{
                    let addr = a.wrapping_add(imm);
                    let off = addr.wrapping_sub(ram_base);
                    let flags = bus.mem.flags[(addr >> 12) as usize]
                        | bus.mem.flags[(addr.wrapping_add($w - 1) >> 12) as usize];
                    // Data sharing a page with code takes the fast path unless it really
                    // overlaps predecoded instructions.
                    if off < store_lim[$w]
                        && addr & mis[$w] == 0
                        && (flags == 0 || (flags == PAGE_CODE && !map.covers(addr, $w)))
                    {
                        let o = off as usize;
                        let d = &mut bus.mem.ram.data;
                        let bytes = b.to_le_bytes();
                        d[o..o + $w].copy_from_slice(&bytes[..$w]);
                    } else {
                        let c = ctx!(i, ins);
                        match bus.store(map, addr, $w, b, &c) {
                            Ok((delta, stop)) => {
                                extra = extra.wrapping_add(delta);
                                if stop {
                                    hart.pc = next_after!(i);
                                    return Exit::Retired {
                                        id,
                                        n: i as u32 + 1,
                                        extra,
                                        stopped: true,
                                    };
                                }
                            }
                            Err((cause, tval)) => {
                                return Exit::Exception {
                                    id,
                                    n: i as u32,
                                    extra,
                                    cause,
                                    tval,
                                }
                            }
                        }
                    }
                }};
            }
            macro_rules! branch {
                ($cond:expr) => {{
                    if $cond {
                        next = imm;
                        extra = extra.wrapping_add(costs.taken_delta);
                        *taken += 1;
                    }
                }};
            }

            match ins.op {
                Op::Lui => x[rd] = imm,
                Op::Auipc => x[rd] = ins.pc.wrapping_add(imm),
                Op::Jal => {
                    x[rd] = block.end_pc;
                    next = imm;
                }
                Op::Jalr => {
                    next = a.wrapping_add(imm) & !1;
                    x[rd] = block.end_pc;
                }
                Op::Beq => branch!(a == b),
                Op::Bne => branch!(a != b),
                Op::Blt => branch!((a as i32) < (b as i32)),
                Op::Bge => branch!((a as i32) >= (b as i32)),
                Op::Bltu => branch!(a < b),
                Op::Bgeu => branch!(a >= b),
                Op::Lb => load!(1, |v: u32| v as u8 as i8 as i32 as u32),
                Op::Lh => load!(2, |v: u32| v as u16 as i16 as i32 as u32),
                Op::Lw => load!(4, |v: u32| v),
                Op::Lbu => load!(1, |v: u32| v),
                Op::Lhu => load!(2, |v: u32| v),
                Op::Sb => store!(1),
                Op::Sh => store!(2),
                Op::Sw => store!(4),
                Op::Addi => x[rd] = a.wrapping_add(imm),
                Op::Slti => x[rd] = u32::from((a as i32) < (imm as i32)),
                Op::Sltiu => x[rd] = u32::from(a < imm),
                Op::Xori => x[rd] = a ^ imm,
                Op::Ori => x[rd] = a | imm,
                Op::Andi => x[rd] = a & imm,
                Op::Slli => x[rd] = a << (imm & 31),
                Op::Srli => x[rd] = a >> (imm & 31),
                Op::Srai => x[rd] = ((a as i32) >> (imm & 31)) as u32,
                Op::Add => x[rd] = a.wrapping_add(b),
                Op::Sub => x[rd] = a.wrapping_sub(b),
                Op::Sll => x[rd] = a << (b & 31),
                Op::Slt => x[rd] = u32::from((a as i32) < (b as i32)),
                Op::Sltu => x[rd] = u32::from(a < b),
                Op::Xor => x[rd] = a ^ b,
                Op::Srl => x[rd] = a >> (b & 31),
                Op::Sra => x[rd] = ((a as i32) >> (b & 31)) as u32,
                Op::Or => x[rd] = a | b,
                Op::And => x[rd] = a & b,
                Op::Fence => {}
                Op::Mul => x[rd] = a.wrapping_mul(b),
                Op::Mulh => x[rd] = ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32,
                Op::Mulhsu => x[rd] = ((i64::from(a as i32) * i64::from(b)) >> 32) as u32,
                Op::Mulhu => x[rd] = ((u64::from(a) * u64::from(b)) >> 32) as u32,
                Op::Div => x[rd] = div(a, b),
                Op::Divu => x[rd] = a.checked_div(b).unwrap_or(u32::MAX),
                Op::Rem => x[rd] = rem(a, b),
                Op::Remu => x[rd] = if b == 0 { a } else { a % b },
                Op::LrW
                | Op::ScW
                | Op::AmoswapW
                | Op::AmoaddW
                | Op::AmoxorW
                | Op::AmoandW
                | Op::AmoorW
                | Op::AmominW
                | Op::AmomaxW
                | Op::AmominuW
                | Op::AmomaxuW => {
                    let c = ctx!(i, ins);
                    match crate::hart::amo::amo(ins, a, b, bus, map, &c) {
                        Ok((v, delta, stop)) => {
                            hart.x[rd] = v;
                            extra = extra.wrapping_add(delta);
                            if stop {
                                hart.pc = next_after!(i);
                                return Exit::Retired {
                                    id,
                                    n: i as u32 + 1,
                                    extra,
                                    stopped: true,
                                };
                            }
                        }
                        Err((cause, tval)) => {
                            return Exit::Exception {
                                id,
                                n: i as u32,
                                extra,
                                cause,
                                tval,
                            }
                        }
                    }
                }
                // Terminators never appear in a body.
                Op::FenceI
                | Op::Ecall
                | Op::Ebreak
                | Op::Mret
                | Op::Wfi
                | Op::Csrrw
                | Op::Csrrs
                | Op::Csrrc
                | Op::Csrrwi
                | Op::Csrrsi
                | Op::Csrrci => {
                    unreachable!("system instruction {:?} inside a block body", ins.op)
                }
            }
        }
        hart.pc = next;
        if n < block.body as usize || block.has_term {
            return Exit::Retired {
                id,
                n: n as u32,
                extra,
                stopped: false,
            };
        }
        let st = &mut state[id as usize];
        st.execs += 1;
        hart.cycle = hart.cycle.wrapping_add(block.cycles).wrapping_add(extra);
        hart.instret += u64::from(block.body);
        hart.just_trapped = false;
        if !chain || hart.cycle >= next_event {
            return Exit::Continue;
        }
        let cached = if next == block.end_pc {
            st.fall
        } else if next == st.other_pc {
            st.other
        } else {
            NO_BLOCK
        };
        if cached != NO_BLOCK {
            id = cached;
            continue;
        }
        let Some(nid) = map.lookup(next) else {
            return Exit::Continue;
        };
        if next == block.end_pc {
            st.fall = nid;
        } else {
            st.other_pc = next;
            st.other = nid;
        }
        id = nid;
    }
}
