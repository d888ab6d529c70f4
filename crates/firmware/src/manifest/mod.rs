//! Workload manifests (docs/manifest.md): a TOML file naming a firmware's kernel options and
//! tasks. [`Manifest::load`] parses and validates one; a [`Manifest`] value is always valid
//! (priorities in range, periods a whole number of ticks, sources that exist, ...).

mod interrupt;
mod raw;
mod srp;
mod symbols;
mod task;
mod timer;
mod validate;

use crate::error::ManifestError;
pub use cactus_cc::CheckMode;
pub use interrupt::{Interrupt, InterruptSource};
pub use srp::{Resource, Srp, TRAP_FRAME as SRP_TRAP_FRAME};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
pub use symbols::undefined_symbols;
pub use validate::{MAX_POOLS, MAX_POOL_BYTES};

/// Kernel stack strategies a firmware can link against (one kernel library each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackStrategy {
    /// One contiguous, painted stack per task from a pool (`kernel/stack/static.c`).
    Static,
    /// Multi-task stack sharing (`kernel/stack/mtss.c`, docs/mtss.md): regions as in `static`,
    /// and a frame that does not fit moves to free pages of another task's stack. Needs
    /// `checks = "mtss"`.
    Mtss,
    /// Capriccio-style linked stack chunks (`kernel/stack/chunks.c`, a configuration of
    /// `segmented`; docs/mtss.md): each task starts with one [`StackStrategy::CHUNK_BYTES`]
    /// chunk from a shared heap (its budget is not reserved), and a frame that does not fit
    /// moves to a new chunk linked for it. Needs `checks = "mtss"` or `"split"`.
    Chunks,
    /// Segmented stacks (`kernel/stack/segmented.c`, docs/segmented.md): each task starts with
    /// a first stacklet of its `stack` bytes from a TLSF heap, and a frame that does not fit
    /// moves to a stacklet linked for it (12 bytes of metadata each). Needs `checks = "mtss"`
    /// or `"split"`.
    Segmented,
    /// The `mtss+split` hybrid (`kernel/stack/hybrid.c`, a configuration of `mtss.c`;
    /// docs/segmented.md): regions as in `mtss`, and a frame that does not fit first borrows a
    /// switched-out task's free pages, then, when no task can lend, moves to a stacklet from a
    /// heap carved out of the same stack pool ([`KernelOptions::stacklet_pool`] bytes). Needs
    /// `checks = "mtss"` or `"split"`.
    MtssSplit,
    /// SenSmart's stack relocation (`kernel/stack/relocate.c`, docs/sensmart.md) with the
    /// hardware stack window (cactus-sim's `mswbound`/`mswdisp`, `target = "sim"` only): each
    /// task's stack is a region of its `stack` bytes seen at one logical window; a task that
    /// runs past its bound grows by moving the regions between it and the region with the most
    /// surplus. Needs no stack checks.
    Relocate,
}

impl StackStrategy {
    /// Every known strategy, in documentation order.
    pub const ALL: &'static [StackStrategy] = &[
        StackStrategy::Static,
        StackStrategy::Mtss,
        StackStrategy::Chunks,
        StackStrategy::Segmented,
        StackStrategy::MtssSplit,
        StackStrategy::Relocate,
    ];

    /// The manifest spelling.
    pub fn name(self) -> &'static str {
        match self {
            StackStrategy::Static => "static",
            StackStrategy::Mtss => "mtss",
            StackStrategy::Chunks => "chunks",
            StackStrategy::Segmented => "segmented",
            StackStrategy::MtssSplit => "mtss+split",
            StackStrategy::Relocate => "relocate",
        }
    }

    /// The kernel's name for the strategy: its source `kernel/stack/<file>.c`, the `STRATEGY`
    /// of kernel/Makefile and the `<strategy>` of `libcactus-<strategy>-<trace>.a` (the
    /// manifest spelling, but `hybrid` for `mtss+split`).
    pub fn file_name(self) -> &'static str {
        match self {
            StackStrategy::MtssSplit => "hybrid",
            other => other.name(),
        }
    }

    /// Parses a manifest spelling; the error lists the known strategies.
    pub fn parse(text: &str) -> Result<StackStrategy, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|s| s.name() == text)
            .ok_or_else(|| {
                let known: Vec<_> = Self::ALL
                    .iter()
                    .map(|s| format!("\"{}\"", s.name()))
                    .collect();
                format!(
                    "unknown stack strategy \"{text}\"; known strategies: {}",
                    known.join(", ")
                )
            })
    }

    /// The kernel's default stack pool, in KiB (`CACTUS_STACK_POOL_SIZE`).
    pub const DEFAULT_POOL_KIB: u32 = 48;

    /// Stack memory the strategy can hand out in total with the default pool and page, in
    /// bytes (all budgets must fit).
    pub fn pool_bytes(self) -> u32 {
        self.usable_bytes(Self::DEFAULT_POOL_KIB, Self::MTSS_PAGE)
    }

    /// The MTSS page of the kernel's default build (`CACTUS_MTSS_PAGE`), in bytes.
    pub const MTSS_PAGE: u32 = 128;

    /// The stacklet heap of the `mtss+split` strategy's default build
    /// (`CACTUS_STACKLET_POOL`), in bytes: part of the stack pool.
    pub const STACKLET_POOL: u32 = 4096;

    /// The first (and smallest) stack chunk of the `chunks` strategy's default build
    /// (`CACTUS_CHUNK_SIZE`), in bytes.
    pub const CHUNK_BYTES: u32 = 256;

    /// Whether the strategy moves frames at failed stack checks, so needs `checks = "mtss"` or
    /// `"split"`.
    pub fn moves_frames(self) -> bool {
        matches!(
            self,
            StackStrategy::Mtss
                | StackStrategy::Chunks
                | StackStrategy::Segmented
                | StackStrategy::MtssSplit
        )
    }

    /// Whether the strategy divides task regions into MTSS pages (`mtss`, `mtss+split`).
    pub fn has_pages(self) -> bool {
        matches!(self, StackStrategy::Mtss | StackStrategy::MtssSplit)
    }

    /// Whether the strategy links stacklets from a heap (`segmented`, `mtss+split`), so takes
    /// the stacklet knobs.
    pub fn has_stacklets(self) -> bool {
        matches!(self, StackStrategy::Segmented | StackStrategy::MtssSplit)
    }

    /// Pool bytes a task's stack budget occupies: the budget itself for `static` (its guard is
    /// part of the budget), the budget rounded up to whole pages of `page` bytes for `mtss`,
    /// the first chunk for `chunks` (whatever the budget), the first stacklet for `segmented`.
    pub fn region_bytes(self, budget: u32, page: u32) -> u32 {
        match self {
            StackStrategy::Static => budget,
            StackStrategy::Mtss | StackStrategy::MtssSplit => budget.div_ceil(page) * page,
            // Only the first chunk is taken at creation; the budget is not reserved.
            StackStrategy::Chunks => Self::CHUNK_BYTES,
            // The first stacklet: the budget in whole 16-byte units.
            StackStrategy::Segmented => budget.div_ceil(16) * 16,
            // The first region: the budget in whole 16-byte units.
            StackStrategy::Relocate => budget.div_ceil(16) * 16,
        }
    }

    /// Stack memory the strategy can hand out to task regions from a pool of `pool_kib` KiB,
    /// in bytes, with MTSS pages of `page` bytes (for `mtss+split`, the default stacklet heap
    /// is not: see [`StackStrategy::region_pool_bytes`]).
    pub fn usable_bytes(self, pool_kib: u32, page: u32) -> u32 {
        self.region_pool_bytes(pool_kib, page, Self::STACKLET_POOL)
    }

    /// The heap bytes a `stacklet_pool` of `requested` bytes takes from an `mtss+split` pool:
    /// whole pages of `page` bytes (kernel/stack/mtss.c, `HEAP_BYTES`).
    pub fn heap_bytes(requested: u32, page: u32) -> u32 {
        requested.div_ceil(page) * page
    }

    /// [`StackStrategy::usable_bytes`] with an `mtss+split` stacklet heap of `stacklet_pool`
    /// bytes (ignored by the other strategies).
    pub fn region_pool_bytes(self, pool_kib: u32, page: u32, stacklet_pool: u32) -> u32 {
        match self {
            // The red zone, then the heap in whole pages (kernel/stack/mtss.c).
            StackStrategy::MtssSplit => (pool_kib * 1024).saturating_sub(
                64u32.div_ceil(page) * page + Self::heap_bytes(stacklet_pool, page),
            ),
            // The pool minus its 64-byte red zone (kernel/stack/static.c).
            StackStrategy::Static => pool_kib * 1024 - 64,
            // The red zone is 64 bytes rounded up to whole pages (kernel/stack/mtss.c).
            StackStrategy::Mtss => pool_kib * 1024 - 64u32.div_ceil(page) * page,
            // The pool minus its 64-byte red zone (kernel/stack/chunks.c).
            // The pool minus its 64-byte red zone (kernel/stack/segmented.c; chunks is a
            // configuration of it).
            StackStrategy::Chunks | StackStrategy::Segmented => pool_kib * 1024 - 64,
            // The pool minus its 64-byte red zone (kernel/stack/relocate.c).
            StackStrategy::Relocate => pool_kib * 1024 - 64,
        }
    }
}

/// How a timer preemption saves the preempted task (`kernel.switch`, docs/ccs.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SwitchMode {
    /// Every register (the lean full-save path of docs/kernel.md).
    #[default]
    Full,
    /// Compiler-driven (paper 002): the build emits the `.cactus.switch` table and a
    /// preemption inside a switch block or at a switch point saves only its live registers.
    CcsSw,
    /// ccs-sw's table and routines with cactus-sim's switch registers: the timer interrupt is
    /// deferred into a switch range (up to `kernel.switch_budget` cycles) and the hardware
    /// reports the range's save routine, so the kernel makes no lookup (simulator only).
    CcsHw,
    /// ccs-hw with cactus-sim's register pages (paper 002's section 5): a preemption inside a
    /// switch range keeps the task's live register pages in the register file and maps free
    /// ones in their place (`kernel.reg_pool`; simulator only; docs/ccs.md "rmcs").
    Rmcs,
}

impl SwitchMode {
    /// The manifest spelling.
    pub fn name(self) -> &'static str {
        match self {
            SwitchMode::Full => "full",
            SwitchMode::CcsSw => "ccs-sw",
            SwitchMode::CcsHw => "ccs-hw",
            SwitchMode::Rmcs => "rmcs",
        }
    }

    /// True for the modes on cactus-sim's switch registers, which defer the timer interrupt
    /// (ccs-hw, rmcs): the simulator target only, with a deferral budget.
    pub fn defers(self) -> bool {
        matches!(self, SwitchMode::CcsHw | SwitchMode::Rmcs)
    }

    /// True for the modes with a switch table (ccs-sw, ccs-hw, rmcs).
    pub fn has_table(self) -> bool {
        self != SwitchMode::Full
    }

    /// Parses a manifest spelling.
    pub fn parse(text: &str) -> Result<SwitchMode, String> {
        match text {
            "full" => Ok(SwitchMode::Full),
            "ccs-sw" => Ok(SwitchMode::CcsSw),
            "ccs-hw" => Ok(SwitchMode::CcsHw),
            "rmcs" => Ok(SwitchMode::Rmcs),
            _ => Err(format!(
                "unknown switch \"{text}\"; known switches: \"full\", \"ccs-sw\", \"ccs-hw\", \
                 \"rmcs\""
            )),
        }
    }
}

/// Why ccs-sw and ccs-hw cannot be combined with counted-branch preemption: both keep a word
/// in the context's CTX_PREEMPT slot.
pub const CCS_EXCLUDES_PREEMPT_TRAPS: &str =
    "kernel.switch = \"ccs-sw\" or \"ccs-hw\" cannot be combined with kernel.preempt_traps \
     (both use the context's CTX_PREEMPT word)";

/// Why `kernel.switch = "ccs-hw"` needs the simulator target.
pub const CCS_HW_NEEDS_SIM: &str =
    "kernel.switch = \"ccs-hw\" needs the switch registers, a cactus-sim extension (CSRs \
     mswtab, mswcount, mswbudget, mswmatch); QEMU has no such CSRs: use target = \"sim\" or \
     kernel.switch = \"ccs-sw\"";

/// Why `kernel.switch = "rmcs"` needs the simulator target.
pub const RMCS_NEEDS_SIM: &str =
    "kernel.switch = \"rmcs\" needs the switch registers and the register-page extension, \
     cactus-sim extensions (CSRs mswtab, mswmatch, mrfmap); QEMU has no such CSRs: use target = \
     \"sim\" or kernel.switch = \"ccs-sw\"";

/// The default `kernel.reg_pool` of an rmcs firmware, in percent of the 32-entry register file
/// (2 pages of 8).
pub const DEFAULT_REG_POOL: u8 = 50;

/// The default `kernel.switch_budget`: the bound on the worst deferral, 64 cycles,
/// less the longest instruction of the `mcu` profile's common classes past it (a taken
/// branch or a load, 3 cycles; a division may overshoot further).
pub const DEFAULT_SWITCH_BUDGET: u32 = 60;

/// The only switch mode with a table to poison or mutate.
pub const ONLY_CCS_POISONS: &str =
    "only kernel.switch = \"ccs-sw\", \"ccs-hw\" or \"rmcs\" has a switch table to poison or mutate";

/// Where the firmware runs: selects the kernel's trace backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// cactus-sim: links `trace_sim` (trace device events, per-task statistics).
    Sim,
    /// QEMU (or any machine without the trace device): links `trace_none`.
    Qemu,
}

impl Target {
    /// The manifest spelling.
    pub fn name(self) -> &'static str {
        match self {
            Target::Sim => "sim",
            Target::Qemu => "qemu",
        }
    }

    /// The `<trace>` of `libcactus-<strategy>-<trace>.a`.
    pub fn trace_backend(self) -> &'static str {
        match self {
            Target::Sim => "sim",
            Target::Qemu => "none",
        }
    }

    /// Parses a manifest spelling.
    pub fn parse(text: &str) -> Result<Target, String> {
        match text {
            "sim" => Ok(Target::Sim),
            "qemu" => Ok(Target::Qemu),
            _ => Err(format!(
                "unknown target \"{text}\"; known targets: \"sim\", \"qemu\""
            )),
        }
    }
}

/// Why `kernel.stack_bound` needs the simulator target.
pub const STACK_BOUND_NEEDS_SIM: &str =
    "the hardware stack bound is a cactus-sim extension (CSR mstackbound); QEMU has no such \
     CSR: use target = \"sim\"";

/// Why the `relocate` strategy's hardware window needs the simulator target.
pub const RELOCATE_NEEDS_SIM: &str =
    "the relocate strategy's hardware stack window is a cactus-sim extension (CSRs mswbound, \
     mswdisp); QEMU has no such CSRs: use target = \"sim\" or kernel.window = \"sw\" (the \
     logical-stack pass)";

/// Why `kernel.copier = true` needs the simulator target.
pub const COPIER_NEEDS_SIM: &str = "kernel.copier = true is cactus-sim's copy engine (a \
     simulation device at 0x0E001000); QEMU has no such device: use target = \"sim\" or leave \
     kernel.copier out (the CPU copies)";

/// Why `kernel.window = "sw"` needs stack checks.
pub const WINDOW_SW_NEEDS_CHECKS: &str =
    "kernel.window = \"sw\" keeps tasks' sp physical: only the stack checks catch it running \
     past its bound; set kernel.checks = \"mtss\"";

/// What the kernel does with a task that faults or overflows its stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultPolicy {
    /// Terminate the task (`CACTUS_ON_FAULT_KILL`).
    Kill,
    /// Restart it from its entry on a fresh stack (`CACTUS_ON_FAULT_RESTART`).
    Restart,
    /// Stop the system (`CACTUS_ON_FAULT_HALT`).
    Halt,
}

impl FaultPolicy {
    /// The C enumerator of `enum cactus_fault_policy`.
    pub fn c_name(self) -> &'static str {
        match self {
            FaultPolicy::Kill => "CACTUS_ON_FAULT_KILL",
            FaultPolicy::Restart => "CACTUS_ON_FAULT_RESTART",
            FaultPolicy::Halt => "CACTUS_ON_FAULT_HALT",
        }
    }
}

/// Kernel options (`[kernel]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelOptions {
    /// Stack strategy (kernel library variant).
    pub stack: StackStrategy,
    /// Tick rate in Hz; divides the 10 MHz timer exactly.
    pub tick_hz: u32,
    /// Round-robin slice in ticks (at least 1).
    pub slice_ticks: u32,
    /// Trace backend.
    pub target: Target,
    /// Stack pool size in KiB when not the kernel's default (a library variant built with
    /// `-DCACTUS_STACK_POOL_SIZE`).
    pub pool_kib: Option<u32>,
    /// RAM region of the link in KiB when not the kernel linker script's own.
    pub ram_kib: Option<u32>,
    /// The kernel (trap) stack in bytes when not the linker script's 2 KiB (link.ld's
    /// `cactus_kstack_size`; a multiple of 16 in 256..=65536). Kernel code, and the fault and
    /// halt hooks, run on it.
    pub kstack: Option<u32>,
    /// Stack checks `cactus cc` inserts into every unit (docs/stack-checks.md).
    pub checks: CheckMode,
    /// MTSS page size in bytes when not the kernel's default (`CACTUS_MTSS_PAGE`; a power of
    /// two in 32..=1024).
    pub mtss_page: Option<u32>,
    /// MTSS measurement mode of the paper's worst-case estimate (section 10, Figures 12/13;
    /// `CACTUS_MTSS_WORST_CASE`): every search scans every task and every page, and every
    /// moved frame goes to an artificial region with the pool's spare memory.
    pub mtss_worst_case: bool,
    /// `segmented` only: the smallest stacklet linked for a frame, in bytes, when not the
    /// kernel's default (`CACTUS_STACKLET_MIN`; a multiple of 16 in 64..=4096).
    pub stacklet_min: Option<u32>,
    /// `segmented` only: whether a task keeps its last released stacklet for its next request
    /// (`CACTUS_STACKLET_CACHE`), when not the kernel's default (on).
    pub stacklet_cache: Option<bool>,
    /// `segmented` and `mtss+split`: the hot-split alleviation (`CACTUS_STACKLET_LEARN`),
    /// when not the kernel's default.
    pub stacklet_learn: Option<bool>,
    /// The hardware stack bound (cactus-sim's `mstackbound`, `target = "sim"` only): the
    /// kernel keeps the CSR at the running stack's limit (`CACTUS_STACK_BOUND`) and `cactus
    /// cc --stack-bound` leaves out the entry checks the hardware makes.
    pub stack_bound: bool,
    /// `mtss+split` only: bytes of the stack pool given to the stacklet heap, when not the
    /// kernel's default [`StackStrategy::STACKLET_POOL`] (`CACTUS_STACKLET_POOL`; rounded up
    /// to whole MTSS pages by the kernel).
    pub stacklet_pool: Option<u32>,
    /// `static` only: the switch-time stack check (saved sp and canary against the limit at
    /// every switch). On by default; `kernel.switch_check = false` builds the kernel with
    /// `CACTUS_SWITCH_CHECK=0` (for measuring the switch paths without it).
    pub switch_check: bool,
    /// SenSmart's preemption by counted branches (`kernel.preempt_traps = N`, docs/sensmart.md):
    /// `cactus cc --preempt-traps=N` counts every backward branch of the application code and
    /// every N-th enters the kernel, which preempts a task whose slice is used up even when it
    /// masks interrupts. None: off.
    pub preempt_traps: Option<u32>,
    /// How a timer preemption saves the preempted task (`kernel.switch`).
    pub switch: SwitchMode,
    /// `ccs-sw` only: poison mode (`kernel.switch_poison = SEED`, docs/ccs.md): every partial
    /// resume fills the registers it does not restore with garbage derived from the seed.
    pub switch_poison: Option<u32>,
    /// `ccs-sw` only, a test of the tests: drop one register from one range's mask
    /// (`kernel.switch_mutate = SEED`).
    pub switch_mutate: Option<u32>,
    /// `ccs-hw` and `rmcs` only: the deferral budget in cycles (`kernel.switch_budget`,
    /// default [`DEFAULT_SWITCH_BUDGET`]); None for the other modes.
    pub switch_budget: Option<u32>,
    /// `rmcs` only: the register pool in percent of the 32-entry file (`kernel.reg_pool`:
    /// 25, 50 or 75, default [`DEFAULT_REG_POOL`]); None for the other modes.
    pub reg_pool: Option<u8>,
    /// SenSmart's memory isolation (`kernel.isolate = true`, docs/sensmart.md "Memory
    /// isolation"): `cactus cc --isolate` checks the application's stores, jumps and C library
    /// writer calls against the running task's regions, the kernel keeps the running task's
    /// windows (`CACTUS_ISOLATE`) and the link script gathers each task's globals and code.
    /// `static` stacks only.
    pub isolate: bool,
    /// `relocate` only: how logical stack addresses are translated (`kernel.window`).
    pub window: StackWindow,
    /// `relocate` only: whether relocations copy with cactus-sim's copy engine
    /// (`kernel.copier`; None: the default, [`KernelOptions::copier_on`]).
    pub copier: Option<bool>,
    /// Link-time kernel variants (`kernel.variants`, names of
    /// [`crate::kernel_units::VARIANTS`], each at most once, in manifest order): each replaces
    /// the kernel sources of one feature with `kernel/variants/<name>.c`.
    pub variants: Vec<String>,
}

/// How the `relocate` strategy translates tasks' logical stack addresses (`kernel.window`,
/// docs/sensmart.md): cactus-sim's stack-window extension, or the `logical-stack` pass of
/// `cactus cc` with the kernel's software window (any RV32 core, QEMU too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StackWindow {
    /// The hardware stack window (`kernel/arch/rv32/window_hw.h`): target `sim` only.
    #[default]
    Hw,
    /// The software window (`window_sw.h`, `cactus cc --logical-stack`): needs stack checks.
    Sw,
}

impl StackWindow {
    /// The manifest spelling (`"hw"`, `"sw"`).
    pub fn name(self) -> &'static str {
        match self {
            StackWindow::Hw => "hw",
            StackWindow::Sw => "sw",
        }
    }

    /// The window spelled `s`, if any.
    pub fn parse(s: &str) -> Option<StackWindow> {
        match s {
            "hw" => Some(StackWindow::Hw),
            "sw" => Some(StackWindow::Sw),
            _ => None,
        }
    }
}

/// Why `kernel.isolate` needs the static strategy.
pub const ISOLATE_NEEDS_STATIC: &str = "isolation needs fixed stack regions: only the \"static\" stack strategy (the others move frames or stacks between tasks' memory)";

/// Why `kernel.isolate` is refused under the SRP scheduler.
pub const ISOLATE_NEEDS_TASKS: &str =
    "isolation is per task: the SRP scheduler runs every job in one dispatcher task";

impl KernelOptions {
    /// Stack memory the tasks' budgets must fit in, in bytes.
    pub fn usable_pool_bytes(&self) -> u32 {
        self.stack.region_pool_bytes(
            self.pool_kib.unwrap_or(StackStrategy::DEFAULT_POOL_KIB),
            self.page(),
            self.stacklet_pool_bytes(),
        )
    }

    /// The stacklet heap of an `mtss+split` kernel as configured, in bytes before the kernel
    /// rounds it to pages (the default when not set).
    pub fn stacklet_pool_bytes(&self) -> u32 {
        self.stacklet_pool.unwrap_or(StackStrategy::STACKLET_POOL)
    }

    /// The MTSS page size this kernel is built with, in bytes.
    pub fn page(&self) -> u32 {
        self.mtss_page.unwrap_or(StackStrategy::MTSS_PAGE)
    }

    /// Whether the `relocate` kernel copies with cactus-sim's copy engine (`-DCACTUS_COPIER=1`,
    /// docs/sensmart.md "The copy"): `kernel.copier` when set, otherwise on for the simulator
    /// target (the engine is a cactus-sim device: QEMU builds copy with the CPU). False for
    /// every other strategy.
    pub fn copier_on(&self) -> bool {
        self.stack == StackStrategy::Relocate && self.copier.unwrap_or(self.target == Target::Sim)
    }

    /// The `-D` options of the kernel variant these options select (empty for the default
    /// kernel): the pool size, the MTSS page size and the worst-case mode; the stack window for
    /// `relocate` (always a variant: its resume paths write the window).
    pub fn variant_defines(&self) -> Vec<String> {
        let mut d = Vec::new();
        if self.stack == StackStrategy::Relocate {
            d.push("-DCACTUS_STACK_WINDOW=1".to_string());
            if self.window == StackWindow::Sw {
                d.push("-DCACTUS_STACK_WINDOW_SW=1".to_string());
            }
            if self.copier_on() {
                d.push("-DCACTUS_COPIER=1".to_string());
            }
        }
        if let Some(k) = self.pool_kib {
            d.push(format!("-DCACTUS_STACK_POOL_SIZE={}", k * 1024));
        }
        if let Some(p) = self.mtss_page {
            d.push(format!("-DCACTUS_MTSS_PAGE={p}"));
        }
        if self.mtss_worst_case {
            d.push("-DCACTUS_MTSS_WORST_CASE=1".to_string());
        }
        if let Some(n) = self.stacklet_min {
            d.push(format!("-DCACTUS_STACKLET_MIN={n}"));
        }
        if let Some(on) = self.stacklet_cache {
            d.push(format!("-DCACTUS_STACKLET_CACHE={}", u8::from(on)));
        }
        if let Some(on) = self.stacklet_learn {
            d.push(format!("-DCACTUS_STACKLET_LEARN={}", u8::from(on)));
        }
        if self.stack_bound {
            d.push("-DCACTUS_STACK_BOUND=1".to_string());
        }
        if let Some(n) = self.stacklet_pool {
            d.push(format!("-DCACTUS_STACKLET_POOL={n}"));
        }
        if !self.switch_check {
            d.push("-DCACTUS_SWITCH_CHECK=0".to_string());
        }
        if self.switch.has_table() {
            d.push("-DCACTUS_SWITCH_CCS=1".to_string());
        }
        if self.switch == SwitchMode::Rmcs {
            d.push(format!("-DCACTUS_SWITCH_RMCS={}", self.reg_pool_pages()));
        }
        if self.switch.defers() {
            d.push("-DCACTUS_SWITCH_CCS_HW=1".to_string());
            d.push(format!(
                "-DCACTUS_SWITCH_BUDGET={}",
                self.switch_budget.unwrap_or(DEFAULT_SWITCH_BUDGET)
            ));
        }
        if self.isolate {
            d.push("-DCACTUS_ISOLATE=1".to_string());
        }
        d.extend(crate::kernel_units::variant_defines(&self.variants));
        d
    }

    /// The register pool's pages an rmcs kernel is built for (`kernel.reg_pool` / 25; 0 for
    /// the other modes): what `cactus run` gives the simulator (`--reg-pool`).
    pub fn reg_pool_pages(&self) -> u8 {
        match self.switch {
            SwitchMode::Rmcs => self.reg_pool.unwrap_or(DEFAULT_REG_POOL) / 25,
            _ => 0,
        }
    }

    /// Options the firmware is linked with: the kernel stack's size when set
    /// (`-Wl,--defsym=cactus_kstack_size=N`).
    pub fn link_flags(&self) -> Vec<String> {
        self.kstack
            .map(|n| format!("-Wl,--defsym=cactus_kstack_size={n}"))
            .into_iter()
            .collect()
    }

    /// The directory name of the kernel variant below `build/kernel/` (None: the default
    /// kernel, built in `build/kernel/` itself). Distinct variants get distinct names.
    pub fn variant_dir(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.stack == StackStrategy::Relocate {
            parts.push(match self.window {
                StackWindow::Hw => "window".to_string(),
                StackWindow::Sw => "window-sw".to_string(),
            });
            if self.copier_on() {
                parts.push("copier".to_string());
            }
        }
        if let Some(k) = self.pool_kib {
            parts.push(format!("pool-{k}k"));
        }
        if let Some(p) = self.mtss_page {
            parts.push(format!("page-{p}"));
        }
        if self.mtss_worst_case {
            parts.push("worst-case".to_string());
        }
        if let Some(n) = self.stacklet_min {
            parts.push(format!("stacklet-{n}"));
        }
        let on_off = |on: bool| if on { "on" } else { "off" };
        if let Some(on) = self.stacklet_cache {
            parts.push(format!("cache-{}", on_off(on)));
        }
        if let Some(on) = self.stacklet_learn {
            parts.push(format!("learn-{}", on_off(on)));
        }
        if self.stack_bound {
            parts.push("bound".to_string());
        }
        if let Some(n) = self.stacklet_pool {
            parts.push(format!("heap-{n}"));
        }
        if !self.switch_check {
            parts.push("nocheck".to_string());
        }
        match self.switch {
            SwitchMode::Full => {}
            SwitchMode::CcsSw => parts.push("ccs-sw".to_string()),
            SwitchMode::CcsHw => parts.push(format!(
                "ccs-hw-{}",
                self.switch_budget.unwrap_or(DEFAULT_SWITCH_BUDGET)
            )),
            SwitchMode::Rmcs => parts.push(format!(
                "rmcs-{}-{}",
                self.reg_pool.unwrap_or(DEFAULT_REG_POOL),
                self.switch_budget.unwrap_or(DEFAULT_SWITCH_BUDGET)
            )),
        }
        if self.isolate {
            parts.push("isolate".to_string());
        }
        parts.extend(
            crate::kernel_units::VARIANTS
                .iter()
                .filter(|v| !v.defines.is_empty() && self.variants.iter().any(|n| n == v.name))
                .map(|v| v.name.to_string()),
        );
        (!parts.is_empty()).then(|| parts.join("-"))
    }
}

/// One task, validated. Times are whole numbers of ticks at the manifest's `tick_hz`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// Name: a C identifier of at most 31 bytes, unique in the manifest.
    pub name: String,
    /// C sources, absolute paths of existing files.
    pub sources: Vec<PathBuf>,
    /// Entry function (`void f(void *arg)`): the task body, or the job run every period.
    pub entry: String,
    /// Priority 0..=31 (31 highest).
    pub priority: u8,
    /// Stack budget in bytes (the strategy's guard included).
    pub stack: u32,
    /// Release period in ms, if periodic.
    pub period_ms: Option<u32>,
    /// Relative deadline in ms (periodic tasks only, at most the period).
    pub deadline_ms: Option<u32>,
    /// Delay before the first run (or first release), in ms.
    pub start_delay_ms: u32,
    /// Fault policy.
    pub on_fault: FaultPolicy,
    /// Argument passed to the entry, as an integer.
    pub arg: i64,
    /// `start = "suspended"`: created suspended, it first runs when another task (or a
    /// handler) calls `cactus_task_resume` on it (`CACTUS_START_SUSPENDED`); its start delay
    /// and periods count from then.
    pub start_suspended: bool,
    /// Extra compiler flags for this task's sources.
    pub cflags: Vec<String>,
    /// Extra include directories for this task's sources (absolute).
    pub include: Vec<PathBuf>,
    /// `stack_calls`, for `cactus stack-report`: the functions the indirect calls of a
    /// function may reach on this task's stack, by the name of the function containing them
    /// (`"*"`: every function not listed). Names are C identifiers; not checked against code.
    pub stack_calls: BTreeMap<String, Vec<String>>,
    /// `stack_recursion`, for `cactus stack-report`: at most this many activations (1..=4096)
    /// of the named function are on this task's stack at once.
    pub stack_recursion: BTreeMap<String, u32>,
}

/// One fixed-block pool (`[[pool]]`): the generated C allocates its memory statically and
/// initialises it before any task runs; task code reaches it as `FW_POOL_<NAME>` (a
/// `cactus_pool *`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Name: a C identifier of at most 31 bytes, unique among the pools (ignoring case).
    pub name: String,
    /// Bytes per block as written, 1..=65536 (the kernel's blocks are this rounded up to a
    /// multiple of 4: [`Pool::block_bytes`]).
    pub block: u32,
    /// Blocks, 1..=65536.
    pub count: u32,
}

impl Pool {
    /// The block size the kernel gets: [`Pool::block`] rounded up to a multiple of 4 (blocks
    /// are word aligned and hold the free list's link while free).
    pub fn block_bytes(&self) -> u32 {
        self.block.div_ceil(4) * 4
    }
}

/// A validated manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The manifest file as given.
    pub path: PathBuf,
    /// Its full text (part of the build hash).
    pub text: String,
    /// Firmware name: a C identifier, also the ELF's file name.
    pub name: String,
    /// Optional `void f(void)` called by `main` before the kernel starts.
    pub init: Option<String>,
    /// Compiler flags for every source.
    pub cflags: Vec<String>,
    /// Include directories for every source (absolute).
    pub include: Vec<PathBuf>,
    /// Kernel options.
    pub kernel: KernelOptions,
    /// Tasks in creation order; task `i` gets kernel task id `i`.
    pub tasks: Vec<Task>,
    /// Interrupt handlers (`[[interrupt]]`), attached by `main` before the kernel starts;
    /// one per source.
    pub interrupts: Vec<Interrupt>,
    /// Software timers (`[[timer]]`), in manifest order.
    pub timers: Vec<Timer>,
    /// The timer task, created after the manifest's tasks (kernel task id `tasks.len()`), when
    /// the manifest has a `[[timer]]` or sets `kernel.timer_task_prio`.
    pub timer_task: Option<TimerTask>,
    /// Fixed-block pools, in manifest order.
    pub pools: Vec<Pool>,
    /// The SRP scheduling mode (`kernel.scheduler = "srp"`, docs/srp.md): the tasks are jobs
    /// run by one dispatcher task on a shared stack. None: the preemptive scheduler.
    pub srp: Option<Srp>,
}

/// One software timer (`[[timer]]`): its callback runs in the timer task.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    /// Name: a C identifier of at most 31 bytes, unique in the manifest ignoring case (the
    /// generated header names it `FW_TIMER_<NAME>`).
    pub name: String,
    /// Period in ms, a whole number of ticks (at least one).
    pub period_ms: u32,
    /// `void f(cactus_timer *t)`, defined in one of the firmware's sources.
    pub callback: String,
    /// Re-armed every period (else one-shot).
    pub periodic: bool,
    /// Started by the timer task when it first runs.
    pub autostart: bool,
}

/// The timer task of a firmware with software timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerTask {
    /// Priority 0..=31 (`kernel.timer_task_prio`; default [`TimerTask::DEFAULT_PRIO`]).
    pub priority: u8,
    /// Stack budget in bytes (`kernel.timer_task_stack`; default
    /// [`TimerTask::DEFAULT_STACK`]), a multiple of 16.
    pub stack: u32,
}

impl TimerTask {
    /// The timer task's priority when the manifest does not set one: the highest, so that
    /// callbacks run at their tick.
    pub const DEFAULT_PRIO: u8 = 31;
    /// The timer task's stack when the manifest does not set one, in bytes.
    pub const DEFAULT_STACK: u32 = 1024;
    /// Its task name in the kernel (reports, traces).
    pub const NAME: &'static str = "timer_task";
}

/// Command-line overrides of manifest values (`--stack`, `--target`, `--checks`,
/// `--mtss-page`, `--stacklet-pool`, `--shrink`), validated like the manifest's own values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    /// Replaces `kernel.stack`.
    pub stack: Option<String>,
    /// Replaces `kernel.target`.
    pub target: Option<String>,
    /// Replaces `kernel.checks`. When `stack` selects a strategy that moves frames (`mtss`,
    /// `chunks`, `segmented`) and this is not given, the checks become `mtss` (`split` for
    /// `segmented`), modes such a strategy works with.
    pub checks: Option<String>,
    /// Replaces `kernel.mtss_page` (the `mtss` and `mtss+split` strategies only).
    pub mtss_page: Option<u32>,
    /// Sets `kernel.stack_bound` (the simulator target only).
    pub stack_bound: bool,
    /// Replaces `kernel.stacklet_pool` (the `mtss+split` strategy only).
    pub stacklet_pool: Option<u32>,
    /// Sets `kernel.preempt_traps` (the counted-branch period N, at least 1).
    pub preempt_traps: Option<u32>,
    /// Replaces `kernel.switch` (`full`, `ccs-sw` or `ccs-hw`).
    pub switch: Option<String>,
    /// Sets `kernel.switch_poison` (ccs-sw and ccs-hw only).
    pub switch_poison: Option<u32>,
    /// Sets `kernel.switch_mutate` (ccs-sw and ccs-hw only).
    pub switch_mutate: Option<u32>,
    /// Sets `kernel.switch_budget` (ccs-hw and rmcs only; at least 1).
    pub switch_budget: Option<u32>,
    /// Sets `kernel.reg_pool` (rmcs only; 25, 50 or 75).
    pub reg_pool: Option<u8>,
    /// Sets `kernel.isolate` (the static stack strategy only).
    pub isolate: bool,
    /// Replaces `kernel.window` (`hw` or `sw`; the relocate strategy only). `sw` without
    /// `checks` makes the checks `mtss`.
    pub window: Option<String>,
    /// Shrinks stack budgets (every task's, or one task's) by a percentage.
    pub shrink: Option<Shrink>,
}

/// `--shrink [TASK=]PCT`: a budget cut of `percent` % (1..=95), rounded down to a multiple of
/// 16 and never below 128 bytes, for every task or the one named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shrink {
    /// The task to shrink; None: every task.
    pub task: Option<String>,
    /// Percent to cut.
    pub percent: u32,
}

impl std::str::FromStr for Shrink {
    type Err = String;

    /// Parses `40`, `40%`, `tsp=40` or `tsp=40%`.
    fn from_str(text: &str) -> Result<Shrink, String> {
        let (task, pct) = match text.split_once('=') {
            Some((t, p)) => (Some(t.trim().to_string()), p),
            None => (None, text),
        };
        let digits = pct.trim().strip_suffix('%').unwrap_or(pct.trim());
        let percent = digits.parse::<u32>().map_err(|_| {
            format!("`{text}` is not a shrink such as 40%, or tsp=40% for one task")
        })?;
        Ok(Shrink { task, percent })
    }
}

/// The smallest stack budget a [`Shrink`] leaves a task, in bytes.
pub const SHRINK_FLOOR: u32 = 128;

/// `budget` shrunk by `percent` %: rounded down to a multiple of 16, at least
/// [`SHRINK_FLOOR`] (or `budget`, when it is already below the floor).
pub fn shrink_budget(budget: u32, percent: u32) -> u32 {
    let kept = u64::from(budget) * u64::from(100 - percent.min(100)) / 100;
    let kept = (kept as u32) & !15;
    kept.max(SHRINK_FLOOR.min(budget))
}

impl Manifest {
    /// The `-D` options the kernel is compiled with inside this firmware: the variant's
    /// ([`KernelOptions::variant_defines`]) and `CACTUS_MAX_TASKS`, the kernel's task slots
    /// (TCBs and per-task strategy state), one per manifest task and one for the timer task,
    /// so that RAM follows the task count (the prebuilt kernel libraries keep the default of
    /// 40).
    pub fn kernel_defines(&self) -> Vec<String> {
        let mut d = self.kernel.variant_defines();
        d.push(format!("-DCACTUS_MAX_TASKS={}", self.kernel_tasks()));
        d
    }

    /// The kernel tasks the firmware creates: the manifest's tasks and the timer task, if any;
    /// under SRP only the dispatcher.
    pub fn kernel_tasks(&self) -> usize {
        if self.srp.is_some() {
            return 1;
        }
        self.tasks.len() + usize::from(self.timer_task.is_some())
    }

    /// The cactus-sim profile the firmware is linked for: `carousel-paper` under
    /// `kernel.carousel` (its Carousel unit, DMA engine and OS scratchpad,
    /// crate::carousel_link), else `mcu`, the default machine.
    pub fn machine_profile(&self) -> &'static str {
        if self.srp.as_ref().is_some_and(|s| s.carousel) {
            "carousel-paper"
        } else {
            "mcu"
        }
    }

    /// The scheduler's manifest spelling: `preemptive` or `srp`.
    pub fn scheduler(&self) -> &'static str {
        if self.srp.is_some() {
            "srp"
        } else {
            "preemptive"
        }
    }

    /// Reads and validates the manifest at `path`; relative paths inside it are relative to
    /// its directory.
    pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
        let text = std::fs::read_to_string(path).map_err(|error| ManifestError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Manifest::parse(&text, path)
    }

    /// Validates manifest `text` that was read from `path` (named in errors; its directory
    /// anchors relative source paths).
    pub fn parse(text: &str, path: &Path) -> Result<Manifest, ManifestError> {
        validate::parse(text, path)
    }

    /// Applies command-line overrides; a bad value is an error naming the option, and then
    /// the manifest is left unchanged.
    pub fn apply(&mut self, overrides: &Overrides) -> Result<(), ManifestError> {
        let bad = |option: &str, problem: String| ManifestError::Invalid {
            file: option.to_string(),
            line: None,
            key: String::new(),
            problem,
        };
        let mut next = self.kernel.clone();
        if let Some(stack) = &overrides.stack {
            next.stack = StackStrategy::parse(stack).map_err(|p| bad("--stack", p))?;
        }
        if let Some(target) = &overrides.target {
            next.target = Target::parse(target).map_err(|p| bad("--target", p))?;
        }
        if let Some(checks) = &overrides.checks {
            next.checks = parse_checks(checks).map_err(|p| bad("--checks", p))?;
        } else if overrides.stack.is_some() && next.stack.moves_frames() {
            // Segmented stacks and the mtss+split hybrid take the call slow path; mtss and
            // chunks keep their trap.
            next.checks = if next.stack.has_stacklets() {
                CheckMode::Split
            } else {
                CheckMode::Mtss
            };
        }
        if let Some(w) = &overrides.window {
            next.window = StackWindow::parse(w).ok_or_else(|| {
                bad(
                    "--window",
                    format!("\"{w}\" is not a stack window: hw or sw"),
                )
            })?;
            if next.stack != StackStrategy::Relocate {
                return Err(bad(
                    "--window",
                    format!(
                        "only the relocate stack strategy has a stack window; the stack is \"{}\"",
                        next.stack.name()
                    ),
                ));
            }
            if next.window == StackWindow::Sw && next.checks == CheckMode::None {
                if overrides.checks.is_some() {
                    return Err(bad("--window", WINDOW_SW_NEEDS_CHECKS.to_string()));
                }
                next.checks = CheckMode::Mtss;
            }
        }
        if next.stack != StackStrategy::Relocate {
            next.window = StackWindow::Hw;
            next.copier = None;
        }
        if next.copier == Some(true) && next.target != Target::Sim {
            return Err(bad("--target", COPIER_NEEDS_SIM.to_string()));
        }
        if !next.stack.has_pages() {
            next.mtss_page = None;
        }
        if next.stack != StackStrategy::Mtss {
            next.mtss_worst_case = false;
        }
        if !next.stack.has_stacklets() {
            next.stacklet_min = None;
            next.stacklet_cache = None;
            next.stacklet_learn = None;
        }
        if next.stack != StackStrategy::MtssSplit {
            next.stacklet_pool = None;
        }
        if next.stack != StackStrategy::Static {
            next.switch_check = true;
            // Like the switch check, a static-only variant does not follow another strategy.
            next.variants
                .retain(|v| !crate::kernel_units::variant_needs_static(v));
        }
        if let Some(page) = overrides.mtss_page {
            if !next.stack.has_pages() {
                return Err(bad(
                    "--mtss-page",
                    format!(
                        "only the mtss stack strategy has pages; this build uses \"{}\"",
                        next.stack.name()
                    ),
                ));
            }
            if !(32..=1024).contains(&page) || !page.is_power_of_two() {
                return Err(bad(
                    "--mtss-page",
                    format!("{page} is not a power of two in 32..=1024"),
                ));
            }
            next.mtss_page = Some(page);
        }
        if overrides.stack_bound {
            next.stack_bound = true;
        }
        if next.stack == StackStrategy::Relocate
            && next.target != Target::Sim
            && next.window == StackWindow::Hw
        {
            let option = if overrides.stack.is_some() {
                "--stack"
            } else {
                "--target"
            };
            return Err(bad(option, RELOCATE_NEEDS_SIM.to_string()));
        }
        if next.stack_bound && next.target != Target::Sim {
            let option = if overrides.stack_bound {
                "--stack-bound"
            } else {
                "--target"
            };
            return Err(bad(option, STACK_BOUND_NEEDS_SIM.to_string()));
        }
        next.isolate |= overrides.isolate;
        if next.isolate && self.srp.is_some() {
            return Err(bad("--isolate", ISOLATE_NEEDS_TASKS.to_string()));
        }
        if next.isolate && next.stack != StackStrategy::Static {
            let option = if overrides.stack.is_some() {
                "--stack"
            } else {
                "--isolate"
            };
            return Err(bad(option, ISOLATE_NEEDS_STATIC.to_string()));
        }
        if let Some(n) = overrides.preempt_traps {
            if n == 0 {
                return Err(bad(
                    "--preempt-traps",
                    "the period N must be at least 1".to_string(),
                ));
            }
            next.preempt_traps = Some(n);
        }
        if let Some(text) = &overrides.switch {
            next.switch = SwitchMode::parse(text).map_err(|p| bad("--switch", p))?;
        }
        if let Some(seed) = overrides.switch_poison {
            next.switch_poison = Some(seed);
        }
        if let Some(seed) = overrides.switch_mutate {
            next.switch_mutate = Some(seed);
        }
        if next.switch.has_table() && next.preempt_traps.is_some() {
            let option = if overrides.switch.is_some() {
                "--switch"
            } else {
                "--preempt-traps"
            };
            return Err(bad(option, CCS_EXCLUDES_PREEMPT_TRAPS.to_string()));
        }
        if next.switch.defers() && next.target != Target::Sim {
            let option = if overrides.switch.is_some() {
                "--switch"
            } else {
                "--target"
            };
            let why = if next.switch == SwitchMode::Rmcs {
                RMCS_NEEDS_SIM
            } else {
                CCS_HW_NEEDS_SIM
            };
            return Err(bad(option, why.to_string()));
        }
        if let Some(pct) = overrides.reg_pool {
            if next.switch != SwitchMode::Rmcs {
                return Err(bad(
                    "--reg-pool",
                    "only kernel.switch = \"rmcs\" has a register pool".to_string(),
                ));
            }
            if ![25, 50, 75].contains(&pct) {
                return Err(bad(
                    "--reg-pool",
                    format!("{pct} is not a pool size (25, 50 or 75 % of the register file)"),
                ));
            }
            next.reg_pool = Some(pct);
        }
        if next.switch != SwitchMode::Rmcs {
            next.reg_pool = None;
        }
        for (set, option) in [
            (next.switch_poison.is_some(), "--switch-poison"),
            (next.switch_mutate.is_some(), "--switch-mutate"),
        ] {
            if set && !next.switch.has_table() {
                return Err(bad(option, ONLY_CCS_POISONS.to_string()));
            }
        }
        if let Some(n) = overrides.switch_budget {
            if n == 0 {
                return Err(bad(
                    "--switch-budget",
                    "the budget must be at least 1 cycle".to_string(),
                ));
            }
            next.switch_budget = Some(n);
        }
        if !next.switch.defers() {
            if overrides.switch_budget.is_some() {
                return Err(bad(
                    "--switch-budget",
                    "only kernel.switch = \"ccs-hw\" or \"rmcs\" defers preemptions".to_string(),
                ));
            }
            next.switch_budget = None;
        }
        if let Some(bytes) = overrides.stacklet_pool {
            if next.stack != StackStrategy::MtssSplit {
                return Err(bad(
                    "--stacklet-pool",
                    format!(
                        "only the mtss+split stack strategy has a stacklet pool; this build \
                         uses \"{}\"",
                        next.stack.name()
                    ),
                ));
            }
            if !(256..=524_288).contains(&bytes) {
                return Err(bad(
                    "--stacklet-pool",
                    format!("{bytes} is out of range (256..=524288)"),
                ));
            }
            next.stacklet_pool = Some(bytes);
        }
        if let Some(sh) = &overrides.shrink {
            if !(1..=95).contains(&sh.percent) {
                return Err(bad(
                    "--shrink",
                    format!("{}% is not a shrink in 1..=95 %", sh.percent),
                ));
            }
            if let Some(name) = &sh.task {
                if !self.tasks.iter().any(|t| &t.name == name) {
                    let known: Vec<&str> = self.tasks.iter().map(|t| t.name.as_str()).collect();
                    return Err(bad(
                        "--shrink",
                        format!("no task \"{name}\"; tasks: {}", known.join(", ")),
                    ));
                }
            }
        }
        if self.srp.is_some() && next.stack != StackStrategy::Static {
            return Err(bad(
                "--stack",
                format!(
                    "the srp scheduler runs every job on one shared stack of the static \
                     strategy; this manifest cannot use \"{}\"",
                    next.stack.name()
                ),
            ));
        }
        if overrides.stack.is_some() || overrides.checks.is_some() {
            let option = if overrides.checks.is_some() {
                "--checks"
            } else {
                "--stack"
            };
            validate::check_strategy_checks(next.stack, next.checks).map_err(|p| bad(option, p))?;
        }
        let old_kernel = std::mem::replace(&mut self.kernel, next);
        let old_tasks = self.tasks.clone();
        if let Some(sh) = &overrides.shrink {
            for t in &mut self.tasks {
                if sh.task.as_ref().is_none_or(|n| n == &t.name) {
                    t.stack = shrink_budget(t.stack, sh.percent);
                }
            }
        }
        if overrides.stack.is_some()
            || overrides.mtss_page.is_some()
            || overrides.stacklet_pool.is_some()
        {
            if let Err(p) = validate::check_pool(self) {
                self.kernel = old_kernel;
                self.tasks = old_tasks;
                return Err(bad("--stack", p));
            }
        }
        Ok(())
    }

    /// Converts milliseconds to ticks at this manifest's tick rate (exact for validated
    /// values).
    pub fn ms_to_ticks(&self, ms: u32) -> u64 {
        u64::from(ms) * u64::from(self.kernel.tick_hz) / 1000
    }
}

/// Parses a check mode name (`none`, `detect`, `mtss`).
pub fn parse_checks(text: &str) -> Result<CheckMode, String> {
    CheckMode::parse(text).ok_or_else(|| {
        format!("unknown check mode `{text}` (expected none, detect, mtss or split)")
    })
}

#[cfg(test)]
mod tests;
