//! Builds and runs for `cactus bench ccs`: a manifest built full, ccs-sw or ccs-hw (with poison
//! and mutation), run on cactus-sim (profile `mcu`) with a seeded timer jitter and the event
//! list kept, the timer preemptions read from the events and ccs-hw's deferrals from the
//! switch registers' statistics.

use crate::elf_facts::first_line;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides, SwitchMode};
use cactus_sim::{
    Event, EventKind, MachineConfig, Profile, RunOutcome, SwitchRegStats, TimerJitter,
};
use std::path::{Path, PathBuf};

/// A run stops here at the latest.
pub const MAX_CYCLES: u64 = 2_000_000_000;

/// mcause of the machine timer interrupt.
pub const TIMER_CAUSE: u32 = 0x8000_0007;

/// How a firmware is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Variant {
    /// kernel.switch.
    pub switch: SwitchMode,
    /// kernel.switch_poison.
    pub poison: Option<u32>,
    /// kernel.switch_mutate (a range id).
    pub mutate: Option<u32>,
    /// kernel.reg_pool in percent (rmcs; None: the manifest's or the default).
    pub reg_pool: Option<u8>,
}

/// A built firmware.
#[derive(Clone, Debug)]
pub struct Firmware {
    /// The ELF's bytes.
    pub elf: Vec<u8>,
    /// Its path (for messages).
    pub path: PathBuf,
    /// The switch table: (start, end, id) sorted by start (empty for full).
    pub table: Vec<(u32, u32, u32)>,
    /// The mutated range (start, end), if any.
    pub mutated: Option<(u32, u32)>,
    /// The register pool's pages the kernel is built for (rmcs; 0 otherwise): the
    /// simulator gets as many.
    pub reg_pool: u8,
}

/// Builds `manifest` (relative to `root`) as `v` says.
pub fn build(
    root: &Path,
    build_dir: Option<&Path>,
    manifest: &str,
    v: Variant,
) -> Result<Firmware, String> {
    let overrides = Overrides {
        switch: Some(v.switch.name().into()),
        switch_poison: v.poison,
        switch_mutate: v.mutate,
        reg_pool: v.reg_pool,
        ..Overrides::default()
    };
    build_overridden(root, build_dir, manifest, v, &overrides)
}

/// Builds `manifest` with ccs-hw and deferral budget `budget` (cycles), without poison.
pub fn build_with_budget(
    root: &Path,
    build_dir: Option<&Path>,
    manifest: &str,
    budget: u32,
) -> Result<Firmware, String> {
    let overrides = Overrides {
        switch: Some(SwitchMode::CcsHw.name().into()),
        switch_budget: Some(budget),
        ..Overrides::default()
    };
    let v = Variant {
        switch: SwitchMode::CcsHw,
        ..Variant::default()
    };
    build_overridden(root, build_dir, manifest, v, &overrides)
}

fn build_overridden(
    root: &Path,
    build_dir: Option<&Path>,
    manifest: &str,
    v: Variant,
    overrides: &Overrides,
) -> Result<Firmware, String> {
    let mut m = Manifest::load(&root.join(manifest)).map_err(|e| first_line(&e.to_string()))?;
    if v.switch != SwitchMode::Full {
        m.apply(overrides).map_err(|e| first_line(&e.to_string()))?;
    }
    let options = BuildOptions {
        root: (!root.as_os_str().is_empty()).then(|| root.to_path_buf()),
        out_root: build_dir.map(Path::to_path_buf),
        checks: CheckOptions::default(),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options)
        .map_err(|e| format!("build failed: {}", first_line(&e.to_string())))?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let table = read_table(&elf)?;
    let mutated = v
        .mutate
        .and_then(|id| table.iter().find(|r| r.2 == id))
        .map(|r| (r.0, r.1));
    Ok(Firmware {
        elf,
        path: built.elf,
        table,
        mutated,
        reg_pool: m.kernel.reg_pool_pages(),
    })
}

/// The `.cactus.switch` records of an ELF as (start, end, id); empty when it has none.
pub fn read_table(elf: &[u8]) -> Result<Vec<(u32, u32, u32)>, String> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    let Some(section) = file.section_by_name(cactus_cc::switch::table::SECTION) else {
        return Ok(Vec::new());
    };
    let data = section
        .data()
        .map_err(|e| format!("cannot read the switch table: {e}"))?;
    let word = |c: &[u8], i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
    Ok(data
        .chunks_exact(cactus_cc::switch::table::RECORD_BYTES)
        .map(|c| (word(c, 0), word(c, 4), word(c, 12)))
        .collect())
}

/// The record of `table` whose range holds `pc`.
pub fn lookup(table: &[(u32, u32, u32)], pc: u32) -> Option<(u32, u32, u32)> {
    let i = table.partition_point(|r| r.0 <= pc);
    (i > 0 && pc < table[i - 1].1).then(|| table[i - 1])
}

/// One timer preemption: the interrupted pc and the cycles from the trap to the `mret` that
/// resumed another task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preemption {
    /// The interrupted pc (mepc).
    pub pc: u32,
    /// Trap to mret, cycles.
    pub cycles: u64,
}

/// The timer preemptions in `events`: a timer trap followed by a task switch before the next
/// `mret` (a tick that switches nothing is not one).
pub fn preemptions(events: &[Event]) -> Vec<Preemption> {
    let mut out = Vec::new();
    let mut open: Option<(u32, u64, bool)> = None;
    for e in events {
        match &e.kind {
            EventKind::Trap { cause, .. } if *cause == TIMER_CAUSE => {
                open = Some((e.pc, e.cycle, false));
            }
            EventKind::TaskSwitch { .. } => {
                if let Some(o) = open.as_mut() {
                    o.2 = true;
                }
            }
            EventKind::Mret { .. } => {
                if let Some((pc, start, true)) = open {
                    out.push(Preemption {
                        pc,
                        cycles: e.cycle.saturating_sub(start),
                    });
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// What one run left.
#[derive(Clone, Debug)]
pub struct Ran {
    /// Exit code, or why the run did not exit.
    pub exit: Result<u32, String>,
    /// The guest's own output lines (without the tools' `cactus` lines).
    pub output: Vec<String>,
    /// The timer preemptions.
    pub preemptions: Vec<Preemption>,
    /// Cycles awake.
    pub awake: u64,
    /// The switch registers' figures (ccs-hw builds).
    pub switch_regs: Option<SwitchRegStats>,
    /// rmcs builds: `mrfmap` writes that changed the mapping, and the kernel's page spills
    /// (`port_rmcs_stats`: the preempted task's own pages, pages stolen from another holder).
    pub rmcs: Option<RmcsCounts>,
}

/// What an rmcs run's register pages did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RmcsCounts {
    /// `mrfmap` writes that changed the mapping (boot's check included).
    pub remaps: u64,
    /// Preemptions that stored one of the preempted task's own pages (no page free and no
    /// holder less critical).
    pub own_spills: u64,
    /// Pages stolen from a less critical holder (its registers stored to its context).
    pub stolen: u64,
}

/// The address of symbol `name` in `elf`.
fn symbol(elf: &[u8], name: &str) -> Option<u32> {
    use object::{Object, ObjectSymbol};
    let file = object::File::parse(elf).ok()?;
    file.symbols()
        .find(|s| s.name() == Ok(name))
        .map(|s| s.address() as u32)
}

/// Runs `fw` with timer jitter `seed` (None: none).
pub fn run(fw: &Firmware, seed: Option<u64>) -> Result<Ran, String> {
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(MAX_CYCLES);
    config.record_events = true;
    config.reg_pool_pages = fw.reg_pool;
    config.timer_jitter = seed.map(|seed| TimerJitter {
        seed,
        max_cycles: TimerJitter::DEFAULT_MAX_CYCLES,
    });
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&fw.elf, &fw.path.display().to_string(), config)?;
    let stats = machine.stats();
    let awake = stats.cycles.saturating_sub(stats.sleep_cycles);
    let switch_regs = stats.switch_regs;
    let rmcs = match (stats.reg_pages, symbol(&fw.elf, "port_rmcs_stats")) {
        (Some(p), Some(at)) => {
            let mut buf = [0u8; 8];
            machine
                .read_debug(at, &mut buf)
                .map_err(|e| format!("cannot read port_rmcs_stats: {e:?}"))?;
            let word = |i: usize| {
                u64::from(u32::from_le_bytes([
                    buf[i],
                    buf[i + 1],
                    buf[i + 2],
                    buf[i + 3],
                ]))
            };
            Some(RmcsCounts {
                remaps: p.remaps,
                own_spills: word(0),
                stolen: word(4),
            })
        }
        _ => None,
    };
    let preemptions = preemptions(machine.events());
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    let exit = match outcome {
        RunOutcome::Exited { code } => Ok(code),
        RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => Err(first_line(&r.to_string())),
        RunOutcome::OracleViolation(r) => Err(first_line(&r.to_string())),
        RunOutcome::Breakpoint { pc } => Err(format!("breakpoint at {pc:#010x}")),
    };
    Ok(Ran {
        exit,
        output: uart
            .lines()
            .filter(|l| !l.starts_with("cactus"))
            .map(str::to_string)
            .collect(),
        preemptions,
        awake,
        switch_regs,
        rmcs,
    })
}
