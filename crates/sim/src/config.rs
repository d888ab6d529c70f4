//! Run configuration: profile, oracle mode, cycle limit, event recording, optional hart
//! extensions, UART input.

use crate::profile::Profile;

/// What the ownership oracle does on a violation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OracleMode {
    /// Count and list violations; the run goes on.
    Record,
    /// The first violation ends the run with [`crate::RunOutcome::OracleViolation`].
    Stop,
}

/// Everything [`crate::Machine::new`] needs.
#[derive(Clone, Debug)]
pub struct MachineConfig {
    /// Timing, energy and memory map.
    pub profile: Profile,
    /// Oracle behaviour (default Record).
    pub oracle: OracleMode,
    /// Stop with [`crate::RunOutcome::CycleLimit`] before the first instruction that would
    /// start at or after this cycle (so a run overshoots by less than one instruction's
    /// cycles; `wfi` may end it at the limit). None = unlimited.
    pub max_cycles: Option<u64>,
    /// Stop with [`crate::RunOutcome::CycleLimit`] (kind [`crate::FaultKind::BusyLimit`]) once
    /// this many cycles ran with the hart awake (cycles asleep in `wfi` do not count). None =
    /// unlimited.
    pub max_busy_cycles: Option<u64>,
    /// Stop with [`crate::RunOutcome::CycleLimit`] (kind [`crate::FaultKind::IdleLimit`]) once
    /// this many cycles were slept in `wfi` (the sleep stops exactly there). None = unlimited.
    pub max_idle_cycles: Option<u64>,
    /// Keep the event list (for `--trace`); statistics are always kept.
    pub record_events: bool,
    /// The stack-bound extension: the `mstackbound` CSR ([`crate::MSTACKBOUND`]) and its
    /// exception ([`crate::CAUSE_STACK_BOUND`]), docs/simulator-design.md "Stack-bound
    /// extension". Default on (a bound of 0, the reset value, disables the check); off
    /// emulates a core without it: the CSR is then an unimplemented CSR (illegal instruction).
    pub stack_bound: bool,
    /// The stack-window extension: the `mswbound`/`mswdisp` CSRs ([`crate::MSWBOUND`],
    /// [`crate::MSWDISP`]) translating data accesses in the aperture and their exception
    /// ([`crate::CAUSE_STACK_WINDOW`]), docs/simulator-design.md "Stack-window extension".
    /// Default on (a bound of 0, the reset value, disables the window); off emulates a core
    /// without it: both CSRs are then unimplemented (illegal instruction).
    pub stack_window: bool,
    /// The switch-register extension (ccs-hw): the `mswtab`, `mswcount`, `mswbudget` and
    /// `mswmatch` CSRs ([`crate::MSWTAB`] ...), switch ranges loaded from a table in memory and
    /// the deferral of the machine timer interrupt into them, docs/simulator-design.md
    /// "Switch-register extension". Default on (a budget of 0, the reset value, defers
    /// nothing); off emulates a core without it: the CSRs are then unimplemented (illegal
    /// instruction).
    pub switch_regs: bool,
    /// The register-page extension (rmcs): pages of 8 extra physical registers in a pool
    /// (1, 2 or 3 pages: 25, 50 or 75 % of the register file; at most
    /// [`crate::MAX_POOL_PAGES`]) and the `mrfmap` CSR ([`crate::MRFMAP`]) mapping them onto
    /// architectural pages 1-3 (x8-x31), docs/simulator-design.md "Register-page extension".
    /// Default 0: off (opt-in), and `mrfmap` is then an unimplemented CSR (illegal
    /// instruction).
    pub reg_pool_pages: u8,
    /// Record an [`crate::EventKind::TimerPending`] event at every rise of the machine timer
    /// interrupt (MTIP with MTIE set), masked or not, at the first instruction boundary at or
    /// after it (needs `record_events`; default off). Cycles, instructions and the other
    /// events are the same with it on or off.
    pub watch_timer_pending: bool,
    /// Bytes the UART receives, in order (default none). Byte `i` (from 0) arrives at cycle
    /// `(i + 1) * rate` ([`MachineConfig::uart_input_rate`]), or later if the receiver is
    /// full then: it waits until the guest makes room, and is never lost to an overrun.
    pub uart_input: Vec<u8>,
    /// Cycles between UART input bytes (at least 1); None = [`MachineConfig::uart_input_rate`]'s
    /// default, 10 µs at the profile's clock.
    pub uart_input_rate: Option<u64>,
    /// Seeded timer-interrupt delays (default none): each `mtimecmp` write draws a delay, so
    /// one firmware is preempted at different instructions per seed; same seed, same run.
    pub timer_jitter: Option<TimerJitter>,
    /// Read the kernel's task table after every task switch and `mret` and record a
    /// [`crate::EventKind::TaskSample`] when a task's state changed (needs `record_events`;
    /// default none). Cycles, instructions and the other events are the same with it or
    /// without.
    pub task_probe: Option<crate::TaskProbe>,
    /// Addresses (function entries) whose every execution is recorded as an
    /// [`crate::EventKind::Call`] with `a0` and `a1` as they are there (needs
    /// `record_events`; default none): the kernel's API calls for a timeline. Cycles,
    /// instructions and the other events are the same with them or without.
    pub call_probes: Vec<u32>,
}

/// Late timer interrupts: after each `mtimecmp` write, MTIP rises a pseudo-random number of
/// cycles in `0..=max_cycles` after `mtime` reaches the compare value (a sequence fixed by
/// `seed`). `mtime` reads are not changed; only where the guest gets preempted is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimerJitter {
    /// Selects the sequence of delays.
    pub seed: u64,
    /// The largest delay, cycles.
    pub max_cycles: u64,
}

impl TimerJitter {
    /// The largest delay `cactus run --timer-jitter` and `cactus advise` use by default: 20 µs
    /// at the `mcu` profile's 100 MHz, a fiftieth of a 1 kHz tick (late enough to move the
    /// preemption by hundreds of instructions, early enough to keep periodic deadlines).
    pub const DEFAULT_MAX_CYCLES: u64 = 2000;
}

impl MachineConfig {
    /// Defaults: oracle Record, no cycle limits (total, busy, idle), no event list, stack-bound, stack-window and switch-register extensions on, no
    /// timer-pending watch, no UART input.
    pub fn new(profile: Profile) -> Self {
        MachineConfig {
            profile,
            oracle: OracleMode::Record,
            max_cycles: None,
            max_busy_cycles: None,
            max_idle_cycles: None,
            record_events: false,
            stack_bound: true,
            stack_window: true,
            switch_regs: true,
            reg_pool_pages: 0,
            watch_timer_pending: false,
            uart_input: Vec::new(),
            uart_input_rate: None,
            timer_jitter: None,
            task_probe: None,
            call_probes: Vec::new(),
        }
    }

    /// Cycles between UART input bytes: `uart_input_rate` if set, else 10 µs at the
    /// profile's clock (`clock_hz / 100_000`); never less than 1.
    pub fn uart_input_rate(&self) -> u64 {
        self.uart_input_rate
            .unwrap_or(self.profile.clock_hz() / 100_000)
            .max(1)
    }
}
