//! Interrupts are taken before the first instruction that starts at or after the moment they
//! become pending, as on an in-order core, not at the next block edge: a timer firing inside
//! a long straight-line block or a `div` loop is taken at the instruction the cycle model
//! names (mepc and the trap cycle checked against a walk of the cost model), and `run`,
//! single steps and `run_for` slices agree exactly.

use crate::common::*;
use cactus_isa::{Inst, Op};
use cactus_sim::{Machine, MachineConfig, Profile, RunOutcome};

const T3: u8 = 28;
const T4: u8 = 29;
const S2: u8 = 18;

/// The prefix: mtvec, mtimecmp = mtime + `ticks`, MTIE, `s0 = mcycle`, MIE. The body starts
/// right after it, at cycle `s0 + 2 * csr`.
fn prefix(ticks: u32) -> Vec<Inst> {
    cat(&[
        set_mtvec(HANDLER),
        li(A0, 0x0200_BFF8),
        vec![i(Op::Lw, A1, A0, 0)],
        li(A2, ticks),
        vec![r(Op::Add, A1, A1, A2)],
        li(A0, 0x0200_4000),
        vec![s(Op::Sw, ZERO, A0, 4), s(Op::Sw, A1, A0, 0)],
        li(T1, 0x80),
        vec![
            csr(Op::Csrrw, ZERO, MIE, T1),
            csrr(S0, MCYCLE),
            csr(Op::Csrrsi, ZERO, MSTATUS, 0x8),
        ],
    ])
}

/// The handler: a3 = mepc, a4 = mcycle, a5 = mtimecmp (low word), s2 = minstret, s1 =
/// mcause; then exit 0.
fn handler() -> Vec<Inst> {
    cat(&[
        vec![csrr(A3, MEPC), csrr(A4, MCYCLE), csrr(S2, MINSTRET)],
        vec![csrr(S1, MCAUSE)],
        li(A0, 0x0200_4000),
        vec![i(Op::Lw, A5, A0, 0)],
        exit_ok(),
    ])
}

fn build(ticks: u32, body: &[Inst]) -> (Machine, u32) {
    let pre = prefix(ticks);
    let body_pc = RAM + 4 * pre.len() as u32;
    let mut m = machine(&cat(&[pre, body.to_vec(), exit_code(1)]));
    load(&mut m, HANDLER, &handler());
    (m, body_pc)
}

/// What the handler saw.
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    mepc: u32,
    mcycle: u32,
    minstret: u32,
    mtimecmp: u32,
    body_start_cycle: u32,
    cycles: u64,
    instructions: u64,
}

fn seen(m: &Machine) -> Seen {
    assert_eq!(m.reg(S1 as usize), 0x8000_0007, "a machine timer interrupt");
    let csr = Profile::default_mcu().cycles().csr;
    let st = m.stats();
    Seen {
        mepc: m.reg(A3 as usize),
        mcycle: m.reg(A4 as usize),
        minstret: m.reg(S2 as usize),
        mtimecmp: m.reg(A5 as usize),
        body_start_cycle: m.reg(S0 as usize) + 2 * csr,
        cycles: st.cycles,
        instructions: st.instructions,
    }
}

fn run_whole(ticks: u32, body: &[Inst]) -> (Seen, u32) {
    let (mut m, body_pc) = build(ticks, body);
    run_to_exit(&mut m, 0);
    (seen(&m), body_pc)
}

fn run_stepped(ticks: u32, body: &[Inst]) -> Seen {
    let (mut m, _) = build(ticks, body);
    loop {
        match m.step() {
            None => {}
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(other) => panic!("{other:?}"),
        }
    }
    seen(&m)
}

fn run_sliced(ticks: u32, body: &[Inst], slice: u64) -> Seen {
    let (mut m, _) = build(ticks, body);
    loop {
        match m.run_for(slice) {
            None => {}
            Some(RunOutcome::Exited { code: 0 }) => break,
            Some(other) => panic!("{other:?}"),
        }
    }
    seen(&m)
}

/// Walks the cost model over the body's dynamic instruction stream `(pc, cycles)` from
/// `start`: the pc and start cycle of the first instruction that starts at or after
/// `deadline`.
fn model(stream: &[(u32, u64)], start: u64, deadline: u64) -> (u32, u64) {
    let mut t = start;
    for &(pc, cost) in stream {
        if t >= deadline {
            return (pc, t);
        }
        t += cost;
    }
    panic!("the deadline {deadline} falls after the body (start {start}, end {t})");
}

/// Checks one run against the cost model and against single steps and slices.
fn check(ticks: u32, body: &[Inst], stream: impl Fn(u32) -> Vec<(u32, u64)>) {
    let p = Profile::default_mcu();
    let c = p.cycles();
    let (got, body_pc) = run_whole(ticks, body);
    let deadline = (u64::from(got.mtimecmp) * p.clock_hz()).div_ceil(p.timebase_hz());
    let start = u64::from(got.body_start_cycle);
    assert!(
        deadline > start,
        "ticks {ticks}: the timer fires before the body"
    );
    let (pc, at) = model(&stream(body_pc), start, deadline);
    assert_eq!(got.mepc, pc, "ticks {ticks}: mepc (deadline {deadline})");
    let trap_cycle = u64::from(got.mcycle - c.trap_entry - c.csr);
    assert_eq!(
        trap_cycle, at,
        "ticks {ticks}: the trap is taken when that instruction starts"
    );
    assert_eq!(run_stepped(ticks, body), got, "ticks {ticks}: single steps");
    for slice in [1, 5, 64, 1000] {
        assert_eq!(
            run_sliced(ticks, body, slice),
            got,
            "ticks {ticks}: run_for({slice}) slices"
        );
    }
}

#[test]
fn timer_inside_a_straight_line_block() {
    // 90 `addi` in one block (MAX_BODY is 96).
    let body: Vec<Inst> = (0..90).map(|_| i(Op::Addi, S1, S1, 1)).collect();
    let alu = u64::from(Profile::default_mcu().cycles().alu);
    let stream = |pc: u32| (0..90).map(|k| (pc + 4 * k, alu)).collect::<Vec<_>>();
    for ticks in 3..=10 {
        check(ticks, &body, stream);
    }
}

#[test]
fn timer_inside_a_div_loop() {
    // t4 = 200; loop: div t2, t0, t1; addi t3, t3, 1; bne t3, t4, loop.
    let body = cat(&[
        li(T4, 200),
        vec![
            r(Op::Div, T2, T0, T1),
            i(Op::Addi, T3, T3, 1),
            b(Op::Bne, T3, T4, -8),
        ],
    ]);
    let c = *Profile::default_mcu().cycles();
    let (alu, div) = (u64::from(c.alu), u64::from(c.div));
    let (taken, not_taken) = (u64::from(c.branch_taken), u64::from(c.branch_not_taken));
    let stream = |pc: u32| {
        let mut s = vec![(pc, alu), (pc + 4, alu)];
        let lp = pc + 8;
        for k in 0..200 {
            let br = if k == 199 { not_taken } else { taken };
            s.extend([(lp, div), (lp + 4, alu), (lp + 8, br)]);
        }
        s
    };
    // Deadlines from the first iterations to the middle of the loop, at every phase of it.
    for ticks in (3..=60).step_by(3) {
        check(ticks, &body, stream);
    }
}

#[test]
fn timer_due_before_a_terminator_is_taken_before_it() {
    // The deadline falls inside the run of `addi`s before a CSR read: the interrupt must not
    // wait for the terminator either (it would see mcycle past the deadline).
    let mut body: Vec<Inst> = (0..40).map(|_| i(Op::Addi, S1, S1, 1)).collect();
    body.push(csrr(T2, MCYCLE));
    body.extend((0..40).map(|_| i(Op::Addi, S1, S1, 1)));
    let c = *Profile::default_mcu().cycles();
    let stream = |pc: u32| {
        (0..81)
            .map(|k| {
                let cost = if k == 40 { c.csr } else { c.alu };
                (pc + 4 * k, u64::from(cost))
            })
            .collect::<Vec<_>>()
    };
    for ticks in 3..=8 {
        check(ticks, &body, stream);
    }
}

#[test]
fn device_latency_inside_a_block_moves_the_interrupt() {
    // Loads from the CLINT cost the device latency, which the block's static cycles do not
    // include: the executor must notice that the deadline moved inside the body.
    let mut body = li(S2, 0x0200_BFF8);
    for _ in 0..30 {
        body.push(i(Op::Lw, T2, S2, 0));
        body.push(i(Op::Addi, S1, S1, 1));
    }
    let c = *Profile::default_mcu().cycles();
    // The static cost assumes RAM; a device access costs `load + DEVICE_LATENCY`.
    let lw = u64::from(c.load) + u64::from(cactus_sim::DEVICE_LATENCY);
    let stream = |pc: u32| {
        let mut s = vec![(pc, u64::from(c.alu)), (pc + 4, u64::from(c.alu))];
        for k in 0..30 {
            s.push((pc + 8 + 8 * k, lw));
            s.push((pc + 12 + 8 * k, u64::from(c.alu)));
        }
        s
    };
    for ticks in 3..=12 {
        check(ticks, &body, stream);
    }
}

#[test]
fn a_slow_load_that_ends_a_body_keeps_its_result() {
    // Each load from the CLINT (mtimecmp, set to a known value first) costs the device
    // latency, which the block's static cycles do not include; when that moves the cycle
    // limit inside the body, the body ends right after the load. The load has retired, so its
    // register must hold the value: the sum counts it once per add that ran.
    const VALUE: u32 = 0x1234_5677;
    let mut body = li(S2, 0x0200_4000);
    body.extend(li(T0, VALUE));
    body.push(Inst::new(Op::Sw, ZERO, S2, T0, 0));
    for _ in 0..30 {
        body.push(i(Op::Lw, T2, S2, 0));
        body.push(r(Op::Add, S1, S1, T2));
    }
    body.push(Inst::new(Op::Jal, ZERO, 0, 0, 0));
    let adds_from = RAM + 4 * (li(S2, 0x0200_4000).len() + li(T0, VALUE).len() + 1) as u32;
    for limit in 20..400u64 {
        let mut cfg = MachineConfig::new(Profile::default_mcu());
        cfg.max_cycles = Some(limit);
        let mut m = Machine::new(cfg);
        load(&mut m, RAM, &body);
        m.set_pc(RAM);
        let pc = match m.run() {
            RunOutcome::CycleLimit(f) => f.pc,
            other => panic!("{other:?}"),
        };
        // Instructions before pc have run; adds are the odd ones of each pair.
        let pairs_done = (pc.saturating_sub(adds_from) / 8) as u32;
        let expected = pairs_done.min(30).wrapping_mul(VALUE);
        assert_eq!(
            m.reg(S1 as usize),
            expected,
            "limit {limit}, stopped at {pc:#x}"
        );
        if pc > adds_from && (pc - adds_from) % 8 == 4 {
            assert_eq!(m.reg(T2 as usize), VALUE, "limit {limit}");
        }
    }
}

#[test]
fn cycle_limit_is_exact_to_the_instruction() {
    // An endless straight-line loop body: the run stops before the first instruction that
    // starts at or after the limit, whatever the block boundaries.
    let mut prog: Vec<Inst> = (0..50).map(|_| i(Op::Addi, S1, S1, 1)).collect();
    prog.push(Inst::new(Op::Jal, ZERO, 0, 0, -200));
    let c = *Profile::default_mcu().cycles();
    let per_loop = 50 * u64::from(c.alu) + u64::from(c.jump);
    for limit in [1_000u64, 1_017, 1_049] {
        let mut cfg = MachineConfig::new(Profile::default_mcu());
        cfg.max_cycles = Some(limit);
        let mut m = Machine::new(cfg);
        load(&mut m, RAM, &prog);
        m.set_pc(RAM);
        match m.run() {
            RunOutcome::CycleLimit(f) => {
                assert!(f.cycles >= limit, "{limit}: {}", f.cycles);
                // Every instruction costs at most `jump` cycles here.
                assert!(
                    f.cycles < limit + u64::from(c.jump),
                    "{limit}: {}",
                    f.cycles
                );
                let into_loop = f.cycles % per_loop;
                assert_eq!(f.pc, RAM + 4 * into_loop.min(50) as u32, "{limit}");
            }
            other => panic!("{other:?}"),
        }
    }
}
