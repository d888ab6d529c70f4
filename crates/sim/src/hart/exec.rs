//! The hot loop: executes predecoded blocks, chaining from one block to the next without
//! leaving the loop while nothing needs attention.
//!
//! Loads and stores that hit region 0 (aligned, or misaligned under the emulate policy) and,
//! for stores, an unflagged page, are done inline with one bounds comparison; everything else
//! goes to the bus slow path. Counters are not touched per instruction: a whole block adds its
//! static cycles, its instruction count and one execution count, plus the dynamic `extra`
//! cycles (taken branches, slow-path latencies); the cycle and instruction counters live in
//! locals until the loop exits. Dispatch is on [`Hot`], so a fused pair (`hot.rs`) runs two
//! instructions per dispatch, and a block that loops to itself repeats without reloading the
//! block (docs/simulator-design.md, "The hot loop").

use crate::bus::{Bus, Ctx};
use crate::hart::block::{BlockCache, CInst, NO_BLOCK};
use crate::hart::hot::Hot;
use crate::hart::Hart;
use crate::memory::PAGE_CODE;

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

/// When the hot loop must stop chaining.
pub(crate) struct Bounds {
    /// At most this many body instructions of the first block run.
    pub(crate) limit: u32,
    /// Execution stops before the first instruction that starts at or after this cycle
    /// (interrupts, cycle limit): chaining stops at a block edge that reaches it, and a body
    /// it falls inside runs only up to it.
    pub(crate) next_event: u64,
    /// Chaining stops once the instruction counter reaches this (bounded runs; 0 = never
    /// chain).
    pub(crate) chain_until: u64,
}

/// How many of the first `n` body instructions start less than `room` cycles after the
/// body starts (`pres`: static start offsets).
#[cold]
#[inline(never)]
fn split(pres: &[u32], n: usize, room: u64) -> usize {
    n.min(pres.partition_point(|&p| u64::from(p) < room))
}

/// Index of `ins` within `body` (slow paths only: the hot loop iterates by reference).
#[inline]
fn index_of(body: &[CInst], ins: &CInst) -> usize {
    (ins as *const CInst as usize - body.as_ptr() as usize) / std::mem::size_of::<CInst>()
}

/// Runs block `first` and the blocks after it until the cycle counter reaches
/// `bounds.next_event`, the instruction counter reaches `bounds.chain_until`, a block has a
/// terminator, or the next block is not predecoded. At most `bounds.limit` body instructions
/// of the first block run.
pub(crate) fn run_blocks(
    hart: &mut Hart,
    bus: &mut Bus,
    cache: &mut BlockCache,
    first: u32,
    bounds: &Bounds,
    costs: &DynCosts,
    taken: &mut u64,
) -> Exit {
    let BlockCache {
        map,
        blocks,
        insts,
        pres,
        costs: scosts,
        ..
    } = cache;
    let ram_base = bus.mem.ram_base;
    let load_lim = bus.mem.load_lim;
    let store_lim = bus.mem.store_lim;
    let mis = bus.mis_mask;
    let in_trap = hart.in_trap;
    let mcycle = hart.mcycle;
    let next_event = bounds.next_event;
    let chain_until = bounds.chain_until;
    // Whole-block counters live in locals and are written back on every exit.
    let start_instret = hart.instret;
    let mut cycle = hart.cycle;
    let mut instret = hart.instret;
    let mut id = first;
    let mut limit = bounds.limit;
    macro_rules! write_back {
        () => {
            hart.cycle = cycle;
            hart.instret = instret;
            if instret != start_instret {
                hart.just_trapped = false;
            }
        };
    }
    loop {
        let block = &blocks[id as usize];
        let end_pc = block.end_pc;
        let fall_pc = block.fall_pc;
        let has_term = block.has_term;
        let block_cycles = block.cycles;
        let body = &insts[block.start as usize..][..block.body as usize];
        let body_pres = &pres[block.start as usize..][..block.body as usize];
        let last_pre = u64::from(block.last_pre);
        let n = block.body.min(limit) as usize;
        limit = u32::MAX;
        let n = if cycle.wrapping_add(last_pre) >= next_event {
            // The next event (a timer interrupt, the cycle limit) falls inside this body:
            // run only the instructions that start before it, so that it is seen before the
            // first one that starts at or after it (docs/simulator-design.md).
            split(body_pres, n, next_event.saturating_sub(cycle))
        } else {
            n
        };
        // While the cycle counter stays below this, the next event cannot fall inside another
        // run of this same body (self-loops).
        let self_limit = next_event.saturating_sub(last_pre);
        // The block's own pc: a loop whose body is one block repeats without leaving the
        // inner loop below.
        let self_pc = body.first().map_or(fall_pc, |i| i.pc);
        // The pc after the body (only the last body instruction can transfer control) and
        // the dynamic cycles of this execution of the body.
        let mut next: u32;
        let mut extra: u64;

        macro_rules! ctx {
            ($i:expr, $ins:expr) => {{
                let cycle = cycle
                    .wrapping_add(u64::from(body_pres[$i]))
                    .wrapping_add(extra);
                Ctx {
                    cycle,
                    mcycle: mcycle.value(cycle),
                    instret: instret + $i as u64,
                    pc: $ins.pc,
                    in_trap,
                    static_cost: crate::hart::block::static_cycles($ins.op, scosts),
                }
            }};
        }
        macro_rules! next_after {
            ($i:expr) => {
                body.get($i + 1).map_or(fall_pc, |i| i.pc)
            };
        }
        macro_rules! exception {
            ($i:expr, $cause:expr, $tval:expr) => {{
                write_back!();
                return Exit::Exception {
                    id,
                    n: $i as u32,
                    extra,
                    cause: $cause,
                    tval: $tval,
                };
            }};
        }
        // After a slow path added `extra` cycles at instruction `$i`: if the next event now
        // falls at or before the start of the body's last instruction, stop after this one;
        // the run loop resumes at the next instruction and cuts the rest where it is due.
        // (Cutting here instead would make `n` and the iterator mutable in the hot loop.)
        macro_rules! late {
            ($i:expr) => {{
                let i: usize = $i;
                if i + 1 < n
                    && cycle
                        .wrapping_add(extra)
                        .wrapping_add(u64::from(body_pres[n - 1]))
                        >= next_event
                {
                    stopped!(i);
                }
            }};
        }
        macro_rules! stopped {
            ($i:expr) => {{
                hart.pc = next_after!($i);
                write_back!();
                return Exit::Retired {
                    id,
                    n: $i as u32 + 1,
                    extra,
                    stopped: true,
                };
            }};
        }

        loop {
            next = fall_pc;
            extra = 0;
            let mut iter = body[..n].iter();
            while let Some(ins) = iter.next() {
                let x = &mut hart.x;
                let a = x[ins.rs1 as usize];
                let imm = ins.imm;

                // Register-register and register-immediate ALU results of instruction `$s`.
                macro_rules! rr {
                    ($s:expr, $f:expr) => {{
                        let s = $s;
                        let v = $f(x[s.rs1 as usize], x[s.rs2 as usize]);
                        x[s.rd as usize] = v;
                    }};
                }
                macro_rules! ri {
                    ($s:expr, $f:expr) => {{
                        let s = $s;
                        let v = $f(x[s.rs1 as usize], s.imm);
                        x[s.rd as usize] = v;
                    }};
                }
                macro_rules! load {
                    ($s:expr, $w:expr, $conv:expr) => {{
                        let s: &CInst = $s;
                        let addr = hart.x[s.rs1 as usize].wrapping_add(s.imm);
                        let off = addr.wrapping_sub(ram_base);
                        let v: u32 = if off < load_lim[$w] && addr & mis[$w] == 0 {
                            let o = off as usize;
                            let d = &bus.mem.ram.data;
                            match $w {
                                1 => u32::from(d[o]),
                                // One bounds check; `off < load_lim` guarantees the range is
                                // in bounds, so the defaults are never used.
                                2 => d.get(o..o + 2).map_or(0, |s| {
                                    u32::from(u16::from_le_bytes(s.try_into().unwrap_or_default()))
                                }),
                                _ => d.get(o..o + 4).map_or(0, |s| {
                                    u32::from_le_bytes(s.try_into().unwrap_or_default())
                                }),
                            }
                        } else {
                            let k = index_of(body, s);
                            let c = ctx!(k, s);
                            match bus.load(addr, $w, &c) {
                                Ok((v, delta)) => {
                                    extra = extra.wrapping_add(delta);
                                    // The load retires before the body may end here: its
                                    // result is written first.
                                    hart.x[s.rd as usize] = $conv(v);
                                    // A device read that changed a pending interrupt (a PLIC
                                    // claim, a UART read) ends the body like such a store.
                                    if bus.irq_dirty {
                                        stopped!(k);
                                    }
                                    late!(k);
                                    v
                                }
                                Err((cause, tval)) => exception!(k, cause, tval),
                            }
                        };
                        hart.x[s.rd as usize] = $conv(v);
                    }};
                }
                macro_rules! store {
                    ($w:expr) => {{
                        let b = x[ins.rs2 as usize];
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
                            let i = index_of(body, ins);
                            let c = ctx!(i, ins);
                            match bus.store(map, addr, $w, b, &c) {
                                Ok((delta, stop)) => {
                                    extra = extra.wrapping_add(delta);
                                    if stop {
                                        stopped!(i);
                                    }
                                    late!(i);
                                }
                                Err((cause, tval)) => exception!(i, cause, tval),
                            }
                        }
                    }};
                }
                macro_rules! branch {
                    ($cond:expr, $target:expr) => {{
                        if $cond {
                            next = $target;
                            extra = extra.wrapping_add(costs.taken_delta);
                            *taken += 1;
                        }
                    }};
                }
                // The second instruction of a fused pair runs only if the run is not cut
                // between the two.
                macro_rules! second {
                    ($body:expr) => {{
                        if let Some(s) = iter.next() {
                            $body(s);
                        }
                    }};
                }
                macro_rules! bne_of {
                    () => {
                        |s: &CInst| {
                            let x = &hart.x;
                            branch!(x[s.rs1 as usize] != x[s.rs2 as usize], s.imm)
                        }
                    };
                }
                macro_rules! beq_of {
                    () => {
                        |s: &CInst| {
                            let x = &hart.x;
                            branch!(x[s.rs1 as usize] == x[s.rs2 as usize], s.imm)
                        }
                    };
                }

                match ins.hot {
                    // `imm` of lui and auipc is the final value (auipc's pc added at
                    // predecode).
                    Hot::Lui | Hot::Auipc => x[ins.rd as usize] = imm,
                    Hot::Jal => {
                        x[ins.rd as usize] = end_pc;
                        next = imm;
                    }
                    Hot::Jalr => {
                        next = a.wrapping_add(imm) & !1;
                        x[ins.rd as usize] = end_pc;
                    }
                    Hot::Beq => branch!(a == x[ins.rs2 as usize], imm),
                    Hot::Bne => branch!(a != x[ins.rs2 as usize], imm),
                    Hot::Blt => branch!((a as i32) < (x[ins.rs2 as usize] as i32), imm),
                    Hot::Bge => branch!((a as i32) >= (x[ins.rs2 as usize] as i32), imm),
                    Hot::Bltu => branch!(a < x[ins.rs2 as usize], imm),
                    Hot::Bgeu => branch!(a >= x[ins.rs2 as usize], imm),
                    Hot::Lb => load!(ins, 1, |v: u32| v as u8 as i8 as i32 as u32),
                    Hot::Lh => load!(ins, 2, |v: u32| v as u16 as i16 as i32 as u32),
                    Hot::Lw => load!(ins, 4, |v: u32| v),
                    Hot::Lbu => load!(ins, 1, |v: u32| v),
                    Hot::Lhu => load!(ins, 2, |v: u32| v),
                    Hot::Sb => store!(1),
                    Hot::Sh => store!(2),
                    Hot::Sw => store!(4),
                    Hot::Addi => ri!(ins, u32::wrapping_add),
                    Hot::Slti => ri!(ins, |a, b| u32::from((a as i32) < (b as i32))),
                    Hot::Sltiu => ri!(ins, |a, b| u32::from(a < b)),
                    Hot::Xori => ri!(ins, |a, b| a ^ b),
                    Hot::Ori => ri!(ins, |a, b| a | b),
                    Hot::Andi => ri!(ins, |a, b| a & b),
                    Hot::Slli => ri!(ins, |a: u32, b| a << (b & 31)),
                    Hot::Srli => ri!(ins, |a: u32, b| a >> (b & 31)),
                    Hot::Srai => ri!(ins, |a, b| ((a as i32) >> (b & 31)) as u32),
                    Hot::Add => rr!(ins, u32::wrapping_add),
                    Hot::Sub => rr!(ins, u32::wrapping_sub),
                    Hot::Sll => rr!(ins, |a: u32, b| a << (b & 31)),
                    Hot::Slt => rr!(ins, |a, b| u32::from((a as i32) < (b as i32))),
                    Hot::Sltu => rr!(ins, |a, b| u32::from(a < b)),
                    Hot::Xor => rr!(ins, |a, b| a ^ b),
                    Hot::Srl => rr!(ins, |a: u32, b| a >> (b & 31)),
                    Hot::Sra => rr!(ins, |a, b| ((a as i32) >> (b & 31)) as u32),
                    Hot::Or => rr!(ins, |a, b| a | b),
                    Hot::And => rr!(ins, |a, b| a & b),
                    Hot::Fence => {}
                    Hot::Mul => rr!(ins, u32::wrapping_mul),
                    Hot::Mulh => rr!(ins, |a, b| {
                        ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
                    }),
                    Hot::Mulhsu => rr!(ins, |a, b| {
                        ((i64::from(a as i32) * i64::from(b)) >> 32) as u32
                    }),
                    Hot::Mulhu => rr!(ins, |a, b| ((u64::from(a) * u64::from(b)) >> 32) as u32),
                    Hot::Div => rr!(ins, div),
                    Hot::Divu => rr!(ins, |a: u32, b| a.checked_div(b).unwrap_or(u32::MAX)),
                    Hot::Rem => rr!(ins, rem),
                    Hot::Remu => rr!(ins, |a: u32, b| if b == 0 { a } else { a % b }),
                    Hot::AddBne => {
                        rr!(ins, u32::wrapping_add);
                        second!(bne_of!());
                    }
                    Hot::AddiBne => {
                        ri!(ins, u32::wrapping_add);
                        second!(bne_of!());
                    }
                    Hot::XorBne => {
                        rr!(ins, |a, b| a ^ b);
                        second!(bne_of!());
                    }
                    Hot::AddBeq => {
                        rr!(ins, u32::wrapping_add);
                        second!(beq_of!());
                    }
                    Hot::AddiBeq => {
                        ri!(ins, u32::wrapping_add);
                        second!(beq_of!());
                    }
                    Hot::AddiAddi => {
                        ri!(ins, u32::wrapping_add);
                        second!(|s: &CInst| ri!(s, u32::wrapping_add));
                    }
                    Hot::MulAdd => {
                        rr!(ins, u32::wrapping_mul);
                        second!(|s: &CInst| rr!(s, u32::wrapping_add));
                    }
                    Hot::SlliAdd => {
                        ri!(ins, |a: u32, b| a << (b & 31));
                        second!(|s: &CInst| rr!(s, u32::wrapping_add));
                    }
                    Hot::AndiSub => {
                        ri!(ins, |a, b| a & b);
                        second!(|s: &CInst| rr!(s, u32::wrapping_sub));
                    }
                    Hot::SrliAnd => {
                        ri!(ins, |a: u32, b| a >> (b & 31));
                        second!(|s: &CInst| rr!(s, |a, b| a & b));
                    }
                    Hot::SrliAndi => {
                        ri!(ins, |a: u32, b| a >> (b & 31));
                        second!(|s: &CInst| ri!(s, |a, b| a & b));
                    }
                    Hot::SlliSrli => {
                        ri!(ins, |a: u32, b| a << (b & 31));
                        second!(|s: &CInst| ri!(s, |a: u32, b| a >> (b & 31)));
                    }
                    Hot::SlliSrai => {
                        ri!(ins, |a: u32, b| a << (b & 31));
                        second!(|s: &CInst| ri!(s, |a, b| ((a as i32) >> (b & 31)) as u32));
                    }
                    Hot::LuiAddi => {
                        x[ins.rd as usize] = imm;
                        second!(|s: &CInst| ri!(s, u32::wrapping_add));
                    }
                    Hot::LwLw => {
                        load!(ins, 4, |v: u32| v);
                        if let Some(s) = iter.next() {
                            load!(s, 4, |v: u32| v);
                        }
                    }
                    Hot::AddiLw => {
                        ri!(ins, u32::wrapping_add);
                        if let Some(s) = iter.next() {
                            load!(s, 4, |v: u32| v);
                        }
                    }
                    Hot::LrW
                    | Hot::ScW
                    | Hot::AmoswapW
                    | Hot::AmoaddW
                    | Hot::AmoxorW
                    | Hot::AmoandW
                    | Hot::AmoorW
                    | Hot::AmominW
                    | Hot::AmomaxW
                    | Hot::AmominuW
                    | Hot::AmomaxuW => {
                        let b = x[ins.rs2 as usize];
                        let i = index_of(body, ins);
                        let c = ctx!(i, ins);
                        match crate::hart::amo::amo(ins, a, b, bus, map, &c) {
                            Ok((v, delta, stop)) => {
                                hart.x[ins.rd as usize] = v;
                                extra = extra.wrapping_add(delta);
                                if stop {
                                    stopped!(i);
                                }
                                late!(i);
                            }
                            Err((cause, tval)) => exception!(i, cause, tval),
                        }
                    }
                    // Terminators never appear in a body.
                    Hot::Term => {
                        unreachable!("system instruction {:?} inside a block body", ins.op)
                    }
                }
            }
            if n < body.len() || has_term {
                if n < body.len() {
                    next = body[n].pc;
                }
                hart.pc = next;
                write_back!();
                return Exit::Retired {
                    id,
                    n: n as u32,
                    extra,
                    stopped: false,
                };
            }
            blocks[id as usize].execs += 1;
            cycle = cycle.wrapping_add(block_cycles).wrapping_add(extra);
            instret += body.len() as u64;
            if cycle >= self_limit || instret >= chain_until {
                if cycle >= next_event || instret >= chain_until {
                    hart.pc = next;
                    write_back!();
                    return Exit::Continue;
                }
                // The next event may fall inside the next body: the outer loop splits it.
                break;
            }
            if next != self_pc {
                break;
            }
        }
        let block = &mut blocks[id as usize];
        let cached = if next == end_pc {
            block.fall
        } else if next == block.other_pc {
            block.other
        } else {
            NO_BLOCK
        };
        if cached != NO_BLOCK {
            id = cached;
            continue;
        }
        let Some(nid) = map.lookup(next) else {
            hart.pc = next;
            write_back!();
            return Exit::Continue;
        };
        if next == end_pc {
            block.fall = nid;
        } else {
            block.other_pc = next;
            block.other = nid;
        }
        id = nid;
    }
}
