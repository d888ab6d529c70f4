//! Dominators, post-dominators, liveness and loops on small hand-written functions.

use cactus_asm::dataflow::{natural_loops, DomTree, Liveness, EXIT_LIVE};
use cactus_asm::{AsmFile, Cfg};
use cactus_isa::{RegSet, ABI_NAMES};

fn build(body: &str) -> (AsmFile, Cfg) {
    let text = format!("\t.text\n\t.type\tf, @function\nf:\n{body}\t.size\tf, .-f\n");
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let cfg = Cfg::build(&file, &file.functions()[0]);
    (file, cfg)
}

fn names(s: RegSet) -> Vec<&'static str> {
    s.iter().map(|r| ABI_NAMES[r as usize]).collect()
}

/// 0: entry; 1: loop header; 2: loop body, if/else on 3 and 4; 5: latch; 6: exit.
const DIAMOND_LOOP: &str = "\tli a5,0
.L2:
\tbge a5,a0,.L6
\tandi a4,a5,1
\tbeqz a4,.L3
\taddi a1,a1,2
\tj .L5
.L3:
\taddi a1,a1,1
.L5:
\taddi a5,a5,1
\tj .L2
.L6:
\tmv a0,a1
\tret
";

#[test]
fn dominators_and_post_dominators() {
    let (_, cfg) = build(DIAMOND_LOOP);
    assert_eq!(cfg.blocks.len(), 7);
    let dom = DomTree::dominators(&cfg);
    let expect = vec![None, Some(0), Some(1), Some(2), Some(2), Some(2), Some(1)];
    assert_eq!(dom.idom, expect);
    assert!(dom.dominates(1, 4) && !dom.dominates(3, 5) && dom.dominates(0, 0));
    let pdom = DomTree::post_dominators(&cfg);
    let exit = cfg.blocks.len();
    assert_eq!(pdom.root, exit);
    assert_eq!(
        pdom.idom,
        vec![
            Some(1),
            Some(6),
            Some(5),
            Some(5),
            Some(5),
            Some(1),
            Some(exit),
            None
        ]
    );
    assert!(pdom.dominates(5, 2) && !pdom.dominates(2, 5) && !pdom.dominates(3, 2));
}

#[test]
fn loops_found() {
    let (_, cfg) = build(DIAMOND_LOOP);
    let dom = DomTree::dominators(&cfg);
    let loops = natural_loops(&cfg, &dom);
    assert_eq!(loops.len(), 1);
    assert_eq!(loops[0].header, 1);
    assert_eq!(loops[0].latches, vec![5]);
    assert_eq!(
        loops[0].body.iter().copied().collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
}

#[test]
fn liveness_through_loop() {
    let (file, cfg) = build(DIAMOND_LOOP);
    let live = Liveness::compute(&file, &cfg);
    assert_eq!(names(live.live_in[1].minus(EXIT_LIVE)), vec!["a5"]);
    assert_eq!(names(live.live_in[0].minus(EXIT_LIVE)), Vec::<&str>::new());
    assert!(live.live_in[0].contains(10) && live.live_in[0].contains(11));
    let after = live.live_after(&file, &cfg, 2);
    // After `andi a4,a5,1`: a4 (tested), a5, a0, a1 live.
    assert!(after[0].contains(14) && after[0].contains(15));
    // After the branch a4 is dead.
    assert!(!after[1].contains(14));
}

#[test]
fn calls_clobber_caller_saved_and_read_arguments() {
    let (file, cfg) =
        build("\tmv s1,a2\n\tli t0,5\n\tcall g\n\tadd a0,a0,s1\n\tadd a0,a0,t0\n\tret\n");
    let live = Liveness::compute(&file, &cfg);
    let after = live.live_after(&file, &cfg, 0);
    // t0 is clobbered by the call: its `li` value is dead, and the read after the call
    // sees the call's definition, not the function's input.
    assert!(!after[1].contains(5));
    assert!(!live.live_in[0].contains(5));
    // Before the call a0-a7 are live (arguments), s1 survives the call.
    assert!(after[1].contains(17) && after[2].contains(9));
}
