//! What `cactus run` reports after the guest stops: how it ended (and the exit code that
//! follows), the statistics as a table or JSON, and the trace file.
//!
//! Exit codes: the guest's code for an exit through the finisher or `tohost` (codes above 255
//! become 255), 3 for a fault, a deadlock, a cycle limit (total, busy or idle) or a kill from
//! gdb, 4 for an oracle violation.

mod files;
pub mod firmware;
mod hints;
pub mod jobs;
pub mod overflow;
pub mod rta;
pub mod runtime_fault;
mod sink;
pub mod symbols;
mod table;
pub mod text_table;

pub use files::{write_atomically, write_json_file};
pub use sink::{guest_output_mid_line, StdoutSink};

use anyhow::Result;
use cactus_sim::{Machine, RunOutcome};
use clap::ValueEnum;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

/// `--stats` values: how the statistics are printed (the table on stderr, JSON on stdout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// A readable table.
    Table,
    /// One JSON object on one line on stdout, after the guest's output (the `--stats-out`
    /// object; with `--stats-out` only the file gets it).
    Json,
    /// Nothing.
    None,
}

/// How a `cactus run` ended.
#[derive(Debug)]
pub enum Ending {
    /// The machine returned an outcome.
    Outcome(RunOutcome),
    /// gdb killed the target before the guest ended.
    Killed {
        /// Where the guest was stopped.
        pc: u32,
    },
}

/// Exit code for a fault, a cycle limit or a kill from gdb.
pub const EXIT_FAULT: u8 = 3;
/// Exit code for an ownership-oracle violation under `--oracle stop`.
pub const EXIT_VIOLATION: u8 = 4;

impl Ending {
    /// The process exit code for this ending (see the module documentation).
    pub fn exit_code(&self) -> u8 {
        match self {
            Ending::Outcome(RunOutcome::Exited { code }) => u8::try_from(*code).unwrap_or(u8::MAX),
            Ending::Outcome(RunOutcome::OracleViolation(_)) => EXIT_VIOLATION,
            Ending::Outcome(_) | Ending::Killed { .. } => EXIT_FAULT,
        }
    }

    /// The ending as JSON: `{"kind": "exited", "code": N}`, `{"kind": "fault", ...}`,
    /// `{"kind": "cycle_limit", ...}`, `{"kind": "oracle_violation", ...}` or
    /// `{"kind": "killed", "pc": N}`.
    pub fn to_json(&self) -> Value {
        match self {
            Ending::Outcome(RunOutcome::Exited { code }) => json!({"kind": "exited", "code": code}),
            Ending::Outcome(RunOutcome::Fault(report)) => {
                json!({"kind": "fault", "report": to_value(report)})
            }
            Ending::Outcome(RunOutcome::CycleLimit(report)) => {
                json!({"kind": "cycle_limit", "report": to_value(report)})
            }
            Ending::Outcome(RunOutcome::OracleViolation(report)) => {
                json!({"kind": "oracle_violation", "report": to_value(report)})
            }
            Ending::Outcome(RunOutcome::Breakpoint { pc }) => {
                json!({"kind": "breakpoint", "pc": pc})
            }
            Ending::Killed { pc } => json!({"kind": "killed", "pc": pc}),
        }
    }
}

fn to_value(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The `--stats json` / `--stats-out` object: `elf`, `profile`, `ending`, `exit_code` and the
/// simulator's `stats` (docs/cli.md lists the keys).
pub fn summary_json(elf: &Path, profile: &str, ending: &Ending, machine: &Machine) -> Value {
    json!({
        "elf": elf.display().to_string(),
        "profile": profile,
        "ending": ending.to_json(),
        "exit_code": ending.exit_code(),
        "stats": to_value(&machine.stats()),
    })
}

/// Prints the statistics in `format`: the table on stderr, without its per-task rows when
/// `firmware_table` (the firmware's own table follows with them); the JSON object as one line
/// on stdout after the guest's output (on a line of its own), unless `to_file` (the
/// `--stats-out` file has it then). Never JSON on stderr.
pub fn print_stats(
    format: StatsFormat,
    summary: &Value,
    machine: &Machine,
    to_file: bool,
    firmware_table: bool,
) {
    match format {
        StatsFormat::Table => eprint!("{}", table::render(&machine.stats(), !firmware_table)),
        StatsFormat::Json if !to_file => {
            if guest_output_mid_line() {
                println!();
            }
            println!("{summary}");
        }
        StatsFormat::Json | StatsFormat::None => {}
    }
}

/// Prints how the run ended on stderr: nothing for a clean exit, a line for a nonzero exit or
/// a kill, the full report for a fault, a cycle limit or a violation.
pub fn print_ending(ending: &Ending) {
    match ending {
        Ending::Outcome(RunOutcome::Exited { code: 0 }) => {}
        Ending::Outcome(RunOutcome::Exited { code }) => {
            eprintln!("cactus: guest exited with code {code}");
        }
        Ending::Outcome(RunOutcome::Fault(report) | RunOutcome::CycleLimit(report)) => {
            eprint!("cactus: {report}");
            if let Some(hint) = hints::likely_cause(report) {
                eprintln!("cactus: likely cause: {hint}");
            }
        }
        Ending::Outcome(RunOutcome::OracleViolation(report)) => eprint!("cactus: {report}"),
        Ending::Outcome(RunOutcome::Breakpoint { pc }) => {
            eprintln!("cactus: stopped at a breakpoint at pc {pc:#010x}");
        }
        Ending::Killed { pc } => eprintln!("cactus: gdb killed the guest at pc {pc:#010x}"),
    }
}

/// The `--trace` file: the ELF that ran, the profile's clock, the run's statistics object (as
/// `--stats json` prints it) and its recorded events, in order.
#[derive(serde::Serialize)]
struct TraceFile<'a, E> {
    elf: String,
    clock_hz: u64,
    summary: &'a Value,
    events: &'a [E],
}

/// Writes the recorded events to `path` as `{"elf": ..., "clock_hz": ..., "summary": {...},
/// "events": [...]}`, atomically.
pub fn write_trace(path: &Path, elf: &Path, summary: &Value, machine: &Machine) -> Result<()> {
    write_atomically(path, |out| {
        let doc = TraceFile {
            elf: elf.display().to_string(),
            clock_hz: machine.profile().clock_hz(),
            summary,
            events: machine.events(),
        };
        serde_json::to_writer(&mut *out, &doc)?;
        out.write_all(b"\n")?;
        Ok(())
    })
}
