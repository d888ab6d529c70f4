//! The `preempt` part of `cactus bench sensmart` (docs/sensmart.md "Preemption by counted
//! branches"):
//!
//! - **overhead**: each workload built without and with `kernel.preempt_traps = N` (N = 256),
//!   run on cactus-sim: awake cycles, firmware code bytes, counted sites, kernel entries through
//!   counted branches, and whether the output is the same;
//! - **latency**: `tests/sensmart/preempt.c` (a spinner and an equal-priority probe) from
//!   `open.toml` (the spinner keeps interrupts enabled) and `masked.toml` (it masks them),
//!   each without and with the pass: the probe's latency from the last tick of the spinner's
//!   slice to its own first instruction, in cycles, over its runs. Masked without the pass
//!   must fail (the probe never gets the CPU): that row passes when it does.

use super::{Part, SensmartRow};
use crate::elf_facts::{first_line, read_global, symbol_address};
use crate::Size;
use cactus_firmware::{BuildOptions, CheckOptions, Manifest, Overrides};
use cactus_sim::{MachineConfig, Profile, RunOutcome};
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The period N the overhead is measured at (SenSmart's and `--preempt-traps`'s default).
pub const PERIOD: u32 = cactus_cc::DEFAULT_PREEMPT_PERIOD;
/// Simulated cycles after which a run is stopped (and counted as failed).
pub const MAX_CYCLES: u64 = 20_000_000_000;
/// The latency firmware's conversion: cycles per mtime tick on the profile it runs on
/// (`CYCLES_PER_MTIME` in tests/sensmart/preempt.c).
pub const CYCLES_PER_MTIME: u64 = 10;

/// Where the part runs.
pub struct PreemptOptions {
    /// The Cactus tree (manifest paths are relative to it; empty: the current directory).
    pub root: PathBuf,
    /// Size class: `small` measures the overhead on six workloads, `full` on every
    /// `workloads/*/*-small.toml` manifest and the demo.
    pub size: Size,
    /// Parent of the build directories (`build/firmware` of the tree when None).
    pub build_dir: Option<PathBuf>,
}

/// The overhead of the pass on one workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Overhead {
    /// N.
    pub period: u32,
    /// Cycles not asleep in `wfi`, without the pass.
    pub cycles_base: u64,
    /// The same with the pass.
    pub cycles_pass: u64,
    /// Bytes of executable sections of the firmware without the pass.
    pub code_base: u64,
    /// The same with the pass (the kernel entry included).
    pub code_pass: u64,
    /// Backward branches counted (sites in the instrumented assembly).
    pub sites: u32,
    /// Kernel entries through counted branches in the run (`k_preempt_traps`).
    pub traps: u32,
}

/// The preemption latencies of one configuration of the latency firmware.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// The spinner masks interrupts.
    pub masked: bool,
    /// N, or None without the pass.
    pub period: Option<u32>,
    /// The probe's latencies in cycles, in run order (empty when it never ran).
    pub samples: Vec<u64>,
    /// Kernel entries through counted branches in the run.
    pub traps: u32,
}

impl Latency {
    /// The configuration's name: `timer`, `timer+traps`, `masked+traps`, `masked`.
    pub fn name(masked: bool, period: Option<u32>) -> String {
        let base = if masked { "masked" } else { "timer" };
        match period {
            Some(n) if n == PERIOD => format!("{base}+traps"),
            Some(n) => format!("{base}+traps{n}"),
            None => base.to_string(),
        }
    }

    /// (min, mean, median, 90th percentile, max) of the samples (nearest rank), None if empty.
    pub fn stats(&self) -> Option<(u64, f64, u64, u64, u64)> {
        let mut s = self.samples.clone();
        if s.is_empty() {
            return None;
        }
        s.sort_unstable();
        let rank = |p: f64| s[((p * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1];
        let mean = s.iter().sum::<u64>() as f64 / s.len() as f64;
        Some((s[0], mean, rank(0.5), rank(0.9), s[s.len() - 1]))
    }
}

/// The workloads of the overhead table at `size`.
pub fn workloads(root: &Path, size: Size) -> Vec<String> {
    match size {
        Size::Small => [
            "workloads/coremark-like/coremark-single-small.toml",
            "workloads/mtss/network-small.toml",
            "workloads/mtss/telecomm-small.toml",
            "workloads/malardalen-like/malardalen-small.toml",
            "workloads/crazyflie-like/crazyflie-small.toml",
            "workloads/ccs/ccs-a2-small.toml",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        Size::Full => {
            let mut out = Vec::new();
            let dir = root.join("workloads");
            let mut suites: Vec<PathBuf> = std::fs::read_dir(&dir)
                .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            suites.sort();
            for suite in suites.iter().filter(|p| p.is_dir()) {
                let mut ms: Vec<PathBuf> = std::fs::read_dir(suite)
                    .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
                    .unwrap_or_default();
                ms.sort();
                for m in ms {
                    let name = m.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    if name.ends_with("-small.toml") {
                        if let Ok(rel) = m.strip_prefix(root) {
                            out.push(rel.display().to_string());
                        }
                    }
                }
            }
            out.push("workloads/demo/demo.toml".to_string());
            out
        }
    }
}

/// The latency configurations: (spinner masks interrupts, N or no pass).
pub fn latency_configs(size: Size) -> Vec<(bool, Option<u32>)> {
    let mut out = vec![
        (false, None),
        (false, Some(PERIOD)),
        (true, Some(PERIOD)),
        (true, None),
    ];
    if size == Size::Full {
        out.extend([(true, Some(64)), (true, Some(1024))]);
    }
    out
}

/// The part's points: the latency configurations, then one overhead point per workload.
pub fn points(o: &PreemptOptions) -> Vec<Point<'_, SensmartRow>> {
    let mut out = Vec::new();
    for (masked, period) in latency_configs(o.size) {
        let name = Latency::name(masked, period);
        out.push(Point::new(
            format!("preempt/latency/{name}"),
            format!("latency {name}"),
            move |_, progress: &Progress| {
                let row = measure_latency(o, masked, period);
                if let Some(note) = &row.note {
                    progress.note(&format!("cactus: latency {}: {note}", row.name));
                }
                row
            },
        ));
    }
    for m in workloads(&o.root, o.size) {
        let name = Path::new(&m)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        out.push(Point::new(
            format!("preempt/overhead/{name}"),
            format!("overhead {name}"),
            move |_, progress: &Progress| {
                let row = measure_overhead(o, &m, &name);
                if let Some(note) = &row.note {
                    progress.note(&format!("cactus: overhead {}: {note}", row.name));
                }
                row
            },
        ));
    }
    out
}

fn row(name: &str) -> SensmartRow {
    SensmartRow::new(Part::Preempt, name)
}

/// What one build and run left.
pub(crate) struct Ran {
    /// The exit code, or why the run did not exit.
    pub(crate) exit: Result<i32, String>,
    /// The UART output.
    pub(crate) uart: String,
    /// Cycles from reset to the end of the run.
    pub(crate) cycles: u64,
    /// Cycles not asleep in `wfi`.
    pub(crate) awake: u64,
    /// Bytes of executable sections.
    pub(crate) code: u64,
    /// `k_preempt_traps` at the end.
    pub(crate) traps: u32,
    /// `k_isolate_slow` at the end (0 when not linked).
    pub(crate) isolate_slow: u32,
    /// The build directory.
    pub(crate) dir: PathBuf,
}

fn build_and_run(o: &PreemptOptions, path: &str, period: Option<u32>) -> Result<Ran, String> {
    build_and_run_with(
        o,
        path,
        &Overrides {
            preempt_traps: period,
            ..Overrides::default()
        },
    )
}

/// Builds manifest `path` with `overrides` and runs it on cactus-sim (profile `mcu`, the
/// ownership oracle stopping at the first violation).
pub(crate) fn build_and_run_with(
    o: &PreemptOptions,
    path: &str,
    overrides: &Overrides,
) -> Result<Ran, String> {
    build_and_run_oracle(o, path, overrides, cactus_sim::OracleMode::Stop)
}

/// [`build_and_run_with`] with the ownership oracle in `oracle` mode.
pub(crate) fn build_and_run_oracle(
    o: &PreemptOptions,
    path: &str,
    overrides: &Overrides,
    oracle: cactus_sim::OracleMode,
) -> Result<Ran, String> {
    let full = o.root.join(path);
    let mut m = Manifest::load(&full).map_err(|e| first_line(&e.to_string()))?;
    m.apply(overrides).map_err(|e| first_line(&e.to_string()))?;
    let options = BuildOptions {
        root: (!o.root.as_os_str().is_empty()).then(|| o.root.clone()),
        out_root: o.build_dir.clone(),
        checks: CheckOptions::default(),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options)
        .map_err(|e| format!("build failed: {}", first_line(&e.to_string())))?;
    let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
    let profile = Profile::builtin("mcu").ok_or("no built-in profile `mcu`")?;
    if profile.clock_hz() / profile.timebase_hz() != CYCLES_PER_MTIME {
        return Err("profile `mcu` no longer has 10 cycles per mtime tick".into());
    }
    let mut config = MachineConfig::new(profile);
    config.max_cycles = Some(MAX_CYCLES);
    config.oracle = oracle;
    let (mut machine, outcome) =
        cactus_verify::sim_run::run_elf(&elf, &built.elf.display().to_string(), config)?;
    let stats = machine.stats();
    let awake = stats.cycles.saturating_sub(stats.sleep_cycles);
    let traps = match symbol_address(&elf, "k_preempt_traps", "Cactus") {
        Ok(addr) => read_global(&machine, addr, "k_preempt_traps")?,
        Err(_) => 0, // not linked: nothing counted
    };
    let isolate_slow = match symbol_address(&elf, "k_isolate_slow", "Cactus") {
        Ok(addr) => read_global(&machine, addr, "k_isolate_slow")?,
        Err(_) => 0,
    };
    let uart = String::from_utf8_lossy(&machine.take_uart_output()).into_owned();
    let exit = match outcome {
        RunOutcome::Exited { code } => Ok(code as i32),
        RunOutcome::Fault(r) | RunOutcome::CycleLimit(r) => Err(first_line(&r.to_string())),
        RunOutcome::OracleViolation(r) => Err(first_line(&r.to_string())),
        RunOutcome::Breakpoint { pc } => Err(format!("breakpoint at {pc:#010x}")),
    };
    Ok(Ran {
        exit,
        uart,
        cycles: stats.cycles,
        awake,
        code: code_bytes(&elf)?,
        traps,
        isolate_slow,
        dir: built.dir,
    })
}

/// Bytes of the ELF's executable sections.
fn code_bytes(elf: &[u8]) -> Result<u64, String> {
    use object::{Object, ObjectSection, SectionKind};
    let file = object::File::parse(elf).map_err(|e| format!("cannot read the ELF: {e}"))?;
    Ok(file
        .sections()
        .filter(|s| s.kind() == SectionKind::Text)
        .map(|s| s.size())
        .sum())
}

/// Counted sites in a build's instrumented assembly (`jal <reg>,port_preempt_<reg>` stubs).
fn count_sites(dir: &Path) -> u32 {
    let Ok(rd) = std::fs::read_dir(dir.join("asm")) else {
        return 0;
    };
    rd.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .map(|t| {
            t.lines()
                .filter(|l| {
                    let l = l.trim_start();
                    l.starts_with("jal") && l.contains(cactus_cc::preempt::ENTRY_PREFIX)
                })
                .count() as u32
        })
        .sum()
}

/// The guest's own output: the UART text without the lines the kernel's end-of-run report
/// and the tools add (`cactus:`), which name cycles and addresses.
pub(crate) fn guest_lines(uart: &str) -> Vec<&str> {
    uart.lines().filter(|l| !l.starts_with("cactus")).collect()
}

/// Builds and runs workload `path` without and with the pass.
pub fn measure_overhead(o: &PreemptOptions, path: &str, name: &str) -> SensmartRow {
    let mut r = row(name);
    let base = match build_and_run(o, path, None) {
        Ok(b) => b,
        Err(e) => {
            r.note = Some(format!("without the pass: {e}"));
            return r;
        }
    };
    let pass = match build_and_run(o, path, Some(PERIOD)) {
        Ok(p) => p,
        Err(e) => {
            r.note = Some(format!("with the pass: {e}"));
            return r;
        }
    };
    r.overhead = Some(Overhead {
        period: PERIOD,
        cycles_base: base.awake,
        cycles_pass: pass.awake,
        code_base: base.code,
        code_pass: pass.code,
        sites: count_sites(&pass.dir),
        traps: pass.traps,
    });
    r.note = match (&base.exit, &pass.exit) {
        (Ok(0), Ok(0)) if guest_lines(&base.uart) == guest_lines(&pass.uart) => None,
        (Ok(0), Ok(0)) => Some("the output differs with the pass".into()),
        (Ok(0), Ok(c)) => Some(format!("with the pass: exit code {c}")),
        (Ok(0), Err(e)) => Some(format!("with the pass: {e}")),
        (Ok(c), _) => Some(format!("without the pass: exit code {c}")),
        (Err(e), _) => Some(format!("without the pass: {e}")),
    };
    r.passed = r.note.is_none();
    r
}

/// The probe's latencies from the firmware's `latency:` line.
pub fn parse_latencies(uart: &str) -> Option<Vec<u64>> {
    let line = uart.lines().find_map(|l| l.strip_prefix("latency:"))?;
    line.split_whitespace().map(|w| w.parse().ok()).collect()
}

/// Runs the latency firmware in one configuration.
pub fn measure_latency(o: &PreemptOptions, masked: bool, period: Option<u32>) -> SensmartRow {
    let name = Latency::name(masked, period);
    let mut r = row(&name);
    let manifest = if masked {
        "tests/sensmart/masked.toml"
    } else {
        "tests/sensmart/open.toml"
    };
    let ran = match build_and_run(o, manifest, period) {
        Ok(x) => x,
        Err(e) => {
            r.note = Some(e);
            return r;
        }
    };
    let samples = parse_latencies(&ran.uart).unwrap_or_default();
    r.latency = Some(Latency {
        masked,
        period,
        samples: samples.clone(),
        traps: ran.traps,
    });
    // Masked without the pass nothing preempts the spinner: the firmware must say so.
    let expect_fail = masked && period.is_none();
    r.note = match (&ran.exit, expect_fail) {
        (Ok(1), true) if ran.uart.contains("FAIL preempt") => None,
        (Ok(c), true) => Some(format!(
            "expected the spinner to keep the CPU (exit 1), got exit code {c}"
        )),
        (Ok(0), false) if !samples.is_empty() => None,
        (Ok(0), false) => Some("no `latency:` line in the output".into()),
        (Ok(c), false) => Some(format!(
            "exit code {c}: {}",
            first_line(ran.uart.trim_end())
        )),
        (Err(e), _) => Some(e.clone()),
    };
    r.passed = r.note.is_none();
    r
}

/// `(pass / base - 1) * 100` of the geometric mean of the ratios, None without pairs.
pub fn geomean_pct(pairs: &[(u64, u64)]) -> Option<f64> {
    let logs: Vec<f64> = pairs
        .iter()
        .filter(|(b, p)| *b > 0 && *p > 0)
        .map(|(b, p)| (*p as f64 / *b as f64).ln())
        .collect();
    (!logs.is_empty()).then(|| ((logs.iter().sum::<f64>() / logs.len() as f64).exp() - 1.0) * 100.0)
}

fn pct(base: u64, pass: u64) -> String {
    if base == 0 {
        "-".into()
    } else {
        format!("{:+.1}", (pass as f64 / base as f64 - 1.0) * 100.0)
    }
}

/// The part's tables: latency per configuration, then overhead per workload.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut lat = Table::new(&[
        "configuration",
        ">latencies measured",
        ">min",
        ">mean",
        ">median",
        ">p90",
        ">max",
        ">counted-branch entries",
        "result",
    ]);
    for r in rows.iter().filter(|r| is_latency(r)) {
        let l = r.latency.as_ref();
        let st = l.and_then(|l| l.stats());
        lat.row([
            r.name.clone(),
            or_dash(l.map(|l| l.samples.len())),
            or_dash(st.map(|s| s.0)),
            or_dash(st.map(|s| format!("{:.0}", s.1))),
            or_dash(st.map(|s| s.2)),
            or_dash(st.map(|s| s.3)),
            or_dash(st.map(|s| s.4)),
            or_dash(l.map(|l| l.traps)),
            super::verdict(r),
        ]);
    }
    let mut ov = Table::new(&[
        "workload",
        ">awake cycles",
        ">with preempt-traps",
        ">cycles %",
        ">code bytes",
        ">with preempt-traps",
        ">code %",
        ">counted sites",
        ">kernel entries",
        "result",
    ]);
    for r in rows.iter().filter(|r| !is_latency(r)) {
        let o = r.overhead.as_ref();
        ov.row([
            r.name.clone(),
            or_dash(o.map(|o| o.cycles_base)),
            or_dash(o.map(|o| o.cycles_pass)),
            o.map_or("-".into(), |o| pct(o.cycles_base, o.cycles_pass)),
            or_dash(o.map(|o| o.code_base)),
            or_dash(o.map(|o| o.code_pass)),
            o.map_or("-".into(), |o| pct(o.code_base, o.code_pass)),
            or_dash(o.map(|o| o.sites)),
            or_dash(o.map(|o| o.traps)),
            super::verdict(r),
        ]);
    }
    let (c, s) = geomeans(rows);
    format!(
        "Preemption latency, cycles from the last tick of the spinner's slice to the probe's \
         first instruction:\n\n{}\nOverhead of the preempt-traps pass (N = {PERIOD}); geometric \
         mean: cycles {}, code {}:\n\n{}",
        lat.render(),
        c.map_or("-".into(), |v| format!("{v:+.1} %")),
        s.map_or("-".into(), |v| format!("{v:+.1} %")),
        ov.render()
    )
}

/// A latency row (named after its configuration: `timer...` or `masked...`; no workload is).
fn is_latency(r: &SensmartRow) -> bool {
    r.latency.is_some() || r.name.starts_with("timer") || r.name.starts_with("masked")
}

/// Geometric-mean overhead in cycles and in code bytes over the passed overhead rows.
fn geomeans(rows: &[SensmartRow]) -> (Option<f64>, Option<f64>) {
    let ok: Vec<&Overhead> = rows
        .iter()
        .filter(|r| r.passed)
        .filter_map(|r| r.overhead.as_ref())
        .collect();
    let cycles: Vec<(u64, u64)> = ok.iter().map(|o| (o.cycles_base, o.cycles_pass)).collect();
    let code: Vec<(u64, u64)> = ok.iter().map(|o| (o.code_base, o.code_pass)).collect();
    (geomean_pct(&cycles), geomean_pct(&code))
}

fn max_latency(rows: &[SensmartRow], name: &str) -> Option<u64> {
    rows.iter()
        .filter(|r| r.passed && r.name == name)
        .filter_map(|r| r.latency.as_ref()?.stats())
        .map(|s| s.4)
        .next()
}

/// The part's summary pairs: the geometric-mean cycle and code overhead, the largest latency
/// under counted branches with interrupts masked, and under timer interrupts alone.
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let (c, s) = geomeans(rows);
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1}"));
    let n = |v: Option<u64>| v.map_or("-".into(), |v| v.to_string());
    vec![
        ("trap_overhead_pct", f(c)),
        ("trap_code_pct", f(s)),
        (
            "trap_latency_max",
            n(max_latency(rows, &Latency::name(true, Some(PERIOD)))),
        ),
        (
            "timer_latency_max",
            n(max_latency(rows, &Latency::name(false, None))),
        ),
    ]
}

/// What the part's columns mean.
pub fn reading() -> String {
    format!(
        "**Preemption by counted branches** (docs/sensmart.md). Latency: \
         tests/sensmart/preempt.c runs a spinner and an equal-priority probe (1 ms tick, slice \
         of one tick) on cactus-sim (profile `mcu`); each time the kernel switches the probe \
         in at the end of the spinner's slice it records the cycles since that slice's last \
         tick, then yields back. `timer`: the spinner keeps interrupts enabled, no pass (the \
         tick interrupt preempts); `timer+traps`: the same built with `kernel.preempt_traps = \
         {PERIOD}`; `masked+traps`: the spinner masks interrupts in every iteration and only \
         the counted branches preempt it (`+trapsN`: another N); `masked`: no pass, so the \
         probe never runs again and the firmware exits 1 (the row passes when it does). \
         Overhead: each workload built without and with the pass at N = {PERIOD} and run to \
         its end; awake cycles (not asleep in `wfi`), bytes of executable sections of the \
         whole firmware (kernel entry included), backward branches counted and kernel \
         entries through them (`k_preempt_traps`); a row passes when both runs exit 0 with \
         the same output. SenSmart (section IV-B) traps every 256th backward branch too and \
         gives no latency distribution, only that the delay is \"usually no more than a couple \
         of microseconds\" on its 7.37 MHz AVR. "
    )
}
