//! One MSO probe: a workload built with one task's stack budget changed, under
//! `stack = "mtss"` and `checks = "mtss"`, run on cactus-sim with the ownership oracle
//! stopping the run on its first violation; and the baseline run that gives each task's
//! measured high water.

use super::loans::{loan_stats, LoanStats};
use super::search::Probe;
use crate::elf_facts::first_line;
use cactus_cc::Reserves;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides, StackStrategy};
use cactus_sim::{Machine, MachineConfig, OracleMode, Profile, RunOutcome, TimerJitter};
use std::path::{Path, PathBuf};

/// How every probe of one workload is built and run.
#[derive(Clone, Debug)]
pub struct ProbeSetup {
    /// The manifest as loaded, with `kernel.stack = mtss` and `kernel.checks = mtss` applied
    /// (task budgets as written).
    pub manifest: Manifest,
    /// Pass options, with K for application code pinned to the unmodified manifest's default
    /// (10 % of its smallest budget), so shrinking a task changes nothing but that budget.
    pub checks: CheckOptions,
    /// Parent of the probe build directories.
    pub out_root: Option<PathBuf>,
    /// Cycle limit of one run (a run that reaches it fails).
    pub max_cycles: u64,
    /// Keep each probe's build directory (otherwise it is removed after the run).
    pub keep_builds: bool,
}

/// One build of the workload: every task's budget, and the kernel's MTSS mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Stack budget of each task, by task index.
    pub budgets: Vec<u32>,
    /// The kernel's worst-case measurement mode (`kernel.mtss_worst_case`).
    pub worst_case: bool,
    /// Record the run's trace events and return its [`LoanStats`].
    pub loans: bool,
}

/// What a passing run of a [`Variant`] measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunDone {
    /// Simulated cycles of the whole run.
    pub cycles: u64,
    /// Frames the kernel moved (OVERFLOW events with action "grown").
    pub moved_frames: u64,
    /// Loan statistics, when asked for.
    pub loans: Option<LoanStats>,
}

impl ProbeSetup {
    /// Loads `path` and prepares its probes, with MTSS pages of `page` bytes (None: the
    /// manifest's, or the kernel's default); errors name the manifest.
    pub fn new(
        path: &Path,
        reserves: &Reserves,
        out_root: Option<PathBuf>,
        max_cycles: u64,
        page: Option<u32>,
    ) -> Result<ProbeSetup, String> {
        Self::with_stack(
            path,
            StackStrategy::Mtss,
            reserves,
            out_root,
            max_cycles,
            page,
        )
    }

    /// [`ProbeSetup::new`] under the stack strategy `stack`: `mtss` and `mtss+split` with
    /// `checks = "mtss"`, `segmented` and `chunks` with the checks the strategy defaults to,
    /// `static` with the manifest's own checks (the ownership oracle judges an overflow the
    /// checks do not catch). `page` applies to the paged strategies only (None: the
    /// manifest's own, or the kernel's default).
    pub fn with_stack(
        path: &Path,
        stack: StackStrategy,
        reserves: &Reserves,
        out_root: Option<PathBuf>,
        max_cycles: u64,
        page: Option<u32>,
    ) -> Result<ProbeSetup, String> {
        let mut manifest = Manifest::load(path).map_err(|e| e.to_string())?;
        manifest
            .apply(&Overrides {
                stack: Some(stack.name().into()),
                target: Some("sim".into()),
                checks: stack.has_pages().then(|| "mtss".into()),
                ..Default::default()
            })
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let smallest = manifest.tasks.iter().map(|t| t.stack).min().unwrap_or(1280);
        let checks = CheckOptions {
            reserves: reserves.clone(),
            k_app: Some(smallest / 10),
            ..CheckOptions::default()
        };
        if stack.has_pages() && page.is_some() {
            manifest.kernel.mtss_page = page;
        }
        Ok(ProbeSetup {
            manifest,
            checks,
            out_root,
            max_cycles,
            keep_builds: false,
        })
    }

    /// The same probes under the `mtss+split` strategy (`checks = "split"`, its default) with
    /// a stacklet heap of `stacklet_pool` bytes carved out of the stack pool. The pool grows
    /// (`kernel.pool_kib`) when the manifest budgets and the heap do not fit it: what the
    /// experiments count is the budgets and the heap, not the pool's spare bytes. An error
    /// says why the manifest refuses it.
    pub fn into_hybrid(mut self, stacklet_pool: u32) -> Result<ProbeSetup, String> {
        use cactus_firmware::StackStrategy;
        let name = self.manifest.name.clone();
        let page = self.manifest.kernel.page();
        let regions: u32 = self
            .manifest
            .tasks
            .iter()
            .map(|t| StackStrategy::MtssSplit.region_bytes(t.stack, page))
            .sum();
        let need =
            regions + 64u32.div_ceil(page) * page + StackStrategy::heap_bytes(stacklet_pool, page);
        let pool_kib = self
            .manifest
            .kernel
            .pool_kib
            .unwrap_or(StackStrategy::DEFAULT_POOL_KIB);
        if need.div_ceil(1024) > pool_kib {
            self.manifest.kernel.pool_kib = Some(need.div_ceil(1024));
        }
        self.manifest
            .apply(&Overrides {
                stack: Some("mtss+split".into()),
                checks: Some("split".into()),
                stacklet_pool: Some(stacklet_pool),
                ..Default::default()
            })
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(self)
    }

    /// Builds the workload with task `task`'s budget set to `budget` (every other task at
    /// its manifest budget) and runs it. Passes only on exit code 0 with no oracle violation;
    /// a build error, fault, violation, cycle limit or non-zero exit is a failed probe whose
    /// reason says which.
    pub fn probe(&self, task: usize, budget: u32) -> Probe {
        match self.build_and_run(task, budget) {
            Ok(()) => Probe {
                budget,
                passed: true,
                reason: None,
            },
            Err(reason) => Probe {
                budget,
                passed: false,
                reason: Some(reason),
            },
        }
    }

    fn build_and_run(&self, task: usize, budget: u32) -> Result<(), String> {
        let mut budgets = self.budgets();
        *budgets
            .get_mut(task)
            .ok_or_else(|| format!("{}: no task {task}", self.manifest.name))? = budget;
        self.run_variant(&Variant {
            budgets,
            worst_case: false,
            loans: false,
        })
        .map(|_| ())
    }

    /// Builds and runs the workload at `budgets` with the trace recorded and returns its
    /// loan statistics; an error names `at` (what the budgets are: `512 B`, `30 %`).
    pub fn record_loans(&self, budgets: Vec<u32>, at: &str) -> Result<Option<LoanStats>, String> {
        let v = Variant {
            budgets,
            worst_case: false,
            loans: true,
        };
        self.run_variant(&v)
            .map(|done| done.loans)
            .map_err(|e| format!("the recorded run at {at} failed: {e}"))
    }

    /// Every task's manifest budget, by task index.
    pub fn budgets(&self) -> Vec<u32> {
        self.manifest.tasks.iter().map(|t| t.stack).collect()
    }

    /// The MTSS page size of these builds, in bytes.
    pub fn page(&self) -> u32 {
        self.manifest.kernel.page()
    }

    /// Builds the workload as `v` says and runs it. Ok only on exit code 0 with no oracle
    /// violation; a build error, fault, violation, cycle limit or non-zero exit is an error
    /// saying which.
    pub fn run_variant(&self, v: &Variant) -> Result<RunDone, String> {
        let elf = self.build_variant(&v.budgets, v.worst_case)?;
        self.run_elf(&elf, v.loans, None)
    }

    /// Builds the workload with each task's stack budget from `budgets` (by task index), in
    /// the kernel's MTSS worst-case mode if `worst_case`, and returns the ELF's bytes (the
    /// build directory is removed afterwards unless [`ProbeSetup::keep_builds`]).
    pub fn build_variant(&self, budgets: &[u32], worst_case: bool) -> Result<Vec<u8>, String> {
        let mut m = self.manifest.clone();
        if budgets.len() != m.tasks.len() {
            return Err(format!(
                "{}: {} budgets for {} tasks",
                m.name,
                budgets.len(),
                m.tasks.len()
            ));
        }
        for (t, &b) in m.tasks.iter_mut().zip(budgets) {
            t.stack = b;
        }
        m.kernel.mtss_worst_case = worst_case;
        let options = BuildOptions {
            out_root: self.out_root.clone(),
            checks: self.checks.clone(),
            ..BuildOptions::default()
        };
        // The cache key hashes the generated C, whose task table holds every budget.
        let built = cactus_firmware::build(&m, &options).map_err(|e| first_line(&e.to_string()))?;
        let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()));
        if !self.keep_builds && !built.up_to_date {
            // Best effort: a leftover directory is only disk space.
            let _ = std::fs::remove_dir_all(&built.dir);
        }
        elf
    }

    /// Runs a firmware ELF built by [`ProbeSetup::build_variant`] on the `mcu` profile with
    /// the oracle stopping the run, at most [`ProbeSetup::max_cycles`], with timer
    /// interrupts delayed as `jitter` says (None: on time); with `loans`, the trace is
    /// recorded and its [`LoanStats`] returned. Ok only on exit code 0 with no oracle
    /// violation; a fault, violation, cycle limit or non-zero exit is an error saying which.
    pub fn run_elf(
        &self,
        elf: &[u8],
        loans: bool,
        jitter: Option<TimerJitter>,
    ) -> Result<RunDone, String> {
        let mut config = MachineConfig::new(Profile::builtin("mcu").ok_or("no profile `mcu`")?);
        config.oracle = OracleMode::Stop;
        config.max_cycles = Some(self.max_cycles);
        config.record_events = loans;
        config.timer_jitter = jitter;
        let mut machine = Machine::new(config);
        machine.load_elf(elf).map_err(|e| e.to_string())?;
        let outcome = machine.run_to_end();
        let stats = machine.stats();
        let violations = stats.oracle_violations;
        match outcome {
            RunOutcome::Exited { code: 0 } if violations == 0 => {}
            RunOutcome::Exited { code: 0 } => {
                return Err(format!("{violations} oracle violation(s)"))
            }
            RunOutcome::Exited { code } => {
                let uart = machine.take_uart_output();
                return Err(match kernel_report(&uart) {
                    Some(line) => format!("exit code {code}: {line}"),
                    None => format!("exit code {code}"),
                });
            }
            RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => {
                return Err(first_line(&r.to_string()))
            }
            RunOutcome::OracleViolation(r) => return Err(first_line(&r.to_string())),
            RunOutcome::Breakpoint { pc } => return Err(format!("breakpoint at {pc:#010x}")),
        }
        Ok(RunDone {
            cycles: stats.cycles,
            moved_frames: stats.tasks.iter().map(|t| t.overflows).sum(),
            loans: loans.then(|| loan_stats(machine.events(), self.manifest.kernel.page())),
        })
    }
}

/// What the baseline run (the manifest exactly as written, on its own strategy) gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Baseline {
    /// Each task's measured stack high water, by task index (None if not reported).
    pub high_water: Vec<Option<u32>>,
    /// Simulated cycles of the run.
    pub cycles: u64,
}

/// Builds and runs the manifest at `path` as written (the run `cactus workloads stacks`
/// makes, which the budgets were derived from). Errors if it does not pass.
pub fn baseline(path: &Path) -> Result<Baseline, String> {
    let manifest = Manifest::load(path).map_err(|e| e.to_string())?;
    let entry = cactus_firmware::catalogue::Entry::from_manifest(path, &manifest);
    let run = crate::workloads::stacks::measure(Path::new(""), &entry);
    if let Some(note) = run.note {
        return Err(format!("{}: baseline run failed: {note}", path.display()));
    }
    Ok(Baseline {
        high_water: run.rows.iter().map(|r| r.stack_hwm).collect(),
        cycles: run.totals.map(|t| t.cycles).unwrap_or(0),
    })
}

/// The kernel's first report of a refused stack request in the guest's UART output ("task N
/// 'name': stack overflow caught: ..."), without its `cactus: ` prefix, with the strategy's
/// reason (the next line, "  why: ...") after a `; `.
fn kernel_report(uart: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(uart);
    let mut lines = text.lines();
    let caught = lines.find(|l| l.contains("stack overflow caught"))?;
    let mut report = first_line(caught.trim_start_matches("cactus: "));
    if let Some(why) = lines.next().and_then(|l| l.trim().strip_prefix("why: ")) {
        report = format!("{report}; {}", why.chars().take(300).collect::<String>());
    }
    Some(report)
}
