//! `cactus bench kernel` end to end: builds the benchmark firmware with `make -C kernel bench`
//! (riscv64-unknown-elf-gcc), runs it on cactus-sim and checks what the kernel must keep: the
//! yield goal, the per-task budget, nothing on task stacks, and deterministic steady-state
//! paths.

use cactus_bench::kernel::{run_kernel_bench, KernelBenchOptions};
use cactus_sim::Profile;
use std::path::PathBuf;

fn options() -> KernelBenchOptions {
    KernelBenchOptions {
        root: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        build: true,
        profile: Profile::default_mcu(),
    }
}

#[test]
fn kernel_bench_measures_every_path_and_keeps_the_goals_it_meets() {
    let report = run_kernel_bench(&options()).expect("benchmark runs");
    let c = &report.costs;
    for (name, p) in [
        ("yield", &c.yield_switch),
        ("blocking", &c.blocking),
        ("timer", &c.timer),
    ] {
        assert!(p.samples >= 100, "{name}: {} samples", p.samples);
        // The benchmark repeats one steady state: every sample of a path is the same.
        assert_eq!(p.instructions.min, p.instructions.max, "{name}");
        assert_eq!(p.cycles.min, p.cycles.max, "{name}");
        assert!(
            p.cycles.min >= p.instructions.min,
            "{name}: CPI >= 1 on mcu"
        );
    }
    assert!(
        c.yield_switch.instructions.max <= 60,
        "yield goal: {:?}",
        c.yield_switch
    );
    // Not the goal (120 cycles, out of reach, see docs/kernel.md): a guard against regressions.
    assert!(c.timer.cycles.max <= 240, "timer preemption: {:?}", c.timer);
    let tc = &report.task_control;
    for (name, p) in [
        ("notify", &tc.notify),
        ("resume", &tc.resume),
        ("give", &tc.give),
    ] {
        assert!(p.samples >= 95, "{name}: {} samples", p.samples);
        assert_eq!(p.cycles.min, p.cycles.max, "{name}: one steady state");
    }
    // Issue #22 wants notify below the semaphore hand-off; since the give took the short
    // wake (157 cycles) notify (187) no longer is, and the report judges that goal MISS
    // (docs/kernel.md says why). These guard both paths against regressions; the goals
    // (120 and 150 cycles) are judged by the report.
    assert!(tc.notify.cycles.max <= 190, "notify: {:?}", tc.notify);
    assert!(tc.give.cycles.max <= 160, "give: {:?}", tc.give);
    assert!(tc.resume.cycles.max <= 180, "resume: {:?}", tc.resume);
    assert!(report.facts.tcb_bytes <= 160);
    assert_eq!(report.facts.preempted_task_stack_used, 0);
    assert!(report.minimal.code > 0 && report.library.code > 0);
    let md = report.tables();
    assert!(
        md.contains("| yield, instructions (task to task) [FreeRTOS-equal kernel: `nostats`] |"),
        "{md}"
    );
}
