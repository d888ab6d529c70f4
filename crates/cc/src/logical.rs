//! The logical-stack pass (SenSmart's logical addressing in software, docs/sensmart.md "The
//! software variant"): tasks keep a *physical* `sp`, so every `sp`-relative access stays as
//! the compiler wrote it, but every stack address that leaves `sp` for another register is
//! converted to its *logical* form (`addi rd, sp, k` becomes `rd = sp - disp + k`), so every
//! stack address in a register other than `sp`, and in memory, is logical exactly as under the
//! hardware stack window. Every load and store through another base (not `sp`, `gp`, `tp` or
//! `zero`; not a `%lo(sym)` offset) is then translated: an address in the logical aperture
//! `[0x6000_0000, 0x7000_0000)` gets the running task's displacement added and is checked
//! against its physical bound (below it: `port_lstack_<T>_<U>`, whose kernel grows the stack);
//! any other address is left alone. `sp` set from another register (`mv sp, s0`, `addi sp, s0,
//! -k`: frame-pointer epilogues) gets the displacement added back.
//!
//! The task's displacement is the word at `tp + 32` and its physical bound the word at
//! `tp - 4` (the stack descriptor's limit, which the stack checks compare `sp` with): both are
//! the running code's own (the kernel's descriptor has displacement 0), so one load each.
//!
//! **Grouping** (the paper's section IV-C2): a run of accesses through one base register in
//! one basic block, until the base is redefined, a call or the block's end, is translated
//! once, into a scratch register `T` that liveness proves dead over the whole run and that no
//! statement of the run mentions; the accesses use `T` with their offsets less the smallest
//! one. Only caller-saved registers serve as `T` (every kernel entry saves them), and a run
//! whose offsets span more than 2047 bytes is split.
//!
//! **Preemption**: a physical address lives in `T` only inside its run, and the sequences that
//! combine `sp` with a displacement just loaded are short. The pass emits for each a record in
//! the section `cactus_lstack` (four words: start, end, what, kind): kind 0 says that a task
//! interrupted at a pc in `[start, end)` must resume at `what` (the sequence restarts: it only
//! wrote dead registers), kind 1 that register `x<what>` holds a physical address of the task's
//! stack there. When the kernel moves a task's stack it adjusts the saved `sp`, the registers
//! of kind-1 records whose value lies in the moved region, and the pc of kind-0 records
//! (kernel/arch/rv32/window_sw.h).
//!
//! Guarantees: only the statements named above change or get code around them; inserted code
//! writes only registers dead where it runs (or `sp`, or spilled and reloaded ones); calls of
//! `memcpy`, `memmove`, `memset`, `memcmp`, `strlen` and `strcmp` (uninstrumented kernel code)
//! go to the kernel's translating wrappers `cactus_ls_<name>`. A use of `sp` the pass cannot
//! convert (a store of `sp`, `sp` in other arithmetic) is refused with its line.

use crate::emit::{directive, entry, inst};
use cactus_asm::dataflow::{effects, Liveness};
use cactus_asm::{AsmFile, Callee, Cfg, Entry, Flow, Item};
use cactus_isa::asm::{Imm, PseudoOp, Statement};
use cactus_isa::{reg_name, Class, Op, Reg, RegSet};
use std::collections::BTreeMap;

/// The running code's displacement (physical - logical) is the word at `tp + DISP_OFFSET`.
pub const DISP_OFFSET: i32 = 32;
/// The running code's physical stack bound is the word at `tp + LIMIT_OFFSET`.
pub const LIMIT_OFFSET: i32 = -4;
/// The kernel entries of the slow path are `port_lstack_<T>_<U>`.
pub const ENTRY_PREFIX: &str = "port_lstack_";
/// The section of the preemption records.
pub const TABLE: &str = "cactus_lstack";
/// Bytes below `sp` a spilled translation uses.
pub const RED_ZONE: u32 = 8;
/// The C library functions whose calls go to the kernel's translating wrappers.
pub const WRAPPED: [&str; 6] = ["memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp"];
/// Prefix of the wrappers.
pub const WRAPPER_PREFIX: &str = "cactus_ls_";
/// Scratch registers in order of preference: the caller-saved ones every kernel entry saves.
pub const SCRATCH: [Reg; 15] = [5, 6, 7, 28, 29, 30, 31, 17, 16, 15, 14, 13, 12, 11, 10];
/// Record kinds of [`TABLE`].
pub const KIND_RESTART: u32 = 0;
/// See [`KIND_RESTART`].
pub const KIND_PHYSICAL: u32 = 1;

/// What the pass did to one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogicalStats {
    /// Translations inserted (one per group).
    pub translations: usize,
    /// Accesses through translated bases.
    pub accesses: usize,
    /// Stack addresses converted to logical form.
    pub escapes: usize,
    /// `sp` set from a logical address.
    pub sp_sets: usize,
    /// Translations that spill two registers below `sp`.
    pub spills: usize,
    /// Calls redirected to the translating wrappers.
    pub wrapped: usize,
}

/// A memory access the pass may translate.
#[derive(Clone, Copy, Debug)]
struct Access {
    op: Op,
    rd: Reg,
    rs2: Reg,
    base: Reg,
    off: i32,
    /// `.aq`/`.rl` bits of an AMO (its `imm`).
    ordering: i32,
}

impl Access {
    /// AMOs and LR/SC have no offset: they are translated alone.
    fn solo(&self) -> bool {
        matches!(self.op.class(), Class::Amo) || self.op == Op::LrW
    }

    /// The access through `t` at offset `off`.
    fn text(&self, t: Reg, off: i32) -> String {
        let (mn, t) = (self.op.mnemonic(), reg_name(t));
        match self.op.class() {
            Class::Load => format!("{mn} {},{off}({t})", reg_name(self.rd)),
            Class::Store => format!("{mn} {},{off}({t})", reg_name(self.rs2)),
            _ => {
                let sfx = match self.ordering & 3 {
                    0 => "",
                    1 => ".rl",
                    2 => ".aq",
                    _ => ".aqrl",
                };
                if self.op == Op::LrW {
                    format!("{mn}{sfx} {},({t})", reg_name(self.rd))
                } else {
                    format!(
                        "{mn}{sfx} {},{},({t})",
                        reg_name(self.rd),
                        reg_name(self.rs2)
                    )
                }
            }
        }
    }
}

/// What one statement is to the pass.
enum Use {
    /// A translatable access.
    Access(Access),
    /// `rd = sp + other + imm` (`addi rd, sp, k`, `mv rd, sp`, `add rd, rX, sp`).
    Escape { rd: Reg, other: Reg, imm: i32 },
    /// `sp = src + imm` with `src` a logical address.
    SpSet { src: Reg, imm: i32 },
    /// Anything else (including `sp` arithmetic and `sp`-relative accesses).
    Other,
}

const SP: Reg = 2;

/// The base-instruction view of `s`, when it has one with a numeric immediate.
fn base_view(s: &Statement) -> Option<(Op, Reg, Reg, Reg, Option<i32>)> {
    match s {
        Statement::Base(a) => {
            let imm = match &a.imm {
                Imm::Num(v) => Some(*v),
                Imm::Sym(_) => None,
            };
            Some((a.op, a.rd, a.rs1, a.rs2, imm))
        }
        Statement::Compressed(c) => {
            let i = c.expand();
            Some((i.op, i.rd, i.rs1, i.rs2, Some(i.imm)))
        }
        Statement::Pseudo(_) => None,
    }
}

/// Classifies `s`; Err names a use of `sp` the pass cannot convert.
fn classify(s: &Statement) -> Result<Use, String> {
    let (reads, writes) = (s.reads(), s.writes());
    if let Statement::Pseudo(p) = s {
        if p.op == PseudoOp::Mv && p.rs1 == SP && p.rd != SP {
            return Ok(Use::Escape {
                rd: p.rd,
                other: 0,
                imm: 0,
            });
        }
        if p.op == PseudoOp::Mv && p.rd == SP && p.rs1 != SP && p.rs1 != 0 {
            return Ok(Use::SpSet { src: p.rs1, imm: 0 });
        }
        if reads.contains(SP) || writes.contains(SP) {
            return Err("uses sp in a way the logical-stack pass cannot convert".into());
        }
        return Ok(Use::Other);
    }
    let Some((op, rd, rs1, rs2, imm)) = base_view(s) else {
        return Ok(Use::Other);
    };
    if let Some(width) = op.access_bytes() {
        let _ = width;
        if rs1 == SP && !(matches!(op.class(), Class::Store) && rs2 == SP) {
            return Ok(Use::Other); // the compiler's frame: physical, untouched
        }
        if matches!(op.class(), Class::Store | Class::Amo) && rs2 == SP {
            return Err("stores sp (a physical address) to memory".into());
        }
        if rd == SP && matches!(op.class(), Class::Load | Class::Amo) {
            return Err("loads sp from memory".into());
        }
        let Some(off) = imm else {
            return Ok(Use::Other); // `%lo(sym)(rX)`: a symbol's address, never the stack
        };
        if matches!(rs1, 0 | 3 | 4) {
            return Ok(Use::Other); // absolute, gp- or tp-relative: the kernel's or globals
        }
        let solo = matches!(op.class(), Class::Amo) || op == Op::LrW;
        return Ok(Use::Access(Access {
            op,
            rd,
            rs2,
            base: rs1,
            off: if solo { 0 } else { off },
            ordering: if solo { off } else { 0 },
        }));
    }
    let reads_sp = reads.contains(SP);
    let writes_sp = writes.contains(SP);
    match (op, reads_sp, writes_sp) {
        (_, false, false) => Ok(Use::Other),
        // sp arithmetic on sp itself stays physical.
        (Op::Addi | Op::Andi, true, true) if rs1 == SP => Ok(Use::Other),
        (Op::Add, true, true) if rs1 == SP || rs2 == SP => Ok(Use::Other),
        (Op::Sub, true, true) if rs1 == SP && rs2 != SP => Ok(Use::Other),
        (Op::Addi, true, false) => Ok(Use::Escape {
            rd,
            other: 0,
            imm: imm.unwrap_or(0),
        }),
        (Op::Add, true, false) if rs1 != rs2 => Ok(Use::Escape {
            rd,
            other: if rs1 == SP { rs2 } else { rs1 },
            imm: 0,
        }),
        (Op::Addi, false, true) if rs1 != 0 => Ok(Use::SpSet {
            src: rs1,
            imm: imm.unwrap_or(0),
        }),
        (Op::Add, false, true) if (rs1 == 0) != (rs2 == 0) => Ok(Use::SpSet {
            src: rs1 | rs2,
            imm: 0,
        }),
        _ => Err("uses sp in a way the logical-stack pass cannot convert".into()),
    }
}

/// A run of accesses through one base in one block (positions in the block).
struct Group {
    base: Reg,
    members: Vec<(usize, Access)>,
    omin: i32,
    omax: i32,
}

impl Group {
    fn first(&self) -> usize {
        self.members[0].0
    }
    fn last(&self) -> usize {
        self.members[self.members.len() - 1].0
    }
}

/// The functions of `file` where some translation spills (the check pass must count
/// [`RED_ZONE`] bytes below their `sp`).
pub fn red_zone_functions(file: &AsmFile) -> Vec<String> {
    let mut n = 0;
    let mut out = Vec::new();
    for func in file.functions() {
        let mut stats = LogicalStats::default();
        let cfg = Cfg::build(file, &func);
        if plan_function(file, &cfg, &mut n, &mut stats, &mut Vec::new()).is_ok()
            && stats.spills > 0
        {
            out.push(func.name.clone());
        }
    }
    out
}

/// Instruments every function of `file`; `next` numbers the labels across the units of one
/// invocation. Err: the first use of `sp` the pass cannot convert, with its line.
pub fn instrument(file: &mut AsmFile, next: &mut usize) -> Result<LogicalStats, String> {
    let mut stats = LogicalStats::default();
    let mut before: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    let mut replace: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    let mut stubs: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    for func in file.functions() {
        let cfg = Cfg::build(file, &func);
        let mut edits = Vec::new();
        plan_function(file, &cfg, next, &mut stats, &mut edits)?;
        let stub_at = (func.start..func.end)
            .rev()
            .find(|&i| matches!(file.entries[i].item, Item::Inst(_) | Item::Opaque(_)))
            .map_or(func.end, |i| i + 1);
        for e in edits {
            match e {
                Edit::Before(i, code) => before.entry(i).or_default().extend(code),
                Edit::Replace(i, code) => {
                    replace.insert(i, code);
                }
                Edit::Stub(code) => stubs.entry(stub_at).or_default().extend(code),
            }
        }
    }
    if before.is_empty() && replace.is_empty() && stubs.is_empty() {
        return Ok(stats);
    }
    let old = std::mem::take(&mut file.entries);
    let len = old.len();
    let mut entries = Vec::with_capacity(len);
    for (i, e) in old.into_iter().enumerate() {
        entries.extend(before.remove(&i).unwrap_or_default());
        entries.extend(stubs.remove(&i).unwrap_or_default());
        match replace.remove(&i) {
            Some(code) => entries.extend(code),
            None => entries.push(e),
        }
    }
    entries.extend(before.remove(&len).unwrap_or_default());
    entries.extend(stubs.remove(&len).unwrap_or_default());
    file.entries = entries;
    Ok(stats)
}

/// One change to a function.
enum Edit {
    /// Code before entry i.
    Before(usize, Vec<Entry>),
    /// Entry i becomes this code.
    Replace(usize, Vec<Entry>),
    /// Code after the function's last instruction.
    Stub(Vec<Entry>),
}

fn label(prefix: &str, n: usize) -> String {
    format!(".Lcactus_ls{prefix}_{n}")
}

/// A record of [`TABLE`], tied (SHF_LINK_ORDER) to the section of `anchor`.
fn record(anchor: &str, start: &str, end: &str, what: &str, kind: u32) -> Vec<Entry> {
    vec![
        directive(&format!(".pushsection\t{TABLE},\"ao\",@progbits,{anchor}")),
        directive(".p2align\t2"),
        directive(&format!(".word\t{start}")),
        directive(&format!(".word\t{end}")),
        directive(&format!(".word\t{what}")),
        directive(&format!(".word\t{kind}")),
        directive(".popsection"),
    ]
}

/// Plans the edits of one function (into `edits`); `file` is only read.
fn plan_function(
    file: &AsmFile,
    cfg: &Cfg,
    next: &mut usize,
    stats: &mut LogicalStats,
    edits: &mut Vec<Edit>,
) -> Result<(), String> {
    let live = Liveness::compute(file, cfg);
    for (b, block) in cfg.blocks.iter().enumerate() {
        let after = live.live_after(file, cfg, b);
        let eff: Vec<(RegSet, RegSet)> = block
            .insts
            .iter()
            .map(|&i| effects(&file.entries[i].item))
            .collect();
        let before: Vec<RegSet> = (0..block.insts.len())
            .map(|k| eff[k].0.union(after[k].minus(eff[k].1)))
            .collect();
        let mut groups: Vec<Group> = Vec::new();
        let mut open: BTreeMap<Reg, Group> = BTreeMap::new();
        let close_all = |open: &mut BTreeMap<Reg, Group>, groups: &mut Vec<Group>| {
            groups.extend(std::mem::take(open).into_values());
        };
        for (k, &i) in block.insts.iter().enumerate() {
            let line = file.entries[i].line;
            let s = match &file.entries[i].item {
                Item::Inst(s) => s.clone(),
                _ => {
                    close_all(&mut open, &mut groups);
                    continue;
                }
            };
            let flow = Flow::of(&s);
            if let Flow::Call(Callee::Direct(name)) | Flow::TailCall(Callee::Direct(name)) = &flow {
                if WRAPPED.contains(&name.as_str()) {
                    let verb = if matches!(flow, Flow::Call(_)) {
                        "call"
                    } else {
                        "tail"
                    };
                    edits.push(Edit::Replace(
                        i,
                        vec![inst(&format!("{verb} {WRAPPER_PREFIX}{name}"))],
                    ));
                    stats.wrapped += 1;
                }
            }
            let u = classify(&s).map_err(|why| format!("line {line}: `{s}` {why}"))?;
            match u {
                Use::Access(a) => {
                    let joined = match open.get_mut(&a.base) {
                        Some(g)
                            if !a.solo()
                                && !g.members[0].1.solo()
                                && a.off.max(g.omax) - a.off.min(g.omin) <= 2047 =>
                        {
                            g.members.push((k, a));
                            g.omin = g.omin.min(a.off);
                            g.omax = g.omax.max(a.off);
                            true
                        }
                        _ => false,
                    };
                    if !joined {
                        if let Some(g) = open.remove(&a.base) {
                            groups.push(g);
                        }
                        open.insert(
                            a.base,
                            Group {
                                base: a.base,
                                members: vec![(k, a)],
                                omin: a.off,
                                omax: a.off,
                            },
                        );
                    }
                    if a.solo() {
                        if let Some(g) = open.remove(&a.base) {
                            groups.push(g);
                        }
                    }
                }
                Use::Escape { .. } | Use::SpSet { .. } => close_all(&mut open, &mut groups),
                Use::Other => {}
            }
            if !matches!(flow, Flow::Next | Flow::Branch(_) | Flow::Jump(_)) {
                close_all(&mut open, &mut groups);
            }
            for w in eff[k].1.iter() {
                if let Some(g) = open.remove(&w) {
                    groups.push(g);
                }
            }
            match classify(&s).expect("classified above") {
                Use::Escape { rd, other, imm } => {
                    let n = *next;
                    *next += 1;
                    // The temporary: rd itself unless the final add reads it.
                    let tmp = if other != rd {
                        Some(rd)
                    } else {
                        SCRATCH
                            .iter()
                            .copied()
                            .find(|&r| !before[k].contains(r) && r != rd && r != other)
                    };
                    // None dead (`add s6,s6,sp` under pressure): spill one below sp around
                    // the conversion (the spill precedes the restart label).
                    let spill = tmp.is_none();
                    let tmp = tmp.unwrap_or(if rd == 5 || other == 5 { 6 } else { 5 });
                    let (t, st) = (reg_name(tmp), label("c", n));
                    let mut code = Vec::new();
                    if spill {
                        code.push(inst(&format!("sw {t},-4(sp)")));
                        stats.spills += 1;
                    }
                    code.extend([
                        entry(Item::Label(st.clone())),
                        inst(&format!("lw {t},{DISP_OFFSET}(tp)")),
                        inst(&format!("sub {t},sp,{t}")),
                    ]);
                    if other != 0 {
                        code.push(inst(&format!(
                            "add {},{},{t}",
                            reg_name(rd),
                            reg_name(other)
                        )));
                    } else if imm != 0 || tmp != rd {
                        code.push(inst(&format!("addi {},{t},{imm}", reg_name(rd))));
                    }
                    let end = label("e", n);
                    code.push(entry(Item::Label(end.clone())));
                    if spill {
                        code.push(inst(&format!("lw {t},-4(sp)")));
                    }
                    edits.push(Edit::Replace(i, code));
                    edits.push(Edit::Stub(record(&st, &st, &end, &st, KIND_RESTART)));
                    stats.escapes += 1;
                }
                Use::SpSet { src, imm } => {
                    let n = *next;
                    *next += 1;
                    let Some(tmp) = SCRATCH
                        .iter()
                        .copied()
                        .find(|&r| !before[k].contains(r) && r != src)
                    else {
                        return Err(format!(
                            "line {line}: `{s}`: no dead register to set sp from a logical address"
                        ));
                    };
                    let (t, st, end) = (reg_name(tmp), label("c", n), label("e", n));
                    let code = vec![
                        entry(Item::Label(st.clone())),
                        inst(&format!("lw {t},{DISP_OFFSET}(tp)")),
                        inst(&format!("add {t},{},{t}", reg_name(src))),
                        inst(&format!("addi sp,{t},{imm}")),
                        entry(Item::Label(end.clone())),
                    ];
                    edits.push(Edit::Replace(i, code));
                    edits.push(Edit::Stub(record(&st, &st, &end, &st, KIND_RESTART)));
                    stats.sp_sets += 1;
                }
                _ => {}
            }
        }
        close_all(&mut open, &mut groups);
        groups.sort_by_key(|g| g.first());
        // Each group keeps the longest prefix of its run for which a scratch pair is free; the
        // rest of the run becomes a group of its own (a single access with no free pair
        // spills).
        let mut placed: Vec<(Group, Option<(Reg, Reg)>)> = Vec::new();
        let mut queue: std::collections::VecDeque<Group> = groups.into();
        while let Some(mut g) = queue.pop_front() {
            let busy = |p: usize, q: usize, placed: &[(Group, Option<(Reg, Reg)>)]| {
                // Registers other groups' T hold somewhere in [p, q].
                let mut set = RegSet::EMPTY;
                for (h, regs) in placed {
                    if let Some((t, _)) = regs {
                        if h.first() <= q && h.last() >= p {
                            set = set.union(RegSet::of(*t));
                        }
                    }
                }
                set
            };
            let p = g.first();
            let no_u = busy(p, p, &placed).union(before[p]).union(eff[p].0);
            // The pair for the members [0, j]: T unmentioned from the first to the j-th.
            let pick = |q: usize| -> Option<(Reg, Reg)> {
                let mut mentioned = busy(p, q, &placed).union(before[p]);
                for e in &eff[p..=q] {
                    mentioned = mentioned.union(e.0).union(e.1);
                }
                let t = SCRATCH.iter().copied().find(|&r| !mentioned.contains(r))?;
                let u = SCRATCH
                    .iter()
                    .copied()
                    .find(|&r| r != t && !no_u.contains(r))?;
                Some((t, u))
            };
            let mut keep = 0;
            let mut regs = None;
            for j in 0..g.members.len() {
                match pick(g.members[j].0) {
                    Some(r) => {
                        keep = j + 1;
                        regs = Some(r);
                    }
                    None => break,
                }
            }
            let keep = keep.max(1);
            if keep < g.members.len() {
                let rest: Vec<(usize, Access)> = g.members.split_off(keep);
                let (omin, omax) = rest.iter().fold((i32::MAX, i32::MIN), |(lo, hi), (_, a)| {
                    (lo.min(a.off), hi.max(a.off))
                });
                queue.push_front(Group {
                    base: g.base,
                    members: rest,
                    omin,
                    omax,
                });
                let (omin, omax) = g
                    .members
                    .iter()
                    .fold((i32::MAX, i32::MIN), |(lo, hi), (_, a)| {
                        (lo.min(a.off), hi.max(a.off))
                    });
                g.omin = omin;
                g.omax = omax;
            }
            placed.push((g, regs));
        }
        placed.sort_by_key(|(g, _)| g.first());
        for idx in 0..placed.len() {
            let (g, regs) = &placed[idx];
            let n = *next;
            *next += 1;
            let (p, q) = (g.first(), g.last());
            let spill = regs.is_none();
            let (t, u) = regs.unwrap_or_else(|| {
                // Spill: two registers the access does not mention, nor other groups hold.
                let mut no = eff[p].0.union(eff[p].1).union(RegSet::of(g.base));
                for (h, r) in &placed {
                    if let Some((ht, _)) = r {
                        if h.first() <= p && h.last() >= p {
                            no = no.union(RegSet::of(*ht));
                        }
                    }
                }
                let mut free = SCRATCH.iter().copied().filter(|&r| !no.contains(r));
                (free.next().unwrap_or(5), free.next().unwrap_or(6))
            });
            let (tn, un) = (reg_name(t), reg_name(u));
            let (check, skip, slow, slow_end, end) = (
                label("c", n),
                label("k", n),
                label("s", n),
                label("z", n),
                label("e", n),
            );
            let mut code = Vec::new();
            if spill {
                code.push(inst(&format!("sw {tn},-4(sp)")));
                code.push(inst(&format!("sw {un},-8(sp)")));
                stats.spills += 1;
            }
            code.extend([
                entry(Item::Label(check.clone())),
                inst(&format!("addi {tn},{},{}", reg_name(g.base), g.omin)),
                inst(&format!("srli {un},{tn},28")),
                inst(&format!("addi {un},{un},-6")),
                inst(&format!("bnez {un},{skip}")),
                inst(&format!("lw {un},{DISP_OFFSET}(tp)")),
                inst(&format!("add {tn},{tn},{un}")),
                inst(&format!("lw {un},{LIMIT_OFFSET}(tp)")),
                inst(&format!("bltu {tn},{un},{slow}")),
                entry(Item::Label(skip.clone())),
            ]);
            edits.push(Edit::Before(block.insts[p], code));
            for &(k, a) in &g.members {
                edits.push(Edit::Replace(
                    block.insts[k],
                    vec![inst(&a.text(t, a.off - g.omin))],
                ));
            }
            let mut tail = vec![entry(Item::Label(end.clone()))];
            if spill {
                tail.push(inst(&format!("lw {tn},-4(sp)")));
                tail.push(inst(&format!("lw {un},-8(sp)")));
            }
            // After the last member: before the next statement of the block, or after the
            // block's last one (a fall-through into the next block's first entry).
            let after_q = block.insts[q] + 1;
            edits.push(Edit::Before(after_q, tail));
            let mut stub = vec![
                entry(Item::Label(slow.clone())),
                inst(&format!("jal {un},{ENTRY_PREFIX}{tn}_{un}")),
                inst(&format!("j {check}")),
                entry(Item::Label(slow_end.clone())),
            ];
            stub.extend(record(&check, &check, &skip, &check, KIND_RESTART));
            stub.extend(record(&check, &slow, &slow_end, &check, KIND_RESTART));
            stub.extend(record(&check, &skip, &end, &t.to_string(), KIND_PHYSICAL));
            // Other groups whose T holds a physical address while this stub runs.
            for (h, r) in &placed {
                if let Some((ht, _)) = r {
                    if h.first() < p && h.last() >= p {
                        stub.extend(record(
                            &check,
                            &slow,
                            &slow_end,
                            &ht.to_string(),
                            KIND_PHYSICAL,
                        ));
                    }
                }
            }
            edits.push(Edit::Stub(stub));
            stats.translations += 1;
            stats.accesses += g.members.len();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> (String, LogicalStats) {
        let mut f = AsmFile::parse(src, "t.s").unwrap();
        let mut n = 0;
        let stats = instrument(&mut f, &mut n).unwrap();
        (f.to_string(), stats)
    }

    fn func(body: &str) -> String {
        format!("\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n")
    }

    #[test]
    fn a_run_of_accesses_through_one_base_is_translated_once() {
        let (out, stats) = run(&func(
            "\tlw\ta5,4(a0)\n\tlw\ta4,8(a0)\n\tsw\ta4,0(a0)\n\tadd\ta0,a5,a4\n\tret\n",
        ));
        assert_eq!((stats.translations, stats.accesses), (1, 3));
        let want = ".Lcactus_lsc_0:\n\taddi t0,a0,0\n\tsrli t1,t0,28\n\taddi t1,t1,-6\n\tbnez t1,.Lcactus_lsk_0\n\tlw t1,32(tp)\n\tadd t0,t0,t1\n\tlw t1,-4(tp)\n\tbltu t0,t1,.Lcactus_lss_0\n.Lcactus_lsk_0:\n\tlw a5,4(t0)\n\tlw a4,8(t0)\n\tsw a4,0(t0)\n.Lcactus_lse_0:\n\tadd a0,a5,a4\n";
        assert!(out.contains(want), "{out}");
        let stub =
            ".Lcactus_lss_0:\n\tjal t1,port_lstack_t0_t1\n\tj .Lcactus_lsc_0\n.Lcactus_lsz_0:\n";
        assert!(out.contains(stub), "{out}");
        // The records: the check and the stub restart, t0 (x5) is physical in the run.
        assert!(
            out.contains(
                ".word\t.Lcactus_lsk_0\n\t.word\t.Lcactus_lse_0\n\t.word\t5\n\t.word\t1\n"
            ),
            "{out}"
        );
        assert!(out.contains(".pushsection\tcactus_lstack,\"ao\",@progbits,.Lcactus_lsc_0"));
    }

    #[test]
    fn a_redefined_base_or_a_call_ends_the_group() {
        let (_, stats) = run(&func(
            "\taddi\tsp,sp,-16\n\tsw\tra,12(sp)\n\tlw\ta5,0(a0)\n\tlw\ta0,4(a0)\n\tlw\ta4,8(a0)\n\tlw\ta3,0(s1)\n\tcall\tg\n\tlw\ta3,4(s1)\n\tlw\tra,12(sp)\n\taddi\tsp,sp,16\n\tret\n",
        ));
        // a0: {0, 4} then {8} after the load into a0; s1: {0} and {4} around the call.
        assert_eq!((stats.translations, stats.accesses), (4, 5));
    }

    #[test]
    fn offsets_are_rebased_on_the_smallest() {
        let (out, _) = run(&func("\tlw\ta5,-8(a0)\n\tsw\ta5,12(a0)\n\tret\n"));
        assert!(out.contains("\taddi t0,a0,-8\n"), "{out}");
        assert!(out.contains("\tlw a5,0(t0)\n\tsw a5,20(t0)\n"), "{out}");
    }

    #[test]
    fn sp_gp_tp_and_symbol_accesses_are_untouched() {
        let src = func(
            "\tsw\ta1,8(sp)\n\tlw\ta1,-8(tp)\n\tlw\ta2,%lo(x)(a5)\n\tlw\ta3,12(gp)\n\tc.swsp\ta1,4(sp)\n\tret\n",
        );
        let (out, stats) = run(&src);
        assert_eq!(stats, LogicalStats::default());
        assert_eq!(out, AsmFile::parse(&src, "t.s").unwrap().to_string());
    }

    #[test]
    fn stack_addresses_leaving_sp_become_logical() {
        let (out, stats) = run(&func(
            "\taddi\tsp,sp,-32\n\taddi\ta0,sp,8\n\tmv\ta1,sp\n\taddi\ts0,sp,32\n\taddi\tsp,s0,-32\n\taddi\tsp,sp,32\n\tret\n",
        ));
        assert_eq!((stats.escapes, stats.sp_sets), (3, 1));
        assert!(out.contains(".Lcactus_lsc_0:\n\tlw a0,32(tp)\n\tsub a0,sp,a0\n\taddi a0,a0,8\n.Lcactus_lse_0:\n"), "{out}");
        assert!(
            out.contains(".Lcactus_lsc_1:\n\tlw a1,32(tp)\n\tsub a1,sp,a1\n.Lcactus_lse_1:\n"),
            "{out}"
        );
        // sp from the (logical) frame pointer: the displacement is added back.
        assert!(
            out.contains("\tlw t0,32(tp)\n\tadd t0,s0,t0\n\taddi sp,t0,-32\n"),
            "{out}"
        );
        assert!(out.contains("\taddi sp,sp,-32\n") && out.contains("\taddi sp,sp,32\n"));
    }

    #[test]
    fn an_escape_with_no_dead_register_spills_one() {
        let mut body = String::new();
        for r in SCRATCH {
            body.push_str(&format!("\tli\t{},1\n", reg_name(r)));
        }
        body.push_str("\tadd\ts6,s6,sp\n");
        for r in SCRATCH {
            body.push_str(&format!("\tmv\tzero,{}\n", reg_name(r)));
        }
        body.push_str("\tmv\ta0,s6\n\tret\n");
        let (out, stats) = run(&func(&body));
        assert_eq!((stats.escapes, stats.spills), (1, 1));
        let want = "\tsw t0,-4(sp)\n.Lcactus_lsc_0:\n\tlw t0,32(tp)\n\tsub t0,sp,t0\n\tadd s6,s6,t0\n.Lcactus_lse_0:\n\tlw t0,-4(sp)\n";
        assert!(out.contains(want), "{out}");
    }

    #[test]
    fn unconvertible_uses_of_sp_are_refused() {
        let mut f = AsmFile::parse(&func("\tsw\tsp,0(a0)\n\tret\n"), "t.s").unwrap();
        let err = instrument(&mut f, &mut 0).unwrap_err();
        assert!(err.contains("stores sp"), "{err}");
        let mut f = AsmFile::parse(&func("\tsltu\ta0,sp,a1\n\tret\n"), "t.s").unwrap();
        assert!(instrument(&mut f, &mut 0).is_err());
    }

    #[test]
    fn library_copies_go_to_the_translating_wrappers() {
        let (out, stats) = run(&func(
            "\taddi\tsp,sp,-16\n\tsw\tra,12(sp)\n\tcall\tmemcpy\n\tcall\tputs\n\tlw\tra,12(sp)\n\taddi\tsp,sp,16\n\ttail\tmemset\n",
        ));
        assert_eq!(stats.wrapped, 2);
        assert!(out.contains("\tcall cactus_ls_memcpy\n"), "{out}");
        assert!(out.contains("\ttail cactus_ls_memset\n"), "{out}");
        assert!(out.contains("\tcall puts\n"), "{out}");
    }

    #[test]
    fn with_no_free_register_the_access_spills_a_pair() {
        let mut body = String::new();
        for r in SCRATCH {
            body.push_str(&format!("\tli\t{},1\n", reg_name(r)));
        }
        body.push_str("\tlw\tzero,0(s1)\n");
        for r in SCRATCH {
            body.push_str(&format!("\tmv\tzero,{}\n", reg_name(r)));
        }
        body.push_str("\tret\n");
        let src = func(&body);
        let f = AsmFile::parse(&src, "t.s").unwrap();
        assert_eq!(red_zone_functions(&f), vec!["f".to_string()]);
        let (out, stats) = run(&src);
        assert_eq!(stats.spills, 1);
        assert!(
            out.contains("\tsw t0,-4(sp)\n\tsw t1,-8(sp)\n.Lcactus_lsc_0:\n"),
            "{out}"
        );
        assert!(
            out.contains(".Lcactus_lse_0:\n\tlw t0,-4(sp)\n\tlw t1,-8(sp)\n"),
            "{out}"
        );
    }

    #[test]
    fn interleaved_groups_use_distinct_scratch_and_cover_each_others_stubs() {
        let (out, stats) = run(&func(
            "\tlw\ta5,0(a0)\n\tlw\ta4,0(a1)\n\tsw\ta4,4(a0)\n\tsw\ta5,4(a1)\n\tret\n",
        ));
        assert_eq!((stats.translations, stats.accesses), (2, 4));
        assert!(out.contains("\tlw a5,0(t0)\n"), "{out}");
        assert!(out.contains("\tlw a4,0(t1)\n"), "{out}");
        // a1's check runs while t0 holds a0's physical address: its stub is covered.
        assert!(
            out.contains(
                ".word\t.Lcactus_lss_1\n\t.word\t.Lcactus_lsz_1\n\t.word\t5\n\t.word\t1\n"
            ),
            "{out}"
        );
    }
}
