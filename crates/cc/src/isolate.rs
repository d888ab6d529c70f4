//! The isolate pass (SenSmart's memory isolation without an MPU, docs/sensmart.md "Memory
//! isolation"): every store of application code through a base register other than `sp` and
//! `tp`, every indirect jump, indirect call and return, and every call of a known C library
//! writer (`memcpy`, `memmove`, `memset`, `strcpy`, `strncpy`) is preceded by a check against
//! the running task's windows in the kernel's `cactus_iso_win` table. A check that fails there
//! is not yet a violation: it calls the kernel (`port_isolate_<kind>_<A>_<B>`,
//! kernel/arch/rv32/isolate.S), which searches all of the task's regions and applies the
//! task's fault policy when the access is outside every one of them.
//!
//! Guarantees: only the statements named above get code before them; the inserted code reads
//! the window table and writes only two registers that liveness proves dead before the
//! checked statement (a *pair*), or, where no pair is dead, `t0` and `t1` spilled to the two
//! words below `sp` ([`RED_ZONE`] bytes, which the stack checks count) and reloaded before the
//! statement; the checked statement itself and everything else are unchanged. The windows
//! (word offsets in `cactus_iso_win`): 0-1 the task's own globals `[lo, hi - 4]`, 2-3 its
//! stack, 4-5 the shared globals (both `[lo, hi - 4]`), 6-7 the application code `[lo, hi)`.
//! A store of at most 4 bytes at `a` passes inline when `lo <= a <= hi - 4` for one of the
//! three data windows (the first, from the stack down, whose `lo` is at most `a`); a narrower
//! store in the last word of a region takes the slow path, which is exact.

use crate::emit::{entry, inst, splice};
use cactus_asm::dataflow::{effects, Liveness};
use cactus_asm::{AsmFile, Callee, Cfg, Entry, Flow, Item};
use cactus_isa::asm::{Imm, Statement};
use cactus_isa::{Class, Op, Reg, RegSet};
use std::collections::BTreeMap;

/// The kernel's window table (eight words, see the module documentation).
pub const WINDOWS: &str = "cactus_iso_win";
/// The data windows a store is checked against inline: the task's own globals, its stack, the
/// shared globals (words `2k` and `2k + 1` of [`WINDOWS`]).
pub const DATA_WINDOWS: u32 = 3;
/// The word of [`WINDOWS`] where the application code's window starts.
pub const CODE_WINDOW: u32 = 2 * DATA_WINDOWS;
/// The kernel entries are `port_isolate_<kind>_<A>_<B>`.
pub const ENTRY_PREFIX: &str = "port_isolate_";
/// Bytes below `sp` the checks use when they must spill `t0` and `t1`.
pub const RED_ZONE: u32 = 8;
/// The C library functions whose destination is checked at their call sites, with the check
/// kind: `r` is `[a0, a0 + a2)`, `s` is `[a0, a0 + strlen(a1) + 1)`.
pub const WRITERS: [(&str, char); 5] = [
    ("memcpy", 'r'),
    ("memmove", 'r'),
    ("memset", 'r'),
    ("strncpy", 'r'),
    ("strcpy", 's'),
];

/// Register pairs (A, B) the checks may use, in order of preference. A holds the checked
/// address (or jump target), B the window bound and, in the slow path, the return address.
/// The kernel has one entry per pair and kind (isolate.S lists the same pairs).
pub const PAIRS: [(Reg, Reg); 7] = [
    (5, 6),   // t0, t1
    (7, 28),  // t2, t3
    (29, 30), // t4, t5
    (31, 17), // t6, a7
    (16, 15), // a6, a5
    (14, 13), // a4, a3
    (12, 11), // a2, a1
];

/// What the pass did to one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IsolateStats {
    /// Stores checked.
    pub stores: usize,
    /// Indirect jumps, indirect calls and returns checked.
    pub jumps: usize,
    /// Calls of C library writers checked.
    pub writers: usize,
    /// Of all checks, those that spill `t0` and `t1` below `sp`.
    pub spills: usize,
}

/// One statement to check.
enum Site {
    /// A store of `width` bytes at `base + off` (`off` as written: a number or `%lo(sym)`).
    Store { base: Reg, off: String, width: u32 },
    /// A jump to `base + off`.
    Jump { base: Reg, off: i32 },
    /// A call of a C library writer, with its check kind.
    Writer(char),
}

/// The check a statement needs, if any.
fn site_of(s: &Statement) -> Option<Site> {
    let imm_text = |imm: &Imm| match imm {
        Imm::Num(v) => v.to_string(),
        Imm::Sym(e) => e.to_string(),
    };
    let store = |op: Op, rs1: Reg, off: String| -> Option<Site> {
        let width = op.access_bytes()?;
        let stores = matches!(op.class(), Class::Store)
            || (matches!(op.class(), Class::Amo) && op != Op::LrW);
        // sp-relative accesses are the compiler's frame (kept in the stack by the stack
        // checks); tp-relative ones are the task's own context slots (the branch counter).
        (stores && rs1 != 2 && rs1 != 4).then_some(Site::Store {
            base: rs1,
            off,
            width,
        })
    };
    match Flow::of(s) {
        Flow::Return | Flow::IndirectJump(_) | Flow::Call(Callee::Indirect(_)) => {
            return match s {
                Statement::Base(a) if a.op == Op::Jalr => match &a.imm {
                    Imm::Num(off) => Some(Site::Jump {
                        base: a.rs1,
                        off: *off,
                    }),
                    Imm::Sym(_) => None, // `jalr ra,%pcrel_lo(..)(t1)`: a direct call
                },
                Statement::Compressed(c) => {
                    let i = c.expand();
                    (i.op == Op::Jalr).then_some(Site::Jump {
                        base: i.rs1,
                        off: i.imm,
                    })
                }
                Statement::Pseudo(p) => {
                    use cactus_isa::asm::PseudoOp as P;
                    match p.op {
                        P::Ret => Some(Site::Jump { base: 1, off: 0 }),
                        P::Jr | P::Jalr => Some(Site::Jump {
                            base: p.rs1,
                            off: 0,
                        }),
                        _ => None,
                    }
                }
                _ => None, // mret: kernel code only
            };
        }
        Flow::Call(Callee::Direct(name)) | Flow::TailCall(Callee::Direct(name)) => {
            return WRITERS
                .iter()
                .find(|(w, _)| *w == name)
                .map(|&(_, k)| Site::Writer(k));
        }
        _ => {}
    }
    match s {
        Statement::Base(a) => store(a.op, a.rs1, imm_text(&a.imm)),
        Statement::Compressed(c) => {
            let i = c.expand();
            store(i.op, i.rs1, i.imm.to_string())
        }
        // `sw rs,sym,rt`: GCC's medany symbol stores; the address is `sym`.
        Statement::Pseudo(p) => {
            use cactus_isa::asm::PseudoOp as P;
            let width = match p.op {
                P::SbSym => 1,
                P::ShSym => 2,
                P::SwSym => 4,
                _ => return None,
            };
            Some(Site::Store {
                base: 0,
                off: imm_text(&p.imm),
                width,
            })
        }
    }
}

/// The first pair of [`PAIRS`] with neither register in `live`.
pub fn pair(live: RegSet) -> Option<(Reg, Reg)> {
    PAIRS
        .iter()
        .copied()
        .find(|&(a, b)| !live.contains(a) && !live.contains(b))
}

/// Code that loads window word `k` into `b`: `lui` + `lw`, one gp-relative `lw` after linker
/// relaxation when the table is within reach of `gp`.
fn load_window(b: &str, k: u32) -> [Entry; 2] {
    let sym = if k == 0 {
        WINDOWS.to_string()
    } else {
        format!("{WINDOWS}+{}", 4 * k)
    };
    [
        inst(&format!("lui {b},%hi({sym})")),
        inst(&format!("lw {b},%lo({sym})({b})")),
    ]
}

/// The inline check of the data windows: the window is chosen by `start` against the windows'
/// lower bounds from the highest region down (the stack, which the stack pool puts above all
/// globals; the shared globals, which the link script puts above every task's own; the own
/// globals), then `end` (the last word's address) is checked against that window's `hi - 4`.
/// Every inline pass lies inside one window whatever the layout; the order only makes the
/// common cases short: 5 instructions to the stack, 8 to the shared globals, 9 to the own
/// globals, with the address. Falls through to `back` when inside, jumps to `slow` when not.
fn data_check(
    code: &mut Vec<Entry>,
    start: &str,
    end: &str,
    b: &str,
    slow: &str,
    back: &str,
    n: usize,
) {
    let (stack, shared) = (format!(".Lcactus_iso3_{n}"), format!(".Lcactus_iso2_{n}"));
    code.extend(load_window(b, 2));
    code.push(inst(&format!("bgeu {start},{b},{stack}")));
    code.extend(load_window(b, 4));
    code.push(inst(&format!("bgeu {start},{b},{shared}")));
    code.extend(load_window(b, 0));
    code.push(inst(&format!("bltu {start},{b},{slow}")));
    code.extend(load_window(b, 1));
    code.push(inst(&format!("bgtu {end},{b},{slow}")));
    code.push(inst(&format!("j {back}")));
    code.push(entry(Item::Label(shared)));
    code.extend(load_window(b, 5));
    code.push(inst(&format!("bgtu {end},{b},{slow}")));
    code.push(inst(&format!("j {back}")));
    code.push(entry(Item::Label(stack)));
    code.extend(load_window(b, 3));
    code.push(inst(&format!("bgtu {end},{b},{slow}")));
}

/// The functions of `file` with a site where no pair is dead (the check spills `t0` and `t1`
/// below `sp`; the check pass must count [`RED_ZONE`]).
pub fn red_zone_functions(file: &AsmFile) -> Vec<String> {
    file.functions()
        .into_iter()
        .filter(|func| {
            let cfg = Cfg::build(file, func);
            sites(file, &cfg).iter().any(|(_, _, p)| p.is_none())
        })
        .map(|func| func.name)
        .collect()
}

/// One site of a function: its entry index, the check, the pair to use (None: spill).
type Found = (usize, Site, Option<(Reg, Reg)>);

/// The sites of one function.
fn sites(file: &AsmFile, cfg: &Cfg) -> Vec<Found> {
    let live = Liveness::compute(file, cfg);
    let mut out = Vec::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        let after = live.live_after(file, cfg, b);
        for (k, &i) in block.insts.iter().enumerate() {
            let Item::Inst(s) = &file.entries[i].item else {
                continue;
            };
            let Some(site) = site_of(s) else { continue };
            let (reads, writes) = effects(&file.entries[i].item);
            // Dead before the statement and not read by it (a register it writes, such as a
            // call's clobbers or an AMO's rd, is redefined by it anyway).
            let busy = reads.union(after[k].minus(writes));
            out.push((i, site, pair(busy)));
        }
    }
    out
}

/// Instruments every store, indirect jump, return and C library writer call of every function
/// of `file`; `next` numbers the labels (`.Lcactus_iso_<n>`, `.Lcactus_isr_<n>`) across the
/// units of one invocation.
pub fn instrument(file: &mut AsmFile, next: &mut usize) -> IsolateStats {
    let mut inserts: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    let mut stats = IsolateStats::default();
    for func in file.functions() {
        let cfg = Cfg::build(file, &func);
        let found = sites(file, &cfg);
        if found.is_empty() {
            continue;
        }
        let stub_at = (func.start..func.end)
            .rev()
            .find(|&i| matches!(file.entries[i].item, Item::Inst(_) | Item::Opaque(_)))
            .map_or(func.end, |i| i + 1);
        for (at, site, pair) in found {
            let spill = pair.is_none();
            let (ra, rb) = pair.unwrap_or(PAIRS[0]);
            let (a, b) = (cactus_isa::reg_name(ra), cactus_isa::reg_name(rb));
            let (slow, back) = (
                format!(".Lcactus_iso_{next}"),
                format!(".Lcactus_isr_{next}"),
            );
            let n = *next;
            *next += 1;
            let mut code = Vec::new();
            if spill {
                code.push(inst("sw t0,-4(sp)"));
                code.push(inst("sw t1,-8(sp)"));
                stats.spills += 1;
            }
            let kind = match &site {
                Site::Store { base, off, width } => {
                    stats.stores += 1;
                    if *base == 0 {
                        code.push(inst(&format!("lla {a},{off}")));
                    } else {
                        let r = cactus_isa::reg_name(*base);
                        code.push(inst(&format!("addi {a},{r},{off}")));
                    }
                    data_check(&mut code, a, a, b, &slow, &back, n);
                    match width {
                        1 => 'b',
                        2 => 'h',
                        _ => 'w',
                    }
                }
                Site::Jump { base, off } => {
                    stats.jumps += 1;
                    let r = cactus_isa::reg_name(*base);
                    code.push(inst(&format!("addi {a},{r},{off}")));
                    code.extend(load_window(b, CODE_WINDOW));
                    code.push(inst(&format!("bltu {a},{b},{slow}")));
                    code.extend(load_window(b, CODE_WINDOW + 1));
                    code.push(inst(&format!("bgeu {a},{b},{slow}")));
                    'j'
                }
                Site::Writer(kind) => {
                    stats.writers += 1;
                    // Inline for [a0, a0 + a2) inside one of the data windows, chosen by
                    // a0; anything else is exact in the slow path (a wrapping end, strcpy's
                    // unknown length). A holds the last word's address a0 + a2 - 4.
                    if *kind == 'r' {
                        code.push(inst(&format!("add {a},a0,a2")));
                        code.push(inst(&format!("bltu {a},a0,{slow}")));
                        code.push(inst(&format!("addi {a},{a},-4")));
                        data_check(&mut code, "a0", a, b, &slow, &back, n);
                    } else {
                        code.push(inst(&format!("j {slow}")));
                    }
                    *kind
                }
            };
            code.push(entry(Item::Label(back.clone())));
            if spill {
                code.push(inst("lw t0,-4(sp)"));
                code.push(inst("lw t1,-8(sp)"));
            }
            inserts.entry(at).or_default().extend(code);
            inserts.entry(stub_at).or_default().extend([
                entry(Item::Label(slow)),
                inst(&format!("jal {b},{ENTRY_PREFIX}{kind}_{a}_{b}")),
                inst(&format!("j {back}")),
            ]);
        }
    }
    if stats.stores + stats.jumps + stats.writers > 0 {
        splice(file, inserts);
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> (String, IsolateStats) {
        let mut f = AsmFile::parse(src, "t.s").unwrap();
        let mut n = 0;
        let stats = instrument(&mut f, &mut n);
        (f.to_string(), stats)
    }

    fn func(body: &str) -> String {
        format!("\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n")
    }

    #[test]
    fn a_store_through_a_pointer_is_checked_against_the_three_data_windows() {
        let (out, stats) = run(&func("\tsw\ta1,8(a0)\n\tret\n"));
        assert_eq!((stats.stores, stats.jumps), (1, 1));
        let want = "\taddi t0,a0,8\n\tlui t1,%hi(cactus_iso_win+8)\n\tlw t1,%lo(cactus_iso_win+8)(t1)\n\tbgeu t0,t1,.Lcactus_iso3_0\n\tlui t1,%hi(cactus_iso_win+16)\n\tlw t1,%lo(cactus_iso_win+16)(t1)\n\tbgeu t0,t1,.Lcactus_iso2_0\n\tlui t1,%hi(cactus_iso_win)\n\tlw t1,%lo(cactus_iso_win)(t1)\n\tbltu t0,t1,.Lcactus_iso_0\n\tlui t1,%hi(cactus_iso_win+4)\n\tlw t1,%lo(cactus_iso_win+4)(t1)\n\tbgtu t0,t1,.Lcactus_iso_0\n\tj .Lcactus_isr_0\n.Lcactus_iso2_0:\n\tlui t1,%hi(cactus_iso_win+20)\n\tlw t1,%lo(cactus_iso_win+20)(t1)\n\tbgtu t0,t1,.Lcactus_iso_0\n\tj .Lcactus_isr_0\n.Lcactus_iso3_0:\n\tlui t1,%hi(cactus_iso_win+12)\n\tlw t1,%lo(cactus_iso_win+12)(t1)\n\tbgtu t0,t1,.Lcactus_iso_0\n.Lcactus_isr_0:\n";
        assert!(out.contains(want), "{out}");
        assert!(out.contains(".Lcactus_isr_0:\n\tsw a1,8(a0)\n"), "{out}");
        let stub = ".Lcactus_iso_0:\n\tjal t1,port_isolate_w_t0_t1\n\tj .Lcactus_isr_0\n";
        assert!(out.contains(stub), "{out}");
    }

    #[test]
    fn sp_and_tp_relative_stores_are_not_checked() {
        let src = func("\tsw\ta1,8(sp)\n\tsw\ta1,-8(tp)\n\tc.swsp\ta1,4(sp)\n\ttail\tg\n");
        let (out, stats) = run(&src);
        assert_eq!(stats, IsolateStats::default());
        assert_eq!(out, AsmFile::parse(&src, "t.s").unwrap().to_string());
    }

    #[test]
    fn widths_and_symbolic_offsets_choose_the_entry() {
        let (out, stats) = run(&func(
            "\tlui\ta5,%hi(x)\n\tsb\ta1,%lo(x)(a5)\n\tsh\ta1,2(a0)\n\tret\n",
        ));
        assert_eq!(stats.stores, 2);
        assert!(out.contains("\taddi t0,a5,%lo(x)\n"), "{out}");
        assert!(out.contains("port_isolate_b_t0_t1"), "{out}");
        assert!(out.contains("port_isolate_h_t0_t1"), "{out}");
    }

    #[test]
    fn returns_and_indirect_calls_are_checked_against_the_code_window() {
        let (out, stats) = run(&func(
            "\taddi\tsp,sp,-16\n\tsw\tra,12(sp)\n\tjalr\ta5\n\tlw\tra,12(sp)\n\taddi\tsp,sp,16\n\tjr\tra\n",
        ));
        assert_eq!((stats.stores, stats.jumps), (0, 2));
        let want = "\taddi t0,a5,0\n\tlui t1,%hi(cactus_iso_win+24)\n\tlw t1,%lo(cactus_iso_win+24)(t1)\n\tbltu t0,t1,.Lcactus_iso_0\n\tlui t1,%hi(cactus_iso_win+28)\n\tlw t1,%lo(cactus_iso_win+28)(t1)\n\tbgeu t0,t1,.Lcactus_iso_0\n.Lcactus_isr_0:\n\tjalr a5\n";
        assert!(out.contains(want), "{out}");
        assert!(out.contains("\taddi t0,ra,0\n"), "{out}");
        assert!(out.contains("port_isolate_j_t0_t1"), "{out}");
    }

    #[test]
    fn library_writers_are_checked_at_their_call_sites() {
        let (out, stats) = run(&func(
            "\taddi\tsp,sp,-16\n\tsw\tra,12(sp)\n\tcall\tmemset\n\tcall\tstrcpy\n\tcall\tputs\n\tlw\tra,12(sp)\n\taddi\tsp,sp,16\n\tjr\tra\n",
        ));
        assert_eq!(stats.writers, 2);
        assert!(out.contains("\tadd t0,a0,a2\n"), "{out}");
        assert!(out.contains("port_isolate_r_t0_t1"), "{out}");
        assert!(out.contains("port_isolate_s_t0_t1"), "{out}");
    }

    #[test]
    fn the_pair_is_dead_and_not_used_by_the_store() {
        let (out, _) = run(&func(
            "\tadd\tt0,t0,t1\n\tsw\tt0,0(a0)\n\tmv\ta0,t1\n\tret\n",
        ));
        assert!(out.contains("\taddi t2,a0,0\n"), "{out}");
        assert!(out.contains("port_isolate_w_t2_t3"), "{out}");
    }

    #[test]
    fn with_no_pair_dead_t0_and_t1_are_spilled_below_sp() {
        let mut body = String::new();
        for (a, b) in PAIRS {
            body.push_str(&format!(
                "\tli\t{},1\n\tli\t{},1\n",
                cactus_isa::reg_name(a),
                cactus_isa::reg_name(b)
            ));
        }
        body.push_str("\tsw\tzero,0(s1)\n");
        for (a, b) in PAIRS {
            body.push_str(&format!(
                "\tmv\tzero,{}\n\tmv\tzero,{}\n",
                cactus_isa::reg_name(a),
                cactus_isa::reg_name(b)
            ));
        }
        body.push_str("\tret\n");
        let src = func(&body);
        let f = AsmFile::parse(&src, "t.s").unwrap();
        assert_eq!(red_zone_functions(&f), vec!["f".to_string()]);
        let (out, stats) = run(&src);
        assert_eq!(stats.spills, 1);
        assert!(
            out.contains("\tsw t0,-4(sp)\n\tsw t1,-8(sp)\n\taddi t0,s1,0\n"),
            "{out}"
        );
        assert!(
            out.contains(".Lcactus_isr_0:\n\tlw t0,-4(sp)\n\tlw t1,-8(sp)\n\tsw zero,0(s1)\n"),
            "{out}"
        );
    }
}
