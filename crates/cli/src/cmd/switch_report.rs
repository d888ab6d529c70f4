//! `cactus switch-report MANIFEST.toml [--json]`: compiles a firmware's C units to assembly
//! with its own flags (as `cactus stack-report` does) and prints, for every loop its tasks'
//! code reaches, the switch point and switch block of compiler-driven context switching (paper
//! 002, docs/ccs.md): the registers a preemption there must save, the share of the full
//! 29-register state that is not saved, and how many instructions a deferred preemption waits
//! at most before the point.

use super::firmware_asm::compile;
use crate::report::text_table::{Align, TextTable};
use anyhow::{Context, Result};
use cactus_cc::switch::{switch_report, TaskSwitches};
use cactus_firmware::codegen;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus switch-report`.
#[derive(Args, Debug)]
pub struct SwitchReportArgs {
    /// The firmware manifest (`.toml`).
    manifest: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn main(args: SwitchReportArgs) -> Result<ExitCode> {
    let tasks = analyse(&args.manifest)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&tasks)?);
    } else {
        print!("{}", table(&tasks));
    }
    Ok(ExitCode::SUCCESS)
}

/// The switch report of the firmware at `path`.
pub fn analyse(path: &Path) -> Result<Vec<TaskSwitches>> {
    let fw = compile(path)?;
    let glue_stem = codegen::SOURCE_NAME.trim_end_matches(".c");
    let glue = fw.files.iter().position(|f| {
        f.origin.ends_with(&format!("-{glue_stem}.s")) && !f.origin.starts_with("kernel-")
    });
    let (m, parsed) = (&fw.manifest, &fw.files);
    let tasks = cactus_firmware::switch_table::task_entries(m);
    switch_report(parsed, &tasks, glue).with_context(|| format!("analysing {}", path.display()))
}

/// The report as a table: one row per loop.
pub fn table(tasks: &[TaskSwitches]) -> String {
    use Align::{Left, Right};
    let mut t = TextTable::new(
        0,
        &[
            ("task", Left),
            ("function", Left),
            ("loop", Left),
            ("depth", Right),
            ("insts", Right),
            ("point", Right),
            ("block", Right),
            ("max", Right),
            ("reduction", Right),
            ("deferral", Right),
        ],
    );
    for task in tasks {
        for l in &task.loops {
            let deferral = match l.deferral {
                Some(d) if l.calls => format!("{d}+calls"),
                Some(d) => d.to_string(),
                None => "none".to_string(),
            };
            t.row([
                task.task.clone(),
                short(&l.function, 32),
                short(&l.header, 10),
                l.depth.to_string(),
                l.insts.to_string(),
                l.point_regs.len().to_string(),
                l.block_regs.len().to_string(),
                l.max_live.to_string(),
                format!("{:.1}%", l.point_reduction_pct()),
                deferral,
            ]);
        }
        if !task.entry_root {
            t.line(format!(
                "note: task {}: {} is also called or referenced by the program: analysed as an ABI \
                 function (its callers may need s0-s11)",
                task.task, task.entry
            ));
        }
    }
    if let Some(why) = tasks.first().and_then(|t| t.open_world.as_ref()) {
        t.line(format!(
            "note: not a closed world ({why}): every address-taken function is an ABI root"
        ));
    }
    let mut out = t.render();
    out.push_str(
        "point/block/max: registers saved at the switch point, for the switch block, live at the \
         loop's worst instruction (of 29); reduction: share of the 29 the point does not save; \
         deferral: most loop instructions before the point (+calls: callees not counted; none: a \
         cycle of the loop avoids the point)\n",
    );
    out
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let tail: String = s
            .chars()
            .rev()
            .take(n - 1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        format!("…{tail}")
    }
}
