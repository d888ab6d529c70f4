//! The preempt-traps pass (SenSmart's preemption by counted branches, docs/sensmart.md
//! "Preemption by counted branches"): every backward branch or jump of application code
//! decrements the running task's branch counter, the word at `tp - 8` (the task context's
//! `preempt` slot), and every time the counter reaches zero the task calls the kernel's
//! `port_preempt_<reg>` entry, which reloads the counter and preempts if the task's time slice
//! is used up. So a task that spins with interrupts masked is still preempted.
//!
//! Guarantees: only branches and jumps to a label of the same function that precedes them in
//! the file are instrumented; the inserted code reads and writes only the counter word and one
//! register that liveness proves dead in the branch's block (no flags exist on RISC-V, so
//! nothing else the program uses changes); where no register is dead anywhere in the block,
//! `t0` is spilled to the word below `sp` ([`RED_ZONE`] bytes, which the stack checks count
//! in the function's need: neither the kernel nor the runtimes ever write below a task's `sp`)
//! and reloaded before the branch. Every instrumented unit defines the weak
//! absolute symbol `cactus_preempt_period` = N, from which the kernel and the runtimes load the
//! counter.

use crate::emit::{directive, entry, inst, splice};
use cactus_asm::dataflow::{effects, Liveness};
use cactus_asm::{AsmFile, Cfg, Entry, Flow, Item};
use cactus_isa::asm::Statement;
use cactus_isa::{Reg, RegSet};
use std::collections::{BTreeMap, HashMap};

/// Offset of the branch counter from `tp` (docs/sensmart.md).
pub const COUNTER_OFFSET: i32 = -8;
/// The weak absolute symbol every instrumented unit sets to the period N.
pub const PERIOD_SYMBOL: &str = "cactus_preempt_period";
/// Bytes below `sp` the counter code uses when it must spill `t0` (the word at `sp - 4`).
pub const RED_ZONE: u32 = 4;
/// The register spilled when none is dead.
const SPILLED: Reg = 5;

/// The kernel's (or runtime's) entry for scratch register `r` is `port_preempt_<abi name>`.
pub const ENTRY_PREFIX: &str = "port_preempt_";

/// Registers the inserted code may use when dead, in order of preference: t0-t6, a7-a0, ra,
/// then s11-s0 (never zero, sp, gp, tp).
const CANDIDATES: [Reg; 28] = [
    5, 6, 7, 28, 29, 30, 31, 17, 16, 15, 14, 13, 12, 11, 10, 1, 27, 26, 25, 24, 23, 22, 21, 20, 19,
    18, 9, 8,
];

/// What the pass did to one unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreemptStats {
    /// Backward branches and jumps instrumented.
    pub sites: usize,
    /// Of them, sites that spill `t0` below `sp`.
    pub spills: usize,
}

/// The functions of `file` with a backward branch whose block has no dead register (the
/// counter code spills `t0` below `sp` there; the check pass must count [`RED_ZONE`]).
pub fn red_zone_functions(file: &AsmFile) -> Vec<String> {
    file.functions()
        .into_iter()
        .filter(|func| {
            let cfg = Cfg::build(file, func);
            backward_branches(file, &cfg)
                .iter()
                .any(|b| b.scratch.is_none())
        })
        .map(|func| func.name)
        .collect()
}

/// The first register of [`CANDIDATES`] not in `live`.
pub fn scratch(live: RegSet) -> Option<Reg> {
    CANDIDATES.iter().copied().find(|&r| !live.contains(r))
}

/// The label a branch statement targets, if it is a branch or jump to a label.
fn target(s: &Statement) -> Option<String> {
    match Flow::of(s) {
        Flow::Branch(l) | Flow::Jump(l) => Some(l),
        _ => None,
    }
}

/// One backward branch to instrument: where the counter code goes (an entry index in the
/// branch's block, at or before the branch) and the register it may use there (None: no
/// register is dead anywhere in the block).
struct BackBranch {
    at: usize,
    scratch: Option<Reg>,
}

/// The backward branches of one function. The counter code goes right before the branch when
/// a register is dead there, else before the latest instruction of the same basic block where
/// one is (the block runs exactly once per taken back edge, so the count is the same).
fn backward_branches(file: &AsmFile, cfg: &Cfg) -> Vec<BackBranch> {
    let live = Liveness::compute(file, cfg);
    let mut labels: HashMap<&str, usize> = HashMap::new();
    let first = cfg.blocks.first().and_then(|b| b.insts.first()).copied();
    let last = cfg.blocks.last().and_then(|b| b.insts.last()).copied();
    let (Some(first), Some(last)) = (first, last) else {
        return Vec::new();
    };
    // Labels of the body (the function's own name label precedes `first`; a branch to it is a
    // self-loop through the entry and counts as backward too).
    let lo = (0..first)
        .rev()
        .take_while(|&i| !matches!(file.entries[i].item, Item::Inst(_) | Item::Opaque(_)))
        .last()
        .unwrap_or(first);
    for i in lo..=last {
        if let Item::Label(l) = &file.entries[i].item {
            labels.insert(l.as_str(), i);
        }
    }
    let mut out = Vec::new();
    for (b, block) in cfg.blocks.iter().enumerate() {
        let Some(&branch) = block.insts.last() else {
            continue;
        };
        let Item::Inst(s) = &file.entries[branch].item else {
            continue;
        };
        let Some(l) = target(s) else { continue };
        if labels.get(l.as_str()).is_none_or(|&li| li >= branch) {
            continue;
        }
        let after = live.live_after(file, cfg, b);
        let found = (0..block.insts.len()).rev().find_map(|k| {
            let (reads, writes) = effects(&file.entries[block.insts[k]].item);
            let before = reads.union(after[k].minus(writes));
            scratch(before).map(|r| (block.insts[k], r))
        });
        out.push(match found {
            Some((at, r)) => BackBranch {
                at,
                scratch: Some(r),
            },
            None => BackBranch {
                at: branch,
                scratch: None,
            },
        });
    }
    out
}

/// Instruments every backward branch of every function of `file` with period `period`;
/// `next` numbers the labels (`.Lcactus_pt_<n>`, `.Lcactus_ptr_<n>`) across the units of
/// one invocation.
pub fn instrument(file: &mut AsmFile, period: u32, next: &mut usize) -> PreemptStats {
    let mut inserts: BTreeMap<usize, Vec<Entry>> = BTreeMap::new();
    let mut stats = PreemptStats::default();
    for func in file.functions() {
        let cfg = Cfg::build(file, &func);
        let sites = backward_branches(file, &cfg);
        if sites.is_empty() {
            continue;
        }
        // Stubs go after the function's last instruction, like the stack checks' stubs.
        let stub_at = (func.start..func.end)
            .rev()
            .find(|&i| matches!(file.entries[i].item, Item::Inst(_) | Item::Opaque(_)))
            .map_or(func.end, |i| i + 1);
        for site in sites {
            let spill = site.scratch.is_none();
            let r = site.scratch.unwrap_or(SPILLED);
            let x = cactus_isa::reg_name(r);
            let (slow, back) = (
                format!(".Lcactus_pt_{next}"),
                format!(".Lcactus_ptr_{next}"),
            );
            *next += 1;
            let off = COUNTER_OFFSET;
            let code = inserts.entry(site.at).or_default();
            if spill {
                code.push(inst(&format!("sw {x},-{RED_ZONE}(sp)")));
                stats.spills += 1;
            }
            code.extend([
                inst(&format!("lw {x},{off}(tp)")),
                inst(&format!("addi {x},{x},-1")),
                inst(&format!("sw {x},{off}(tp)")),
                inst(&format!("beqz {x},{slow}")),
                entry(Item::Label(back.clone())),
            ]);
            if spill {
                code.push(inst(&format!("lw {x},-{RED_ZONE}(sp)")));
            }
            inserts.entry(stub_at).or_default().extend([
                entry(Item::Label(slow)),
                inst(&format!("jal {x},{ENTRY_PREFIX}{x}")),
                inst(&format!("j {back}")),
            ]);
            stats.sites += 1;
        }
    }
    if stats.sites == 0 {
        return stats;
    }
    splice(file, inserts);
    file.entries.extend([
        directive(&format!(".weak\t{PERIOD_SYMBOL}")),
        directive(&format!(".set\t{PERIOD_SYMBOL}, {period}")),
    ]);
    stats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> (String, PreemptStats) {
        let mut f = AsmFile::parse(src, "t.s").unwrap();
        let mut n = 0;
        let stats = instrument(&mut f, 256, &mut n);
        (f.to_string(), stats)
    }

    const LOOP: &str = "\t.text\n\t.globl\tf\n\t.type\tf, @function\nf:\n\tli\ta5,0\n.L2:\n\taddi\ta5,a5,1\n\tbne\ta5,a0,.L2\n\tmv\ta0,a5\n\tret\n\t.size\tf, .-f\n";

    #[test]
    fn a_backward_branch_gets_the_counter_and_a_stub() {
        let (out, stats) = run(LOOP);
        assert_eq!(stats.sites, 1);
        let want = "\tlw t0,-8(tp)\n\taddi t0,t0,-1\n\tsw t0,-8(tp)\n\tbeqz t0,.Lcactus_pt_0\n.Lcactus_ptr_0:\n\tbne a5,a0,.L2\n";
        assert!(out.contains(want), "{out}");
        let stub = ".Lcactus_pt_0:\n\tjal t0,port_preempt_t0\n\tj .Lcactus_ptr_0\n";
        assert!(out.contains(stub), "{out}");
        assert!(out.contains(".weak\tcactus_preempt_period\n\t.set\tcactus_preempt_period, 256"));
    }

    #[test]
    fn forward_branches_and_straight_code_are_untouched() {
        let src = "\t.text\n\t.globl\tg\n\t.type\tg, @function\ng:\n\tbeqz\ta0,.L3\n\tli\ta0,1\n\tj\t.L4\n.L3:\n\tli\ta0,2\n.L4:\n\tret\n\t.size\tg, .-g\n";
        let (out, stats) = run(src);
        assert_eq!(stats.sites, 0);
        assert_eq!(out, AsmFile::parse(src, "t.s").unwrap().to_string());
        assert!(!out.contains("cactus_preempt_period"));
    }

    #[test]
    fn only_the_backward_branch_changes_and_the_rest_is_byte_for_byte() {
        let (out, _) = run(LOOP);
        let removed: String = out
            .lines()
            .filter(|l| {
                !l.contains("cactus_pt") && !l.contains("-8(tp)") && !l.contains("t0,t0,-1")
            })
            .filter(|l| !l.contains("port_preempt_"))
            .filter(|l| !l.contains("cactus_preempt_period"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(removed, AsmFile::parse(LOOP, "t.s").unwrap().to_string());
    }

    #[test]
    fn the_scratch_register_is_dead_and_not_read_by_the_branch() {
        // t0-t2 are read by the branch or live after it: t3 is the first dead one.
        let src = "\t.text\n\t.globl\th\n\t.type\th, @function\nh:\n.L5:\n\taddi\tt0,t0,1\n\tadd\tt2,t2,t1\n\tbne\tt0,t1,.L5\n\tmv\ta0,t2\n\tret\n\t.size\th, .-h\n";
        let (out, stats) = run(src);
        assert_eq!(stats.sites, 1);
        assert!(out.contains("\tlw t3,-8(tp)\n"), "{out}");
        assert!(out.contains("jal t3,port_preempt_t3"), "{out}");
    }

    #[test]
    fn a_jump_back_and_a_self_loop_to_the_entry_count() {
        let src = "\t.text\n\t.globl\tk\n\t.type\tk, @function\nk:\n\taddi\ta0,a0,-1\n\tbnez\ta0,k\n.L7:\n\tj\t.L7\n\t.size\tk, .-k\n";
        let (_, stats) = run(src);
        assert_eq!(stats.sites, 2);
    }

    #[test]
    fn with_every_register_live_t0_is_spilled_below_sp() {
        let mut body = String::from("\t.text\n\t.globl\tz\n\t.type\tz, @function\nz:\n.L9:\n");
        for r in CANDIDATES {
            let n = cactus_isa::reg_name(r);
            body.push_str(&format!("\taddi\t{n},{n},1\n"));
        }
        body.push_str("\tbnez\ta0,.L9\n");
        for r in CANDIDATES {
            let n = cactus_isa::reg_name(r);
            body.push_str(&format!("\tmv\tzero,{n}\n"));
        }
        body.push_str("\tret\n\t.size\tz, .-z\n");
        let f = AsmFile::parse(&body, "t.s").unwrap();
        assert_eq!(red_zone_functions(&f), vec!["z".to_string()]);
        let (out, stats) = run(&body);
        assert_eq!((stats.sites, stats.spills), (1, 1));
        let want = "\tsw t0,-4(sp)\n\tlw t0,-8(tp)\n\taddi t0,t0,-1\n\tsw t0,-8(tp)\n\tbeqz t0,.Lcactus_pt_0\n.Lcactus_ptr_0:\n\tlw t0,-4(sp)\n\tbnez a0,.L9\n";
        assert!(out.contains(want), "{out}");
        assert!(red_zone_functions(&AsmFile::parse(LOOP, "t.s").unwrap()).is_empty());
    }

    #[test]
    fn with_nothing_dead_at_the_branch_the_counter_moves_up_its_block() {
        let mut body =
            String::from("\t.text\n\t.globl\tw\n\t.type\tw, @function\nw:\n.L9:\n\tli\tt0,5\n");
        for r in CANDIDATES.iter().skip(1) {
            let n = cactus_isa::reg_name(*r);
            body.push_str(&format!("\taddi\t{n},{n},1\n"));
        }
        body.push_str("\tbnez\tt0,.L9\n");
        for r in CANDIDATES {
            let n = cactus_isa::reg_name(r);
            body.push_str(&format!("\tmv\tzero,{n}\n"));
        }
        body.push_str("\tret\n\t.size\tw, .-w\n");
        let (out, stats) = run(&body);
        assert_eq!(stats.sites, 1);
        assert!(out.contains(".L9:\n\tlw t0,-8(tp)\n"), "{out}");
        assert!(out.contains(".Lcactus_ptr_0:\n\tli t0,5\n"), "{out}");
    }
}
