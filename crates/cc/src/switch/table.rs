//! The `.cactus.switch` table of `ccs-sw` (docs/ccs.md, "The switch table"): for every switch
//! block and switch point of the tasks' loops, a pc range and the registers a timer preemption
//! inside it must save, with a save and a restore routine generated for exactly that set.
//!
//! Guarantees:
//! - a range covers whole instructions of one basic block, and its mask holds the preemption
//!   state ([`super::live`]) before every instruction of the range, plus every register a
//!   multi-instruction pseudo of the range (`call`, `tail`, `la`, `li`, ...) writes between its
//!   machine instructions (a preemption can land between them), plus sp; never gp or tp;
//! - ranges do not overlap (a switch point inside its loop's switch block splits the block);
//! - only `mutate` (a test of the tests) breaks the first guarantee, for one range, on purpose.

use super::live::{state, FULL_STATE};
use super::points::loop_switches;
use super::{analyse, SwitchError, TaskEntry};
use cactus_asm::{AsmFile, Entry, Flow, Item};
use cactus_isa::asm::Statement;
use cactus_isa::{reg_name, RegSet};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The registers the kernel's lookup (kernel/arch/rv32/switch_ccs.h) uses as scratch and has
/// stored into the context before it calls a save routine: t0, t1, t2, t3, t6. A save routine
/// never stores them (they hold the lookup's values by then).
pub const SCRATCH: RegSet = RegSet((1 << 5) | (1 << 6) | (1 << 7) | (1 << 28) | (1 << 31));

/// Name of the section the records go to (the kernel's link script gathers it between
/// `__cactus_switch_start` and `__cactus_switch_end`).
pub const SECTION: &str = ".cactus.switch";

/// Bytes per record: start, end (exclusive), save routine, range id (the index into
/// [`SwitchTable::ranges`] and the listing).
pub const RECORD_BYTES: usize = 16;

/// The bucket index the kernel looks a pc up with (kernel/arch/rv32/switch_ccs.h): a
/// read-only object of the routines unit, reserved here and filled by the firmware build after
/// linking (`cactus_firmware::switch_table::sort_elf`). Layout: base (the first range's
/// start), shift, bucket count, then one halfword per bucket plus one: the index of the first
/// record (in start order) whose range ends after the bucket's start. A bucket covers
/// `1 << shift` bytes from `base + (bucket << shift)`. Until it is filled the count is 0,
/// which sends every lookup to the full save.
pub const INDEX_SYMBOL: &str = "__cactus_switch_index";
/// Bytes before the index's first halfword (base, shift, bucket count).
pub const INDEX_HEADER_BYTES: usize = 12;
/// Buckets reserved per record: the build picks the smallest shift whose buckets, over the
/// span of the ranges, fit in `INDEX_BUCKETS_PER_RECORD * records`, so a bucket holds about a
/// quarter of a range's share of the span.
pub const INDEX_BUCKETS_PER_RECORD: usize = 4;

/// How the table is generated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Poison mode: every restore routine fills each register its mask leaves out with a
    /// value derived from this seed and the cycle counter (docs/ccs.md, "Poison mode").
    pub poison: Option<u32>,
    /// The mutation test: drop one register from range N's mask (N indexes
    /// [`SwitchTable::ranges`]; the register is the lowest-numbered one but sp that is live
    /// before every instruction of the range and read by one of them).
    pub mutate: Option<u32>,
    /// The rmcs routines (`kernel.switch = "rmcs"`, docs/ccs.md "rmcs"): a save routine stores
    /// only the mask's page-0 registers and returns the mask's live register pages, a restore
    /// routine maps the held pages back ([`rmcs_pair`]).
    pub rmcs: bool,
}

/// One range of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Range {
    /// The unit (index into the files).
    pub unit: usize,
    /// The function's name.
    pub function: String,
    /// Entry index of its first instruction.
    pub first: usize,
    /// Entry index of its last instruction.
    pub last: usize,
    /// The registers saved and restored.
    pub mask: RegSet,
    /// Whether it is a switch point (else part of a switch block).
    pub point: bool,
    /// Machine instructions in it, at most (a pseudo counts as its expansion).
    pub insts: usize,
    /// Registers in the state before every instruction of the range (a preemption anywhere
    /// in it needs them).
    pub always: RegSet,
    /// Registers an instruction of the range reads as an operand (a call's argument registers
    /// not counted: where the callee is unknown the analysis takes the call to read a0-a7,
    /// which the callee need not do).
    pub reads: RegSet,
}

/// What the mutation test dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// Index into [`SwitchTable::ranges`].
    pub range: usize,
    /// The register dropped.
    pub dropped: &'static str,
}

/// The table of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwitchTable {
    /// Every unit's text, with the ranges' labels and records added (units without a range
    /// unchanged).
    pub texts: Vec<String>,
    /// The routines: one preprocessed assembly unit (`.S`, includes the kernel's `port.h` and
    /// `switch_ccs.h`).
    pub routines: String,
    /// The ranges, unit by unit in file order.
    pub ranges: Vec<Range>,
    /// What `mutate` dropped, if asked.
    pub mutation: Option<Mutation>,
}

/// Registers a statement writes between its machine instructions when it expands to more
/// than one (so a preemption can see them half-set): a pseudo's writes, a call's ra, a tail
/// call's t1 (GNU as expands `tail` through t1).
fn temps(s: &Statement) -> RegSet {
    let mut t = match s {
        Statement::Pseudo(_) => s.writes(),
        _ => RegSet::EMPTY,
    };
    match Flow::of(s) {
        Flow::Call(_) => t = t.union(RegSet::of(1)),
        Flow::TailCall(_) => t = t.union(RegSet::of(6)),
        _ => {}
    }
    t
}

fn statement(file: &AsmFile, idx: usize) -> Option<&Statement> {
    match &file.entries[idx].item {
        Item::Inst(s) => Some(s),
        _ => None,
    }
}

fn machine_insts(s: &Statement) -> usize {
    s.expand().map(|v| v.len()).unwrap_or(2).max(1)
}

/// splitmix32-like mixing, for the seeded choices.
fn mix(mut x: u32) -> u32 {
    x = x.wrapping_add(0x9e37_79b9);
    x = (x ^ (x >> 16)).wrapping_mul(0x85eb_ca6b);
    x = (x ^ (x >> 13)).wrapping_mul(0xc2b2_ae35);
    x ^ (x >> 16)
}

/// Builds the table of the program `files` for `tasks` (see [`super::switch_report`] for
/// `glue`).
pub fn switch_table(
    files: &[AsmFile],
    tasks: &[TaskEntry],
    glue: Option<usize>,
    opts: TableOptions,
) -> Result<SwitchTable, SwitchError> {
    let a = analyse(files, tasks, glue)?;
    let funcs: Vec<usize> = a
        .tasks
        .iter()
        .flat_map(|(_, _, f)| f.iter().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // (unit, entry) -> (mask, point, function, the instruction's own state)
    let mut at: BTreeMap<(usize, usize), (RegSet, bool, usize, RegSet)> = BTreeMap::new();
    let loops = loop_switches(files, &a.prog, &a.live, &funcs);
    for l in &loops {
        let info = &a.prog.funcs[l.func];
        let file = &files[info.unit];
        let block = &info.cfg.blocks[l.block];
        let tmp = block
            .insts
            .iter()
            .filter_map(|&i| statement(file, i))
            .fold(RegSet::EMPTY, |acc, s| acc.union(temps(s)));
        let mask = state(l.block_state.union(tmp));
        for (k, &i) in block.insts.iter().enumerate() {
            if statement(file, i).is_some() {
                let own = a.live.before[l.func][l.block][k];
                at.entry((info.unit, i))
                    .or_insert((mask, false, l.func, own));
            }
        }
    }
    for l in &loops {
        let info = &a.prog.funcs[l.func];
        let file = &files[info.unit];
        if let Some(s) = statement(file, l.point) {
            let mask = state(l.point_state.union(temps(s)));
            at.insert((info.unit, l.point), (mask, true, l.func, l.point_state));
        }
    }
    let mut ranges: Vec<Range> = Vec::new();
    for (&(unit, i), &(mask, point, f, own)) in &at {
        let file = &files[unit];
        let n = statement(file, i).map(machine_insts).unwrap_or(1);
        let reads = statement(file, i).map_or(RegSet::EMPTY, |s| s.reads());
        if let Some(last) = ranges.last_mut() {
            let adjacent = last.unit == unit
                && (last.last + 1..i).all(|j| {
                    !matches!(file.entries[j].item, Item::Inst(_) | Item::Opaque(_))
                        && !matches!(&file.entries[j].item,
                            Item::Directive { name, .. } if name.contains("section"))
                });
            if adjacent && last.mask == mask && last.point == point && !point {
                last.last = i;
                last.insts += n;
                last.always = RegSet(last.always.0 & own.0);
                last.reads = last.reads.union(reads);
                continue;
            }
        }
        ranges.push(Range {
            unit,
            function: a.prog.funcs[f].func.name.clone(),
            first: i,
            last: i,
            mask,
            point,
            insts: n,
            always: own,
            reads,
        });
    }
    let mutation = match opts.mutate {
        Some(n) => Some(mutate(&mut ranges, n).map_err(SwitchError::Mutate)?),
        None => None,
    };
    let mutated = mutation.as_ref().map(|m| m.range);
    let texts = files
        .iter()
        .enumerate()
        .map(|(u, file)| labelled(file, u, &ranges, mutated))
        .collect();
    let routines = routines(&ranges, opts, mutated);
    Ok(SwitchTable {
        texts,
        routines,
        ranges,
        mutation,
    })
}

/// Drops from range `n` the lowest-numbered register other than sp that is live before
/// every instruction of the range and read by one of them (so a preemption inside it needs
/// that register back, and the range itself uses it).
fn mutate(ranges: &mut [Range], n: u32) -> Result<Mutation, String> {
    let sp = RegSet::of(2);
    let Some(r) = ranges.get_mut(n as usize) else {
        return Err(format!(
            "switch_mutate = {n}: the table has {} ranges",
            ranges.len()
        ));
    };
    let candidates = RegSet(r.always.0 & r.reads.0).minus(sp);
    let Some(reg) = candidates.iter().next() else {
        return Err(format!(
            "switch_mutate = {n}: no register but sp is both live throughout range {n} and \
             read in it"
        ));
    };
    r.mask = r.mask.minus(RegSet::of(reg));
    Ok(Mutation {
        range: n as usize,
        dropped: reg_name(reg),
    })
}

fn start_label(u: usize, r: usize) -> String {
    format!(".Lccs_{u}_{r}_s")
}

fn end_label(u: usize, r: usize) -> String {
    format!(".Lccs_{u}_{r}_e")
}

/// The routine names of a mask.
pub fn save_name(mask: RegSet) -> String {
    format!("__cactus_ccs_save_{:08x}", mask.0)
}

/// See [`save_name`].
pub fn restore_name(mask: RegSet) -> String {
    format!("__cactus_ccs_restore_{:08x}", mask.0)
}

/// The save routine of the mutated range (its own pair of routines, so that the linked
/// firmware tells which record it is).
pub const MUTATED_SAVE: &str = "__cactus_ccs_save_mutated";
/// See [`MUTATED_SAVE`].
pub const MUTATED_RESTORE: &str = "__cactus_ccs_restore_mutated";

fn names_of(r: &Range, k: usize, mutated: Option<usize>) -> (String, String) {
    if mutated == Some(k) {
        (MUTATED_SAVE.to_string(), MUTATED_RESTORE.to_string())
    } else {
        (save_name(r.mask), restore_name(r.mask))
    }
}

/// `file` with a start label before and an end label after every range of unit `u`, and the
/// unit's records in [`SECTION`].
fn labelled(file: &AsmFile, u: usize, ranges: &[Range], mutated: Option<usize>) -> String {
    let mine: Vec<(usize, &Range)> = ranges
        .iter()
        .enumerate()
        .filter(|(_, r)| r.unit == u)
        .collect();
    if mine.is_empty() {
        return file.to_string();
    }
    let starts: BTreeMap<usize, usize> = mine.iter().map(|(k, r)| (r.first, *k)).collect();
    let ends: BTreeMap<usize, usize> = mine.iter().map(|(k, r)| (r.last, *k)).collect();
    let mut entries: Vec<Entry> = Vec::with_capacity(file.entries.len() + 2 * mine.len());
    for (i, e) in file.entries.iter().enumerate() {
        if let Some(&k) = starts.get(&i) {
            entries.push(Entry {
                line: e.line,
                item: Item::Label(start_label(u, k)),
            });
        }
        entries.push(e.clone());
        if let Some(&k) = ends.get(&i) {
            entries.push(Entry {
                line: e.line,
                item: Item::Label(end_label(u, k)),
            });
        }
    }
    let mut text = AsmFile {
        origin: file.origin.clone(),
        entries,
    }
    .to_string();
    let _ = writeln!(
        text,
        "\t.pushsection {SECTION},\"a\",@progbits\n\t.balign 4"
    );
    for (k, r) in &mine {
        let (save, _) = names_of(r, *k, mutated);
        let _ = writeln!(
            text,
            "\t.word {}, {}, {save}, {k}",
            start_label(u, *k),
            end_label(u, *k),
        );
    }
    text.push_str("\t.popsection\n");
    text
}

/// The context slot of register `r` (port.h's names).
fn slot(r: u8) -> String {
    match r {
        1 => "CTX_RA".into(),
        2 => "CTX_SP".into(),
        n => format!("CTX_X({n})"),
    }
}

/// The save and restore routine of every distinct mask. The word before a save routine is its
/// mask. A save routine is entered with t6 = the context, stores the mask's registers but the
/// lookup's scratch ones, stores its restore routine's address in the context's CTX_CCS word
/// and returns through t2 (clobbers t3); a restore routine is entered with t6 = the context,
/// mepc and mstatus set, and leaves through mret with tp set.
fn routines(ranges: &[Range], opts: TableOptions, mutated: Option<usize>) -> String {
    let poison = opts.poison;
    let header = if opts.rmcs {
        "switch_rmcs.h"
    } else {
        "switch_ccs.h"
    };
    let pair = if opts.rmcs { rmcs_pair } else { routine_pair };
    let mut s = format!(
        "/* Generated by the firmware build (cactus_cc::switch::table; docs/ccs.md, \"The switch\n \
         * table\"): the save and restore routines of the switch table. */\n\
         #include \"port.h\"\n#include \"{header}\"\n\t.section .text.cactus_switch, \"ax\"\n\t.option norvc\n",
    );
    if let Some(seed) = poison {
        let _ = writeln!(s, "/* poison mode, seed {seed} */");
    }
    let masks: BTreeSet<u32> = ranges
        .iter()
        .enumerate()
        .filter(|(k, _)| Some(*k) != mutated)
        .map(|(_, r)| r.mask.0)
        .collect();
    let buckets = INDEX_BUCKETS_PER_RECORD * ranges.len();
    let _ = writeln!(
        s,
        "/* the bucket index ({buckets} buckets), filled after linking */\n\
         \t.pushsection .rodata.cactus_switch_index, \"a\"\n\t.balign 4\n\t.globl {INDEX_SYMBOL}\n\
         \t.type {INDEX_SYMBOL}, @object\n{INDEX_SYMBOL}:\n\t.word 0, 0, 0\n\t.space {}\n\
         \t.size {INDEX_SYMBOL}, . - {INDEX_SYMBOL}\n\t.popsection",
        2 * (buckets + 1)
    );
    for m in masks {
        let mask = RegSet(m);
        pair(&mut s, mask, &save_name(mask), &restore_name(mask), poison);
    }
    if let Some(k) = mutated {
        pair(
            &mut s,
            ranges[k].mask,
            MUTATED_SAVE,
            MUTATED_RESTORE,
            poison,
        );
    }
    s
}

/// One save and one restore routine for `mask` (see [`routines`]).
fn routine_pair(s: &mut String, mask: RegSet, save: &str, restore: &str, poison: Option<u32>) {
    let t6 = 31u8;
    let m = mask.0;
    let _ = writeln!(s, "\t.balign 4\n\t.word 0x{m:08x}");
    let _ = writeln!(s, "\t.globl {save}\n{save}:");
    for r in mask.minus(SCRATCH).iter() {
        let _ = writeln!(s, "\tsw x{r}, {}(t6)", slot(r));
    }
    // The resume restores through the restore routine (switch_ccs.h's CTX_CCS).
    let _ = writeln!(s, "\tlla t3, {restore}\n\tsw t3, CTX_CCS(t6)\n\tjr t2");
    let _ = writeln!(s, "\t.globl {restore}\n{restore}:");
    if let Some(seed) = poison {
        poison_fills(s, mask, RegSet::of(t6), seed);
    }
    for r in mask.minus(RegSet::of(t6)).iter() {
        let _ = writeln!(s, "\tlw x{r}, {}(t6)", slot(r));
    }
    s.push_str("\taddi tp, t6, PORT_TP\n");
    if mask.contains(t6) {
        s.push_str("\tlw t6, CTX_X(31)(t6)\n");
    } else if let Some(seed) = poison {
        let _ = writeln!(s, "\tli t6, 0x{:08x}", mix(seed ^ m) | 1);
    }
    s.push_str("\tmret\n");
}

/// Registers of the architectural page 0 (x0-x7) the rmcs routines save and load through the
/// context: ra, sp, t0, t1, t2 (gp and tp are never in a mask).
const PAGE0: RegSet = RegSet((1 << 1) | (1 << 2) | (1 << 5) | (1 << 6) | (1 << 7));

/// The poison fills of a restore routine: every register of the full state outside `mask` and
/// `keep` gets a seeded upper half xored with the cycle counter (in tp).
fn poison_fills(s: &mut String, mask: RegSet, keep: RegSet, seed: u32) {
    let m = mask.0;
    let unsaved = FULL_STATE.minus(mask).minus(keep);
    if !unsaved.is_empty() {
        s.push_str("\tcsrr tp, mcycle\n");
    }
    for r in unsaved.iter() {
        let hi = (mix(seed ^ mix(m ^ u32::from(r))) & 0xfffff).max(1);
        let _ = writeln!(s, "\tlui x{r}, 0x{hi:x}\n\txor x{r}, x{r}, tp");
    }
}

/// One rmcs save and restore routine for `mask` (kernel/arch/rv32/switch_rmcs.h). The save
/// routine is entered with t1 = the context (t0, t2 and mepc stored by the kernel), stores the
/// mask's ra and sp, sets CTX_CCS to the restore routine and returns through t2 with t0 = the
/// mask's live pages 1-3 (bit p - 1), which the kernel then holds in the register file. The
/// restore routine (t6 = the context, mepc and mstatus set) maps the held pages back, loads the
/// mask's registers of spilled pages, fills (poison mode) every register outside the mask with
/// garbage, loads the mask's page-0 registers and leaves through mret with tp set.
fn rmcs_pair(s: &mut String, mask: RegSet, save: &str, restore: &str, poison: Option<u32>) {
    let t2 = 7u8;
    let m = mask.0;
    let live: Vec<u8> = (1..=3u8).filter(|p| (m >> (8 * p)) & 0xFF != 0).collect();
    let bits = live.iter().fold(0u32, |b, p| b | 1 << (p - 1));
    let _ = writeln!(s, "\t.balign 4\n\t.word 0x{m:08x}");
    let _ = writeln!(s, "\t.globl {save}\n{save}:");
    let stored_by_kernel = RegSet((1 << 5) | (1 << 6) | (1 << t2));
    for r in RegSet(m & PAGE0.0).minus(stored_by_kernel).iter() {
        let _ = writeln!(s, "\tsw x{r}, {}(t1)", slot(r));
    }
    let _ = writeln!(
        s,
        "\tlla t0, {restore}\n\tsw t0, CTX_CCS(t1)\n\tli t0, {bits}\n\tjr t2"
    );
    let _ = writeln!(s, "\t.globl {restore}\n{restore}:");
    s.push_str("\tmv t2, t6\n\tRMCS_RESUME_BEGIN\n");
    for &p in &live {
        let _ = writeln!(s, "\tRMCS_BACK {p}, {}", p - 1);
    }
    s.push_str("\tRMCS_RESUME_MAP\n");
    for &p in &live {
        let regs = RegSet(m & (0xFF << (8 * p)));
        let _ = writeln!(s, "\tandi t0, tp, {}\n\tbeqz t0, 1f", 1 << (p - 1));
        for r in regs.iter() {
            let _ = writeln!(s, "\tlw x{r}, {}(t2)", slot(r));
        }
        s.push_str("1:\n");
    }
    if let Some(seed) = poison {
        poison_fills(s, mask, RegSet::of(t2), seed);
    }
    for r in RegSet(m & PAGE0.0).minus(RegSet::of(t2)).iter() {
        let _ = writeln!(s, "\tlw x{r}, {}(t2)", slot(r));
    }
    s.push_str("\taddi tp, t2, PORT_TP\n");
    if mask.contains(t2) {
        s.push_str("\tlw t2, CTX_X(7)(t2)\n");
    } else if let Some(seed) = poison {
        let _ = writeln!(s, "\tli t2, 0x{:08x}", mix(seed ^ m) | 1);
    }
    s.push_str("\tmret\n");
}

/// The bytes of the bucket index ([`INDEX_SYMBOL`]) for `records`, (start, end) sorted by start
/// and not overlapping, in an object reserved for `buckets` buckets: the smallest shift whose
/// buckets cover the span from the first start to the last end in at most `buckets`, and per
/// bucket `b` (and one past the last) the index of the first record ending after
/// `base + (b << shift)`. Every pc inside a record lies in a bucket whose first record is at or
/// before that record, and no record before a bucket's first holds a pc of that bucket.
/// `None` when there are more than 65,535 records (the halfwords cannot name them).
pub fn bucket_index(records: &[(u32, u32)], buckets: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; INDEX_HEADER_BYTES + 2 * (buckets + 1)];
    if records.len() > usize::from(u16::MAX) {
        return None;
    }
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return Some(out);
    };
    if buckets == 0 {
        return Some(out);
    }
    let base = first.0;
    let span = u64::from(last.1 - base);
    let mut shift = 0u32;
    while span.div_ceil(1u64 << shift) > buckets as u64 {
        shift += 1;
    }
    let used = span.div_ceil(1u64 << shift) as usize;
    out[0..4].copy_from_slice(&base.to_le_bytes());
    out[4..8].copy_from_slice(&shift.to_le_bytes());
    out[8..12].copy_from_slice(&(used as u32).to_le_bytes());
    let mut k = 0usize;
    for b in 0..=used {
        let start = u64::from(base) + ((b as u64) << shift);
        while k < records.len() && u64::from(records[k].1) <= start {
            k += 1;
        }
        let at = INDEX_HEADER_BYTES + 2 * b;
        out[at..at + 2].copy_from_slice(&(k as u16).to_le_bytes());
    }
    Some(out)
}

/// The kernel's lookup (`switch_ccs.h`'s `PREEMPT_SAVE`) modelled on the host, for tests: the
/// position in `records` (start, end pairs, sorted by start) of the record holding `pc`, found
/// through the filled bucket `index` as the kernel scans it; None for a pc in no record.
/// Panics if `index` is shorter than its header says.
pub fn index_lookup(index: &[u8], records: &[(u32, u32)], pc: u32) -> Option<usize> {
    let w = |i: usize| u32::from_le_bytes(index[i..i + 4].try_into().unwrap());
    let bucket = pc.wrapping_sub(w(0)) >> w(4);
    if bucket >= w(8) {
        return None;
    }
    let at = INDEX_HEADER_BYTES + 2 * bucket as usize;
    let mut k = usize::from(u16::from_le_bytes([index[at], index[at + 1]]));
    while k < records.len() && records[k].0 <= pc {
        if pc < records[k].1 {
            return Some(k);
        }
        k += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_finds_exactly_the_record_of_every_pc() {
        let records = [
            (0x100, 0x104),
            (0x104, 0x10a),
            (0x120, 0x122),
            (0x300, 0x340),
            (0x341, 0x342),
        ];
        for buckets in [1, 3, 20, 1000] {
            let index = bucket_index(&records, buckets).unwrap();
            assert_eq!(index.len(), INDEX_HEADER_BYTES + 2 * (buckets + 1));
            for pc in 0xf0..0x360u32 {
                let want = records.iter().position(|r| r.0 <= pc && pc < r.1);
                assert_eq!(
                    index_lookup(&index, &records, pc),
                    want,
                    "pc {pc:#x}, {buckets}"
                );
            }
        }
    }

    #[test]
    fn an_empty_or_unfilled_index_sends_every_pc_to_the_full_save() {
        let index = bucket_index(&[], 8).unwrap();
        assert_eq!(index_lookup(&index, &[], 0x100), None);
        let index = bucket_index(&[(0x100, 0x104)], 0).unwrap();
        assert_eq!(index_lookup(&index, &[(0x100, 0x104)], 0x100), None);
    }
}
