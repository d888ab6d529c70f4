//! The report of `cactus bench kernel`: switch costs and footprint beside the goals and
//! the FreeRTOS anchor, as a terminal table, JSON or Markdown (docs/results/kernel.md).

use crate::kernel::events::{FirmwareFacts, PathCost, SwitchCosts};
use crate::kernel::footprint::{Sections, SIZE_TOOL};
use crate::kernel::LIBRARY;
use serde::Serialize;
use std::fmt::Write;

/// One goal of the kernel issue, with our figure and the FreeRTOS anchor.
#[derive(Clone, Debug, Serialize)]
pub struct GoalRow {
    /// What is compared.
    pub what: String,
    /// Our figure (the worst sample for switch costs).
    pub ours: u64,
    /// The goal: ours must be at most this.
    pub limit: u64,
    /// FreeRTOS-Kernel RISC-V port (GCC -O2), measured on the same ISA, as the issue quotes it.
    pub freertos: String,
    /// ours <= limit.
    pub pass: bool,
}

/// Everything `cactus bench kernel` measured.
#[derive(Clone, Debug, Serialize)]
pub struct KernelReport {
    /// Profile the firmware ran with.
    pub profile: String,
    /// The three switch paths.
    pub costs: SwitchCosts,
    /// Values the firmware reported (TCB size, stack high-water marks).
    pub facts: FirmwareFacts,
    /// Section groups of the kernel library (every member, before linking).
    pub library: Sections,
    /// Section groups of the minimal firmware (linked with LTO and section GC).
    pub minimal: Sections,
    /// The goals, PASS or MISS.
    pub goals: Vec<GoalRow>,
}

/// The goals judged on the worst sample of each path.
pub fn goals(costs: &SwitchCosts, facts: &FirmwareFacts) -> Vec<GoalRow> {
    let row = |what: &str, ours: u64, limit: u64, freertos: &str| GoalRow {
        what: what.into(),
        ours,
        limit,
        freertos: freertos.into(),
        pass: ours <= limit,
    };
    vec![
        row(
            "yield, instructions (task to task)",
            costs.yield_switch.instructions.max,
            60,
            "136",
        ),
        row(
            "timer preemption, cycles (trap to woken task)",
            costs.timer.cycles.max,
            120,
            "245 instructions",
        ),
        row(
            "per-task kernel RAM, bytes (TCB)",
            u64::from(facts.tcb_bytes),
            160,
            "200 (76 TCB + 124 context)",
        ),
        row(
            "bytes left on a preempted task's stack",
            u64::from(facts.preempted_task_stack_used),
            0,
            "124",
        ),
    ]
}

fn path_line(out: &mut String, name: &str, p: &PathCost, sep: &str, pre: &str, post: &str) {
    let _ = writeln!(
        out,
        "{pre}{name}{sep}{}{sep}{} / {:.1} / {}{sep}{} / {:.1} / {}{post}",
        p.samples,
        p.instructions.min,
        p.instructions.avg,
        p.instructions.max,
        p.cycles.min,
        p.cycles.avg,
        p.cycles.max
    );
}

fn verdict(pass: bool) -> &'static str {
    if pass {
        "PASS"
    } else {
        "MISS"
    }
}

impl KernelReport {
    /// Exit status of the benchmark: true when every goal passes.
    pub fn all_pass(&self) -> bool {
        self.goals.iter().all(|g| g.pass)
    }

    /// A plain-text report for the terminal.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let c = &self.costs;
        let _ = writeln!(
            out,
            "Cactus kernel, `static` strategy, no-trace library; cactus-sim profile `{}`",
            self.profile
        );
        let _ = writeln!(
            out,
            "{:<34} {:>7}  {:>22}  {:>22}",
            "switch path", "samples", "instructions min/avg/max", "cycles min/avg/max"
        );
        for (name, p) in [
            ("yield (task to task)", &c.yield_switch),
            ("blocking (sem take to woken task)", &c.blocking),
            ("timer preemption (trap to task)", &c.timer),
        ] {
            let _ = writeln!(
                out,
                "{:<34} {:>7}  {:>22}  {:>22}",
                name,
                p.samples,
                format!(
                    "{} / {:.1} / {}",
                    p.instructions.min, p.instructions.avg, p.instructions.max
                ),
                format!("{} / {:.1} / {}", p.cycles.min, p.cycles.avg, p.cycles.max)
            );
        }
        let _ = writeln!(
            out,
            "\n{:<46} {:>6} {:>7}  {:<28} verdict",
            "goal", "ours", "goal", "FreeRTOS RISC-V"
        );
        for g in &self.goals {
            let _ = writeln!(
                out,
                "{:<46} {:>6} {:>7}  {:<28} {}",
                g.what,
                g.ours,
                format!("<= {}", g.limit),
                g.freertos,
                verdict(g.pass)
            );
        }
        let _ = writeln!(
            out,
            "\n{:<38} {:>6} {:>6} {:>6} {:>12} {:>10}",
            "footprint (bytes)", "code", "data", "bss", "kernel stack", "stack pool"
        );
        for (name, x) in [
            ("kernel library (all objects)", &self.library),
            ("minimal firmware (one task, linked)", &self.minimal),
        ] {
            let _ = writeln!(
                out,
                "{:<38} {:>6} {:>6} {:>6} {:>12} {:>10}",
                name, x.code, x.data, x.bss, x.kernel_stack, x.stack_pool
            );
        }
        let f = &self.facts;
        let _ = writeln!(
            out,
            "TCB {} bytes (context {} of it) x {} slots in bss; stack high-water: \
             yielding task {} bytes, preempted task {} bytes",
            f.tcb_bytes,
            f.context_bytes,
            f.max_tasks,
            f.yield_task_stack_used,
            f.preempted_task_stack_used
        );
        out
    }

    /// The report as pretty-printed JSON, newline-terminated.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self).map(|text| text + "\n")
    }

    /// docs/results/kernel.md: the command, the definitions, the tables.
    pub fn markdown(&self, command: &str) -> String {
        let mut out = String::new();
        let c = &self.costs;
        let _ = writeln!(out, "# Kernel: context-switch cost and footprint\n");
        let _ = writeln!(
            out,
            "Produced by `{command}` (simulated cycles only: the figures are deterministic).\n"
        );
        let _ = writeln!(
            out,
            "Firmware `bench/kernel/switch_bench.c` linked with `{LIBRARY}` (the `static` stack strategy with both switch-time checks, no trace calls), run on cactus-sim with profile `{}`. Each figure is a difference of the simulator's cycle/instret stamps on trace-device markers and trap events, minus the marker stores themselves ({} cycles, {} instructions per pair, measured by the firmware). docs/kernel.md defines the paths.\n",
            self.profile, c.marker_cost.0, c.marker_cost.1
        );
        let _ = writeln!(
            out,
            "| switch path | samples | instructions min / avg / max | cycles min / avg / max |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|");
        path_line(
            &mut out,
            "yield: `call cactus_yield` in A to B's first instruction after its yield",
            &c.yield_switch,
            " | ",
            "| ",
            " |",
        );
        path_line(
            &mut out,
            "blocking: `call cactus_sem_take` that blocks to the woken task's first instruction",
            &c.blocking,
            " | ",
            "| ",
            " |",
        );
        path_line(
            &mut out,
            "timer preemption: first instruction at mtvec to the woken task's first instruction",
            &c.timer,
            " | ",
            "| ",
            " |",
        );
        let _ = writeln!(
            out,
            "\n| goal | ours | goal | FreeRTOS RISC-V (GCC -O2) | verdict |"
        );
        let _ = writeln!(out, "|---|---:|---:|---|---|");
        for g in &self.goals {
            let _ = writeln!(
                out,
                "| {} | {} | ≤ {} | {} | {} |",
                g.what,
                g.ours,
                g.limit,
                g.freertos,
                verdict(g.pass)
            );
        }
        let _ = writeln!(
            out,
            "\nThe FreeRTOS column is the issue's anchor (FreeRTOS-Kernel's RISC-V port, GCC -O2, \
             measured on the same ISA), quoted, not measured here. A goal is judged on the worst \
             sample. docs/kernel.md (\"Switch cost\") breaks the paths down and explains a MISS."
        );
        let _ = writeln!(
            out,
            "\n| footprint (bytes, `{SIZE_TOOL} -A`) | code | data | bss | kernel stack | stack pool |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
        for (name, x) in [
            (
                format!("kernel library `{LIBRARY}` (every object, before linking)"),
                &self.library,
            ),
            (
                "minimal firmware `bench/kernel/minimal.c` (one task, LTO, section GC)".to_string(),
                &self.minimal,
            ),
        ] {
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {} | {} | {} |",
                x.code, x.data, x.bss, x.kernel_stack, x.stack_pool
            );
        }
        let f = &self.facts;
        let _ = writeln!(
            out,
            "\nPer task: the TCB, {} bytes (the saved context is {} of them), in a static array of \
             {} slots (part of the bss above). A task's stack holds only its own frames: after 101 \
             yields a task's stack high-water mark is {} bytes, and a task preempted by 101 timer \
             interrupts (it spins without a frame) has used {} bytes.",
            f.tcb_bytes,
            f.context_bytes,
            f.max_tasks,
            f.yield_task_stack_used,
            f.preempted_task_stack_used
        );
        out
    }
}
