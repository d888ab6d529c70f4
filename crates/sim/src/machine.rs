//! The machine: hart + bus + block cache, and the public run/step/inspect API
//! (see /work/notes/sim-api.md). The run loop looks up (or predecodes) the block at pc, runs
//! its body in the hot loop, adds the block's static cycles and counts once, runs the block's
//! terminator if any, and checks interrupts and the cycle limit only when the cycle counter
//! reaches the precomputed next-event cycle; a body that the next event falls inside runs
//! only up to the first instruction that starts at or after it, so an interrupt is taken
//! before that instruction (docs/simulator-design.md, "Interrupt timing").

use crate::bus::{Bus, Ctx, Pending};
use crate::config::{MachineConfig, OracleMode};
use crate::cost::{CostClass, COST_CLASSES, NUM_CLASSES};
use crate::devices::clint::Clint;
use crate::devices::plic::Plic;
use crate::devices::trace::TraceDevice;
use crate::devices::uart::Uart;
use crate::devices::uart_input::UartInput;
use crate::error::LoadError;
use crate::hart::block::{static_class, BlockCache, FetchTrap, StaticCosts, MAX_BODY};
use crate::hart::exec::{run_blocks, Bounds, DynCosts, Exit};
use crate::hart::Hart;
use crate::loader::{load_elf, ElfInfo};
use crate::memory::{Memory, PAGE_HTIF};
use crate::oracle::Oracle;
use crate::profile::{Misaligned, Profile};
use crate::report::{FaultKind, FaultReport, ViolationReport};
use crate::stats::{ModeStats, TaskTable};
use std::collections::{BTreeMap, BTreeSet};

/// How a run (or step) ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutcome {
    /// The guest ended through the test finisher (0x5555 -> 0, (code<<16)|0x3333 -> code) or
    /// tohost ((code<<1)|1 -> code).
    Exited {
        /// Exit code.
        code: u32,
    },
    /// Exception with no handler (mtvec == 0), a double fault, a wfi deadlock or a reset
    /// request (see [`FaultKind`]).
    Fault(Box<FaultReport>),
    /// A cycle limit reached: total, busy or idle cycles (the report's kind says which).
    CycleLimit(Box<FaultReport>),
    /// A breakpoint was reached (pc not yet executed).
    Breakpoint {
        /// The breakpoint address.
        pc: u32,
    },
    /// An ownership-oracle violation under [`OracleMode::Stop`].
    OracleViolation(Box<ViolationReport>),
}

impl RunOutcome {
    /// None for a clean end (exit code 0), else what went wrong in one message: the exit
    /// code, or the fault, limit or violation report, or the breakpoint.
    pub fn failure(&self) -> Option<String> {
        match self {
            RunOutcome::Exited { code: 0 } => None,
            RunOutcome::Exited { code } => Some(format!("exit code {code}")),
            RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => Some(r.to_string()),
            RunOutcome::OracleViolation(r) => Some(r.to_string()),
            RunOutcome::Breakpoint { pc } => Some(format!("breakpoint at {pc:#010x}")),
        }
    }
}

/// One simulated RV32IMAC machine.
pub struct Machine {
    pub(crate) hart: Hart,
    pub(crate) bus: Bus,
    pub(crate) cache: BlockCache,
    pub(crate) profile: Profile,
    /// The profile's energy prices (regions as the memory holds them).
    pub(crate) energy_prices: crate::task_energy::EnergyPrices,
    pub(crate) class_cycles: [u32; NUM_CLASSES],
    pub(crate) dyn_costs: DynCosts,
    pub(crate) limits: crate::limits::Limits,
    pub(crate) breakpoints: BTreeSet<u32>,
    /// Call probes (`call_probe.rs`) and the last arrival recorded (pc, instret).
    pub(crate) probes: BTreeSet<u32>,
    pub(crate) last_probe: Option<(u32, u64)>,
    pub(crate) next_event: u64,
    pub(crate) taken: u64,
    /// Class counts not covered by whole-block executions: partial bodies, terminators, trap
    /// entries.
    pub(crate) extra_counts: [u64; NUM_CLASSES],
    pub(crate) traps_by_cause: BTreeMap<u32, u64>,
    pub(crate) interrupts: u64,
    /// [user, machine].
    pub(crate) mode_stats: [ModeStats; 2],
    pub(crate) mode_since: (u64, u64),
    pub(crate) sleep_cycles: u64,
    /// Histogram of timer interrupt latencies (cycles from MTIP set to trap entry -> count).
    pub(crate) timer_latency: BTreeMap<u64, u64>,
    pub(crate) elf: Option<ElfInfo>,
    /// The stack-bound extension (`mstackbound`) is configured.
    pub(crate) stack_bound_ext: bool,
    /// The stack-window extension (`mswbound`, `mswdisp`) is configured.
    pub(crate) stack_window_ext: bool,
    /// The longest interrupt-masked window (`hart/masked.rs`).
    pub(crate) masked: crate::hart::masked::MaskedWatch,
    /// The switch-register extension (`hart/switchregs.rs`), when configured.
    pub(crate) switch_regs: Option<crate::hart::switchregs::SwitchRegs>,
    /// The timer-pending watch, when configured (`hart/pending_watch.rs`).
    pub(crate) pending_watch: Option<crate::hart::pending_watch::PendingWatch>,
    /// Memory-system mode with caches: one instruction per dispatch, each fetch charged as it
    /// happens (`ext/run.rs`).
    pub(crate) per_fetch: bool,
    /// The register-page extension (`hart/regpages.rs`), when configured.
    pub(crate) reg_pages: Option<Box<crate::hart::regpages::RegPages>>,
}

impl Machine {
    /// A machine after reset (pc 0, M-mode, zeroed memory) for `config`.
    pub fn new(config: MachineConfig) -> Machine {
        let rate = config.uart_input_rate();
        let jitter = config.timer_jitter;
        let task_sampler = config
            .task_probe
            .clone()
            .map(crate::task_probe::TaskSampler::new);
        let uart_input = UartInput::new(config.uart_input, rate);
        let profile = config.profile;
        let mut class_cycles = [0u32; NUM_CLASSES];
        for c in COST_CLASSES {
            class_cycles[c as usize] = profile.cycles().get(c);
        }
        let ram_latency = profile.memory()[0].latency;
        let mis_mask = match profile.misaligned() {
            Misaligned::Emulate => [0; 5],
            Misaligned::Trap => [0, 0, 1, 0, 3],
        };
        let mut mem = Memory::new(profile.memory());
        let ext = crate::ext::MemSystem::new(&profile).map(|(sys, carousel)| {
            crate::ext::run::attach(&mut mem, carousel);
            sys
        });
        let energy_prices = crate::task_energy::EnergyPrices {
            classes_pj: COST_CLASSES.map(|c| profile.energy().get(c)),
            regions_pj: std::iter::once(&mem.ram)
                .chain(&mem.others)
                .map(|r| r.spec.energy)
                .collect(),
        };
        let bus = Bus {
            mem,
            uart: Uart::new(uart_input),
            clint: Clint::new(profile.clock_hz(), profile.timebase_hz()).with_jitter(jitter),
            plic: Plic::new(),
            trace: TraceDevice::new(),
            oracle: Oracle::new(),
            oracle_stop: config.oracle == OracleMode::Stop,
            tasks: TaskTable::new(),
            loans: Default::default(),
            tohost: None,
            reservation: None,
            record_events: config.record_events,
            events: Vec::new(),
            violations: Vec::new(),
            pending: None,
            irq_dirty: false,
            code_dirty: false,
            trace_loads: 0,
            trace_stores: 0,
            device_accesses: 0,
            markers: 0,
            mis_mask,
            ram_latency,
            task_sampler,
            ext,
            stack_window: Default::default(),
            copier: config.stack_window.then(Default::default),
        };
        let per_fetch = bus.ext.as_ref().is_some_and(|e| e.cached());
        let fetch = bus.ext.as_ref().filter(|e| !e.cached()).map(|e| e.plain);
        let taken_delta = u64::from(class_cycles[CostClass::BranchTaken as usize])
            .wrapping_sub(u64::from(class_cycles[CostClass::BranchNotTaken as usize]));
        Machine {
            hart: Hart::new(),
            bus,
            cache: BlockCache::new(
                StaticCosts {
                    cycles: class_cycles,
                    ram_latency,
                    energy_pj: energy_prices.static_pj(),
                },
                false,
            )
            .with_fetch(fetch),
            profile,
            energy_prices,
            class_cycles,
            dyn_costs: DynCosts { taken_delta },
            limits: crate::limits::Limits {
                total: config.max_cycles,
                busy: config.max_busy_cycles,
                idle: config.max_idle_cycles,
            },
            breakpoints: BTreeSet::new(),
            probes: if config.record_events {
                config.call_probes.iter().copied().collect()
            } else {
                BTreeSet::new()
            },
            last_probe: None,
            next_event: 0,
            taken: 0,
            extra_counts: [0; NUM_CLASSES],
            traps_by_cause: BTreeMap::new(),
            interrupts: 0,
            mode_stats: [ModeStats::default(); 2],
            mode_since: (0, 0),
            masked: Default::default(),
            sleep_cycles: 0,
            timer_latency: BTreeMap::new(),
            elf: None,
            stack_bound_ext: config.stack_bound,
            stack_window_ext: config.stack_window,
            switch_regs: config.switch_regs.then(Default::default),
            reg_pages: (config.reg_pool_pages > 0)
                .then(|| Box::new(crate::hart::regpages::RegPages::new(config.reg_pool_pages))),
            pending_watch: (config.watch_timer_pending && config.record_events)
                .then(Default::default),
            per_fetch,
        }
    }

    /// The profile the machine runs with.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Loads an ELF: checks ELF32, RISC-V, little-endian, executable; copies PT_LOAD segments
    /// (zero-filling bss) into memory regions; sets pc = entry; finds `tohost`. Nothing is
    /// written if any check fails.
    pub fn load_elf(&mut self, bytes: &[u8]) -> Result<ElfInfo, LoadError> {
        let info = load_elf(&mut self.bus.mem, bytes)?;
        self.cache.flush(&mut self.bus.mem);
        self.hart.pc = info.entry;
        self.bus.tohost = info.tohost;
        if let Some(t) = info.tohost {
            self.bus.mem.set_flag(t, 4, PAGE_HTIF);
        }
        self.elf = Some(info.clone());
        Ok(info)
    }

    /// Context for events raised outside the hot loop.
    pub(crate) fn ctx_now(&self, pc: u32) -> Ctx {
        Ctx {
            cycle: self.hart.cycle,
            mcycle: self.hart.mcycle.value(self.hart.cycle),
            instret: self.hart.instret,
            pc,
            in_trap: self.hart.in_trap,
            static_cost: 0,
        }
    }

    /// Runs until an outcome. Never panics on guest behaviour. A writer UART sink is flushed
    /// before returning.
    pub fn run(&mut self) -> RunOutcome {
        let outcome = self.run_inner();
        self.bus.uart.flush();
        outcome
    }

    /// Runs until the program ends: like [`Machine::run`], but a breakpoint is passed (`run`
    /// does not stop at the pc it resumes at), so the outcome is never
    /// [`RunOutcome::Breakpoint`].
    pub fn run_to_end(&mut self) -> RunOutcome {
        loop {
            match self.run() {
                RunOutcome::Breakpoint { .. } => continue,
                outcome => return outcome,
            }
        }
    }

    fn run_inner(&mut self) -> RunOutcome {
        loop {
            if let Some(o) = self.run_budget(u64::MAX) {
                return o;
            }
        }
    }

    /// Like [`Machine::run`], but returns `None` once `max_instructions` instructions have
    /// retired with nothing ended (a trap or interrupt entry, which retires nothing, counts
    /// as one), so that a caller can poll between slices. Honours breakpoints like `run`
    /// (not at the pc it resumes at) and the cycle limit. Consecutive slices execute exactly
    /// what one `run` does: interrupts are taken before the instruction the cycle model
    /// says, wherever the slices end.
    pub fn run_for(&mut self, max_instructions: u64) -> Option<RunOutcome> {
        let outcome = self.run_budget(max_instructions);
        self.bus.uart.flush();
        outcome
    }

    /// The run loop with an instruction budget.
    fn run_budget(&mut self, mut budget: u64) -> Option<RunOutcome> {
        if self.per_fetch {
            return self.run_budget_ext(budget);
        }
        let mut first = true;
        while budget > 0 {
            if self.hart.cycle >= self.next_event {
                if let Some(o) = self.check_events() {
                    return Some(o);
                }
            }
            if !first && !self.breakpoints.is_empty() && self.breakpoints.contains(&self.hart.pc) {
                return Some(RunOutcome::Breakpoint { pc: self.hart.pc });
            }
            if !self.probes.is_empty() {
                self.probe_call();
            }
            first = false;
            let before = self.hart.instret;
            // Chained blocks run whole, so chaining stops a full block short of the budget;
            // the rest runs in bounded blocks. While the DMA engine has a copy outstanding,
            // one instruction at a time, its fetch waiting for the copy (ext/dma.rs).
            let dma = self.bus.dma_busy(self.hart.cycle);
            let chain_until = if !self.has_stops() && !dma {
                before.saturating_add(budget.saturating_sub(MAX_BODY as u64))
            } else {
                0
            };
            if dma {
                self.dma_fetch_wait();
            }
            let bounds = Bounds {
                limit: if dma {
                    1
                } else {
                    u32::try_from(budget).unwrap_or(u32::MAX)
                },
                next_event: self.next_event,
                chain_until,
            };
            if let Some(o) = self.exec_block(&bounds) {
                return Some(o);
            }
            let done = self.hart.instret.wrapping_sub(before);
            budget = budget.saturating_sub(done.max(1));
        }
        None
    }

    /// Executes exactly one instruction (or takes one trap/interrupt). None = nothing ended.
    pub fn step(&mut self) -> Option<RunOutcome> {
        if let Some(o) = self.check_awake_limit() {
            return Some(o);
        }
        self.bus.sync_irq(self.hart.cycle);
        if let Some(cause) = self.pending_interrupt() {
            if !self.defer_interrupt(cause) {
                let pc = self.hart.pc;
                return self.take_trap(cause, 0, pc);
            }
        }
        // Events were just checked: nothing may stop this one instruction.
        if !self.probes.is_empty() {
            self.probe_call();
        }
        let out = if self.per_fetch {
            self.exec_one_ext()
        } else {
            self.dma_fetch_wait();
            self.exec_block(&Bounds {
                limit: 1,
                next_event: u64::MAX,
                chain_until: 0,
            })
        };
        self.next_event = 0;
        out
    }

    /// Looks up or predecodes the block at pc and runs up to `bounds.limit` instructions of
    /// it, chaining into further blocks as `bounds` allow.
    pub(crate) fn exec_block(&mut self, bounds: &Bounds) -> Option<RunOutcome> {
        let limit = bounds.limit;
        let pc = self.hart.pc;
        let id = match self.cache.lookup(pc) {
            Some(id) => id,
            None => {
                let (bps, probes) = (&self.breakpoints, &self.probes);
                match self.cache.translate(&mut self.bus.mem, pc, &|a| {
                    bps.contains(&a) || probes.contains(&a)
                }) {
                    Ok(id) => id,
                    Err(FetchTrap { cause, tval }) => return self.take_trap(cause, tval, pc),
                }
            }
        };
        let exit = run_blocks(
            &mut self.hart,
            &mut self.bus,
            &mut self.cache,
            id,
            bounds,
            &self.dyn_costs,
            &mut self.taken,
        );
        match exit {
            Exit::Continue => None,
            Exit::Retired {
                id,
                n,
                extra,
                stopped,
            } => {
                self.account(id, n, extra);
                let block = &self.cache.blocks[id as usize];
                // The terminator runs unless the next event is due before it starts.
                let due = self.hart.cycle >= bounds.next_event;
                let term = (!stopped && n == block.body && block.has_term && limit > n && !due)
                    .then(|| {
                        let k = (block.start + n) as usize;
                        (
                            self.cache.insts[k],
                            block.end_pc,
                            self.cache.fetches.get(k).copied(),
                        )
                    });
                // NOTE: after_stop may flush the cache; `block` is not used past this point.
                if let Some(o) = self.after_stop() {
                    return Some(o);
                }
                let (term, next, fetch) = term?;
                if let Some(f) = fetch {
                    self.charge_fetch(&f);
                }
                self.exec_terminator(term, next)
            }
            Exit::Exception {
                id,
                n,
                extra,
                cause,
                tval,
            } => {
                self.account(id, n, extra);
                let epc = self.cache.insts[(self.cache.blocks[id as usize].start + n) as usize].pc;
                self.hart.pc = epc;
                self.take_trap(cause, tval, epc)
            }
        }
    }

    /// Charges a terminator's predecoded fetch cost (memory-system mode without caches).
    #[cold]
    #[inline(never)]
    fn charge_fetch(&mut self, f: &crate::ext::fetch::Cost) {
        self.hart.cycle = self.hart.cycle.wrapping_add(u64::from(f.time - 1));
        self.cache.partial_fetch.add(f, 1);
    }

    /// Adds the cost of `n` retired body instructions of block `id` plus `extra` cycles.
    fn account(&mut self, id: u32, n: u32, extra: u64) {
        let block = &mut self.cache.blocks[id as usize];
        if n == block.body {
            block.execs += 1;
            self.hart.cycle = self
                .hart
                .cycle
                .wrapping_add(block.cycles)
                .wrapping_add(extra);
        } else {
            let start = block.start as usize;
            let insts = &self.cache.insts[start..start + n as usize + 1];
            for ins in &insts[..n as usize] {
                self.extra_counts[static_class(ins.op) as usize] += 1;
            }
            if let Some(f) = self.cache.fetches.get(start..start + n as usize) {
                for c in f {
                    self.cache.partial_fetch.add(c, 1);
                }
            }
            let pre = u64::from(self.cache.pres[start + n as usize]);
            self.hart.cycle = self.hart.cycle.wrapping_add(pre).wrapping_add(extra);
        }
        self.hart.instret += u64::from(n);
        if n > 0 {
            self.hart.just_trapped = false;
        }
    }

    /// Handles what a stopped block left behind: a task switch's energy boundary, code
    /// invalidation, device changes, exits.
    pub(crate) fn after_stop(&mut self) -> Option<RunOutcome> {
        if self.bus.tasks.energy.due() {
            self.close_energy_interval();
        }
        if self.bus.code_dirty {
            self.bus.code_dirty = false;
            self.cache.flush(&mut self.bus.mem);
        }
        if self.bus.irq_dirty {
            self.bus.irq_dirty = false;
            self.next_event = 0;
        }
        match self.bus.pending.take()? {
            Pending::Exit(code) => Some(RunOutcome::Exited { code }),
            Pending::Reset => {
                let pc = self.hart.pc;
                Some(RunOutcome::Fault(self.fault_report(
                    FaultKind::Reset,
                    0,
                    0,
                    pc,
                )))
            }
            Pending::Violation(v) => Some(RunOutcome::OracleViolation(v)),
        }
    }
}
