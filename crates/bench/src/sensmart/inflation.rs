//! The `inflation` part of `cactus bench sensmart` (docs/sensmart.md "Code inflation and
//! execution time"): SenSmart's Figures 4 and 5 on Cactus's workloads. Each workload is built
//! and run on cactus-sim in every [`Rewrite`] (no pass, each of the three passes alone, and
//! the combination SenSmart uses); for each the task code's bytes (linked, kernel and
//! generated glue excluded: [`task_code_bytes`]) and the cycles to completion, and whether it
//! prints what the plain build prints. A rewritten build whose output differs fails its row.

use super::preempt::{self, build_and_run_with, guest_lines, PreemptOptions, Ran};
use super::{Part, SensmartRow};
use crate::elf_facts::first_line;
use cactus_firmware::{Manifest, Overrides};
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One way of building a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rewrite {
    /// No pass: the manifest as written (static stacks, no checks).
    Plain,
    /// `kernel.preempt_traps = 256`: counted backward branches.
    PreemptTraps,
    /// `checks = "mtss"` alone: the stack checks the logical-stack build carries, so that its
    /// column can be read without them.
    Checks,
    /// `--stack relocate --window sw`: the logical-stack pass (with the `mtss` stack checks
    /// that variant needs).
    LogicalStack,
    /// `kernel.isolate`: checked stores, jumps and library writers.
    Isolate,
    /// What SenSmart runs: the logical stack and counted branches together (isolation is
    /// refused with a moving strategy, `ISOLATE_NEEDS_STATIC`).
    Sensmart,
}

impl Rewrite {
    /// Every way, the plain build first.
    pub const ALL: [Rewrite; 6] = [
        Rewrite::Plain,
        Rewrite::PreemptTraps,
        Rewrite::Checks,
        Rewrite::LogicalStack,
        Rewrite::Isolate,
        Rewrite::Sensmart,
    ];

    /// The column's name.
    pub fn name(self) -> &'static str {
        match self {
            Rewrite::Plain => "none",
            Rewrite::PreemptTraps => "preempt-traps",
            Rewrite::Checks => "mtss checks",
            Rewrite::LogicalStack => "logical-stack",
            Rewrite::Isolate => "isolate",
            Rewrite::Sensmart => "sensmart",
        }
    }

    /// The manifest overrides that make the build.
    pub fn overrides(self) -> Overrides {
        let logical = || Overrides {
            stack: Some("relocate".into()),
            window: Some("sw".into()),
            ..Overrides::default()
        };
        match self {
            Rewrite::Plain => Overrides::default(),
            Rewrite::PreemptTraps => Overrides {
                preempt_traps: Some(preempt::PERIOD),
                ..Overrides::default()
            },
            Rewrite::Checks => Overrides {
                checks: Some("mtss".into()),
                ..Overrides::default()
            },
            Rewrite::LogicalStack => logical(),
            Rewrite::Isolate => Overrides {
                isolate: true,
                ..Overrides::default()
            },
            Rewrite::Sensmart => Overrides {
                preempt_traps: Some(preempt::PERIOD),
                ..logical()
            },
        }
    }
}

/// One build of a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// How it was built.
    pub rewrite: Rewrite,
    /// Bytes of the task code (linked; [`task_code_bytes`]).
    pub code: u64,
    /// Cycles to completion (the run's cycles, asleep included: the workloads' periods are the
    /// same in every build, so this is the time to the end of the run).
    pub cycles: u64,
    /// Cycles not asleep in `wfi`.
    pub awake: u64,
}

/// The builds of one workload, in [`Rewrite::ALL`] order (only those that built and ran).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Inflation {
    /// The builds.
    pub builds: Vec<Build>,
}

impl Inflation {
    /// The build made `rewrite`'s way.
    pub fn get(&self, rewrite: Rewrite) -> Option<&Build> {
        self.builds.iter().find(|b| b.rewrite == rewrite)
    }

    /// Code inflation of `rewrite` over the plain build, percent.
    pub fn code_pct(&self, rewrite: Rewrite) -> Option<f64> {
        pct(self.get(Rewrite::Plain)?.code, self.get(rewrite)?.code)
    }

    /// Slowdown of `rewrite` over the plain build (awake cycles), percent.
    pub fn slowdown_pct(&self, rewrite: Rewrite) -> Option<f64> {
        pct(self.get(Rewrite::Plain)?.awake, self.get(rewrite)?.awake)
    }
}

/// `(new / base - 1) * 100`, None when `base` is 0.
pub fn pct(base: u64, new: u64) -> Option<f64> {
    (base > 0).then(|| (new as f64 / base as f64 - 1.0) * 100.0)
}

/// The arithmetic mean of the values present, None when there are none.
pub fn mean(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let v: Vec<f64> = values.into_iter().flatten().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// The workloads at `small`: two light ones, so the whole bench stays under a minute.
pub const SMALL: [&str; 2] = [
    "workloads/mtss/network-small.toml",
    "workloads/coremark-like/coremark-single-small.toml",
];

/// The workloads at `full`: every MTSS workload (`workloads/mtss/*-small.toml`), CoreMark and
/// the demo.
pub const FULL: [&str; 8] = [
    "workloads/mtss/automotive-small.toml",
    "workloads/mtss/mediabench-small.toml",
    "workloads/mtss/network-small.toml",
    "workloads/mtss/ptrdist-small.toml",
    "workloads/mtss/security-small.toml",
    "workloads/mtss/telecomm-small.toml",
    "workloads/coremark-like/coremark-single-small.toml",
    "workloads/demo/demo.toml",
];

/// The part's workloads at the options' size.
pub fn workloads(o: &PreemptOptions) -> Vec<&'static str> {
    match o.size {
        crate::Size::Small => SMALL.to_vec(),
        crate::Size::Full => FULL.to_vec(),
    }
}

/// The part's points: one per workload.
pub fn points(o: &PreemptOptions) -> Vec<Point<'_, SensmartRow>> {
    workloads(o)
        .into_iter()
        .map(|m| {
            let name = Path::new(m)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("?")
                .to_string();
            Point::new(
                format!("inflation/{name}"),
                format!("inflation {name}"),
                move |_, progress: &Progress| {
                    let row = measure(o, m, &name);
                    if let Some(note) = &row.note {
                        progress.note(&format!("cactus: inflation {}: {note}", row.name));
                    }
                    row
                },
            )
        })
        .collect()
}

/// The number of task units of the manifest at `path` (each distinct task source: the first
/// objects of a build, `cactus_firmware::units` order).
fn task_units(o: &PreemptOptions, path: &str) -> Result<usize, String> {
    let m = Manifest::load(&o.root.join(path)).map_err(|e| first_line(&e.to_string()))?;
    let mut seen: Vec<&std::path::PathBuf> = Vec::new();
    for s in m.tasks.iter().flat_map(|t| t.sources.iter()) {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    Ok(seen.len())
}

/// Bytes of the task code of the build in `dir`: the linked sizes of every function defined
/// by the first `units` objects (`dir/obj/NN-*.o`, the task sources; the generated glue and
/// the kernel follow them), the counted-branch, isolation and translation stubs included
/// (they lie inside their function's `.size`), the kernel entries they call and the
/// `cactus_lstack` records (data) not. Linked sizes, because linker relaxation shortens what
/// the passes add (`lui` + `lw` of a small-data word becomes one `gp`-relative `lw`).
pub fn task_code_bytes(dir: &Path, units: usize) -> Result<u64, String> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let elf_path = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "elf"))
        .ok_or_else(|| format!("{}: no ELF", dir.display()))?;
    let elf = std::fs::read(&elf_path).map_err(|e| format!("{}: {e}", elf_path.display()))?;
    let elf = object::File::parse(&*elf).map_err(|e| format!("{}: {e}", elf_path.display()))?;
    // The task objects: their file names (the STT_FILE symbols heading their locals in the
    // ELF) and their global functions.
    let mut objs: Vec<std::path::PathBuf> = std::fs::read_dir(dir.join("obj"))
        .map_err(|e| format!("{}: {e}", dir.join("obj").display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .filter(|p| {
            let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            n.len() > 3 && n.as_bytes()[..2].iter().all(u8::is_ascii_digit)
        })
        .collect();
    objs.sort();
    if objs.len() < units {
        return Err(format!(
            "{}: {} task objects, want {units}",
            dir.display(),
            objs.len()
        ));
    }
    let mut files: Vec<String> = Vec::new();
    let mut globals: Vec<String> = Vec::new();
    for p in &objs[..units] {
        let data = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
        let o = object::File::parse(&*data).map_err(|e| format!("{}: {e}", p.display()))?;
        let (mut file, mut locals) = (None, false);
        for s in o.symbols() {
            match s.kind() {
                SymbolKind::File if file.is_none() => file = s.name().ok().map(str::to_string),
                SymbolKind::Text if s.is_definition() && s.is_global() => {
                    globals.push(s.name().unwrap_or("").to_string())
                }
                SymbolKind::Text if s.is_definition() && s.size() > 0 => locals = true,
                _ => {}
            }
        }
        // An object without local functions leaves no FILE symbol in the ELF (ld keeps a
        // FILE symbol only for the locals after it).
        if locals {
            files.push(file.ok_or_else(|| format!("{}: no FILE symbol", p.display()))?);
        }
    }
    // In the ELF, each input object's locals follow its FILE symbol, in link order: the task
    // objects are linked first among the C units, so the first group of each name is theirs
    // (a name listed twice takes the next group).
    let mut bytes = 0u64;
    let mut wanted = files.clone();
    let mut in_task = false;
    for s in elf.symbols() {
        match s.kind() {
            SymbolKind::File => {
                let name = s.name().unwrap_or("");
                in_task = match wanted.iter().position(|f| f == name) {
                    Some(i) => {
                        wanted.remove(i);
                        true
                    }
                    None => false,
                };
            }
            SymbolKind::Text if s.is_definition() => {
                let name = s.name().unwrap_or("");
                let mine = if s.is_global() {
                    globals.iter().any(|g| g == name)
                } else {
                    in_task
                };
                if mine {
                    bytes += s.size();
                }
            }
            _ => {}
        }
    }
    if !wanted.is_empty() {
        return Err(format!(
            "{}: no symbols of {} in the ELF",
            elf_path.display(),
            wanted.join(", ")
        ));
    }
    Ok(bytes)
}

/// Why `other` does not count as the same program as `base` (None: it prints the same).
fn differs(base: &Ran, other: &Ran, what: &str) -> Option<String> {
    match &other.exit {
        Ok(0) if guest_lines(&base.uart) == guest_lines(&other.uart) => None,
        Ok(0) => Some(format!("{what}: the output differs from the plain build's")),
        Ok(c) => Some(format!("{what}: exit code {c}")),
        Err(e) => Some(format!("{what}: {e}")),
    }
}

/// Builds and runs workload `path` every [`Rewrite`] way.
pub fn measure(o: &PreemptOptions, path: &str, name: &str) -> SensmartRow {
    let mut r = SensmartRow::new(Part::Inflation, name);
    let units = match task_units(o, path) {
        Ok(n) => n,
        Err(e) => {
            r.note = Some(e);
            return r;
        }
    };
    let mut inf = Inflation::default();
    let mut base: Option<Ran> = None;
    let mut notes = Vec::new();
    for rw in Rewrite::ALL {
        let ran = match build_and_run_with(o, path, &rw.overrides()) {
            Ok(x) => x,
            Err(e) => {
                notes.push(format!("{}: {e}", rw.name()));
                continue;
            }
        };
        let code = match task_code_bytes(&ran.dir, units) {
            Ok(c) => c,
            Err(e) => {
                notes.push(format!("{}: {e}", rw.name()));
                continue;
            }
        };
        match &base {
            None if rw == Rewrite::Plain => match &ran.exit {
                Ok(0) => {}
                Ok(c) => notes.push(format!("none: exit code {c}")),
                Err(e) => notes.push(format!("none: {e}")),
            },
            Some(b) => notes.extend(differs(b, &ran, rw.name())),
            None => {}
        }
        inf.builds.push(Build {
            rewrite: rw,
            code,
            cycles: ran.cycles,
            awake: ran.awake,
        });
        if rw == Rewrite::Plain {
            base = Some(ran);
        }
    }
    if base.is_none() && notes.is_empty() {
        notes.push("no plain build".into());
    }
    r.inflation = Some(inf);
    r.note = (!notes.is_empty()).then(|| notes.join("; "));
    r.passed = r.note.is_none();
    r
}

/// The rewritten builds (every [`Rewrite`] but the plain one).
const REWRITTEN: [Rewrite; 5] = [
    Rewrite::PreemptTraps,
    Rewrite::Checks,
    Rewrite::LogicalStack,
    Rewrite::Isolate,
    Rewrite::Sensmart,
];

/// The mean code inflation and slowdown of each rewritten build over the passed rows, in
/// [`REWRITTEN`] order: `(code %, slowdown %)`.
pub fn averages(rows: &[SensmartRow]) -> [(Option<f64>, Option<f64>); 5] {
    let ok: Vec<&Inflation> = rows
        .iter()
        .filter(|r| r.part == Part::Inflation && r.passed)
        .filter_map(|r| r.inflation.as_ref())
        .collect();
    REWRITTEN.map(|rw| {
        (
            mean(ok.iter().map(|i| i.code_pct(rw))),
            mean(ok.iter().map(|i| i.slowdown_pct(rw))),
        )
    })
}

/// What the paper reports for Figures 4 and 5 (SenSmart on AVR, the t-kernel's seven kernel
/// benchmark programs), quoted from its text: the figures' bars are not in it.
pub const PAPER: &str = "paper (section V-B, Figures 4-5, seven t-kernel benchmark programs on \
    AVR; the bars' values are not in its text): \"The code inflation under SenSmart is within \
    200%\"; execution time \"only shows a moderate slowdown as compared to the t-kernel\"";

fn f1(v: Option<f64>) -> String {
    v.map_or("-".into(), |v| format!("{v:+.1}"))
}

/// The part's tables: Figure 4 (task code bytes and inflation) and Figure 5 (cycles and
/// slowdown), a row per workload and the mean.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mine: Vec<&SensmartRow> = rows.iter().filter(|r| r.part == Part::Inflation).collect();
    let avg = averages(rows);
    let mut heads4 = vec!["workload".to_string(), ">none".to_string()];
    let mut heads5 = heads4.clone();
    for rw in REWRITTEN {
        heads4.push(format!(">{}", rw.name()));
        heads4.push(">%".into());
        heads5.push(format!(">{}", rw.name()));
        heads5.push(">%".into());
    }
    heads4.push("result".into());
    heads5.push("result".into());
    let h4: Vec<&str> = heads4.iter().map(String::as_str).collect();
    let h5: Vec<&str> = heads5.iter().map(String::as_str).collect();
    let (mut t4, mut t5) = (Table::new(&h4), Table::new(&h5));
    for r in &mine {
        let i = r.inflation.clone().unwrap_or_default();
        let mut c4 = vec![
            r.name.clone(),
            or_dash(i.get(Rewrite::Plain).map(|b| b.code)),
        ];
        let mut c5 = vec![
            r.name.clone(),
            or_dash(i.get(Rewrite::Plain).map(|b| b.awake)),
        ];
        for rw in REWRITTEN {
            c4.push(or_dash(i.get(rw).map(|b| b.code)));
            c4.push(f1(i.code_pct(rw)));
            c5.push(or_dash(i.get(rw).map(|b| b.awake)));
            c5.push(f1(i.slowdown_pct(rw)));
        }
        c4.push(super::verdict(r));
        c5.push(super::verdict(r));
        t4.row(c4);
        t5.row(c5);
    }
    let mut m4 = vec!["mean (passed rows)".to_string(), "".to_string()];
    let mut m5 = m4.clone();
    for (code, slow) in avg {
        m4.extend(["".to_string(), f1(code)]);
        m5.extend(["".to_string(), f1(slow)]);
    }
    m4.push("".into());
    m5.push("".into());
    t4.row(m4);
    t5.row(m5);
    format!(
        "### Code inflation and execution time of the rewritten workloads (Figures 4 and 5)\n\n\
         {PAPER}.\n\nFigure 4: bytes of task code (linked; the kernel, its entries and the \
         generated glue excluded) and inflation over no pass:\n\n{}\nFigure 5: awake cycles to \
         completion and slowdown over no pass:\n\n{}",
        t4.render(),
        t5.render()
    )
}

/// The part's summary pairs: the mean code inflation and slowdown of each rewritten build
/// (`inflation_<rewrite>_code_pct`, `inflation_<rewrite>_slowdown_pct`).
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let avg = averages(rows);
    let keys: [(&str, &str); 5] = [
        (
            "inflation_preempt_code_pct",
            "inflation_preempt_slowdown_pct",
        ),
        ("inflation_checks_code_pct", "inflation_checks_slowdown_pct"),
        (
            "inflation_logical_code_pct",
            "inflation_logical_slowdown_pct",
        ),
        (
            "inflation_isolate_code_pct",
            "inflation_isolate_slowdown_pct",
        ),
        (
            "inflation_sensmart_code_pct",
            "inflation_sensmart_slowdown_pct",
        ),
    ];
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1}"));
    let mut out = Vec::new();
    for ((kc, ks), (c, s)) in keys.into_iter().zip(avg) {
        out.push((kc, f(c)));
        out.push((ks, f(s)));
    }
    out
}

/// What the part's columns mean.
pub fn reading() -> String {
    format!(
        "**Code inflation and execution time** (Figures 4-5; docs/sensmart.md). Each workload \
         built six ways and run to its end on cactus-sim: `none` (the manifest as written: \
         static stacks, no checks), `preempt-traps` (`kernel.preempt_traps = {}`), `mtss \
         checks` (`checks = \"mtss\"` alone: what the logical-stack builds carry besides the \
         pass, for reading their columns), \
         `logical-stack` (`--stack relocate --window sw`: the logical-stack pass with the \
         `mtss` stack checks that variant needs, the relocate kernel), `isolate` \
         (`kernel.isolate`) and `sensmart` (the logical stack and counted branches together; \
         `isolate` is refused with a strategy that moves stacks, so it is not in the \
         combination). Task code: the linked sizes of the functions the task sources define \
         (the passes' stubs lie inside them; the kernel, its entries and the generated glue \
         are excluded, and so are the logical-stack pass's `cactus_lstack` records, which are \
         data). Cycles: awake cycles (not asleep in `wfi`) from reset to the exit. A row passes \
         when every build exits 0 printing what the plain build prints (the kernel's `cactus:` \
         report lines aside) with the ownership oracle silent; means are arithmetic over the \
         passed rows. ",
        preempt::PERIOD
    )
}
