//! CFG, dataflow and call-graph invariants over every function GCC 12 emits for the
//! repo's C files at -O2 and -Os.

use crate::common;
use cactus_asm::dataflow::{natural_loops, DomTree, Liveness, ABI_ARGS, EXIT_LIVE};
use cactus_asm::{AsmFile, CallGraph, Cfg, Flow, Item};
use cactus_isa::asm::Statement;
use cactus_isa::Op;

/// Whether the function of `cfg` returns with `mret` (an interrupt function).
fn is_interrupt_function(file: &AsmFile, cfg: &Cfg) -> bool {
    cfg.blocks.iter().any(|b| {
        b.insts.iter().any(|&i| {
            matches!(&file.entries[i].item,
                Item::Inst(Statement::Base(a)) if a.op == Op::Mret)
        })
    })
}

/// Checks one function; returns a description of each violated invariant.
fn check(file: &AsmFile, cfg: &Cfg, name: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let n = cfg.blocks.len();
    for (b, block) in cfg.blocks.iter().enumerate() {
        for &s in &block.succs {
            if !cfg.blocks[s].preds.contains(&b) {
                bad.push(format!("{name}: edge {b}->{s} missing its pred"));
            }
        }
    }
    let dom = DomTree::dominators(cfg);
    for b in 0..n {
        if let Some(d) = dom.idom[b] {
            if !dom.dominates(0, b) || !dom.dominates(d, b) || d == b {
                bad.push(format!("{name}: bad idom {d} of {b}"));
            }
            // The idom dominates every predecessor of b (or is one of them).
            for &p in &cfg.blocks[b].preds {
                if dom.dominates(0, p) && !dom.dominates(d, p) {
                    bad.push(format!("{name}: idom {d} of {b} misses pred {p}"));
                }
            }
        }
    }
    let pdom = DomTree::post_dominators(cfg);
    for &e in &cfg.exits {
        if pdom.idom[e] != Some(n) {
            bad.push(format!(
                "{name}: exit {e} not post-dominated by the exit node"
            ));
        }
    }
    for lp in natural_loops(cfg, &dom) {
        if lp.body.iter().any(|&b| !dom.dominates(lp.header, b)) {
            bad.push(format!(
                "{name}: loop header {} does not dominate its body",
                lp.header
            ));
        }
    }
    // An interrupt function (GCC's `interrupt` attribute: it returns with `mret`) saves and
    // restores every register it writes, so the interrupted code's temporaries are live at its
    // entry by design.
    if !cfg.unknown_successors && !is_interrupt_function(file, cfg) {
        let live = Liveness::compute(file, cfg);
        let extra = live.live_in[0].minus(ABI_ARGS.union(EXIT_LIVE));
        if !extra.is_empty() {
            bad.push(format!(
                "{name}: registers {:?} live at entry",
                extra.iter().collect::<Vec<_>>()
            ));
        }
    }
    bad
}

#[test]
fn cfg_dataflow_and_call_graph_invariants() {
    if !common::toolchain_present() {
        return;
    }
    let jobs: Vec<&common::CorpusEntry> = common::corpus()
        .iter()
        .filter(|e| e.opt == "-O2" || e.opt == "-Os")
        .collect();
    let parsed: Vec<AsmFile> = common::par_map(&jobs, |e| {
        let c = e.compiled.as_ref()?;
        let origin = format!("{}{}", e.source.display(), e.opt);
        Some(AsmFile::parse(&c.asm, &origin).expect("parses"))
    })
    .into_iter()
    .flatten()
    .collect();
    let (mut functions, mut blocks, mut loops, mut tables, mut unknown) = (0, 0, 0, 0, 0);
    let mut bad = Vec::new();
    for file in &parsed {
        for f in file.functions() {
            let cfg = Cfg::build(file, &f);
            functions += 1;
            blocks += cfg.blocks.len();
            loops += natural_loops(&cfg, &DomTree::dominators(&cfg)).len();
            tables += cfg
                .blocks
                .iter()
                .filter(|b| matches!(b.end, Flow::IndirectJump(_)) && !b.succs.is_empty())
                .count();
            if cfg.unknown_successors {
                unknown += 1;
                eprintln!("unknown successors: {}: {}", file.origin, f.name);
            }
            bad.extend(check(file, &cfg, &format!("{}: {}", file.origin, f.name)));
        }
    }
    // Call graph of the kernel's -O2 units.
    let kernel: Vec<AsmFile> = parsed
        .iter()
        .filter(|f| {
            f.origin.contains("/kernel/")
                && !f.origin.contains("/tests/")
                && f.origin.ends_with("-O2")
        })
        .cloned()
        .collect();
    let graph = CallGraph::build(&kernel);
    let edges: usize = graph.calls.iter().map(Vec::len).sum();
    eprintln!(
        "analysis: {} files, {functions} functions, {blocks} blocks, {loops} loops, {tables} jump-table dispatches, {unknown} with unknown successors; kernel call graph: {} functions, {edges} call sites, {} external names",
        parsed.len(),
        graph.nodes.len(),
        graph.externals().len()
    );
    assert!(functions > 500, "too few functions: {functions}");
    assert!(!graph.nodes.is_empty() && edges > 0);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
