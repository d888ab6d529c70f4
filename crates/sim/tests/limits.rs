//! The busy- and idle-cycle limits (`crates/sim/src/limits.rs`): a spinning guest ends at the
//! busy limit, a sleeping one at the idle limit, and neither limit counts the other's cycles.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{FaultKind, MachineConfig, Profile, RunOutcome, CLINT_BASE};

const MIE: u16 = 0x304;
const MTIE: u32 = 1 << 7;

fn run_with(prog: &[Inst], busy: Option<u64>, idle: Option<u64>) -> Box<cactus_sim::FaultReport> {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.max_busy_cycles = busy;
    cfg.max_idle_cycles = idle;
    let mut m = cactus_sim::Machine::new(cfg);
    load(&mut m, RAM, prog);
    m.set_pc(RAM);
    match m.run() {
        RunOutcome::CycleLimit(f) => f,
        other => panic!("{other:?}"),
    }
}

/// Arms the timer `ahead` mtime units from 0 with MTIE on (interrupts stay off in mstatus, so
/// `wfi` sleeps until then and falls through), then sleeps in a loop.
fn sleeper(ahead: u32) -> Vec<Inst> {
    cat(&[
        li(T0, CLINT_BASE + 0x4000),
        li(T1, ahead),
        vec![s(Op::Sw, T1, T0, 0), s(Op::Sw, ZERO, T0, 4)],
        li(T1, MTIE),
        vec![
            csr(Op::Csrrw, ZERO, MIE, T1),
            sys(Op::Wfi),
            Inst::new(Op::Jal, ZERO, 0, 0, -4),
        ],
    ])
}

#[test]
fn a_spinning_guest_ends_at_the_busy_limit() {
    let f = run_with(&[Inst::new(Op::Jal, ZERO, 0, 0, 0)], Some(5_000), None);
    assert_eq!(f.kind, FaultKind::BusyLimit);
    assert!((5_000..5_100).contains(&f.cycles), "{}", f.cycles);
    assert!(f.to_string().contains("busy-cycle limit"), "{f}");
}

#[test]
fn a_sleeping_guest_ends_at_the_idle_limit_not_the_busy_one() {
    // One long sleep (the timer is far ahead): 1000 busy cycles would never be reached.
    let f = run_with(&sleeper(50_000_000), Some(1_000), Some(300_000));
    assert_eq!(f.kind, FaultKind::IdleLimit);
    assert!(f.cycles > 300_000 && f.cycles < 301_000, "{}", f.cycles);
}

#[test]
fn sleeping_does_not_use_up_the_busy_limit() {
    // After the sleep the hart spins in `wfi` falling through (the timer stays pending): the
    // busy limit counts only those awake cycles, so the run ends well after 2000 total cycles.
    let f = run_with(&sleeper(100_000), Some(2_000), None);
    assert_eq!(f.kind, FaultKind::BusyLimit);
    assert!(f.cycles > 100_000, "{}", f.cycles);
}
