//! The trace device (registers, events, zero cost) and the ownership oracle.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{EventKind, Machine, MachineConfig, OracleMode, Profile, RunOutcome, NOBODY};

const TRACE: u32 = 0x0E00_0000;
const STACK1: u32 = RAM + 0x2000;
const STACK2: u32 = RAM + 0x2100;
const NAME: u32 = RAM + 0x3000;

/// Two tasks, each owning 256 bytes of stack; task 1 runs.
fn two_tasks() -> Vec<Inst> {
    cat(&[
        trace_event(1, &[1, 5, NAME, 0]),
        trace_event(4, &[STACK1, 0x100, 1]),
        trace_event(4, &[STACK2, 0x100, 2]),
        trace_event(2, &[1]),
    ])
}

fn machine_cfg(prog: &[Inst], mode: OracleMode, record: bool) -> Machine {
    let mut cfg = MachineConfig::new(Profile::default_mcu());
    cfg.oracle = mode;
    cfg.record_events = record;
    let mut m = Machine::new(cfg);
    load(&mut m, RAM, prog);
    m.write_debug(NAME, b"worker\0").unwrap();
    m.set_pc(RAM);
    m
}

#[test]
fn trace_registers_read_back() {
    let m = exec(&cat(&[
        li(T2, TRACE),
        li(T1, 77),
        vec![
            i(Op::Lw, A0, T2, 0),
            i(Op::Lw, A1, T2, 4),
            s(Op::Sw, T1, T2, 0x18),
            i(Op::Lw, A2, T2, 0x18),
            i(Op::Lw, A3, T2, 0x24),
            i(Op::Lw, A4, T2, 0x2C),
            sys(Op::Ebreak),
        ],
    ]));
    assert_eq!(m.reg(A0 as usize), 0x4354_5243);
    assert_eq!(m.reg(A1 as usize), 1);
    assert_eq!(m.reg(A2 as usize), 77);
    // Cycle before the 5th lw: li t2 (2) + li t1 (1: addi only? no, lui+addi) = 4 alu, and the
    // trace accesses before it are free.
    assert_eq!(m.reg(A3 as usize), 4);
    assert_eq!(m.reg(A4 as usize), 0);
    let st = m.stats();
    let count = |k: &str| st.classes.iter().find(|c| c.class == k).unwrap().count;
    assert_eq!(count("trace"), 6);
    assert_eq!(count("load"), 0);
    assert_eq!(count("store"), 0);
    assert_eq!(st.cycles, 4, "trace-device accesses cost zero cycles");
}

#[test]
fn violation_recorded_and_run_goes_on() {
    let prog = cat(&[
        two_tasks(),
        li(S0, STACK1),
        vec![s(Op::Sw, ZERO, S0, 0x10)], // own stack: fine
        li(S0, STACK2 - 2),
        vec![s(Op::Sw, ZERO, S0, 0)], // last 2 bytes of task 1, first 2 of task 2
        li(T2, TRACE),
        vec![i(Op::Lw, A0, T2, 0x2C)],
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, true);
    run_to_exit(&mut m, 0);
    assert_eq!(m.reg(A0 as usize), 1, "VIOLATIONS register");
    let st = m.stats();
    assert_eq!(st.oracle_violations, 1);
    let v = &st.violations[0];
    assert_eq!(
        (v.addr, v.width, v.task, v.owner, v.foreign_addr),
        (STACK2 - 2, 4, 1, 2, STACK2)
    );
    assert_eq!(v.task_name, "worker");
    assert!(m.events().iter().any(|e| matches!(
        e.kind,
        EventKind::OracleViolation { addr, task: 1, owner: 2, .. } if addr == STACK2 - 2
    )));
    let names: Vec<_> = st.tasks.iter().map(|t| (t.id, t.name.as_str())).collect();
    assert_eq!(names, vec![(1, "worker")]);
}

#[test]
fn stop_mode_ends_the_run_with_a_report() {
    let prog = cat(&[
        two_tasks(),
        li(S0, STACK2),
        vec![s(Op::Sb, A0, S0, 5)],
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Stop, false);
    match m.run() {
        RunOutcome::OracleViolation(v) => {
            assert_eq!((v.addr, v.width, v.task, v.owner), (STACK2 + 5, 1, 1, 2));
            let text = v.to_string();
            assert!(
                text.contains("task 1 (worker)") && text.contains("task 2"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(m.events().is_empty(), "events are not kept unless asked");
}

#[test]
fn guard_regions_and_release() {
    let prog = cat(&[
        two_tasks(),
        trace_event(4, &[STACK1 + 0x100 - 16, 16, NOBODY]), // guard at the top of task 1's stack
        li(S0, STACK1 + 0x100 - 16),
        vec![s(Op::Sw, ZERO, S0, 0)],
        trace_event(5, &[STACK1, 0x100]), // release: owned by nobody
        li(S0, STACK1),
        vec![s(Op::Sw, ZERO, S0, 0)],
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, false);
    run_to_exit(&mut m, 0);
    let st = m.stats();
    assert_eq!(st.oracle_violations, 2);
    assert!(st.violations.iter().all(|v| v.owner == NOBODY));
}

#[test]
fn no_checks_in_kernel_sections_or_trap_handlers() {
    let prog = cat(&[
        set_mtvec(HANDLER),
        two_tasks(),
        li(S0, STACK2),
        trace_event(10, &[]),
        vec![s(Op::Sw, ZERO, S0, 0)], // inside KERNEL_ENTER
        trace_event(10, &[]),
        trace_event(11, &[]),
        vec![s(Op::Sw, ZERO, S0, 0)], // still inside (nested)
        trace_event(11, &[]),
        vec![sys(Op::Ecall)],         // handler stores to STACK2: no violation
        vec![s(Op::Sw, ZERO, S0, 0)], // after mret: violation
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, false);
    load(
        &mut m,
        HANDLER,
        &[
            s(Op::Sw, ZERO, S0, 4),
            csr(Op::Csrrs, T1, 0x341, ZERO),
            i(Op::Addi, T1, T1, 4),
            csr(Op::Csrrw, ZERO, 0x341, T1),
            sys(Op::Mret),
        ],
    );
    run_to_exit(&mut m, 0);
    let st = m.stats();
    assert_eq!(st.oracle_violations, 1);
    assert_eq!(st.violations[0].addr, STACK2);
}

#[test]
fn nobody_running_means_no_checks() {
    let prog = cat(&[
        two_tasks(),
        trace_event(2, &[NOBODY]),
        li(S0, STACK2),
        vec![s(Op::Sw, ZERO, S0, 0)],
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, false);
    run_to_exit(&mut m, 0);
    assert_eq!(m.stats().oracle_violations, 0);
}

#[test]
fn lending_moves_ownership_and_is_counted() {
    let prog = cat(&[
        two_tasks(),
        trace_event(6, &[STACK2, 0x20, 2, 1]), // task 2 lends 32 bytes to task 1
        li(S0, STACK2),
        vec![s(Op::Sw, ZERO, S0, 0x1C)],       // borrowed: fine
        vec![s(Op::Sw, ZERO, S0, 0x20)],       // not borrowed: violation
        trace_event(6, &[STACK2, 0x20, 1, 2]), // given back
        vec![s(Op::Sw, ZERO, S0, 0)],          // violation again
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, true);
    run_to_exit(&mut m, 0);
    let st = m.stats();
    assert_eq!(st.oracle_violations, 2);
    let t1 = st.tasks.iter().find(|t| t.id == 1).unwrap();
    let t2 = st.tasks.iter().find(|t| t.id == 2).unwrap();
    assert_eq!((t1.borrowed_bytes, t1.lent_bytes), (32, 32));
    assert_eq!((t2.borrowed_bytes, t2.lent_bytes), (32, 32));
}

#[test]
fn task_stats_from_switches_and_samples() {
    let prog = cat(&[
        trace_event(1, &[1, 5, NAME, 0]),
        trace_event(2, &[1]),
        vec![i(Op::Addi, A0, A0, 1); 10],
        trace_event(7, &[1, 96, 256]),
        trace_event(7, &[1, 64, 256]),
        trace_event(8, &[1, STACK1, 32, 0]),
        trace_event(3, &[1, 2]),
        trace_event(2, &[2]),
        vec![i(Op::Addi, A0, A0, 1); 4],
        trace_event(9, &[7, 8]),
        trace_event(42, &[1, 2, 3, 4]),
        trace_event(2, &[NOBODY]),
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, true);
    run_to_exit(&mut m, 0);
    let st = m.stats();
    let t1 = st.tasks.iter().find(|t| t.id == 1).unwrap();
    assert_eq!(t1.name, "worker");
    assert_eq!(t1.priority, 5);
    assert_eq!(t1.switches, 1);
    assert_eq!(
        (t1.stack_hwm, t1.stack_budget, t1.hwm_samples),
        (96, 256, 2)
    );
    assert_eq!(t1.overflows, 1);
    assert_eq!(t1.exit_reason, Some(2));
    // Task 1 ran from its switch (the committing sw counts for it) to task 2's switch: the
    // 10 addi, four whole events and task 2's switch up to its committing sw.
    let per_event = |n_args: u64| 2 + 3 * n_args + 3; // li t2; (li + sw) * n; li; sw
    let expect_instr = 1 + 10 + 2 * per_event(3) + per_event(4) + per_event(2) + 7;
    assert_eq!(t1.instructions, expect_instr);
    let t2 = st.tasks.iter().find(|t| t.id == 2).unwrap();
    assert!(t2.instructions >= 4 && t2.cycles >= 4);
    assert_eq!(st.markers, 1);
    assert!(m
        .events()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Unknown { code: 42, .. })));
    assert!(m
        .events()
        .iter()
        .any(|e| matches!(&e.kind, EventKind::TaskCreate { name, .. } if name == "worker")));
}

/// The copy engine (`COPIER_*`): its destination words are stores of the running task. Task 1
/// copies 8 words into its own stack (fine), then 8 words of which the last 4 are task 2's:
/// those 4 are violations, as CPU stores would be (recorded and written under `record`; under
/// `stop` the run ends at the copy with task 2's words unwritten).
#[test]
fn the_copy_engine_writes_as_the_running_task() {
    use cactus_sim::COPIER_GO;
    let copy = |src: u32, dst: u32| {
        cat(&[
            copier_setup(src, dst, 8),
            vec![s(Op::Sw, T0, S0, COPIER_GO as i32)],
        ])
    };
    let prog = cat(&[
        two_tasks(),
        copy(RAM + 0x4000, STACK1),
        copy(RAM + 0x4000, STACK2 - 16),
        exit_ok(),
    ]);
    let mut m = machine_cfg(&prog, OracleMode::Record, true);
    m.write_debug(RAM + 0x4000, &[0xAB; 32]).unwrap();
    run_to_exit(&mut m, 0);
    let st = m.stats();
    assert_eq!(st.oracle_violations, 4);
    assert_eq!((st.violations[0].addr, st.violations[0].owner), (STACK2, 2));
    let mut got = [0u8; 32];
    m.read_debug(STACK1, &mut got).unwrap();
    assert_eq!(got, [0xAB; 32], "the first copy is task 1's own");
    let mut m = machine_cfg(&prog, OracleMode::Stop, false);
    m.write_debug(RAM + 0x4000, &[0xAB; 32]).unwrap();
    match m.run() {
        RunOutcome::OracleViolation(v) => assert_eq!((v.addr, v.task, v.owner), (STACK2, 1, 2)),
        other => panic!("{other:?}"),
    }
    m.read_debug(STACK2 - 16, &mut got).unwrap();
    assert_eq!(got[..16], [0xAB; 16], "task 1's own words are written");
    assert_eq!(got[16..], [0; 16], "task 2's are not");
}
