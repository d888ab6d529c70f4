//! `cactus stack-report FILE.s... [--entry NAME]... [--json]`: parses GCC RISC-V assembly
//! files as one program and prints every function's frame, callees and worst-case stack
//! depth (or why it has none), then the depth of each `--entry`. With one `MANIFEST.toml`
//! instead, reports each task of that firmware against its stack budget ([`firmware`]).

mod firmware;

use anyhow::{bail, Context, Result};
use cactus_analysis::{analyze, Depth, FunctionStack};
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
}

/// Runs `cactus stack-report`.
pub fn main(args: StackReportArgs) -> Result<ExitCode> {
    if let [manifest] = &args.files[..] {
        if manifest.extension().is_some_and(|e| e == "toml") {
            firmware::report(manifest, &args.entries, args.json)?;
            return Ok(ExitCode::SUCCESS);
        }
    }
    let mut files = Vec::new();
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        files.push(AsmFile::parse(&text, &path.display().to_string())?);
    }
    let report = analyze(&files);
    let mut entries = Vec::new();
    for name in &args.entries {
        let Some(f) = find(&report, name) else {
            bail!("--entry {name}: no such function in the given files");
        };
        entries.push(f);
    }
    if args.json {
        let doc = json!({
            "functions": report.iter().map(function_json).collect::<Vec<_>>(),
            "entries": entries.iter().map(|f| json!({
                "name": f.name,
                "depth": depth_json(&f.depth),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&report);
        for f in entries {
            println!("entry {}: {}", f.name, f.depth);
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
    let width = report
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(0)
        .max("function".len());
    println!(
        "{:<width$}  {:>6}  {:<7}  {:<30}  depth",
        "function", "frame", "kind", "callees"
    );
    for f in report {
        let callees = if f.callees.is_empty() {
            "-".to_string()
        } else {
            f.callees.join(", ")
        };
        println!(
            "{:<width$}  {:>6}  {:<7}  {:<30}  {}",
            f.name,
            f.frame,
            kind(f),
            callees,
            f.depth
        );
    }
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
