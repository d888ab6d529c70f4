//! The rmcs renaming pass (paper 002, section 5.1; docs/ccs.md "rmcs"): renames the
//! callee-saved registers of each function so that the registers live at its loops' switch
//! points and blocks fall into as few register pages as possible, so that the fewest pages of
//! cactus-sim's register pool hold a preempted task's state.
//!
//! **Pages.** cactus-sim's register-page extension maps pages of 8 registers: architectural
//! page p is x(8p)..x(8p+7), and pages 1-3 (x8-x31) are mappable. A state needs the pages
//! 1-3 that hold one of its registers ([`pages`]); page 0 (ra, sp, gp, tp, t0-t2) is never
//! mapped, and what a state holds there (sp always) is stored as by ccs.
//!
//! **The renaming.** Per function, one permutation σ of s0-s11 (every other register maps to
//! itself), applied to every instruction of the function and to the register numbers of its
//! CFI directives. σ is chosen among the identity and, for each of the six orders of the
//! pages, the assignment that gives the s-registers the loops' states hold most often the
//! s-slots of the earliest pages (page 1 has s0 and s1, page 2 s2-s7, page 3 s8-s11); the one
//! with the smallest (largest page count over the loops' points, then over their blocks, then
//! the sums) wins, the identity on ties. No instruction is added: the paper's "no extra
//! spill/fill code".
//!
//! **Why σ keeps the program's meaning.** Running the renamed function f' on registers X' is
//! running f on X with X\[r\] = X'\[σ(r)\]: every instruction of f' is f's with σ applied to
//! every register operand. σ is the identity on the argument, result, return-address, stack,
//! global and thread pointers and on every caller-saved register, so what f reads from its
//! caller, what it passes to its callees and what it returns are unchanged, and so is which
//! caller-saved registers it clobbers (GCC's `-fipa-ra` callers rely on that). f restores
//! every s-register it writes before returning (the ABI), so at its return s holds X\[s\]; in
//! f' that is register σ(s) holding X'\[σ(s)\]: f' too returns with every s-register as it
//! found it. Its callees preserve s-registers whatever their names. The stack slots of f's
//! saves hold other registers' values, which only f reads back (and the unwinder, whose CFI
//! is renamed with the code). A function that never returns is unaffected by the last point.
//!
//! **What is left alone** (the function keeps its registers): kernel units and the generated
//! glue, functions with inline assembly ([`Item::Opaque`]) or explicit compressed
//! instructions, `-msave-restore` millicode (`__riscv_save_N` saves fixed registers), and CFI
//! directives whose register operands are not plain numbers.

use super::live::StateLiveness;
use super::points::loop_switches;
use super::{analyse, SwitchError, TaskEntry, KERNEL_PREFIX};
use crate::program::Program;
use cactus_asm::{AsmFile, Item};
use cactus_isa::asm::Statement;
use cactus_isa::{Format, RegSet};
use serde::Serialize;
use std::collections::BTreeMap;

/// Registers per page of the register-page extension.
pub const PAGE_REGS: u32 = 8;
/// The callee-saved registers the pass renames, by page: s0-s1 (page 1), s2-s7 (page 2),
/// s8-s11 (page 3).
const S_REGS: [u8; 12] = [8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27];

/// The mappable pages (1-3) that hold a register of `set`, as a bit set (bit p = page p).
pub fn page_set(set: RegSet) -> u32 {
    (1..=3u32)
        .filter(|p| (set.0 >> (p * PAGE_REGS)) & 0xFF != 0)
        .fold(0, |m, p| m | 1 << p)
}

/// The number of mappable pages that hold a register of `set`.
pub fn pages(set: RegSet) -> u32 {
    page_set(set).count_ones()
}

/// A register permutation: `perm[r]` is r's new name.
pub type Perm = [u8; 32];

fn identity() -> Perm {
    std::array::from_fn(|r| r as u8)
}

fn apply_set(perm: &Perm, set: RegSet) -> RegSet {
    (0..32u8)
        .filter(|&r| set.0 >> r & 1 != 0)
        .fold(RegSet(0), |s, r| RegSet(s.0 | 1 << perm[r as usize]))
}

/// One renamed function.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Renamed {
    /// The unit's origin.
    pub unit: String,
    /// The function.
    pub function: String,
    /// `(old, new)` register names of the s-registers that moved.
    pub moves: Vec<(String, String)>,
    /// Largest page count over the function's switch points, before and after.
    pub point_pages: (u32, u32),
    /// The same over its switch blocks.
    pub block_pages: (u32, u32),
}

/// The state of a point of a function renamed by `perm`, from its state `state` before:
/// `used` are the registers the function's instructions name, `need` the s-registers its
/// callers need after it returns (`exit_live`). A named register's value moves with its name;
/// an s-register the function does not name holds a caller's value, which stays where it is
/// unless the renamed function now names (and so saves) that register.
pub fn renamed_state(perm: &Perm, state: RegSet, used: RegSet, need: RegSet) -> RegSet {
    let s_all = S_REGS.iter().fold(0u32, |m, &r| m | 1 << r);
    let passing = state.0 & s_all & !used.0;
    let moved = apply_set(perm, RegSet(state.0 & !passing));
    let used_after = apply_set(perm, RegSet(used.0 & s_all));
    RegSet(moved.0 | (need.0 & s_all & !used_after.0) | (passing & !used_after.0))
}

/// The s-register permutation for a function whose loops have the states `loops` (point,
/// block), naming the registers `used`, with callers needing `need` (see
/// [`renamed_state`]): the best of the identity and the frequency-greedy assignments per page
/// order.
pub fn choose(loops: &[(RegSet, RegSet)], used: RegSet, need: RegSet) -> Perm {
    let after = |perm: &Perm, st: RegSet| pages(renamed_state(perm, st, used, need));
    let score = |perm: &Perm| {
        let p: Vec<u32> = loops.iter().map(|l| after(perm, l.0)).collect();
        let b: Vec<u32> = loops.iter().map(|l| after(perm, l.1)).collect();
        (
            p.iter().copied().max().unwrap_or(0),
            b.iter().copied().max().unwrap_or(0),
            p.iter().sum::<u32>(),
            b.iter().sum::<u32>(),
        )
    };
    // How often each s-register is in a point's state, then a block's.
    let mut freq: Vec<(u32, u32, u8)> = S_REGS
        .iter()
        .filter(|&&r| used.0 >> r & 1 != 0)
        .map(|&r| {
            let inp = loops.iter().filter(|l| l.0 .0 >> r & 1 != 0).count() as u32;
            let inb = loops.iter().filter(|l| l.1 .0 >> r & 1 != 0).count() as u32;
            (inp, inb, r)
        })
        .collect();
    freq.sort_by(|a, b| (b.0, b.1, a.2).cmp(&(a.0, a.1, b.2)));
    let slots = |page: u32| {
        S_REGS
            .iter()
            .copied()
            .filter(move |&r| u32::from(r) / 8 == page)
    };
    let mut best = identity();
    let mut best_score = score(&best);
    for order in [
        [1, 2, 3],
        [1, 3, 2],
        [2, 1, 3],
        [2, 3, 1],
        [3, 1, 2],
        [3, 2, 1],
    ] {
        let targets: Vec<u8> = order.iter().flat_map(|&p| slots(p)).collect();
        // The named registers take the first slots; the others fill the rest in order.
        let mut perm = identity();
        let taken: Vec<u8> = targets.iter().copied().take(freq.len()).collect();
        for (&(_, _, from), &to) in freq.iter().zip(&taken) {
            perm[from as usize] = to;
        }
        let rest_from = S_REGS.iter().filter(|r| !freq.iter().any(|f| f.2 == **r));
        let rest_to = targets.iter().filter(|t| !taken.contains(t));
        for (&from, &to) in rest_from.zip(rest_to) {
            perm[from as usize] = to;
        }
        let s = score(&perm);
        if s < best_score {
            best = perm;
            best_score = s;
        }
    }
    best
}

/// Renames the registers of `stmt` by `perm`; false if it cannot (an explicit compressed
/// instruction).
fn rename_statement(stmt: &mut Statement, perm: &Perm) -> bool {
    let map = |r: &mut u8| *r = perm[usize::from(*r) & 31];
    match stmt {
        Statement::Base(a) => {
            map(&mut a.rd);
            if a.op.format() != Format::CsrI {
                map(&mut a.rs1);
            }
            map(&mut a.rs2);
            true
        }
        Statement::Pseudo(p) => {
            use cactus_isa::asm::PseudoOp as P;
            map(&mut p.rd);
            if !matches!(p.op, P::Csrwi | P::Csrsi | P::Csrci) {
                map(&mut p.rs1);
            }
            map(&mut p.rs2);
            true
        }
        Statement::Compressed(_) => false,
    }
}

/// The directive `text` with its register-number operands renamed; None if a CFI directive
/// names a register other than by number.
fn rename_directive(name: &str, text: &str, perm: &Perm) -> Option<String> {
    // Which operands are registers.
    let regs: &[usize] = match name {
        ".cfi_offset"
        | ".cfi_rel_offset"
        | ".cfi_restore"
        | ".cfi_def_cfa"
        | ".cfi_def_cfa_register"
        | ".cfi_undefined"
        | ".cfi_same_value" => &[0],
        ".cfi_register" => &[0, 1],
        _ => return Some(text.to_string()),
    };
    let (head, body) = text.split_once(char::is_whitespace)?;
    let mut ops: Vec<String> = body.split(',').map(|s| s.trim().to_string()).collect();
    for &k in regs {
        let r: usize = ops.get(k)?.parse().ok()?;
        if r >= 32 {
            return None;
        }
        ops[k] = perm[r].to_string();
    }
    Some(format!("{head} {}", ops.join(", ")))
}

/// Renames function `f`'s entries in `file` by `perm`; false (nothing changed) when the
/// function cannot be renamed (see the module doc).
fn rename_function(file: &mut AsmFile, start: usize, end: usize, perm: &Perm) -> bool {
    let mut out = Vec::with_capacity(end - start);
    for e in &file.entries[start..end] {
        let mut item = e.item.clone();
        match &mut item {
            Item::Opaque(_) => return false,
            Item::Inst(s) => {
                let text = s.to_string();
                if text.contains("__riscv_save") || text.contains("__riscv_restore") {
                    return false;
                }
                if !rename_statement(s, perm) {
                    return false;
                }
            }
            Item::Directive { name, text } if name.starts_with(".cfi_") => {
                match rename_directive(name, text, perm) {
                    Some(t) => *text = t,
                    None => return false,
                }
            }
            _ => {}
        }
        out.push(item);
    }
    for (e, item) in file.entries[start..end].iter_mut().zip(out) {
        e.item = item;
    }
    true
}

/// The rmcs renaming over the program `files` with tasks `tasks` (glue unit `glue`, as for
/// [`super::switch_report`]): renames each function of the tasks' code that has loops as the
/// module doc says, in place, and returns what moved.
pub fn pack_pages(
    files: &mut [AsmFile],
    tasks: &[TaskEntry],
    glue: Option<usize>,
) -> Result<Vec<Renamed>, SwitchError> {
    let a = analyse(files, tasks, glue)?;
    let plans = plan(files, &a.prog, &a.live, &a.tasks, glue);
    let mut out = Vec::new();
    for (f, perm, row) in plans {
        let info = &a.prog.funcs[f];
        let (unit, start, end) = (info.unit, info.func.start, info.func.end);
        if rename_function(&mut files[unit], start, end, &perm) {
            out.push(row);
        }
    }
    Ok(out)
}

/// Per function with loops in the tasks' code: its permutation and report row, for those
/// that change.
fn plan(
    files: &[AsmFile],
    prog: &Program,
    live: &StateLiveness,
    tasks: &[(usize, bool, Vec<usize>)],
    glue: Option<usize>,
) -> Vec<(usize, Perm, Renamed)> {
    let mut funcs: Vec<usize> = tasks.iter().flat_map(|t| t.2.iter().copied()).collect();
    funcs.sort_unstable();
    funcs.dedup();
    funcs.retain(|&f| {
        let u = prog.funcs[f].unit;
        Some(u) != glue && !files[u].origin.starts_with(KERNEL_PREFIX)
    });
    let mut by_func: BTreeMap<usize, Vec<(RegSet, RegSet)>> = BTreeMap::new();
    for l in loop_switches(files, prog, live, &funcs) {
        by_func
            .entry(l.func)
            .or_default()
            .push((l.point_state, l.block_state));
    }
    let mut out = Vec::new();
    for (f, loops) in by_func {
        let file = &files[prog.funcs[f].unit];
        let used = prog.funcs[f].func.insts(file).fold(RegSet(0), |m, (_, s)| {
            RegSet(m.0 | s.reads().0 | s.writes().0)
        });
        let need = live.exit_live[f];
        let perm = choose(&loops, used, need);
        if perm == identity() {
            continue;
        }
        let worst = |sel: fn(&(RegSet, RegSet)) -> RegSet, p: &Perm| {
            loops
                .iter()
                .map(|l| pages(renamed_state(p, sel(l), used, need)))
                .max()
                .unwrap_or(0)
        };
        let id = identity();
        let row = Renamed {
            unit: files[prog.funcs[f].unit].origin.clone(),
            function: prog.funcs[f].func.name.clone(),
            moves: S_REGS
                .iter()
                .filter(|&&r| perm[usize::from(r)] != r)
                .map(|&r| {
                    (
                        cactus_isa::reg_name(r).to_string(),
                        cactus_isa::reg_name(perm[usize::from(r)]).to_string(),
                    )
                })
                .collect(),
            point_pages: (worst(|l| l.0, &id), worst(|l| l.0, &perm)),
            block_pages: (worst(|l| l.1, &id), worst(|l| l.1, &perm)),
        };
        out.push((f, perm, row));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::switch::{switch_report, TaskEntry};

    fn set(regs: &[u8]) -> RegSet {
        RegSet(regs.iter().fold(0, |m, &r| m | 1 << r))
    }

    #[test]
    fn pages_count_the_mappable_pages_a_state_touches() {
        assert_eq!(pages(set(&[1, 2, 5])), 0, "page 0 is never mapped");
        assert_eq!(pages(set(&[2, 8, 9])), 1);
        assert_eq!(pages(set(&[2, 8, 18, 27])), 3);
        assert_eq!(page_set(set(&[24, 31])), 1 << 3);
    }

    #[test]
    fn choose_packs_scattered_s_registers_into_one_page() {
        // s0, s2 and s9 (pages 1, 2, 3) live at the one point: three pages; renamed, one.
        let loops = [(set(&[2, 8, 18, 25]), set(&[2, 8, 18, 25]))];
        let used = set(&[2, 8, 18, 25]);
        let perm = choose(&loops, used, RegSet(0));
        assert_eq!(pages(renamed_state(&perm, loops[0].0, used, RegSet(0))), 1);
        assert_eq!(perm[2], 2, "sp keeps its name");
        // A permutation: no two registers get one name.
        let mut seen = [false; 32];
        for &r in &perm {
            assert!(!std::mem::replace(&mut seen[r as usize], true));
        }
        // Already packed: the identity.
        let packed = [(set(&[2, 18, 19]), set(&[2, 18, 19, 20]))];
        assert_eq!(
            choose(&packed, set(&[2, 18, 19, 20]), RegSet(0)),
            identity()
        );
        // s1 passes through unnamed (a caller needs it): it stays where it is, so the
        // named ones join its page rather than moving it.
        let through = [(set(&[2, 9, 18, 25]), set(&[2, 9, 18, 25]))];
        let used = set(&[2, 18, 25]);
        let perm = choose(&through, used, set(&[9]));
        let after = renamed_state(&perm, through[0].0, used, set(&[9]));
        assert_eq!(pages(after), 1, "{after:?}");
    }

    /// A task whose loop keeps its state in s0 (page 1), s4 (page 2) and s9 (page 3) across a
    /// call, with the prologue's saves and their CFI.
    const TASK: &str = "\t.text
\t.globl\ttask
\t.type\ttask, @function
task:
\t.cfi_startproc
\taddi\tsp,sp,-16
\t.cfi_def_cfa_offset 16
\tsw\tra,12(sp)
\tsw\ts0,8(sp)
\tsw\ts4,4(sp)
\tsw\ts9,0(sp)
\t.cfi_offset 1, -4
\t.cfi_offset 8, -8
\t.cfi_offset 20, -12
\t.cfi_offset 25, -16
\tli\ts0,0
\tli\ts4,10
\tli\ts9,3
.L2:
\tmv\ta0,s9
\tcall\twork
\tadd\ts0,s0,a0
\taddi\ts4,s4,-1
\tbnez\ts4,.L2
\tmv\ta0,s0
\tlw\tra,12(sp)
\tlw\ts0,8(sp)
\tlw\ts4,4(sp)
\tlw\ts9,0(sp)
\taddi\tsp,sp,16
\tjr\tra
\t.cfi_endproc
\t.size\ttask, .-task
\t.globl\twork
\t.type\twork, @function
work:
\taddi\ta0,a0,1
\tret
\t.size\twork, .-work
";

    fn task() -> (Vec<AsmFile>, Vec<TaskEntry>) {
        let files = vec![AsmFile::parse(TASK, "task.s").unwrap()];
        let tasks = vec![TaskEntry {
            task: "t".into(),
            entry: "task".into(),
            calls: Default::default(),
        }];
        (files, tasks)
    }

    #[test]
    fn the_pass_packs_a_loops_state_into_one_page_and_renames_saves_and_cfi() {
        let (mut files, tasks) = task();
        let before = switch_report(&files, &tasks, None).unwrap();
        let point = |r: &[crate::switch::TaskSwitches]| r[0].loops[0].point_regs.clone();
        // s1 is live too: a task entry returns into the kernel's exit path, which jumps
        // through it (docs/ccs.md). Pages 1, 2 and 3.
        assert_eq!(point(&before), vec!["sp", "s0", "s1", "s4", "s9"]);
        let renamed = pack_pages(&mut files, &tasks, None).unwrap();
        assert_eq!(renamed.len(), 1, "{renamed:?}");
        assert_eq!(renamed[0].function, "task");
        // Three named registers and s1 need two pages at best (page 1 has two s-slots).
        assert_eq!(renamed[0].point_pages, (3, 2));
        let after = switch_report(&files, &tasks, None).unwrap();
        let regs = point(&after);
        let state: Vec<u8> = regs
            .iter()
            .map(|n| cactus_isa::parse_reg(n).unwrap())
            .collect();
        assert_eq!(
            pages(set(&state)),
            2,
            "the analysis of the renamed code agrees: {regs:?}"
        );
        let moved = |r: &str| {
            renamed[0]
                .moves
                .iter()
                .find(|m| m.0 == r)
                .map_or(r.to_string(), |m| m.1.clone())
        };
        let new_s0 = moved("s0");
        let new_s0_num = cactus_isa::parse_reg(&new_s0).unwrap();
        // The saves, restores and CFI name the new registers; `work` is untouched.
        let text = files[0].to_string();
        assert!(text.contains(&format!("sw {new_s0},8(sp)")), "{text}");
        assert!(text.contains(&format!("lw {new_s0},8(sp)")), "{text}");
        assert!(
            text.contains(&format!(".cfi_offset {new_s0_num}, -8")),
            "{text}"
        );
        assert!(text.contains("work:\n\taddi a0,a0,1"), "{text}");
        // Renaming again changes nothing (already packed).
        assert!(pack_pages(&mut files, &tasks, None).unwrap().is_empty());
    }

    #[test]
    fn inline_assembly_keeps_a_function_as_it_is() {
        let text = TASK.replace(
            "\tli\ts9,3\n",
            "\tli\ts9,3\n#APP\n\tcustom_op s9\n#NO_APP\n",
        );
        let mut files = vec![AsmFile::parse(&text, "task.s").unwrap()];
        let (_, tasks) = task();
        let before = files[0].to_string();
        assert!(pack_pages(&mut files, &tasks, None).unwrap().is_empty());
        assert_eq!(files[0].to_string(), before);
    }
}
