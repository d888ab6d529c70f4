//! Energy per task: charged at the TASK_SWITCH boundaries the cycles use, exact against a
//! run stepped one instruction at a time, and summing with the energy outside any task to the
//! run's total.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{EventKind, Machine, MachineConfig, Profile, RunOutcome, Stats, NOBODY};
use std::collections::BTreeMap;

const DATA: u32 = RAM + 0x3000;
/// A second memory region of [`two_regions`], slower and dearer than RAM.
const FLASH: u32 = 0x2000_0000;

/// The mcu profile with a second region at [`FLASH`].
fn two_regions() -> Profile {
    let text = format!(
        "{}\n[[memory]]\nname = \"flash\"\nbase = {FLASH:#x}\nsize = 0x1000\naccess = \"rw\"\n\
         latency = 3\nenergy = 40.0\n",
        include_str!("../../../profiles/mcu.toml")
    );
    Profile::from_toml(&text, "two-regions").unwrap()
}

/// A loop of `n` iterations of loads, stores, multiplies (and a divide with `div`), each
/// iteration one block ending in a taken branch but the last.
fn work(n: u32, div: bool) -> Vec<Inst> {
    work_on(DATA, n, div)
}

/// [`work`] on the data at `data`.
fn work_on(data: u32, n: u32, div: bool) -> Vec<Inst> {
    let mut body = vec![
        i(Op::Lw, A1, S0, 0),
        r(Op::Mul, A1, A1, A0),
        s(Op::Sw, A1, S0, 4),
        i(Op::Addi, A0, A0, -1),
    ];
    if div {
        body.insert(2, r(Op::Div, A2, A1, A0));
    }
    let back = -4 * body.len() as i32;
    cat(&[
        li(S0, data),
        li(A0, n),
        body,
        vec![b(Op::Bne, A0, ZERO, back)],
    ])
}

/// Three tasks; every switch commits in the middle of a block (after the `li`s of its
/// arguments), one of them to no task at all.
fn program() -> Vec<Inst> {
    cat(&[
        vec![i(Op::Addi, A3, A3, 1); 5],
        trace_event(2, &[1]),
        work(40, false),
        trace_event(2, &[2]),
        work(25, true),
        trace_event(2, &[NOBODY]),
        vec![i(Op::Addi, A3, A3, 1); 3],
        trace_event(2, &[1]),
        work(10, true),
        trace_event(2, &[3]),
        work(7, false),
        exit_ok(),
    ])
}

fn machine_for(prog: &[Inst]) -> Machine {
    machine_with_profile(Profile::default_mcu(), prog)
}

fn machine_with_profile(profile: Profile, prog: &[Inst]) -> Machine {
    let mut cfg = MachineConfig::new(profile);
    cfg.record_events = true;
    let mut m = Machine::new(cfg);
    load(&mut m, RAM, prog);
    m.set_pc(RAM);
    m
}

fn task_energy(st: &Stats, id: u32) -> f64 {
    st.tasks
        .iter()
        .find(|t| t.id == id)
        .map_or(0.0, |t| t.energy_nj)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

#[test]
fn energy_per_task_matches_a_run_stepped_one_instruction_at_a_time() {
    let st = matches_a_stepped_run(Profile::default_mcu(), &program());
    assert_eq!(st.tasks.iter().map(|t| t.switches).sum::<u64>(), 4);
    // Task 2's loop divides; task 3's does not and is shorter: energy follows the work.
    assert!(task_energy(&st, 2) > task_energy(&st, 3));
}

#[test]
fn a_task_switched_away_from_gets_an_energy_event_stamped_like_the_switch() {
    let mut m = machine_for(&program());
    run_to_exit(&mut m, 0);
    let st = m.stats();
    let ev = m.events();
    let energy: Vec<(usize, u32, f64)> = ev
        .iter()
        .enumerate()
        .filter_map(|(k, e)| match e.kind {
            EventKind::TaskEnergy { task, energy_nj } => Some((k, task, energy_nj)),
            _ => None,
        })
        .collect();
    // 1 -> 2, 2 -> nobody, 1 -> 3; switches from nobody have no task to report.
    assert_eq!(
        energy.iter().map(|e| e.1).collect::<Vec<_>>(),
        [1, 2, 1],
        "{ev:?}"
    );
    for &(k, _, _) in &energy {
        let (switch, this) = (&ev[k - 1], &ev[k]);
        assert!(matches!(switch.kind, EventKind::TaskSwitch { .. }));
        assert_eq!(
            (switch.cycle, switch.instret, switch.pc),
            (this.cycle, this.instret, this.pc)
        );
    }
    // Tasks 1 and 2 did not run at the end: their last figures are their totals.
    assert_eq!(energy[1].2, task_energy(&st, 2));
    assert_eq!(energy[2].2, task_energy(&st, 1));
    assert!(energy[0].2 < energy[2].2);
}

#[test]
fn accesses_to_another_region_are_charged_to_the_task_that_made_them() {
    // Task 2's loop works on the second region's data.
    let prog = cat(&[
        trace_event(2, &[1]),
        work(20, false),
        trace_event(2, &[2]),
        work_on(FLASH, 20, false),
        trace_event(2, &[3]),
        work(20, false),
        exit_ok(),
    ]);
    let st = matches_a_stepped_run(two_regions(), &prog);
    assert_eq!(st.regions[1].accesses, 40, "20 loads and 20 stores");
    // Tasks 1 and 3 run the same loop on RAM (their tails differ by a few instructions);
    // task 2's 40 accesses cost 40 pJ instead of 6 pJ each.
    let (t1, t2, t3) = (
        task_energy(&st, 1),
        task_energy(&st, 2),
        task_energy(&st, 3),
    );
    assert!((t1 - t3).abs() < 0.05, "{t1} {t3}");
    assert!(
        t2 > t1.max(t3) + 40.0 * (40.0 - 6.0) / 1000.0 - 0.05,
        "task 2 pays the dearer accesses: {t2} vs {t1}, {t3}"
    );
}

/// Runs `prog` freely and stepped; asserts that every task's energy is the same as the
/// stepped run's energy between its switches; returns the free run's statistics.
fn matches_a_stepped_run(profile: Profile, prog: &[Inst]) -> Stats {
    let mut run = machine_with_profile(profile.clone(), prog);
    run_to_exit(&mut run, 0);
    let st = run.stats();

    // Reference: one instruction per step, so the totals are exact after each; the switch
    // that a step commits closes the previous task's interval right there.
    let mut stepped = machine_with_profile(profile, prog);
    let (mut charged, mut since) = (NOBODY, 0.0);
    let mut expect: BTreeMap<u32, f64> = BTreeMap::new();
    let mut switches = 0usize;
    loop {
        let before = stepped.stats();
        let outcome = stepped.step();
        let after = stepped.stats();
        if let Some(next) = committed_switch(&stepped, switches) {
            // The committing store costs no energy: the boundary before it and after it is
            // the same, as for the cycles.
            assert_eq!(before.energy_nj, after.energy_nj, "the trace store is free");
            assert_eq!(
                before.cycles, after.cycles,
                "the trace store takes no cycles"
            );
            *expect.entry(charged).or_default() += after.energy_nj - since;
            since = after.energy_nj;
            charged = next;
            switches += 1;
        }
        match outcome {
            None => {}
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(o) => panic!("stepped run ended with {o:?}"),
        }
    }
    let end = stepped.stats();
    *expect.entry(charged).or_default() += end.energy_nj - since;
    assert_eq!(end.energy_nj, st.energy_nj, "stepping changes nothing");
    assert!(switches > 0);

    for id in st.tasks.iter().map(|t| t.id) {
        let want = expect.get(&id).copied().unwrap_or(0.0);
        assert!(want > 0.0, "task {id} ran");
        assert!(
            close(task_energy(&st, id), want),
            "task {id}: {} nJ, stepped {want} nJ",
            task_energy(&st, id)
        );
        assert!(close(task_energy(&end, id), want), "task {id} stepped");
    }
    let outside = expect[&NOBODY];
    assert!(outside > 0.0);
    assert!(close(st.energy_outside_tasks_nj, outside));
    let sum: f64 = st.tasks.iter().map(|t| t.energy_nj).sum::<f64>() + st.energy_outside_tasks_nj;
    assert!(close(sum, st.energy_nj), "{sum} vs {}", st.energy_nj);
    st
}

/// The task the `seen`+1-th TASK_SWITCH switched to, once it is committed.
fn committed_switch(m: &Machine, seen: usize) -> Option<u32> {
    m.events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::TaskSwitch { task } => Some(task),
            _ => None,
        })
        .nth(seen)
}

#[test]
fn a_run_without_switches_charges_everything_outside_any_task() {
    let mut m = machine_for(&cat(&[work(30, true), exit_ok()]));
    run_to_exit(&mut m, 0);
    let st = m.stats();
    assert!(st.tasks.is_empty());
    assert!(st.energy_nj > 0.0);
    assert_eq!(st.energy_outside_tasks_nj, st.energy_nj);
}

#[test]
fn flushing_the_block_cache_mid_run_changes_no_task_energy() {
    let prog = program();
    let mut run = machine_for(&prog);
    run_to_exit(&mut run, 0);
    let st = run.stats();
    // The same program in slices of 23 instructions, its code rewritten (unchanged) after
    // each: every slice starts from an empty block cache, the counts of the dropped blocks
    // folded into the flushed totals.
    let mut sliced = machine_for(&prog);
    let code = assemble(&prog);
    let mut slices = 0;
    loop {
        match sliced.run_for(23) {
            None => {
                sliced.write_debug(RAM, &code).unwrap();
                slices += 1;
            }
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(o) => panic!("sliced run ended with {o:?}"),
        }
    }
    assert!(slices > 20);
    let again = sliced.stats();
    assert_eq!(again.energy_nj, st.energy_nj);
    for id in [1, 2, 3] {
        assert!(
            close(task_energy(&again, id), task_energy(&st, id)),
            "task {id}"
        );
    }
    assert!(close(
        again.energy_outside_tasks_nj,
        st.energy_outside_tasks_nj
    ));
}
