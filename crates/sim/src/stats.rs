//! Run statistics: instruction and cycle counts, energy, per-class and per-mode figures, traps,
//! oracle violations and per-task figures from the trace device. Energy is computed from
//! counters (`stats_build.rs`, per task `task_energy.rs`), never in the hot loop.

use crate::events::NOBODY;
use crate::report::ViolationReport;
use crate::task_energy::TaskEnergy;
use serde::Serialize;
use std::collections::BTreeMap;

/// At most this many violations are listed in [`Stats::violations`] (all are counted).
pub const MAX_LISTED_VIOLATIONS: usize = 1000;

/// Per-task figures gathered from trace-device events.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TaskStats {
    /// Task id.
    pub id: u32,
    /// Name from TASK_CREATE (empty if never created).
    pub name: String,
    /// Priority from TASK_CREATE.
    pub priority: u32,
    /// Times the task was switched in.
    pub switches: u64,
    /// Cycles while the task was running (between TASK_SWITCH events).
    pub cycles: u64,
    /// Instructions retired while the task was running.
    pub instructions: u64,
    /// Energy in nJ while the task was running, at the same boundaries as `cycles`
    /// (docs/simulator-design.md, "Energy per task"). The tasks' energies plus
    /// [`Stats::energy_outside_tasks_nj`] sum to [`Stats::energy_nj`].
    pub energy_nj: f64,
    /// The task's deepest stack use in bytes below the top of its own region: the highest
    /// STACK_HWM `used` value seen (the kernel's scan of its own region) or, when higher,
    /// [`TaskStats::stack_hwm_loans`]. Meaningful only with `hwm_samples > 0`.
    pub stack_hwm: u32,
    /// The deepest use the simulator measured with frames on MTSS loans (as a borrower: its
    /// own region, the chain of blocks it held at once and the deepest block; as a lender: its
    /// own bytes in pages when it lent them; `loan_depth.rs`), `None` if it did neither.
    pub stack_hwm_loans: Option<u32>,
    /// Budget from the last STACK_HWM sample.
    pub stack_budget: u32,
    /// Number of STACK_HWM samples.
    pub hwm_samples: u64,
    /// OVERFLOW events for the task.
    pub overflows: u64,
    /// OVERFLOW events whose action is a fault policy (0 killed, 1 restarted, 2 halted): stack
    /// overflows the firmware could not absorb, as opposed to frames a strategy moved (3).
    pub stack_faults: u64,
    /// Bytes this task lent to others (REGION_LEND, bytes that moved).
    pub lent_bytes: u64,
    /// Bytes this task borrowed.
    pub borrowed_bytes: u64,
    /// Exit reason from TASK_EXIT, if it exited.
    pub exit_reason: Option<u32>,
}

/// Task bookkeeping driven by trace events.
pub(crate) struct TaskTable {
    tasks: BTreeMap<u32, TaskStats>,
    running: u32,
    since_cycle: u64,
    since_instret: u64,
    /// Energy counters charged per task.
    pub(crate) energy: TaskEnergy,
}

impl TaskTable {
    pub(crate) fn new() -> TaskTable {
        TaskTable {
            tasks: BTreeMap::new(),
            running: NOBODY,
            since_cycle: 0,
            since_instret: 0,
            energy: TaskEnergy::new(),
        }
    }

    fn entry(&mut self, id: u32) -> &mut TaskStats {
        self.tasks.entry(id).or_insert_with(|| TaskStats {
            id,
            ..TaskStats::default()
        })
    }

    pub(crate) fn create(&mut self, id: u32, priority: u32, name: &str) {
        let t = self.entry(id);
        t.name = name.to_string();
        t.priority = priority;
    }

    pub(crate) fn switch_to(&mut self, id: u32, cycle: u64, instret: u64) {
        self.account(cycle, instret);
        self.running = id;
        self.energy.switch_committed();
        if id != NOBODY {
            self.entry(id).switches += 1;
        }
    }

    fn account(&mut self, cycle: u64, instret: u64) {
        let (dc, di) = (
            cycle.saturating_sub(self.since_cycle),
            instret.saturating_sub(self.since_instret),
        );
        self.since_cycle = cycle;
        self.since_instret = instret;
        if self.running != NOBODY {
            let t = self.entry(self.running);
            t.cycles += dc;
            t.instructions += di;
        }
    }

    pub(crate) fn exit(&mut self, id: u32, reason: u32) {
        self.entry(id).exit_reason = Some(reason);
    }

    /// A loan of `moved` bytes; `lender` is [`NOBODY`] for the region of a task that ended
    /// (MTSS lends its free pages), which is no task's to count.
    pub(crate) fn lend(&mut self, lender: u32, borrower: u32, moved: u32) {
        if lender != NOBODY {
            self.entry(lender).lent_bytes += u64::from(moved);
        }
        self.entry(borrower).borrowed_bytes += u64::from(moved);
    }

    pub(crate) fn hwm(&mut self, id: u32, used: u32, budget: u32) {
        let t = self.entry(id);
        t.stack_hwm = t.stack_hwm.max(used);
        t.stack_budget = budget;
        t.hwm_samples += 1;
    }

    pub(crate) fn overflow(&mut self, id: u32, action: u32) {
        let t = self.entry(id);
        t.overflows += 1;
        if action <= 2 {
            t.stack_faults += 1;
        }
    }

    /// Name of a task ("" if unknown or NOBODY; "interrupt handler" for the oracle's
    /// handler writer).
    pub(crate) fn name(&self, id: u32) -> String {
        if id == crate::oracle::ISR {
            return "interrupt handler".to_string();
        }
        self.tasks
            .get(&id)
            .map(|t| t.name.clone())
            .unwrap_or_default()
    }

    /// The task running now (NOBODY before the first switch).
    pub(crate) fn running(&self) -> u32 {
        self.running
    }

    /// Snapshot with the running task's time accounted up to (cycle, instret), its energy
    /// up to the run's energy `now_nj` and its stack high water raised to `loans`, the deepest
    /// use measured with frames on MTSS loans.
    pub(crate) fn snapshot(
        &self,
        cycle: u64,
        instret: u64,
        now_nj: f64,
        loans: &BTreeMap<u32, u32>,
    ) -> Vec<TaskStats> {
        let mut out: Vec<TaskStats> = self.tasks.values().cloned().collect();
        for t in &mut out {
            if let Some(&d) = loans.get(&t.id) {
                t.stack_hwm_loans = Some(d);
                t.stack_hwm = t.stack_hwm.max(d);
            }
            if t.id == self.running {
                t.cycles += cycle.saturating_sub(self.since_cycle);
                t.instructions += instret.saturating_sub(self.since_instret);
            }
            t.energy_nj = self.energy.energy_nj(t.id, now_nj);
        }
        out
    }
}

/// Count and energy of one cost class.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClassStats {
    /// Class name (profile key, or "trace").
    pub class: &'static str,
    /// Instructions (or trap entries) of the class.
    pub count: u64,
    /// Energy in nJ.
    pub energy_nj: f64,
}

/// Data accesses and energy of one memory region.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RegionStats {
    /// Region name from the profile.
    pub name: String,
    /// Data accesses (loads, stores, AMOs) that hit the region.
    pub accesses: u64,
    /// Energy in nJ.
    pub energy_nj: f64,
}

/// Cycles and instructions spent in one privilege mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ModeStats {
    /// Cycles.
    pub cycles: u64,
    /// Instructions retired.
    pub instructions: u64,
}

/// Statistics of a run so far. Deterministic: same ELF, profile and options give equal Stats.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// Profile name.
    pub profile: String,
    /// Instructions retired.
    pub instructions: u64,
    /// Simulated cycles.
    pub cycles: u64,
    /// Simulated time in seconds (cycles / clock_hz).
    pub seconds: f64,
    /// Total energy in nJ (classes plus region accesses).
    pub energy_nj: f64,
    /// Per-class counts and energy, in a fixed order.
    pub classes: Vec<ClassStats>,
    /// Per-region accesses and energy, in profile order.
    pub regions: Vec<RegionStats>,
    /// Device-window accesses (UART, CLINT, PLIC, finisher; trace accesses are a class).
    pub device_accesses: u64,
    /// M-mode figures.
    pub machine_mode: ModeStats,
    /// U-mode figures.
    pub user_mode: ModeStats,
    /// Traps taken by mcause (interrupts have bit 31 set), ascending.
    pub traps_by_cause: BTreeMap<u32, u64>,
    /// Interrupts taken (by cause: the entries of `traps_by_cause` with bit 31 set).
    pub interrupts: u64,
    /// PLIC claims that returned a source (external interrupts served).
    pub plic_claims: u64,
    /// UART input bytes the guest never received (still due or waiting for room at the end).
    pub uart_input_left: u64,
    /// Cycles skipped by `wfi` sleeping until the timer deadline (included in `cycles`).
    pub sleep_cycles: u64,
    /// Oracle violations (all of them).
    pub oracle_violations: u64,
    /// The first violations (at most MAX_LISTED_VIOLATIONS).
    pub violations: Vec<ViolationReport>,
    /// Per-task figures, by task id.
    pub tasks: Vec<TaskStats>,
    /// Energy in nJ outside any task: before the first TASK_SWITCH and while switched to no
    /// task (the kernel's idle loop). With the tasks' `energy_nj` it sums to `energy_nj`.
    pub energy_outside_tasks_nj: f64,
    /// MARKER events committed.
    pub markers: u64,
    /// The memory-system extensions' figures (Carousel, external bus, DMA, caches), when the
    /// profile has an `[external]` table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_system: Option<crate::ext::stats::MemSysStats>,
    /// The switch-register extension's figures (ccs-hw: records loaded, deferred timer
    /// interrupts, deferral cycles, budget expiries), when the guest configured it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub switch_regs: Option<crate::hart::switchregs::SwitchRegStats>,
    /// The register-page extension's figures (rmcs: pool pages, `mrfmap` writes that changed
    /// the mapping, writes refused), when it is configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reg_pages: Option<crate::hart::regpages::RegPageStats>,
}
