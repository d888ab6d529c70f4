//! The progress of a sweep: a bar on stderr when it is a terminal (hidden otherwise), with
//! the last thing a point said as its message, and notes that are always printed.

use crate::SweepError;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A handle on the sweep's progress, shared by every worker.
#[derive(Clone, Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar of `len` steps counting `unit` (e.g. "tasks"; "" for none), drawn on stderr only
    /// when it is a terminal.
    pub fn bar(len: u64, unit: &str) -> Result<Progress, SweepError> {
        let bar = ProgressBar::new(len);
        if std::io::stderr().is_terminal() {
            let unit = if unit.is_empty() {
                String::new()
            } else {
                format!(" {unit}")
            };
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{pos}}/{{len}}{unit} {{elapsed}} {{msg}}"
                ))
                .map_err(|e| SweepError::Progress(e.to_string()))?,
            );
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Ok(Progress { bar })
    }

    /// A progress that shows nothing (tests, library use).
    pub fn hidden() -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
        }
    }

    /// Shows `text` beside the bar (what the running point just did).
    pub fn message(&self, text: impl Into<String>) {
        self.bar.set_message(text.into());
    }

    /// Prints `line` on stderr above the bar (or alone, when there is no bar).
    pub fn note(&self, line: &str) {
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Runs `f` (which may print to stdout) with the bar hidden, then redraws it.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }

    /// One step done.
    pub fn step(&self) {
        self.bar.inc(1);
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// Steps done so far.
    pub fn position(&self) -> u64 {
        self.bar.position()
    }
}
