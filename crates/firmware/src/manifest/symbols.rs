//! Link errors traced back to the manifest: a task `entry`, an interrupt `handler` or the
//! firmware `init` that names a
//! function no source defines fails at link time with an undefined reference from the
//! generated glue; this turns it into a manifest error naming the file, the line, the key
//! (`task[2].entry`), the task and the missing symbol.

use super::raw::RawManifest;
use super::validate::Ctx;
use super::{Manifest, ManifestError};
use std::path::PathBuf;
use toml::Spanned;

/// The symbols a linker transcript reports as undefined (`undefined reference to `sym'`),
/// in order of first appearance, without repeats.
pub fn undefined_symbols(linker_output: &str) -> Vec<String> {
    const MARK: &str = "undefined reference to `";
    let mut out: Vec<String> = Vec::new();
    for line in linker_output.lines() {
        let Some(at) = line.find(MARK) else { continue };
        let rest = &line[at + MARK.len()..];
        let Some(end) = rest.find('\'') else { continue };
        let sym = &rest[..end];
        if !sym.is_empty() && !out.iter().any(|s| s == sym) {
            out.push(sym.to_string());
        }
    }
    out
}

/// The symbol a direct handler's definition (`CACTUS_DIRECT_ISR_SOFTWARE`, cactus.h) gives it
/// and the kernel's direct entry jumps to.
pub const DIRECT_SYMBOL: &str = "cactus_direct_isr_software";

impl Manifest {
    /// The manifest error for the first of `undefined` that the manifest itself names as a
    /// task's `entry`, an interrupt's `handler`, a timer's `callback` or the firmware's
    /// `init`, if any.
    pub fn undefined_entry(&self, undefined: &[String]) -> Option<ManifestError> {
        // Spans come from the text again: the validated manifest keeps values, not places.
        let raw: Option<RawManifest> = toml::from_str(&self.text).ok();
        let cx = Ctx {
            text: &self.text,
            file: self.path.display().to_string(),
            dir: PathBuf::new(),
        };
        let span_of = |v: Option<&Spanned<String>>| v.map(Spanned::span);
        for sym in undefined {
            if let Some((i, t)) = self.tasks.iter().enumerate().find(|(_, t)| &t.entry == sym) {
                let sources: Vec<String> =
                    t.sources.iter().map(|s| s.display().to_string()).collect();
                let span = span_of(raw.as_ref().and_then(|r| r.task.get(i)).map(|t| &t.entry));
                return Some(cx.err(
                    span,
                    &format!("task[{i}].entry"),
                    format!(
                        "task `{}`: no function `{sym}` is defined in its sources ({}) or the firmware's",
                        t.name,
                        sources.join(", ")
                    ),
                ));
            }
            if let Some(i) = self.interrupts.iter().position(|irq| &irq.handler == sym) {
                let span = span_of(
                    raw.as_ref()
                        .and_then(|r| r.interrupt.get(i))
                        .map(|x| &x.handler),
                );
                return Some(cx.err(
                    span,
                    &format!("interrupt[{i}].handler"),
                    format!("no function `{sym}` is defined in any source of the firmware"),
                ));
            }
            // A direct handler is reached through the name its definition macro gives it.
            if let Some(i) = self
                .interrupts
                .iter()
                .position(|irq| irq.direct && sym == DIRECT_SYMBOL)
            {
                let span = span_of(
                    raw.as_ref()
                        .and_then(|r| r.interrupt.get(i))
                        .map(|x| &x.handler),
                );
                return Some(cx.err(
                    span,
                    &format!("interrupt[{i}].handler"),
                    format!(
                        "no direct handler is defined: define `{}` with \
                         CACTUS_DIRECT_ISR_SOFTWARE({}) in a source of the firmware",
                        self.interrupts[i].handler, self.interrupts[i].handler
                    ),
                ));
            }
            if let Some((i, t)) = self
                .timers
                .iter()
                .enumerate()
                .find(|(_, t)| &t.callback == sym)
            {
                let span = span_of(
                    raw.as_ref()
                        .and_then(|r| r.timer.get(i))
                        .map(|t| &t.callback),
                );
                return Some(cx.err(
                    span,
                    &format!("timer[{i}].callback"),
                    format!(
                        "timer `{}`: no function `{sym}` is defined in any source of the firmware",
                        t.name
                    ),
                ));
            }
            if self.init.as_deref() == Some(sym.as_str()) {
                let span = span_of(raw.as_ref().and_then(|r| r.firmware.init.as_ref()));
                return Some(cx.err(
                    span,
                    "firmware.init",
                    format!("no function `{sym}` is defined in any source of the firmware"),
                ));
            }
        }
        None
    }
}
