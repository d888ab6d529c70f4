//! `cactus bench kernel`: the Cactus kernel's context-switch costs and footprint, measured on
//! cactus-sim from the benchmark firmware in `bench/kernel/` (built by `make -C kernel bench`).
//!
//! The firmware brackets kernel calls with trace-device MARKER events (bench/kernel/marked.h);
//! every event carries the simulated cycle and retired-instruction count at the start of the
//! store that commits it, and the simulator records each trap with the same stamps taken at
//! the first instruction of the handler. A switch cost is a difference of two stamps minus the
//! marker stores themselves, which the firmware measures (calibration pair) rather than the
//! host assuming. Everything here is simulated, so the figures are deterministic.
//!
//! What is measured (docs/kernel.md defines the same):
//! - yield: from the call of `cactus_yield` in task A (the call instruction included) to the
//!   first instruction task B executes after its own `cactus_yield` returns;
//! - blocking: the same from a `cactus_sem_take` that blocks to the first instruction of the
//!   other task after its blocked `cactus_sem_take` returns (woken by a give);
//! - timer preemption: from the first instruction at mtvec for the timer interrupt to the first
//!   instruction of the task it wakes (after its `cactus_sleep` returns);
//! - interrupts ([`irq`], its own firmware): a raised software interrupt to the user's
//!   handler, and a handler's semaphore give to the task it wakes;
//! - notify, resume and give ([`task_control`], `bench/kernel/notify_bench.c`): from the call of
//!   `cactus_notify`, `cactus_task_resume` or `cactus_sem_give` in a low task to the first
//!   instruction of the higher task it wakes, after its own blocking call returns;
//! - the fast paths ([`fastpath`]): a message send + receive and a pool allocate + free that
//!   switch no task, from their own firmware.
//!
//! The switch and wake paths run twice: linked with the default library ([`LIBRARY`]) and with
//! the FreeRTOS-equal configuration of the switch paths ([`LEAN_LIBRARY`], the `nostats`
//! kernel variant: no switch counter, which FreeRTOS does not keep either; the `static`
//! strategy's switch check stays on), which the cycle goals are judged on; the report shows
//! both.

pub mod events;
pub mod fastpath;
pub mod footprint;
pub mod irq;
pub mod markers;
pub mod report;
pub mod task_control;

use crate::kernel::events::{firmware_facts, switch_costs};
use crate::kernel::fastpath::{fast_paths, FASTPATH_ELF};
use crate::kernel::footprint::{app_share, sections};
use crate::kernel::report::{goals, task_control_goals, KernelReport, LeanCosts};
use crate::kernel::task_control::{task_control_costs, NOTIFY_ELF, NOTIFY_LEAN_ELF};
use cactus_sim::{Event, LoadError, Machine, MachineConfig, Profile};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The kernel library the benchmark firmware links (`static` strategy, no trace device).
pub const LIBRARY: &str = "build/kernel/libcactus-static-none.a";
/// The switch benchmark firmware.
pub const SWITCH_ELF: &str = "build/bench/kernel/switch_bench.elf";
/// The kernel library of the FreeRTOS-equal configuration of the switch paths, which the
/// cycle goals are judged on: the `nostats` kernel variant (no switch counter; the `static`
/// strategy's switch check stays on), as the minimal firmware's kernel is built.
pub const LEAN_LIBRARY: &str = "build/bench/kernel/lean-kernel/libcactus-static-none.a";
/// What the goal rows judged on the [`LEAN_LIBRARY`] firmware say about their configuration.
pub const LEAN_GOAL_TAG: &str = " [FreeRTOS-equal kernel: `nostats`]";
/// The switch benchmark firmware linked with [`LEAN_LIBRARY`].
pub const SWITCH_LEAN_ELF: &str = "build/bench/kernel/switch_bench-lean.elf";
/// The minimal firmware (two tasks and a delay, the FreeRTOS anchor's configuration) whose
/// size is the footprint figure.
pub const MINIMAL_ELF: &str = "build/bench/kernel/minimal.elf";
/// The minimal firmware's application object (`bench/kernel/minimal.c`, compiled by
/// kernel/Makefile): its symbols are the application's share, which the kernel figures leave out.
pub const MINIMAL_APP_OBJ: &str = "build/bench/kernel/obj/minimal.o";
/// Simulated-cycle limit of one benchmark run (the firmware needs about 11 million).
const MAX_CYCLES: u64 = 200_000_000;

/// Where the benchmark firmware and the kernel library live.
#[derive(Clone, Debug)]
pub struct KernelBenchOptions {
    /// Repository root (holds `kernel/`, `bench/kernel/` and `build/`).
    pub root: PathBuf,
    /// Run `make -C kernel bench` first.
    pub build: bool,
    /// Machine profile the firmware runs with.
    pub profile: Profile,
}

/// Why the benchmark could not be completed.
#[derive(Debug, thiserror::Error)]
pub enum KernelBenchError {
    /// A build or size command could not be started or failed.
    #[error("`{command}` failed: {detail}")]
    Command {
        /// The command line.
        command: String,
        /// Exit status or spawn error, and the end of its stderr.
        detail: String,
    },
    /// A benchmark ELF could not be read.
    #[error("{path}: {error} (the benchmark firmware is built by `make -C kernel bench`)")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The simulator refused the ELF.
    #[error("{path}: {error}")]
    Load {
        /// The ELF.
        path: PathBuf,
        /// Why.
        error: LoadError,
    },
    /// The firmware did not exit with code 0.
    #[error("{path}: the benchmark firmware did not finish: {ending}")]
    Run {
        /// The ELF.
        path: PathBuf,
        /// How the run ended.
        ending: String,
    },
    /// The events lack something the benchmark needs (a firmware/host mismatch).
    #[error("benchmark events: {0}")]
    Events(String),
    /// `size` printed something this parser does not understand.
    #[error("cannot parse `size` output for {path}: {line:?}")]
    Size {
        /// The file measured.
        path: PathBuf,
        /// The offending line.
        line: String,
    },
}

/// Builds (optionally) and runs the benchmark, then measures the footprint.
pub fn run_kernel_bench(options: &KernelBenchOptions) -> Result<KernelReport, KernelBenchError> {
    let root = &options.root;
    if options.build {
        run_command(root, "make", &["-s", "-C", "kernel", "bench"])?;
    }
    let events = run_firmware(&root.join(SWITCH_ELF), options.profile.clone())?;
    let trap_entry = u64::from(options.profile.cycles().trap_entry);
    let costs = switch_costs(&events, trap_entry)?;
    let facts = firmware_facts(&events)?;
    let irq_events = run_firmware(&root.join(irq::IRQ_ELF), options.profile.clone())?;
    let irq = irq::irq_costs(&irq_events)?;
    let irq_direct = irq::irq_costs(&run_firmware(
        &root.join(irq::IRQ_DIRECT_ELF),
        options.profile.clone(),
    )?)?;
    let library = sections(root, &root.join(LIBRARY))?;
    let minimal = sections(root, &root.join(MINIMAL_ELF))?;
    let minimal_app = app_share(root, &root.join(MINIMAL_APP_OBJ), &root.join(MINIMAL_ELF))?;
    let task_control = task_control_costs(&run_firmware(
        &root.join(NOTIFY_ELF),
        options.profile.clone(),
    )?)?;
    let lean_events = run_firmware(&root.join(SWITCH_LEAN_ELF), options.profile.clone())?;
    let lean = LeanCosts {
        costs: switch_costs(&lean_events, trap_entry)?,
        task_control: task_control_costs(&run_firmware(
            &root.join(NOTIFY_LEAN_ELF),
            options.profile.clone(),
        )?)?,
    };
    let lean_facts = firmware_facts(&lean_events)?;
    let mut goals = goals(&lean.costs, &lean_facts);
    goals.extend(task_control_goals(&lean.task_control));
    for g in &mut goals {
        g.what.push_str(LEAN_GOAL_TAG);
    }
    goals.extend(irq::goals(&irq, &irq_direct));
    let fast = fast_paths(&run_firmware(
        &root.join(FASTPATH_ELF),
        options.profile.clone(),
    )?)?;
    goals.extend(fastpath::goals(&fast));
    Ok(KernelReport {
        profile: options.profile.name().to_string(),
        costs,
        task_control,
        irq,
        irq_direct,
        facts,
        fast,
        lean: Some(lean),
        library,
        minimal,
        minimal_app,
        goals,
    })
}

/// Runs `elf` on a fresh machine with events recorded; Ok(events) if it exited with 0.
pub fn run_firmware(path: &Path, profile: Profile) -> Result<Vec<Event>, KernelBenchError> {
    let bytes = std::fs::read(path).map_err(|error| KernelBenchError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let mut config = MachineConfig::new(profile);
    config.record_events = true;
    config.max_cycles = Some(MAX_CYCLES);
    let mut machine = Machine::new(config);
    machine
        .load_elf(&bytes)
        .map_err(|error| KernelBenchError::Load {
            path: path.to_path_buf(),
            error,
        })?;
    match machine.run_to_end().failure() {
        None => Ok(machine.events().to_vec()),
        Some(ending) => Err(KernelBenchError::Run {
            path: path.to_path_buf(),
            ending,
        }),
    }
}

/// Runs a command in `dir`; Ok(stdout) on success.
pub(crate) fn run_command(
    dir: &Path,
    program: &str,
    args: &[&str],
) -> Result<String, KernelBenchError> {
    let command = std::iter::once(program)
        .chain(args.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| KernelBenchError::Command {
            command: command.clone(),
            detail: e.to_string(),
        })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(KernelBenchError::Command {
            command,
            detail: format!("{}: {}", output.status, tail.join(" | ")),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The one point of `cactus bench kernel` (a row of the store): the profile it ran with and
/// the report, or why the build or run failed.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelRow {
    /// Profile name.
    pub profile: String,
    /// What was measured, or why it could not be.
    pub report: Result<KernelReport, String>,
}

impl cactus_sweep::Row for KernelRow {
    fn passed(&self) -> bool {
        self.report.as_ref().is_ok_and(|r| r.all_pass())
    }
}

/// The kernel's switch costs and footprint.
pub struct Kernel;

impl cactus_sweep::evaluation::Evaluation for Kernel {
    const NAME: &'static str = "kernel";
    const UNIT: &'static str = "runs";
    type Row = KernelRow;

    fn render(rows: &[KernelRow], _meta: &cactus_sweep::Meta) -> cactus_sweep::SweepReport {
        let mut summary = cactus_sweep::Summary::new("kernel");
        let (mut passed, mut failed) = (0, 0);
        let mut tables = String::new();
        let mut reading = String::new();
        for row in rows {
            match &row.report {
                Ok(r) => {
                    // The judged figures: the FreeRTOS-equal configuration's (the default
                    // library's in a report from before it was measured).
                    let (c, tc) = r
                        .lean
                        .as_ref()
                        .map_or((&r.costs, &r.task_control), |l| (&l.costs, &l.task_control));
                    summary
                        .add("yield_cycles", c.yield_switch.cycles.max)
                        .add("block_cycles", c.blocking.cycles.max)
                        .add("preempt_cycles", c.timer.cycles.max)
                        .add("tick_cycles", c.tick.cycles.max)
                        .add("notify_cycles", tc.notify.cycles.max)
                        .add("resume_cycles", tc.resume.cycles.max)
                        .add("give_cycles", tc.give.cycles.max)
                        .add("isr_entry_cycles", r.irq_direct.entry.max)
                        .add("isr_entry_c_cycles", r.irq.entry.max)
                        .add("isr_wake_cycles", r.irq.wake.max)
                        .add("isr_wake_direct_cycles", r.irq_direct.wake.max)
                        .add("msg_pair_cycles", r.fast.msg_pair.cycles.max)
                        .add("pool_pair_cycles", r.fast.pool_pair.cycles.max);
                    r.add_footprint_summary(&mut summary);
                    summary
                        .add("yield_instructions", c.yield_switch.instructions.max)
                        .add("tcb_bytes", r.facts.tcb_bytes)
                        .add("default_yield_cycles", r.costs.yield_switch.cycles.max)
                        .add("default_block_cycles", r.costs.blocking.cycles.max)
                        .add("default_preempt_cycles", r.costs.timer.cycles.max)
                        .add("default_notify_cycles", r.task_control.notify.cycles.max)
                        .add("default_resume_cycles", r.task_control.resume.cycles.max)
                        .add("default_give_cycles", r.task_control.give.cycles.max);
                    let all: Vec<_> = r.goals.iter().cloned().chain(r.footprint_goals()).collect();
                    passed += all.iter().filter(|g| g.pass).count();
                    failed += all.iter().filter(|g| !g.pass).count();
                    tables.push_str(&r.tables());
                    reading = r.reading();
                }
                Err(e) => {
                    failed += 1;
                    tables.push_str(&format!("Failed ({}): {e}\n", row.profile));
                }
            }
        }
        cactus_sweep::SweepReport {
            tables,
            reading,
            note: " (simulated cycles only: the figures are deterministic; passed and failed \
                   count the goals)"
                .to_string(),
            passed,
            failed,
            summary,
        }
    }
}

/// The store's parameters: the profile.
pub fn params(profile: &Profile) -> serde_json::Value {
    serde_json::json!({ "profile": profile.name() })
}

/// The benchmark as one point (its firmware build and run).
pub fn points(options: &KernelBenchOptions) -> Vec<cactus_sweep::Point<'_, KernelRow>> {
    vec![cactus_sweep::Point::new(
        "switch_bench",
        "switch_bench",
        move |_, _: &cactus_sweep::Progress| KernelRow {
            profile: options.profile.name().to_string(),
            report: run_kernel_bench(options).map_err(|e| e.to_string()),
        },
    )]
}
