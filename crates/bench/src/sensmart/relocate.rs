//! The points of `cactus bench sensmart`'s `relocate` part: the relocation firmware
//! (bench/sensmart/relocate.toml) once, and the switch firmware (bench/sensmart/switch.toml)
//! under `static` and under `relocate`.

use super::{breakdown, ops, Part, SensmartRow};
use crate::mcu_run::{exited_cleanly, last_marker, load_with_stack, run_mcu, run_mcu_probed};
use crate::Size;
use cactus_firmware::BuildOptions;
use cactus_firmware::Overrides;
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Point, Progress};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Simulated cycles after which a run is stopped (and counted as failed).
pub const MAX_CYCLES: u64 = 200_000_000;

/// Where the bench runs.
pub struct SensmartOptions {
    /// The Cactus tree (manifest paths are relative to it; empty: the current directory).
    pub root: PathBuf,
    /// Size class.
    pub size: Size,
    /// Parent of the build directories (`build/firmware` of the tree when None).
    pub build_dir: Option<PathBuf>,
}

/// One measured relocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relocation {
    /// Bytes the relocation copied (the kernel's counter).
    pub bytes: u32,
    /// Cycles from the refused store to the instruction after it, less the probe's baseline.
    pub cycles: u64,
    /// Where the cycles go ([`super::breakdown::PHASES`], from the run's events and call
    /// probes). None when the boundaries were not found.
    #[serde(default)]
    pub breakdown: Option<[u64; 7]>,
}

/// The least-squares line `cycles = a + b * words` through the relocations (None: fewer than
/// two distinct sizes).
pub fn fit(rel: &[Relocation]) -> Option<(f64, f64)> {
    let n = rel.len() as f64;
    let xs: Vec<f64> = rel.iter().map(|r| f64::from(r.bytes / 4)).collect();
    let ys: Vec<f64> = rel.iter().map(|r| r.cycles as f64).collect();
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    if rel.len() < 2 || sxx == 0.0 {
        return None;
    }
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let b = sxy / sxx;
    Some((my - b * mx, b))
}

const RELOCATE: &str = "bench/sensmart/relocate.toml";
/// The relocation firmware's row under the hardware window (the copy engine).
pub const RELOCATION_HW: &str = "relocation";
/// The relocation firmware's row under the software window (the copy engine: target `sim`).
pub const RELOCATION_SW: &str = "relocation sw";
/// The relocation firmware's row under the software window copying with the CPU
/// (`kernel.copier = false`: what a QEMU build runs).
pub const RELOCATION_CPU: &str = "relocation sw cpu";
/// The relocation rows: (row, window, copy).
const VARIANTS: [(&str, &str, &str); 3] = [
    (RELOCATION_SW, "software", "engine"),
    (RELOCATION_CPU, "software", "CPU"),
    (RELOCATION_HW, "hardware", "engine"),
];
const SWITCH: &str = "bench/sensmart/switch.toml";

/// The three runs: the relocation firmware, the switch firmware as is and under `relocate`.
pub fn points(o: &SensmartOptions) -> Vec<Point<'_, SensmartRow>> {
    [
        (RELOCATION_HW, RELOCATE, None, None),
        (RELOCATION_SW, RELOCATE, Some("relocate"), Some("sw")),
        (RELOCATION_CPU, RELOCATE, Some("relocate"), Some("sw")),
        ("switch static", SWITCH, None, None),
        ("switch relocate", SWITCH, Some("relocate"), None),
        ("switch relocate-sw", SWITCH, Some("relocate"), Some("sw")),
    ]
    .into_iter()
    .chain(
        ops::BUILDS
            .into_iter()
            .map(|(name, stack, window)| (name, ops::OPS, stack, window)),
    )
    .map(|(name, manifest, stack, window)| {
        let key = format!("relocate/{name}");
        Point::new(key.clone(), key, move |_, progress: &Progress| {
            let row = measure(o, name, manifest, stack, window);
            if let Some(note) = &row.note {
                progress.note(&format!("cactus: sensmart {name}: {note}"));
            }
            row
        })
    })
    .collect()
}

/// Builds and runs one firmware; never panics: a failure is the row's note.
pub fn measure(
    o: &SensmartOptions,
    name: &str,
    manifest: &str,
    stack: Option<&str>,
    window: Option<&str>,
) -> SensmartRow {
    let mut row = SensmartRow::new(Part::Relocate, name);
    if let Err(e) = build_and_run(o, manifest, stack, window, name == RELOCATION_CPU, &mut row) {
        row.note = Some(e);
    }
    row
}

fn build_and_run(
    o: &SensmartOptions,
    manifest: &str,
    stack: Option<&str>,
    window: Option<&str>,
    cpu_copy: bool,
    row: &mut SensmartRow,
) -> Result<(), String> {
    let mut m = load_with_stack(&o.root.join(manifest), stack)?;
    let mut split = Vec::new();
    if let Some(window) = window {
        let over = Overrides {
            window: Some(window.to_string()),
            checks: Some("mtss".to_string()),
            ..Overrides::default()
        };
        m.apply(&over).map_err(|e| e.to_string())?;
    }
    if cpu_copy {
        m.kernel.copier = Some(false);
    }
    let options = BuildOptions {
        root: (!o.root.as_os_str().is_empty()).then(|| o.root.clone()),
        out_root: o.build_dir.clone(),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options).map_err(|e| format!("build failed: {e}"))?;
    let (machine, outcome) = if manifest == RELOCATE {
        let elf = std::fs::read(&built.elf).map_err(|e| format!("{}: {e}", built.elf.display()))?;
        let probes = breakdown::probes(&elf)?;
        let run = run_mcu_probed(
            &elf,
            &built.elf.display().to_string(),
            MAX_CYCLES,
            probes.addresses(),
        )?;
        split = breakdown::breakdowns(run.0.events(), &probes);
        run
    } else {
        run_mcu(&built.elf, MAX_CYCLES)?
    };
    exited_cleanly(outcome)?;
    let marker = |id: u32| last_marker(machine.events(), id);
    if manifest == RELOCATE {
        let n = marker(99).ok_or("no marker 99 (sizes measured)")?;
        for k in 0..n {
            let bytes = marker(100 + 2 * k).ok_or(format!("no marker {}", 100 + 2 * k))?;
            let cycles = marker(101 + 2 * k).ok_or(format!("no marker {}", 101 + 2 * k))?;
            row.relocations.push(super::Relocation {
                bytes,
                cycles: u64::from(cycles),
                breakdown: (split.len() == n as usize).then(|| split[k as usize]),
            });
        }
    } else if manifest == ops::OPS {
        let n = marker(299).ok_or("no marker 299 (operations measured)")?;
        for k in 0..n {
            let c = marker(300 + k).ok_or(format!("no marker {}", 300 + k))?;
            row.ops.push(u64::from(c));
        }
    } else {
        row.switch_cycles = Some(u64::from(marker(200).ok_or("no marker 200")?));
    }
    row.passed = true;
    Ok(())
}

/// The relocations of the passed row `name`.
pub fn relocations_of<'a>(rows: &'a [SensmartRow], name: &str) -> &'a [Relocation] {
    rows.iter()
        .find(|r| r.name == name && r.passed)
        .map_or(&[], |r| r.relocations.as_slice())
}

/// The relocation of 1 KiB in the row `name`, if measured.
pub fn kib(rows: &[SensmartRow], name: &str) -> Option<Relocation> {
    relocations_of(rows, name)
        .iter()
        .find(|r| r.bytes == 1024)
        .copied()
}

fn switch(rows: &[SensmartRow], name: &str) -> Option<u64> {
    rows.iter()
        .find(|r| r.name == name && r.passed)
        .and_then(|r| r.switch_cycles)
}

/// The part's summary pairs: the software window's relocation of 1 KiB (the figure:
/// the copy engine) with its fit's fixed cost and cost per word, the same with the CPU copy and
/// under the hardware window, the switch under `static` and `relocate`.
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let cycles = |name: &str| or_dash(kib(rows, name).map(|r| r.cycles));
    let line = |name: &str| fit(relocations_of(rows, name));
    let fixed = |name: &str| line(name).map_or("-".into(), |l| format!("{:.0}", l.0));
    vec![
        ("relocation_cycles", cycles(RELOCATION_SW)),
        ("relocation_fixed", fixed(RELOCATION_SW)),
        (
            "relocation_per_word",
            line(RELOCATION_SW).map_or("-".into(), |l| format!("{:.2}", l.1)),
        ),
        ("relocation_cpu_cycles", cycles(RELOCATION_CPU)),
        ("relocation_hw_cycles", cycles(RELOCATION_HW)),
        ("relocation_hw_fixed", fixed(RELOCATION_HW)),
        ("switch_static", or_dash(switch(rows, "switch static"))),
        ("switch_relocate", or_dash(switch(rows, "switch relocate"))),
    ]
}

/// The part's tables: each relocation (bytes, words, cycles, the goal's bound), the fits, the
/// breakdown of the 1 KiB relocations, the switch.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut t = Table::new(&[
        "window",
        "copy",
        ">bytes moved",
        ">words",
        ">cycles",
        ">goal: 300 + 1/word",
        "within goal",
    ]);
    for (window, copy, r) in VARIANTS
        .iter()
        .flat_map(|&(name, w, c)| relocations_of(rows, name).iter().map(move |r| (w, c, r)))
    {
        let words = u64::from(r.bytes / 4);
        let goal = 300 + words;
        t.row([
            window.to_string(),
            copy.to_string(),
            r.bytes.to_string(),
            words.to_string(),
            r.cycles.to_string(),
            goal.to_string(),
            if r.cycles <= goal { "yes" } else { "no" }.to_string(),
        ]);
    }
    let fitted: String = VARIANTS
        .iter()
        .map(
            |&(name, window, copy)| match fit(relocations_of(rows, name)) {
                Some((a, b)) => format!(
                "Least-squares fit, {window} window, {copy} copy: cycles = {a:.0} + {b:.2} per \
                 word moved.\n"
            ),
                None => format!(
                    "No fit for the {window} window, {copy} copy: fewer than two relocations \
                 measured.\n"
                ),
            },
        )
        .collect::<String>()
        + "Paper, AVR: 2,326 cycles for one relocation.\n";
    format!(
        "### Stack relocation\n\n{}\n{fitted}\n{}\n{}\n{}",
        t.render(),
        breakdown_table(rows),
        switch_table(rows),
        ops::markdown(rows)
    )
}

/// The breakdown ([`breakdown::PHASES`]) of each variant's relocation of 1 KiB: the phases,
/// their sum, the copy's cycles beyond one a word (its set-up, or the CPU's extra cost), and
/// the fixed cost (the phases without the words' cycles at one a word).
fn breakdown_table(rows: &[SensmartRow]) -> String {
    let phases: Vec<String> = breakdown::PHASES
        .iter()
        .map(|p| format!(">{}", p.0))
        .collect();
    let mut head = vec!["window", "copy"];
    head.extend(phases.iter().map(String::as_str));
    let mut t = Table::new(&head);
    for (name, window, copy) in VARIANTS {
        let Some(r) = kib(rows, name) else { continue };
        let Some(b) = r.breakdown else { continue };
        let mut cells = vec![window.to_string(), copy.to_string()];
        cells.extend(b.iter().map(u64::to_string));
        t.row(cells);
    }
    let mut u = Table::new(&[
        "window",
        "copy",
        ">cycles",
        ">phases' sum",
        ">copy beyond 1/word",
        ">fixed (sum less 1/word)",
    ]);
    for (name, window, copy) in VARIANTS {
        let Some(r) = kib(rows, name) else { continue };
        let Some(b) = r.breakdown else { continue };
        let words = u64::from(r.bytes / 4);
        let sum: u64 = b.iter().sum();
        u.row([
            window.to_string(),
            copy.to_string(),
            r.cycles.to_string(),
            sum.to_string(),
            b[3].saturating_sub(words).to_string(),
            sum.saturating_sub(words).to_string(),
        ]);
    }
    let what: String = breakdown::PHASES
        .iter()
        .map(|(name, what)| format!("`{name}`: {what}. "))
        .collect();
    format!(
        "Where the cycles of the 1 KiB relocation go (cycles per phase; {what}The phases end at \
         the `mret`; the cycles column also counts the access's re-execution, less the \
         probe's baseline):\n\n{}\n{}",
        t.render(),
        u.render()
    )
}

fn switch_table(rows: &[SensmartRow]) -> String {
    let mut s = Table::new(&["run", ">cycles per switch", "result"]);
    for r in rows.iter().filter(|r| {
        !r.name.starts_with("ops ") && r.name != RELOCATION_SW && r.name != RELOCATION_CPU
    }) {
        s.row([
            r.name.clone(),
            or_dash(r.switch_cycles),
            if r.passed {
                "ok".to_string()
            } else {
                format!("FAIL: {}", r.note.as_deref().unwrap_or("?"))
            },
        ]);
    }
    s.render()
}

/// What the part's columns mean.
pub fn reading() -> String {
    "**Stack relocation** (docs/sensmart.md; both sizes run the same firmwares, each well \
     under a second of simulation). Relocation: bench/sensmart/relocate.toml under the \
     `relocate` strategy three ways: the software window (`--window sw`: the probe's store is \
     translated by the logical-stack pass, whose slow path, `port_lstack_*` to \
     `k_lstack_trap`, grows the stack; `mtss` checks) with cactus-sim's copy engine (a \
     simulation device, `kernel.copier`, the default on `sim`), the same copying with the CPU \
     (`kernel.copier = false`: what a QEMU build runs), and the hardware window (the engine); \
     its one task's region is the pool's lowest, so each relocation moves exactly the live \
     stack the probe sets up (bytes moved, from the kernel's own counter). Cycles run from the \
     access that crosses the task's bound to the instruction after it, less the same probe \
     with an access that does not; interrupts masked. The breakdown splits each 1 KiB \
     relocation into seven phases at points the run passes anyway: the stack-window trap or \
     the slow path's `port_lstack_*` entry, `stack_grow`, the strategy's mark before its region \
     arithmetic (`reloc_mark_regions`), the kernel store bracket around the copy (KERNEL_ENTER, \
     KERNEL_LEAVE), the first region report, the OVERFLOW event and the `mret`; the function \
     entries and the mark are call probes, which cost the guest nothing, so the phases are \
     those of the measured run (they sum to the cycles less the access's re-execution). Copy \
     beyond 1/word: the copy phase less one cycle per word moved (its set-up with the engine; \
     the CPU's cost above the goal's word with the CPU, whose floor on `mcu` is 4 cycles a \
     word: a 2-cycle load and a 2-cycle store). Fixed: the phases' sum less one cycle per word, \
     the part the goal bounds at 300. Switch: bench/sensmart/switch.toml, a yield ping-pong \
     of two tasks at one priority, cycles per switch, built `static`, `--stack relocate` \
     (every resume writes the window: two loads and two CSR writes; `static` runs its \
     switch-time stack check instead, which `relocate` does not need: the window checks every \
     access) and `--stack relocate --window sw` (the logical-stack pass and `mtss` checks; no \
     window to write). "
        .to_string()
}
