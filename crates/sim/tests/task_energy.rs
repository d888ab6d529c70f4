//! Energy per task: charged at the TASK_SWITCH boundaries the cycles use, exact against a
//! run stepped one instruction at a time, and summing with the energy outside any task to the
//! run's total.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{EventKind, Machine, MachineConfig, Profile, RunOutcome, Stats, NOBODY};
use std::collections::BTreeMap;

const TRACE: u32 = 0x0E00_0000;
const DATA: u32 = RAM + 0x3000;

/// Commits trace event `code` with `args` (clobbers t1, t2).
fn ev(code: u32, args: &[u32]) -> Vec<Inst> {
    let mut v = li(T2, TRACE);
    for (k, &a) in args.iter().enumerate() {
        v.extend(li(T1, a));
        v.push(s(Op::Sw, T1, T2, 0x10 + 4 * k as i32));
    }
    v.extend(li(T1, code));
    v.push(s(Op::Sw, T1, T2, 0x20));
    v
}

/// A loop of `n` iterations of loads, stores, multiplies (and a divide with `div`), each
/// iteration one block ending in a taken branch but the last.
fn work(n: u32, div: bool) -> Vec<Inst> {
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
        li(S0, DATA),
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
        ev(2, &[1]),
        work(40, false),
        ev(2, &[2]),
        work(25, true),
        ev(2, &[NOBODY]),
        vec![i(Op::Addi, A3, A3, 1); 3],
        ev(2, &[1]),
        work(10, true),
        ev(2, &[3]),
        work(7, false),
        exit_ok(),
    ])
}

fn machine_for(prog: &[Inst]) -> Machine {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
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
    let prog = program();
    let mut run = machine_for(&prog);
    run_to_exit(&mut run, 0);
    let st = run.stats();

    // Reference: one instruction per step, so the totals are exact after each; the switch
    // that a step commits closes the previous task's interval right there.
    let mut stepped = machine_for(&prog);
    let (mut charged, mut since) = (NOBODY, 0.0);
    let mut expect: BTreeMap<u32, f64> = BTreeMap::new();
    let mut switches = 0;
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
    assert_eq!(switches, 5);
    assert_eq!(end.energy_nj, st.energy_nj, "stepping changes nothing");

    for id in [1, 2, 3] {
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
    // Task 2's loop divides; task 3's does not and is shorter: energy follows the work.
    assert!(task_energy(&st, 2) > task_energy(&st, 3));
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
