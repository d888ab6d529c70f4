//! The `.cactus.switch` table: ranges over switch blocks and points, masks that cover every
//! instruction of a range (and the temporaries of multi-instruction pseudos), labels and
//! records in the unit, routines per mask, poison and mutation.

use cactus_asm::AsmFile;
use cactus_cc::switch::table::{switch_table, TableOptions, SCRATCH};
use cactus_cc::switch::TaskEntry;

fn func(name: &str, body: &str) -> String {
    format!("\t.text\n\t.align\t1\n\t.globl\t{name}\n\t.type\t{name}, @function\n{name}:\n{body}\t.size\t{name}, .-{name}\n")
}

const LOOP: &str = "\
\tmv a5,a0\n\
.Lloop:\n\
\tlw t0,0(a5)\n\
\tlw t1,4(a5)\n\
\tadd t0,t0,t1\n\
\tsw t0,0(a5)\n\
\taddi a5,a5,8\n\
\tbne a5,a1,.Lloop\n\
\tcall leaf\n\
\tret\n";

fn table(opts: TableOptions) -> cactus_cc::switch::table::SwitchTable {
    let text = func("work", LOOP) + &func("leaf", "\tret\n");
    let file = AsmFile::parse(&text, "t.s").expect("parses");
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: "work".into(),
        calls: Default::default(),
    }];
    switch_table(&[file], &tasks, None, opts).expect("table")
}

#[test]
fn ranges_cover_the_loop_and_masks_hold_every_state() {
    let t = table(TableOptions::default());
    assert!(!t.ranges.is_empty());
    // No two ranges overlap, each lies in one unit and function.
    for w in t.ranges.windows(2) {
        assert!(w[0].last < w[1].first, "{:?}", t.ranges);
    }
    for r in &t.ranges {
        assert!(r.mask.contains(2), "sp always saved: {r:?}");
        assert!(
            !r.mask.contains(3) && !r.mask.contains(4),
            "never gp/tp: {r:?}"
        );
        assert!(
            r.mask.contains(15) && r.mask.contains(11),
            "a5, a1 live: {r:?}"
        );
        assert!(
            r.mask.contains(9),
            "s1 (the task's exit function) live: {r:?}"
        );
    }
    // The unit gets a label pair and a record per range, in the switch section.
    let text = &t.texts[0];
    assert_eq!(text.matches(".Lccs_0_").count(), 4 * t.ranges.len());
    assert!(text.contains(".pushsection .cactus.switch"));
    assert!(AsmFile::parse(text, "labelled.s").is_ok());
    // One save and one restore routine per distinct mask; saves skip the lookup's scratch.
    for r in &t.ranges {
        let save = format!("__cactus_ccs_save_{:08x}:", r.mask.0);
        assert!(t.routines.contains(&save), "{}", t.routines);
    }
    assert!(!t.routines.contains("sw x5,") && !t.routines.contains("sw x31,"));
    assert!(
        !t.routines.contains("csrr tp, mcycle"),
        "no poison unless asked"
    );
    assert!(t.mutation.is_none());
    let _ = SCRATCH;
}

#[test]
fn a_call_in_a_range_keeps_ra_its_expansion_writes_first() {
    // `call leaf` is auipc ra + jalr: a preemption between them needs ra back.
    let text = func(
        "work",
        "\tli a5,4\n.Lt:\n\tcall leaf\n\taddi a5,a5,-1\n\tbnez a5,.Lt\n\tret\n",
    ) + &func("leaf", "\tret\n");
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: "work".into(),
        calls: Default::default(),
    }];
    let t = switch_table(&[file], &tasks, None, TableOptions::default()).unwrap();
    let file = AsmFile::parse(&text, "t.s").unwrap();
    for r in &t.ranges {
        let has_call =
            (r.first..=r.last).any(|i| file.entries[i].item.to_string().contains("call"));
        if has_call {
            assert!(r.mask.contains(1), "{r:?}");
        }
    }
}

#[test]
fn poison_fills_every_unsaved_register_and_mutation_drops_one() {
    let t = table(TableOptions {
        poison: Some(7),
        mutate: None,
        rmcs: false,
    });
    assert!(t.routines.contains("csrr tp, mcycle"));
    // Every register outside a mask (of the 29) is written in its restore routine.
    let r = &t.ranges[0];
    let restore = format!("__cactus_ccs_restore_{:08x}:", r.mask.0);
    let body = &t.routines[t.routines.find(&restore).unwrap()..];
    let body = &body[..body.find("mret").unwrap()];
    for x in (1..32u8).filter(|&x| x != 3 && x != 4 && x != 31 && !r.mask.contains(x)) {
        assert!(
            body.contains(&format!("lui x{x},")),
            "x{x} not poisoned: {body}"
        );
    }
    let base = table(TableOptions::default());
    let m = table(TableOptions {
        poison: None,
        mutate: Some(0),
        rmcs: false,
    });
    let mu = m.mutation.clone().expect("a mutation");
    assert_eq!(mu.range, 0);
    let before = base.ranges[0].mask;
    let after = m.ranges[0].mask;
    assert_eq!(before.len(), after.len() + 1);
    assert!(after.contains(2), "sp is never dropped");
    let dropped = cactus_isa::parse_reg(mu.dropped).unwrap();
    assert!(base.ranges[0].always.contains(dropped) && base.ranges[0].reads.contains(dropped));
    // The mutated range gets its own routines; a range that does not exist is refused.
    assert!(m.texts[0].contains("__cactus_ccs_save_mutated"));
    assert!(m.routines.contains("__cactus_ccs_restore_mutated:"));
    let text = func("work", LOOP) + &func("leaf", "\tret\n");
    let file = AsmFile::parse(&text, "t.s").unwrap();
    let tasks = [TaskEntry {
        task: "t".into(),
        entry: "work".into(),
        calls: Default::default(),
    }];
    let err = switch_table(
        &[file],
        &tasks,
        None,
        TableOptions {
            poison: None,
            mutate: Some(999),
            rmcs: false,
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("999"), "{err}");
}

#[test]
fn rmcs_routines_store_page_zero_only_and_map_the_live_pages_back() {
    let t = table(TableOptions {
        poison: Some(7),
        mutate: None,
        rmcs: true,
    });
    assert!(t.routines.contains("#include \"switch_rmcs.h\""));
    for r in &t.ranges {
        let save = format!("__cactus_ccs_save_{:08x}:", r.mask.0);
        let restore = format!("__cactus_ccs_restore_{:08x}:", r.mask.0);
        let at = t.routines.find(&save).expect("a save routine per mask");
        let body = &t.routines[at..t.routines.find(&restore).unwrap()];
        // The save stores nothing of pages 1-3 (x8-x31): those stay in the register file.
        for x in 8..32u8 {
            assert!(!body.contains(&format!("sw x{x},")), "x{x} stored: {body}");
        }
        let pages = (1..=3u32).filter(|p| (r.mask.0 >> (8 * p)) & 0xFF != 0);
        let bits = pages.clone().fold(0, |b, p| b | 1 << (p - 1));
        assert!(body.contains(&format!("li t0, {bits}\n")), "{body}");
        let body = &t.routines[t.routines.find(&restore).unwrap()..];
        let body = &body[..body.find("mret").unwrap()];
        for p in pages {
            assert!(
                body.contains(&format!("RMCS_BACK {p}, {}", p - 1)),
                "{body}"
            );
        }
        // Poison fills every register outside the mask but t2, the routine's base (set last).
        for x in (1..32u8).filter(|&x| ![3, 4, 7].contains(&x) && !r.mask.contains(x)) {
            assert!(
                body.contains(&format!("lui x{x},")),
                "x{x} not poisoned: {body}"
            );
        }
        assert!(body.contains("li t2,") || r.mask.contains(7));
    }
}
