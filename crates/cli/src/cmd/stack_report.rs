//! `cactus stack-report FILE.s... [--machine FILE]... [--toolchain-libs] [--entry NAME]...
//! [--path] [--json]`: parses GCC RISC-V assembly files as one program and prints every function's
//! frame, callees and worst-case stack depth (or why it has none), then the depth of each
//! `--entry`; callees the assembly does not define take their depth from the machine code of
//! `--machine` objects/archives/ELFs and, with `--toolchain-libs`, of libgcc and picolibc
//! ([`machine`]). With one `MANIFEST.toml` instead, reports each task of that firmware
//! against its stack budget ([`firmware`]).

mod firmware;
mod irq;
mod machine;

pub(crate) use firmware::{task_bounds, total_bound};
mod output;
mod srp;
mod tasks;

use crate::report::text_table::{Align, TextTable};
use anyhow::{bail, Context, Result};
use cactus_analysis::{analyze_with_externals, Annotations, Depth, FunctionStack, Program};
use cactus_asm::AsmFile;
use clap::Args;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `cactus stack-report`.
#[derive(Args, Debug)]
pub struct StackReportArgs {
    /// Assembly files (`gcc -S` output) forming one program, or one firmware manifest
    /// (`.toml`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A task entry function whose worst-case depth to report (repeatable).
    #[arg(long = "entry", value_name = "NAME")]
    entries: Vec<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Also print the worst-case call path of every task (manifest) or `--entry` (assembly
    /// files): each function with its offset below the entry `sp` and its frame. JSON always
    /// has the paths.
    #[arg(long)]
    path: bool,
    /// An object, static archive or linked ELF whose functions' machine-code depths serve
    /// callees the assembly does not define (repeatable; assembly files only).
    #[arg(long = "machine", value_name = "FILE")]
    machine: Vec<PathBuf>,
    /// Also take such depths from the toolchain's libgcc and picolibc (cached in
    /// `build/cache/` of the Cactus tree; assembly files only).
    #[arg(long)]
    toolchain_libs: bool,
}

/// Runs `cactus stack-report`.
pub fn main(args: StackReportArgs) -> Result<ExitCode> {
    if let [manifest] = &args.files[..] {
        if manifest.extension().is_some_and(|e| e == "toml") {
            if !args.machine.is_empty() || args.toolchain_libs {
                bail!("--machine and --toolchain-libs apply to assembly files, not a manifest");
            }
            firmware::report(manifest, &args.entries, args.json, args.path)?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut files = Vec::new();
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        files.push(AsmFile::parse(&text, &path.display().to_string())?);
    }
    let externals = machine::external_depths(&args.machine, args.toolchain_libs)?;
    let report = analyze_with_externals(&files, &externals);
    let program = Program::new(&files, &externals);
    let mut entries = Vec::new();
    for name in &args.entries {
        let Some(e) = program.entry(name, &Annotations::default())? else {
            bail!("--entry {name}: no such function in the given files");
        };
        entries.push((name, e));
    }
    if args.json {
        let doc = json!({
            "functions": report.iter().map(function_json).collect::<Vec<_>>(),
            "entries": entries.iter().map(|(name, e)| json!({
                "name": name,
                "depth": depth_json(&e.depth),
                "path": e.path.iter().map(|s| json!({
                    "function": s.function,
                    "offset": s.offset,
                    "frame": s.frame,
                    "machine_code": s.machine,
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&report);
        for (name, e) in entries {
            println!("entry {name}: {}", e.depth);
            if args.path {
                let mut steps = TextTable::headless(4, &[Align::Right, Align::Left, Align::Left]);
                for s in &e.path {
                    let kind = if s.machine { " (machine code)" } else { "" };
                    steps.row([
                        s.offset.to_string(),
                        s.function.clone(),
                        format!("{}{kind}", s.frame),
                    ]);
                }
                print!("{}", steps.render());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The first function of that name (files in command-line order).
fn find<'r>(report: &'r [FunctionStack], name: &str) -> Option<&'r FunctionStack> {
    report.iter().find(|f| f.name == name)
}

fn kind(f: &FunctionStack) -> &'static str {
    if f.dynamic {
        "dynamic"
    } else {
        "static"
    }
}

fn print_table(report: &[FunctionStack]) {
    let mut t = TextTable::new(
        0,
        &[
            ("function", Align::Left),
            ("frame", Align::Right),
            ("kind", Align::Left),
            ("callees", Align::Left),
            ("depth", Align::Left),
        ],
    );
    for f in report {
        let callees = if f.callees.is_empty() {
            "-".to_string()
        } else {
            f.callees.join(", ")
        };
        t.row([
            f.name.clone(),
            f.frame.to_string(),
            kind(f).to_string(),
            callees,
            f.depth.to_string(),
        ]);
    }
    print!("{}", t.render());
}

fn function_json(f: &FunctionStack) -> Value {
    json!({
        "name": f.name,
        "file": f.file,
        "frame": f.frame,
        "kind": kind(f),
        "callees": f.callees,
        "depth": depth_json(&f.depth),
    })
}

/// `{"bounded": N}` or `{"unbounded": "reason"}`.
fn depth_json(d: &Depth) -> Value {
    match d {
        Depth::Bounded(n) => json!({ "bounded": n }),
        Depth::Unbounded(why) => json!({ "unbounded": why.to_string() }),
    }
}
