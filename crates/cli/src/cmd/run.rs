//! `cactus run`: load an RV32 ELF into cactus-sim, stream its UART output to stdout, run it
//! (freely or under gdb), optionally feeding its UART input from a file, then report statistics
//! and how the run ended. Given a workload
//! manifest (`.toml`), it first builds the firmware (cached, like `cactus build`) and ends with
//! the per-task report.

use crate::cmd::build::{build_manifest, manifest_or_default, ManifestArgs};
use crate::cmd::profile_arg::resolve_profile;
use crate::report::{self, Ending, StatsFormat};
use crate::trace::TraceFormat;
use anyhow::{bail, Context, Result};
use cactus_sim::{Machine, MachineConfig, OracleMode, TimerJitter};
use clap::{Args, ValueEnum};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus run` (docs/cli.md documents each one and the exit codes).
#[derive(Args, Debug)]
pub struct RunArgs {
    /// The RV32 ELF executable to run, or a firmware manifest (`.toml`) to build and run
    /// [default: cactus.toml in the current directory, as `cactus new` writes it].
    pub elf: Option<PathBuf>,
    /// Manifest overrides (only with a manifest).
    #[command(flatten)]
    pub manifest: ManifestArgs,
    /// Machine profile: a built-in name (`mcu`, `ideal`, `carousel-paper`, ...) or the path
    /// of a TOML profile file [default: mcu; for a manifest with kernel.carousel,
    /// carousel-paper].
    #[arg(long, value_name = "NAME|FILE")]
    pub profile: Option<String>,
    /// Stop the run with exit code 3 once this many cycles have been simulated.
    #[arg(long, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Stop the run with exit code 3 once this many cycles ran with the hart awake (cycles
    /// asleep in `wfi` do not count): a guest that stops making progress ends. 0 = no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_BUSY_CYCLES)]
    pub max_busy_cycles: u64,
    /// Stop the run with exit code 3 once this many cycles were slept in `wfi`: a guest that
    /// waits forever while a timer keeps waking it ends. 0 = no limit.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_IDLE_CYCLES)]
    pub max_idle_cycles: u64,
    /// Record events (trace device, traps, oracle violations) and write them to FILE: Cactus
    /// JSON, or a timeline of tasks, traps and counters for Perfetto (a `.perfetto-trace` or
    /// `.pftrace` FILE, or --trace-format).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// The --trace file's format [default: by its name: Perfetto for `.perfetto-trace` and
    /// `.pftrace`, otherwise Cactus JSON].
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = TraceFormat::Auto, requires = "trace")]
    pub trace_format: TraceFormat,
    /// Write a self-contained HTML page of the run to FILE: task states and the stack memory
    /// map over time, stack use against budget and static bound, trap durations, per-task
    /// table (docs/cli.md, "The HTML report").
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// How to print the statistics after the run: a table on stderr, or one JSON line on
    /// stdout after the guest's output (with --stats-out, in that file instead).
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    pub stats: StatsFormat,
    /// Also write the statistics as JSON to FILE (same object as `--stats json`).
    #[arg(long, value_name = "FILE")]
    pub stats_out: Option<PathBuf>,
    /// What an ownership-oracle violation does: count it and go on, or end the run (exit 4).
    #[arg(long, value_enum, default_value_t = OracleArg::Record)]
    pub oracle: OracleArg,
    /// Do not run freely: serve the GDB remote protocol on 127.0.0.1:PORT (0 picks a free port).
    #[arg(long, value_name = "PORT")]
    pub gdb: Option<u16>,
    /// Emulate a core without the stack-bound extension: the `mstackbound` CSR (0x7C8) does
    /// not exist and accessing it is an illegal instruction.
    #[arg(long)]
    pub no_stack_bound: bool,
    /// Emulate a core without the stack-window extension: the `mswbound` (0x7C9) and
    /// `mswdisp` (0x7CA) CSRs do not exist and accessing them is an illegal instruction.
    #[arg(long)]
    pub no_stack_window: bool,
    /// Emulate a core without the switch-register extension (ccs-hw): the `mswtab` (0x7CB),
    /// `mswcount` (0x7CC), `mswbudget` (0x7CD) and `mswmatch` (0xFC8) CSRs do not exist and
    /// accessing them is an illegal instruction.
    #[arg(long)]
    pub no_switch_regs: bool,
    /// The register-page extension (rmcs): a pool of PCT % of the 32-entry register file in
    /// pages of 8 (25, 50 or 75: 1, 2 or 3 pages) and the `mrfmap` CSR (0x7CE) mapping them
    /// onto x8-x31 (docs/simulator-design.md "Register-page extension"). Default: off, and
    /// `mrfmap` is an illegal instruction.
    #[arg(long, value_name = "PCT", value_parser = parse_reg_pool)]
    pub reg_pool: Option<u8>,
    /// Bytes the guest's UART receives: the whole of FILE (`-` = standard input), read before
    /// the run starts. Byte i arrives at cycle (i+1)*RATE (see --uart-in-rate), or later if the
    /// receiver (RBR, or the 16-byte FIFO) is still full: input waits for the guest and is
    /// never lost.
    #[arg(long, value_name = "FILE")]
    pub uart_in: Option<PathBuf>,
    /// Cycles between UART input bytes (at least 1) [default: 10 µs at the profile's clock,
    /// 1000 for `mcu`].
    #[arg(long, value_name = "CYCLES", requires = "uart_in", value_parser = clap::value_parser!(u64).range(1..))]
    pub uart_in_rate: Option<u64>,
    /// Deliver each timer interrupt a seeded number of cycles late (0 to --timer-jitter-max),
    /// so the firmware is preempted at other instructions: the run `cactus advise` names when
    /// a seed fails. The same seed gives the same run.
    #[arg(long, value_name = "SEED")]
    pub timer_jitter: Option<u64>,
    /// The largest timer-interrupt delay of --timer-jitter, in cycles.
    #[arg(long, value_name = "CYCLES", requires = "timer_jitter",
          default_value_t = TimerJitter::DEFAULT_MAX_CYCLES)]
    pub timer_jitter_max: u64,
}

/// `--max-busy-cycles` default: 10^10 cycles awake (100 s simulated at the `mcu` profile's
/// 100 MHz, a few minutes of host time), far beyond every workload and test.
pub const DEFAULT_MAX_BUSY_CYCLES: u64 = 10_000_000_000;
/// `--max-idle-cycles` default: 10^12 cycles asleep (10 000 s simulated at 100 MHz; sleeping
/// costs the host nothing, so only a guest that never ends gets there).
pub const DEFAULT_MAX_IDLE_CYCLES: u64 = 1_000_000_000_000;

/// `--oracle` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OracleArg {
    /// Count violations, list them in the statistics and the trace, keep running.
    Record,
    /// End the run at the first violation with exit code 4.
    Stop,
}

/// Runs `cactus run`. Bad input (unreadable or invalid ELF, unknown profile, bad profile file,
/// unwritable output) is an `Err`; otherwise the exit code says how the guest ended.
pub fn main(args: RunArgs) -> Result<ExitCode> {
    // A profile given is checked before anything is built.
    let given = args.profile.as_deref().map(resolve_profile).transpose()?;
    let mut elf = manifest_or_default(args.elf.as_deref())?;
    let manifest_path = elf.clone();
    let manifest = if elf.extension().is_some_and(|e| e == "toml") {
        let (manifest, built) = build_manifest(&elf, &args.manifest)?;
        elf = built.elf;
        Some(manifest)
    } else {
        if args.manifest.any() {
            bail!("--stack, --target and --build-dir apply to a manifest (.toml), not to an ELF");
        }
        None
    };
    let profile_name = match (&args.profile, &manifest) {
        (Some(name), _) => name.clone(),
        (None, Some(m)) => m.machine_profile().to_string(),
        (None, None) => "mcu".to_string(),
    };
    let profile = match given {
        Some(p) => p,
        None => resolve_profile(&profile_name)?,
    };
    if let Some(m) = manifest
        .as_ref()
        .filter(|m| m.srp.as_ref().is_some_and(|s| s.carousel))
    {
        check_carousel_profile(&m.name, &profile_name, &profile)?;
    }
    let bytes =
        std::fs::read(&elf).with_context(|| format!("cannot read ELF file {}", elf.display()))?;
    let trap_entry = u64::from(profile.cycles().get(cactus_sim::CostClass::TrapEntry));
    let mut config = MachineConfig::new(profile);
    config.oracle = match args.oracle {
        OracleArg::Record => OracleMode::Record,
        OracleArg::Stop => OracleMode::Stop,
    };
    config.max_cycles = args.max_cycles;
    config.max_busy_cycles = (args.max_busy_cycles != 0).then_some(args.max_busy_cycles);
    config.max_idle_cycles = (args.max_idle_cycles != 0).then_some(args.max_idle_cycles);
    config.stack_bound = !args.no_stack_bound;
    config.stack_window = !args.no_stack_window;
    config.switch_regs = !args.no_switch_regs;
    // An rmcs firmware's kernel is built for its manifest's pool (kernel.reg_pool).
    let manifest_pool = manifest.as_ref().map_or(0, |m| m.kernel.reg_pool_pages());
    config.reg_pool_pages = args.reg_pool.unwrap_or(manifest_pool);
    if let Some(path) = &args.uart_in {
        config.uart_input = read_uart_input(path)?;
    }
    config.uart_input_rate = args.uart_in_rate;
    config.timer_jitter = args.timer_jitter.map(|seed| TimerJitter {
        seed,
        max_cycles: args.timer_jitter_max,
    });
    // A manifest run reads its deadline-miss markers from the events.
    config.record_events = args.trace.is_some() || args.report.is_some() || manifest.is_some();
    let timeline_trace = args
        .trace
        .as_ref()
        .is_some_and(|p| args.trace_format.for_path(p).needs_probe());
    if timeline_trace || args.report.is_some() {
        // A firmware without the kernel's task layout has no task states to show.
        config.task_probe = cactus_gdb::TaskTable::from_elf(&bytes)
            .ok()
            .flatten()
            .map(|t| t.probe());
        // The kernel API calls, shown as instants on the calling task's track.
        config.call_probes = crate::trace::calls::KernelCalls::of_elf(&bytes).addresses();
    }
    let mut machine = Machine::new(config);
    machine
        .load_elf(&bytes)
        .with_context(|| format!("cannot load {}", elf.display()))?;
    machine.set_uart_sink(Box::new(report::StdoutSink));

    let ending = match args.gdb {
        Some(port) => run_under_gdb(&mut machine, port, &bytes, &elf)?,
        None => Ending::Outcome(machine.run_to_end()),
    };
    std::io::stdout().flush().ok();

    let faults = report::overflow::stack_faults(&machine.stats().tasks, machine.events());
    // A manifest's firmware that caught an overflow it could not absorb did not run as
    // written. (A plain ELF may provoke overflows on purpose, as the kernel's scenario tests
    // do: its own exit code stands; the messages are printed either way.)
    // A plain program on `cactus cc`'s runtime: what its trap report caught (the runtime
    // exits 3 after it; the record keeps a run from passing whatever the program did after).
    let runtime_fault = report::runtime_fault::read(&bytes, &machine);
    let exit_code = match ending.exit_code() {
        0 if !faults.is_empty() && manifest.is_some() => report::EXIT_FAULT,
        0 if runtime_fault.is_some() => report::EXIT_FAULT,
        code => code,
    };
    let mut summary = report::summary_json(&elf, &profile_name, &ending, &machine);
    summary["exit_code"] = exit_code.into();
    let runtime_overflows = usize::from(matches!(
        runtime_fault,
        Some(report::runtime_fault::RuntimeFault::Overflow { .. })
    ));
    summary["stack_faults"] = (faults.len() + runtime_overflows).into();
    if let Some(manifest) = &manifest {
        summary["firmware"] =
            report::firmware::to_json(manifest, &machine.stats(), machine.events());
    }
    // A Carousel firmware's job times (report/jobs.rs).
    let jobs = match manifest
        .as_ref()
        .filter(|m| m.srp.as_ref().is_some_and(|s| s.carousel))
    {
        Some(m) => {
            let layout = cactus_firmware::carousel_link::layout(&bytes, m).ok();
            let jobs = report::jobs::job_times(m, machine.events(), trap_entry, layout.as_deref())
                .map_err(|e| anyhow::anyhow!("firmware {}: Carousel jobs: {e}", m.name))?;
            summary["firmware"]["srp"]["jobs"] = serde_json::to_value(&jobs)?;
            Some(jobs)
        }
        None => None,
    };
    if let Some(path) = &args.trace {
        crate::trace::write(path, args.trace_format, &elf, &bytes, &summary, &machine)?;
    }
    if let Some(path) = &args.stats_out {
        report::write_json_file(path, &summary)?;
    }
    if let Some(path) = &args.report {
        let from = manifest.as_ref().map(|_| manifest_path.as_path());
        write_html_report(path, &elf, from, &bytes, &summary, &machine)?;
    }
    report::print_stats(
        args.stats,
        &summary,
        &machine,
        args.stats_out.is_some(),
        manifest.is_some(),
    );
    if let (Some(manifest), StatsFormat::Table) = (&manifest, args.stats) {
        eprint!(
            "{}",
            report::firmware::render(manifest, &machine.stats(), machine.events())
        );
        if let Some(jobs) = &jobs {
            eprint!("{}", report::jobs::render(jobs));
        }
    }
    report::print_ending(&ending);
    for fault in &faults {
        let function = fault
            .pc
            .and_then(|pc| report::symbols::function_at(&bytes, pc));
        eprint!(
            "{}",
            report::overflow::render(fault, function.as_deref(), manifest.as_ref())
        );
    }
    if let Some(fault) = &runtime_fault {
        let pc = match fault {
            report::runtime_fault::RuntimeFault::Overflow { pc, .. }
            | report::runtime_fault::RuntimeFault::Trap { pc, .. } => *pc,
        };
        let function = report::symbols::function_at(&bytes, pc);
        eprint!(
            "{}",
            report::runtime_fault::render(fault, function.as_deref())
        );
    }
    Ok(ExitCode::from(exit_code))
}

/// The whole of the `--uart-in` file, or of standard input for `-`.
/// Writes the HTML report of the run of `elf` (`bytes`; built from the manifest at `manifest`,
/// whose tasks' static bounds it then shows) to `path`.
fn write_html_report(
    path: &Path,
    elf: &Path,
    manifest: Option<&Path>,
    bytes: &[u8],
    summary: &serde_json::Value,
    machine: &Machine,
) -> Result<()> {
    let timeline = crate::trace::of_run(bytes, machine);
    let mut bounds = std::collections::BTreeMap::new();
    if let Some(m) = manifest {
        match (
            crate::cmd::stack_report::task_bounds(m),
            cactus_firmware::Manifest::load(m),
        ) {
            (Ok(b), Ok(loaded)) => {
                for (t, bound) in loaded.tasks.iter().zip(b) {
                    bounds.insert(t.name.clone(), bound);
                }
            }
            (Err(e), _) => eprintln!("cactus: report: no static bounds ({e:#})"),
            (_, Err(e)) => eprintln!("cactus: report: no static bounds ({e})"),
        }
    }
    let title = match manifest {
        Some(m) => m.display().to_string(),
        None => elf.display().to_string(),
    };
    let page = crate::html::RunPage {
        title,
        summary,
        events: machine.events(),
        timeline: &timeline,
        bounds,
    };
    let html = crate::html::render(&page);
    report::write_atomically(path, |out| Ok(out.write_all(html.as_bytes())?))
}

fn read_uart_input(path: &Path) -> Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read the UART input (--uart-in -) from standard input")?;
        return Ok(bytes);
    }
    std::fs::read(path).with_context(|| {
        format!(
            "cannot read the UART input file (--uart-in) {}",
            path.display()
        )
    })
}

/// Waits for gdb on 127.0.0.1:PORT and serves one session; a detach lets the guest run on.
/// A firmware with a Cactus kernel shows its tasks as gdb threads (`cactus_gdb::TaskTable`);
/// the line after "waiting for gdb on ADDR" says which ELF to give gdb and how many task slots
/// it has.
fn run_under_gdb(machine: &mut Machine, port: u16, bytes: &[u8], elf: &Path) -> Result<Ending> {
    let tasks = match cactus_gdb::TaskTable::from_elf(bytes) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "cactus: warning: {}: tasks are not shown as threads: {e}",
                elf.display()
            );
            None
        }
    };
    let listener = TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot listen for gdb on 127.0.0.1:{port}"))?;
    let local = listener
        .local_addr()
        .context("cannot read the gdb listening address")?;
    eprintln!("waiting for gdb on {local}");
    match &tasks {
        Some(t) => eprintln!(
            "cactus: debug {} ({} task slots, each task a gdb thread)",
            elf.display(),
            t.slots()
        ),
        None => eprintln!("cactus: debug {}", elf.display()),
    }
    let (stream, peer) = listener
        .accept()
        .with_context(|| format!("cannot accept a gdb connection on {local}"))?;
    eprintln!("gdb connected from {peer}");
    let end = cactus_gdb::serve_tasks(machine, stream, tasks).context("gdb session failed")?;
    Ok(match end {
        cactus_gdb::SessionEnd::Ended(outcome) => Ending::Outcome(outcome),
        cactus_gdb::SessionEnd::Detached => {
            eprintln!("gdb detached; running on");
            Ending::Outcome(machine.run_to_end())
        }
        cactus_gdb::SessionEnd::Killed => Ending::Killed { pc: machine.pc() },
    })
}

/// A Carousel firmware (`kernel.carousel`) is linked for the Carousel unit of
/// kernel/arch/rv32/carousel_hw.h and the OS scratchpad (cactus_firmware::carousel_link):
/// refuses a profile without them, naming what is missing.
fn check_carousel_profile(firmware: &str, name: &str, profile: &cactus_sim::Profile) -> Result<()> {
    use cactus_firmware::carousel_link::{BLOCKS, BLOCK_BYTES, OS_SPM};
    let unit = profile.carousel();
    let geometry_ok = unit.is_some_and(|c| {
        c.blocks == BLOCKS && 1u32 << c.block_bits == BLOCK_BYTES && c.spm_base == 0x3000_0000
    });
    let os_spm_ok = profile
        .memory()
        .iter()
        .any(|r| r.base == OS_SPM.0 && r.size >= OS_SPM.1);
    if !geometry_ok || !os_spm_ok || profile.dma().is_none() {
        bail!(
            "firmware {firmware} runs its jobs through Carousel (kernel.carousel): it needs a \
             machine with the Carousel unit ({BLOCKS} blocks of {BLOCK_BYTES} bytes, SPM at \
             0x30000000), a DMA engine and the OS scratchpad at {:#x} ({} KiB); profile {name} \
             has {}: run it with --profile carousel-paper",
            OS_SPM.0,
            OS_SPM.1 / 1024,
            match unit {
                None => "no Carousel unit".to_string(),
                Some(c) => format!(
                    "{} blocks of {} bytes at {:#x}{}{}",
                    c.blocks,
                    1u64 << c.block_bits,
                    c.spm_base,
                    if os_spm_ok { "" } else { ", no OS scratchpad" },
                    if profile.dma().is_some() {
                        ""
                    } else {
                        ", no DMA engine"
                    }
                ),
            }
        );
    }
    Ok(())
}

/// `--reg-pool PCT`: 25, 50 or 75 (% of the 32-entry file) to pool pages of 8 registers.
fn parse_reg_pool(s: &str) -> Result<u8, String> {
    match s {
        "25" => Ok(1),
        "50" => Ok(2),
        "75" => Ok(3),
        _ => Err(format!(
            "the register pool is 25, 50 or 75 (% of the 32-entry register file), not `{s}`"
        )),
    }
}
