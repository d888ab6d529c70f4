//! Predecoded basic blocks and their cache.
//!
//! A block is a run of compact instructions ([`CInst`]) starting at one pc, ending after a
//! branch or jump, before/at a system instruction (CSR, ecall, ebreak, mret, wfi, fence.i:
//! the block's optional *terminator*), at a 4 KiB page boundary, before a breakpoint, before
//! an undecodable or unfetchable instruction, or after [`MAX_BODY`] instructions. Each block
//! carries its static cycle sum and per-class counts, so the executor adds them once per block.
//!
//! Where blocks start and which halfwords they cover is kept per 4 KiB page in
//! [`CodeMap`] (`codemap.rs`).

use crate::cost::{CostClass, NUM_CLASSES};
use crate::ext::fetch::{Cost as FetchCost, Totals, Uncached};
use crate::hart::hot::{fuse, single, Hot};
use crate::memory::{Memory, PAGE_CODE};
use cactus_isa::{decode, Class, Op};

/// Most instructions in a block body.
pub(crate) const MAX_BODY: usize = 96;
use crate::hart::codemap::{CodeMap, CodePage, NONE};
/// Register index that absorbs writes to x0.
pub(crate) const X0_SINK: u8 = 32;

/// One compact predecoded instruction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CInst {
    /// The operation.
    pub(crate) op: Op,
    /// What the hot loop dispatches on (`op`, or a fused pair starting here).
    pub(crate) hot: Hot,
    /// Destination register; x0 is remapped to [`X0_SINK`].
    pub(crate) rd: u8,
    /// Source 1 (or the uimm of `csrr*i`).
    pub(crate) rs1: u8,
    /// Source 2.
    pub(crate) rs2: u8,
    /// Immediate (as decoded; for `jal` and branches the absolute target, for `auipc` the
    /// result).
    pub(crate) imm: u32,
    /// Address of this instruction.
    pub(crate) pc: u32,
}

/// One predecoded block.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    /// pc after the last instruction (fall-through / link address).
    pub(crate) end_pc: u32,
    /// Index of the first instruction in the cache's instruction vector.
    pub(crate) start: u32,
    /// Number of body instructions (executed by the hot loop).
    pub(crate) body: u32,
    /// True if a system instruction follows the body (at `start + body`).
    pub(crate) has_term: bool,
    /// Static cycles of the body.
    pub(crate) cycles: u64,
    /// Static cycles of the body before its last instruction (0 for an empty body): if the
    /// next event is further away than this, no instruction of the body starts at or after
    /// it and the whole body runs without looking.
    pub(crate) last_pre: u32,
    /// pc after the body: the terminator's pc, or `end_pc`.
    pub(crate) fall_pc: u32,
    /// Times the whole body was executed.
    pub(crate) execs: u64,
    /// Cached successors, so that chaining needs no page-table lookup (block ids are only
    /// valid until the next flush, which drops the blocks too): the block at `end_pc`
    /// (fall-through) or NONE ...
    pub(crate) fall: u32,
    /// ... and the last other successor pc seen (taken branch, jump target) and its block,
    /// or NONE.
    pub(crate) other_pc: u32,
    /// See `other_pc`.
    pub(crate) other: u32,
}

/// "No block" in links and page tables.
pub(crate) const NO_BLOCK: u32 = NONE;

/// Why no block could be built at a pc: the trap to take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FetchTrap {
    pub(crate) cause: u32,
    pub(crate) tval: u32,
}

/// Static cost information the translator needs.
pub(crate) struct StaticCosts {
    /// Cycles per class.
    pub(crate) cycles: [u32; NUM_CLASSES],
    /// Latency of region 0, added to every memory instruction's static cost.
    pub(crate) ram_latency: u32,
    /// Static energy per instruction of each class in pJ, region 0's access included for
    /// memory classes (`EnergyPrices::static_pj`); only for energy per task.
    pub(crate) energy_pj: [f64; NUM_CLASSES],
}

/// The block cache.
pub(crate) struct BlockCache {
    pub(crate) map: CodeMap,
    page_nums: Vec<u32>,
    pub(crate) blocks: Vec<Block>,
    pub(crate) insts: Vec<CInst>,
    /// Static cycles of the instructions before each instruction in its block (parallel to
    /// `insts`; slow paths only, which keeps [`CInst`] at 16 bytes).
    pub(crate) pres: Vec<u32>,
    /// Static per-class counts of each block's body, branches counted as not taken
    /// (parallel to `blocks`).
    pub(crate) counts: Vec<[u32; NUM_CLASSES]>,
    /// Static energy of each block's body in pJ (`counts` priced with
    /// `StaticCosts::energy_pj`; parallel to `blocks`).
    energies: Vec<f64>,
    /// Class counts of blocks dropped by flushes (execs × counts).
    pub(crate) flushed_counts: [u64; NUM_CLASSES],
    /// Static costs used to build blocks.
    pub(crate) costs: StaticCosts,
    /// The stack bound is armed (`mstackbound != 0`): every instruction that writes sp is
    /// predecoded as a block terminator, checked outside the hot loop (`spbound.rs`).
    /// Changing it needs a flush (`Machine::arm_stack_bound`).
    pub(crate) guard_sp: bool,
    /// Memory-system mode without caches: every instruction's fetch cost (fixed until the
    /// next flush, which every tag write causes) is part of its static cycles
    /// (`ext/fetch.rs`). None: fetches cost nothing beyond the class cycles.
    pub(crate) fetch: Option<Uncached>,
    /// With `fetch`: the fetch cost of each instruction (parallel to `insts`; empty
    /// otherwise).
    pub(crate) fetches: Vec<FetchCost>,
    /// With `fetch`: each block body's fetch totals (parallel to `blocks`).
    fetch_sums: Vec<Totals>,
    /// Fetch totals of blocks dropped by flushes (execs × sums).
    flushed_fetch: Totals,
    /// Fetch totals of partial bodies and terminators.
    pub(crate) partial_fetch: Totals,
}

/// The cost class an op is charged as statically (branches as not taken).
pub(crate) fn static_class(op: Op) -> CostClass {
    match op.class() {
        Class::Alu => CostClass::Alu,
        Class::Branch => CostClass::BranchNotTaken,
        Class::Jump => CostClass::Jump,
        Class::Load => CostClass::Load,
        Class::Store => CostClass::Store,
        Class::Mul => CostClass::Mul,
        Class::Div => CostClass::Div,
        Class::Csr => CostClass::Csr,
        Class::Amo => CostClass::Amo,
        Class::Fence => CostClass::Fence,
        Class::System if op == Op::Mret => CostClass::Mret,
        Class::System => CostClass::System,
    }
}

/// Static cycles of one instruction.
pub(crate) fn static_cycles(op: Op, costs: &StaticCosts) -> u32 {
    let class = static_class(op);
    let mem = matches!(class, CostClass::Load | CostClass::Store | CostClass::Amo);
    costs.cycles[class as usize] + if mem { costs.ram_latency } else { 0 }
}

/// True if the op ends a block as its terminator (executed outside the hot loop).
fn is_terminator(op: Op) -> bool {
    matches!(op.class(), Class::Csr | Class::System) || op == Op::FenceI
}

/// True if the op ends a block as the last body instruction.
fn ends_block(op: Op) -> bool {
    matches!(op.class(), Class::Branch | Class::Jump)
}

impl BlockCache {
    /// An empty cache; `guard_sp`: predecode writes of sp as terminators (armed bound).
    pub(crate) fn new(costs: StaticCosts, guard_sp: bool) -> BlockCache {
        BlockCache {
            costs,
            guard_sp,
            map: CodeMap::new(),
            counts: Vec::new(),
            energies: Vec::new(),
            page_nums: Vec::new(),
            blocks: Vec::new(),
            insts: Vec::new(),
            pres: Vec::new(),
            flushed_counts: [0; NUM_CLASSES],
            fetch: None,
            fetches: Vec::new(),
            fetch_sums: Vec::new(),
            flushed_fetch: Totals::default(),
            partial_fetch: Totals::default(),
        }
    }

    /// The same cache with fetch costs in the static cycles (`fetch`).
    pub(crate) fn with_fetch(mut self, fetch: Option<Uncached>) -> BlockCache {
        self.fetch = fetch;
        self
    }

    /// The block starting at `pc`, if predecoded.
    #[inline]
    pub(crate) fn lookup(&self, pc: u32) -> Option<u32> {
        self.map.lookup(pc)
    }

    /// True if any byte of `addr..addr+len` is covered by predecoded code.
    pub(crate) fn covers(&self, addr: u32, len: u32) -> bool {
        self.map.covers(addr, len)
    }

    fn page(&mut self, mem: &mut Memory, page: u32) -> &mut CodePage {
        let (page_ref, new) = self.map.page_mut(page);
        if new {
            self.page_nums.push(page);
            mem.set_flag(page << 12, 1, PAGE_CODE);
        }
        page_ref
    }

    fn mark(&mut self, mem: &mut Memory, pc: u32, len: u32) {
        for a in [pc, pc.wrapping_add(len - 2)] {
            let h = ((a >> 1) & 0x7FF) as usize;
            self.page(mem, a >> 12).cov[h / 64] |= 1 << (h % 64);
        }
    }

    /// Drops every block (folding their counts into `flushed_counts`) and clears the code
    /// page flags.
    pub(crate) fn flush(&mut self, mem: &mut Memory) {
        self.flushed_counts = self.class_counts();
        self.flushed_fetch = self.block_fetch_totals();
        self.fetches.clear();
        self.fetch_sums.clear();
        for &p in &self.page_nums {
            mem.clear_page_flag(p, PAGE_CODE);
        }
        self.map.clear(&self.page_nums);
        self.page_nums.clear();
        self.blocks.clear();
        self.counts.clear();
        self.energies.clear();
        self.insts.clear();
        self.pres.clear();
    }

    /// Class counts of all whole-body executions so far.
    pub(crate) fn class_counts(&self) -> [u64; NUM_CLASSES] {
        let mut out = self.flushed_counts;
        for (counts, st) in self.counts.iter().zip(self.blocks.iter()) {
            for (acc, &c) in out.iter_mut().zip(counts.iter()) {
                *acc += st.execs * u64::from(c);
            }
        }
        out
    }

    /// Static energy in pJ of the whole-body executions of the blocks in the cache (not of
    /// flushed ones: their counts are in `flushed_counts`). One multiply-add per block.
    pub(crate) fn live_energy_pj(&self) -> f64 {
        self.energies
            .iter()
            .zip(self.blocks.iter())
            .map(|(&e, b)| b.execs as f64 * e)
            .sum()
    }

    /// Fetch totals of whole-body executions so far.
    fn block_fetch_totals(&self) -> Totals {
        let mut out = self.flushed_fetch;
        for (sum, st) in self.fetch_sums.iter().zip(self.blocks.iter()) {
            out.spm += st.execs * sum.spm;
            out.external += st.execs * sum.external;
            out.bus_cycles += st.execs * sum.bus_cycles;
        }
        out
    }

    /// Fetch totals of everything executed so far (memory-system mode without caches).
    pub(crate) fn fetch_totals(&self) -> Totals {
        let mut out = self.block_fetch_totals();
        out.merge(&self.partial_fetch);
        out
    }

    /// Marks fused pairs among the `body` instructions from index `start`, left to right.
    fn fuse_pairs(&mut self, start: usize, body: usize) {
        let mut k = start;
        while k + 1 < start + body {
            if let Some(hot) = fuse(self.insts[k].op, self.insts[k + 1].op) {
                self.insts[k].hot = hot;
                k += 2;
            } else {
                k += 1;
            }
        }
    }

    /// Predecodes the block at `pc`. `stop_before(pc)` says where a block must not continue
    /// (breakpoints). Err if the very first instruction cannot be fetched or decoded.
    pub(crate) fn translate(
        &mut self,
        mem: &mut Memory,
        pc: u32,
        stop_before: &dyn Fn(u32) -> bool,
    ) -> Result<u32, FetchTrap> {
        let start = self.insts.len() as u32;
        let mut cur = pc;
        let mut pre = 0u32;
        let mut last_pre = 0u32;
        let mut counts = [0u32; NUM_CLASSES];
        let mut body = 0u32;
        let mut has_term = false;
        let mut term_len = 0u32;
        let mut fetch_sum = Totals::default();
        loop {
            if cur != pc && (cur >> 12 != pc >> 12 || stop_before(cur)) {
                break;
            }
            let Some(lo) = mem.fetch_u16(cur) else {
                if cur == pc {
                    return Err(FetchTrap {
                        cause: 1,
                        tval: cur,
                    });
                }
                break;
            };
            let raw = if lo & 3 == 3 {
                match mem.fetch_u16(cur.wrapping_add(2)) {
                    Some(hi) => u32::from(lo) | u32::from(hi) << 16,
                    None if cur == pc => {
                        return Err(FetchTrap {
                            cause: 1,
                            tval: cur.wrapping_add(2),
                        })
                    }
                    None => break,
                }
            } else {
                u32::from(lo)
            };
            let d = match decode(raw) {
                Ok(d) => d,
                Err(e) if cur == pc => {
                    return Err(FetchTrap {
                        cause: 2,
                        tval: e.raw,
                    })
                }
                Err(_) => break,
            };
            let i = d.inst;
            let len = u32::from(d.len);
            let imm = match i.op.class() {
                Class::Branch => cur.wrapping_add(i.imm as u32),
                // auipc's result is a constant of its position.
                _ if matches!(i.op, Op::Jal | Op::Auipc) => cur.wrapping_add(i.imm as u32),
                _ => i.imm as u32,
            };
            let rd = if i.rd == 0 { X0_SINK } else { i.rd };
            // With the stack bound armed, a write of sp ends the block as its terminator.
            let term = is_terminator(i.op) || (self.guard_sp && i.writes().contains(2));
            self.insts.push(CInst {
                op: i.op,
                hot: if term { Hot::Term } else { single(i.op) },
                rd,
                rs1: i.rs1,
                rs2: i.rs2,
                imm,
                pc: cur,
            });
            self.pres.push(pre);
            let fetch = self.fetch.map(|f| f.cost(mem.carousel.as_ref(), cur, len));
            if let Some(c) = &fetch {
                self.fetches.push(*c);
            }
            self.mark(mem, cur, len);
            cur = cur.wrapping_add(len);
            if term {
                has_term = true;
                term_len = len;
                break;
            }
            last_pre = pre;
            pre += static_cycles(i.op, &self.costs);
            if let Some(c) = &fetch {
                pre += c.time - 1;
                fetch_sum.add(c, 1);
            }
            counts[static_class(i.op) as usize] += 1;
            body += 1;
            if ends_block(i.op) || body as usize >= MAX_BODY {
                break;
            }
        }
        self.fuse_pairs(start as usize, body as usize);
        let id = self.blocks.len() as u32;
        self.blocks.push(Block {
            end_pc: cur,
            start,
            body,
            has_term,
            cycles: u64::from(pre),
            last_pre,
            fall_pc: cur.wrapping_sub(term_len),
            execs: 0,
            fall: NONE,
            other_pc: 0,
            other: NONE,
        });
        let energy = counts
            .iter()
            .zip(self.costs.energy_pj.iter())
            .map(|(&n, &pj)| f64::from(n) * pj)
            .sum();
        self.counts.push(counts);
        self.energies.push(energy);
        if self.fetch.is_some() {
            self.fetch_sums.push(fetch_sum);
        }
        let h = ((pc >> 1) & 0x7FF) as usize;
        self.page(mem, pc >> 12).entry[h] = id;
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::{BlockCache, StaticCosts};
    use crate::cost::NUM_CLASSES;
    use crate::hart::hot::Hot;
    use crate::memory::Memory;
    use crate::profile::Profile;
    use cactus_isa::{encode, Inst, Op};

    /// The blocks predecoded from `prog` at the start of RAM, one after the other: each as
    /// (body hot ops, terminator op).
    fn blocks(prog: &[Inst], guard_sp: bool) -> Vec<(Vec<Hot>, Option<Op>)> {
        let profile = Profile::default_mcu();
        let mut mem = Memory::new(profile.memory());
        let base = profile.memory()[0].base;
        let bytes: Vec<u8> = prog
            .iter()
            .flat_map(|i| encode(i).unwrap().to_le_bytes())
            .collect();
        mem.write_debug(base, &bytes).unwrap();
        let costs = StaticCosts {
            cycles: [1; NUM_CLASSES],
            ram_latency: 0,
            energy_pj: [0.0; NUM_CLASSES],
        };
        let mut cache = BlockCache::new(costs, guard_sp);
        let mut out = Vec::new();
        let mut pc = base;
        while pc < base + bytes.len() as u32 {
            let id = cache.translate(&mut mem, pc, &|_| false).unwrap();
            let b = &cache.blocks[id as usize];
            let body = &cache.insts[b.start as usize..][..b.body as usize];
            let term = b
                .has_term
                .then(|| cache.insts[(b.start + b.body) as usize].op);
            out.push((body.iter().map(|i| i.hot).collect(), term));
            pc = b.end_pc;
        }
        out
    }

    #[test]
    fn sp_writers_end_blocks_only_while_the_bound_is_armed() {
        let addi = |rd, rs1, imm| Inst::new(Op::Addi, rd, rs1, 0, imm);
        let prog = [
            addi(10, 10, 1),
            addi(2, 2, -16),               // prologue; fuses with the addi before it
            Inst::new(Op::Sw, 0, 2, 1, 4), // reads sp, writes memory only
            addi(12, 2, 4),                // reads sp
            Inst::new(Op::Add, 2, 0, 10, 0), // c.mv sp, a0
            Inst::new(Op::Lw, 2, 10, 0, 0),
            addi(11, 11, 1),
            addi(13, 13, 1),
        ];
        assert_eq!(
            blocks(&prog, false),
            [(
                vec![
                    Hot::AddiAddi,
                    Hot::Addi,
                    Hot::Sw,
                    Hot::Addi,
                    Hot::Add,
                    Hot::Lw,
                    Hot::AddiAddi,
                    Hot::Addi,
                ],
                None
            )],
            "bound 0: one block, exactly the ops and pairs of a build without the extension"
        );
        assert_eq!(
            blocks(&prog, true),
            [
                (vec![Hot::Addi], Some(Op::Addi)),
                (vec![Hot::Sw, Hot::Addi], Some(Op::Add)),
                (vec![], Some(Op::Lw)),
                (vec![Hot::AddiAddi, Hot::Addi], None),
            ],
            "armed: every write of sp is a terminator; everything else unchanged"
        );
    }
}
