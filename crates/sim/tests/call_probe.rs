//! Call probes (`MachineConfig::call_probes`): every execution of a probed function entry is
//! recorded once, with a0 and a1 as they are there, whether the run goes in one `run`, in
//! single steps or stops at a breakpoint on the entry; nothing is recorded without
//! `record_events`; and the probes change no cycle or instruction of the run.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{EventKind, Machine, MachineConfig, Profile, RunOutcome};

/// The probed function: a0 += 1, return.
const F: u32 = RAM + 0x400;

/// Calls F five times with a0 = k and a1 = 2k (k = 0..4), then exits with 0.
fn program() -> Vec<Inst> {
    let setup = cat(&[li(S0, F), li(S1, 0), li(A5, 5)]);
    let body = vec![
        i(Op::Addi, A0, S1, 0),
        i(Op::Slli, A1, S1, 1),
        i(Op::Jalr, RA, S0, 0),
        i(Op::Addi, S1, S1, 1),
        b(Op::Blt, S1, A5, -16),
    ];
    cat(&[setup, body, exit_ok()])
}

fn machine(probes: bool, record: bool) -> Machine {
    let mut config = MachineConfig::new(Profile::default_mcu());
    config.record_events = record;
    if probes {
        config.call_probes = vec![F];
    }
    let mut m = Machine::new(config);
    load(&mut m, RAM, &program());
    load(
        &mut m,
        F,
        &[i(Op::Addi, A0, A0, 1), i(Op::Jalr, ZERO, RA, 0)],
    );
    m.set_pc(RAM);
    m
}

fn calls(m: &Machine) -> Vec<(u32, u32, u32)> {
    m.events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Call { a0, a1 } => Some((e.pc, a0, a1)),
            _ => None,
        })
        .collect()
}

fn expected() -> Vec<(u32, u32, u32)> {
    (0..5).map(|k| (F, k, 2 * k)).collect()
}

#[test]
fn every_call_is_recorded_once_with_its_arguments_and_costs_nothing() {
    let mut probed = machine(true, true);
    run_to_exit(&mut probed, 0);
    assert_eq!(calls(&probed), expected());
    let mut plain = machine(false, true);
    run_to_exit(&mut plain, 0);
    assert!(calls(&plain).is_empty());
    let (a, b) = (probed.stats(), plain.stats());
    assert_eq!((a.cycles, a.instructions), (b.cycles, b.instructions));
}

#[test]
fn without_recorded_events_nothing_is_probed() {
    let mut m = machine(true, false);
    run_to_exit(&mut m, 0);
    assert!(m.events().is_empty());
}

#[test]
fn single_steps_and_a_breakpoint_on_the_entry_record_each_call_once() {
    let mut stepped = machine(true, true);
    loop {
        match stepped.step() {
            None => {}
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(other) => panic!("{other:?}"),
        }
    }
    assert_eq!(calls(&stepped), expected());

    let mut stopped = machine(true, true);
    stopped.add_breakpoint(F);
    let mut hits = 0;
    loop {
        match stopped.run() {
            RunOutcome::Breakpoint { pc } if pc == F => hits += 1,
            RunOutcome::Exited { code: 0 } => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(hits, 5);
    assert_eq!(calls(&stopped), expected());
}
