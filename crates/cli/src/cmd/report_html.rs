//! `cactus report TRACE.json [-o FILE.html]`: the HTML page of `cactus run --report` made again
//! from a run's Cactus-format trace (`cactus run --trace TRACE.json`), which holds the run's
//! events, its statistics and the profile's clock.

use crate::report::write_atomically;
use anyhow::{bail, Context, Result};
use cactus_sim::Event;
use clap::Args;
use serde::Deserialize;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// A Cactus-format trace written by `cactus run --trace FILE.json`.
    pub trace: PathBuf,
    /// The page to write [default: the trace's name with `.html`].
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// What the page needs of a trace file.
#[derive(Deserialize)]
struct TraceFile {
    elf: String,
    clock_hz: Option<u64>,
    summary: Option<serde_json::Value>,
    events: Vec<Event>,
}

/// Runs `cactus report`; a file that is not a Cactus trace (or one written before traces held
/// the run's statistics) is bad input naming it.
pub fn main(args: ReportArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.trace)
        .with_context(|| format!("cannot read {}", args.trace.display()))?;
    let file: TraceFile = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a Cactus trace (`cactus run --trace FILE.json` writes one)",
            args.trace.display()
        )
    })?;
    let (Some(clock_hz), Some(summary)) = (file.clock_hz, file.summary) else {
        bail!(
            "{} has no statistics or clock: it was written by an older cactus; run again with --trace",
            args.trace.display()
        );
    };
    let output = args
        .output
        .unwrap_or_else(|| args.trace.with_extension("html"));
    // The ELF names the kernel objects tasks wait on; without it they show as addresses.
    let elf = std::fs::read(&file.elf).unwrap_or_default();
    let timeline =
        crate::trace::timeline::build(&file.events, clock_hz, &crate::trace::ElfNames::new(&elf));
    let page = crate::html::RunPage {
        title: file.elf.clone(),
        summary: &summary,
        events: &file.events,
        timeline: &timeline,
        bounds: Default::default(),
    };
    let html = crate::html::render(&page);
    write_atomically(&output, |out| Ok(out.write_all(html.as_bytes())?))?;
    eprintln!("cactus: report: {}", output.display());
    Ok(ExitCode::SUCCESS)
}
