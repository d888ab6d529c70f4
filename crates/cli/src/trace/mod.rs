//! `cactus run --trace FILE`: the run's events in one of three formats. Cactus's own JSON (every
//! event as recorded), or a timeline ([`timeline`]) of tasks, traps and kernel objects as a
//! Perfetto trace ([`perfetto`], for ui.perfetto.dev) or as Chrome trace-event JSON
//! ([`chrome`]). docs/cli.md "The trace file" says what each track shows.

pub mod calls;
pub mod chrome;
pub mod perfetto;
pub mod timeline;

use crate::report::write_atomically;
use anyhow::Result;
use cactus_sim::Machine;
use clap::ValueEnum;
use object::{Object, ObjectSymbol, SymbolKind};
use std::io::Write;
use std::path::Path;

/// `--trace-format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    /// By the file's name: `.perfetto-trace` or `.pftrace` is Perfetto, anything else Cactus
    /// JSON.
    Auto,
    /// Cactus's own JSON: every recorded event.
    Cactus,
    /// Perfetto's protobuf trace (TrackEvent).
    Perfetto,
    /// Chrome trace-event JSON.
    Chrome,
}

impl TraceFormat {
    /// The format a file at `path` gets (Auto decided by its name).
    pub fn for_path(self, path: &Path) -> TraceFormat {
        if self != TraceFormat::Auto {
            return self;
        }
        let name = path.to_string_lossy();
        if name.ends_with(".perfetto-trace") || name.ends_with(".pftrace") {
            TraceFormat::Perfetto
        } else {
            TraceFormat::Cactus
        }
    }

    /// Whether the run needs the task probe (the timeline formats read task states).
    pub fn needs_probe(self) -> bool {
        matches!(self, TraceFormat::Perfetto | TraceFormat::Chrome)
    }
}

/// The ELF's data objects, for naming wait lists (`block_queue`, `pool+8`), and its kernel API
/// functions, for naming the calls the run probed.
pub struct ElfNames {
    objects: Vec<(u32, u32, String)>,
    calls: calls::KernelCalls,
}

impl ElfNames {
    /// The data symbols of `elf` (none if it does not parse).
    pub fn new(elf: &[u8]) -> ElfNames {
        let mut objects: Vec<(u32, u32, String)> = match object::File::parse(elf) {
            Ok(f) => f
                .symbols()
                .filter(|s| s.kind() == SymbolKind::Data && s.size() > 0)
                .filter_map(|s| {
                    Some((
                        s.address() as u32,
                        s.size() as u32,
                        s.name().ok()?.to_string(),
                    ))
                })
                .collect(),
            Err(_) => Vec::new(),
        };
        objects.sort();
        ElfNames {
            objects,
            calls: calls::KernelCalls::of_elf(elf),
        }
    }
}

impl timeline::Names for ElfNames {
    fn object(&self, addr: u32) -> Option<String> {
        let (base, size, name) = self
            .objects
            .iter()
            .rev()
            .find(|(base, _, _)| *base <= addr)?;
        let off = addr - base;
        (off < *size).then(|| {
            if off == 0 {
                name.clone()
            } else {
                format!("{name}+{off}")
            }
        })
    }

    fn call(&self, pc: u32, a0: u32, a1: u32) -> Option<String> {
        self.calls.name(pc, a0, a1, &|a| self.object(a))
    }
}

/// Writes the events of `machine`'s run of `elf` (its bytes `bytes`; `summary` its statistics
/// object, kept in the Cactus format) to `path` in `format`.
pub fn write(
    path: &Path,
    format: TraceFormat,
    elf: &Path,
    bytes: &[u8],
    summary: &serde_json::Value,
    machine: &Machine,
) -> Result<()> {
    match format.for_path(path) {
        TraceFormat::Auto | TraceFormat::Cactus => {
            crate::report::write_trace(path, elf, summary, machine)
        }
        TraceFormat::Perfetto => {
            let t = of_run(bytes, machine);
            let data = perfetto::encode(&t, &process_name(elf));
            write_atomically(path, |out| Ok(out.write_all(&data)?))
        }
        TraceFormat::Chrome => {
            let t = of_run(bytes, machine);
            let doc = chrome::encode(&t, &process_name(elf));
            write_atomically(path, |out| {
                serde_json::to_writer(&mut *out, &doc)?;
                Ok(out.write_all(b"\n")?)
            })
        }
    }
}

/// The timeline of `machine`'s run of the ELF `bytes`.
pub fn of_run(bytes: &[u8], machine: &Machine) -> timeline::Timeline {
    timeline::build(
        machine.events(),
        machine.profile().clock_hz(),
        &ElfNames::new(bytes),
    )
}

fn process_name(elf: &Path) -> String {
    elf.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "firmware".into())
}

#[cfg(test)]
mod tests;
