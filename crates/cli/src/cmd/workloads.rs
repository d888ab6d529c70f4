//! `cactus workloads`: the workload catalogue (`list`) and the measured stack high water of
//! every task (`stacks`), from the manifests under `workloads/`.

use anyhow::{bail, Context, Result};
use cactus_bench::workloads::stacks::ManifestRun;
use cactus_firmware::catalogue::SizeClass;
use clap::{Args, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of `cactus workloads`.
#[derive(Args, Debug)]
pub struct WorkloadsArgs {
    #[command(subcommand)]
    command: WorkloadsCommand,
}

#[derive(Subcommand, Debug)]
enum WorkloadsCommand {
    /// Show every manifest under workloads/: suite, size, tasks, priorities, stack budgets.
    List(ListArgs),
    /// Build and run each (small) manifest on cactus-sim and tabulate every task's stack high
    /// water against its budget; the last line is "N passed, M failed" (runs).
    Stacks(StacksArgs),
    /// Build each manifest under MTSS and print every task's check margin: the most bytes
    /// any stack check its code can reach demands below its `sp` (the budgets' margin,
    /// docs/mtss.md).
    Margins(MarginsArgs),
}

/// Size class selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SizeArg {
    /// Small inputs (tests).
    Small,
    /// Full inputs (benchmarks).
    Full,
    /// Every manifest.
    All,
}

impl SizeArg {
    /// The value's name as typed (`small`, `full`, `all`).
    pub(crate) fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(|| "all".to_string(), |v| v.get_name().to_string())
    }

    /// The catalogue's size class (`None` = every manifest).
    pub(crate) fn class(self) -> Option<SizeClass> {
        match self {
            SizeArg::Small => Some(SizeClass::Small),
            SizeArg::Full => Some(SizeClass::Full),
            SizeArg::All => None,
        }
    }
}

#[derive(Args, Debug)]
struct ListArgs {
    /// Print the catalogue as JSON.
    #[arg(long)]
    json: bool,
    /// Only this suite (mtss, coremark-like, ccs, malardalen-like, crazyflie-like, demo).
    #[arg(long, value_name = "SUITE")]
    filter: Option<String>,
    /// The workloads directory (default: workloads/ of the Cactus tree).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct StacksArgs {
    /// Also write the table as Markdown to FILE.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Replace the table between FILE's marker lines `<!-- BEGIN cactus workloads stacks
    /// --size SIZE -->` and `<!-- END ... -->` (e.g. workloads/README.md).
    #[arg(long, value_name = "FILE")]
    update: Option<PathBuf>,
    /// Also write the rows as JSON to FILE (input of workloads/common/kernel/gen_manifests.py).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Only this suite.
    #[arg(long, value_name = "SUITE")]
    filter: Option<String>,
    /// Which size class to run.
    #[arg(long, value_enum, default_value_t = SizeArg::Small)]
    size: SizeArg,
    /// Parallel runs.
    #[arg(long, value_name = "N", default_value_t = 2)]
    jobs: usize,
    /// The workloads directory (default: workloads/ of the Cactus tree).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct MarginsArgs {
    /// Also write the rows as JSON to FILE (the `--margins` input of
    /// workloads/common/kernel/gen_manifests.py).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Only this suite.
    #[arg(long, value_name = "SUITE")]
    filter: Option<String>,
    /// Which size class.
    #[arg(long, value_enum, default_value_t = SizeArg::Small)]
    size: SizeArg,
    /// The workloads directory (default: workloads/ of the Cactus tree).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Runs `cactus workloads`.
pub fn main(args: WorkloadsArgs) -> Result<ExitCode> {
    match args.command {
        WorkloadsCommand::List(a) => list(a),
        WorkloadsCommand::Stacks(a) => stacks(a),
        WorkloadsCommand::Margins(a) => margins(a),
    }
}

/// `dir`, or workloads/ of the Cactus tree; an error if it is not a directory.
/// `command` names the command in the error when no checkout is found.
pub(crate) fn workloads_dir(dir: Option<PathBuf>, command: &str) -> Result<PathBuf> {
    let dir = match dir {
        Some(d) => d,
        None => cactus_firmware::checkout::find_checkout(command)?.join("workloads"),
    };
    if !dir.is_dir() {
        bail!("no workloads directory at {}", dir.display());
    }
    Ok(dir)
}

/// The catalogue entries of `dir` in `filter`'s suite and `size`; an unknown suite is an
/// error listing the suites.
pub(crate) fn selected(
    dir: &Path,
    filter: Option<&str>,
    size: Option<SizeClass>,
) -> Result<Vec<cactus_firmware::catalogue::Entry>> {
    let all = cactus_firmware::catalogue::discover(dir)?;
    if let Some(s) = filter {
        if !all.iter().any(|e| e.suite == s) {
            let mut suites: Vec<_> = all.iter().map(|e| e.suite.as_str()).collect();
            suites.dedup();
            bail!("--filter: no suite {s:?}; suites: {}", suites.join(", "));
        }
    }
    Ok(cactus_firmware::catalogue::select(all, filter, size))
}

/// Builds and runs every entry on cactus-sim, `jobs` at a time, with a progress bar on a
/// terminal (stderr) and a `FAIL manifest: why` line per failed run; results in `entries`
/// order.
pub(crate) fn run_all(
    dir: &Path,
    entries: &[cactus_firmware::catalogue::Entry],
    jobs: usize,
) -> Result<Vec<ManifestRun>> {
    let options = cactus_sweep::SweepOptions {
        workers: jobs,
        unit: "manifests".into(),
        ..Default::default()
    };
    let points = cactus_bench::workloads::stacks::points(dir, entries);
    let store = cactus_sweep::run(points, &options, None)?;
    Ok(store.rows().into_iter().cloned().collect())
}

fn list(a: ListArgs) -> Result<ExitCode> {
    let dir = workloads_dir(a.dir, "cactus workloads list")?;
    let entries = selected(&dir, a.filter.as_deref(), None)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&entries)?);
    } else {
        print!("{}", cactus_firmware::catalogue::render(&entries));
    }
    Ok(ExitCode::SUCCESS)
}

fn stacks(a: StacksArgs) -> Result<ExitCode> {
    let dir = workloads_dir(a.dir, "cactus workloads stacks")?;
    let entries = selected(&dir, a.filter.as_deref(), a.size.class())?;
    let size = a.size.name();
    // Read the document to update before the runs, so a bad file fails fast.
    let document = match &a.update {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            cactus_bench::workloads::stacks::splice(&text, &size, "")
                .map_err(|e| anyhow::anyhow!("--update {}: {e}", path.display()))?;
            Some(text)
        }
        None => None,
    };
    let runs = run_all(&dir, &entries, a.jobs)?;
    let table = cactus_bench::workloads::stacks::markdown(&runs);
    print!("{table}");
    if let Some(path) = &a.markdown {
        std::fs::write(path, &table).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let (Some(path), Some(text)) = (&a.update, &document) {
        let new = cactus_bench::workloads::stacks::splice(text, &size, &table)
            .map_err(|e| anyhow::anyhow!("--update {}: {e}", path.display()))?;
        std::fs::write(path, new).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &a.json {
        let rows: Vec<_> = runs.iter().flat_map(|r| r.rows.iter()).collect();
        let text = serde_json::to_string_pretty(&serde_json::json!({ "rows": rows }))?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    for r in &runs {
        let status = if r.note.is_none() { "PASS" } else { "FAIL" };
        println!("{status} {}", r.entry.manifest.display());
    }
    let failed = runs.iter().filter(|r| r.note.is_some()).count();
    println!("{} passed, {failed} failed", runs.len() - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn margins(a: MarginsArgs) -> Result<ExitCode> {
    use crate::cmd::workloads_margins::{json_rows, manifest_margins, table};
    let dir = workloads_dir(a.dir, "cactus workloads margins")?;
    let entries = selected(&dir, a.filter.as_deref(), a.size.class())?;
    let checks = cactus_firmware::CheckOptions {
        reserves: crate::cmd::reserves::toolchain_reserves()?,
        ..Default::default()
    };
    let mut all = Vec::new();
    for e in &entries {
        all.push(manifest_margins(&dir.join(&e.manifest), &checks)?);
    }
    print!("{}", table(&all));
    if let Some(path) = &a.json {
        let text = serde_json::to_string_pretty(&json_rows(&all))?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
