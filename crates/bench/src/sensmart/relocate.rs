//! The points of `cactus bench sensmart`'s `relocate` part: the relocation firmware
//! (bench/sensmart/relocate.toml) once, and the switch firmware (bench/sensmart/switch.toml)
//! under `static` and under `relocate`.

use super::{ops, Part, SensmartRow};
use crate::mcu_run::{exited_cleanly, last_marker, load_with_stack, run_mcu};
use crate::Size;
use cactus_firmware::BuildOptions;
use cactus_firmware::Overrides;
use cactus_sim::{Event, EventKind};
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
    /// Where the cycles go, from the trace's events: the trap to the copy's start (trap
    /// entry, the strategy finding the region and the donor), the copy (between the kernel
    /// store bracket's KERNEL_ENTER and KERNEL_LEAVE) and the copy's end to the `mret`
    /// (windows, counters, the oracle's reports, the context restore). None when the
    /// events were not found.
    #[serde(default)]
    pub phases: Option<[u64; 3]>,
}

/// The phases ([`Relocation::phases`]) of every stack-window trap in `events` that led to a
/// copy, in order.
pub fn phases(events: &[Event]) -> Vec<[u64; 3]> {
    let mut out = Vec::new();
    let mut at: Option<(u64, Option<u64>, Option<u64>)> = None;
    for e in events {
        match (&e.kind, at) {
            (EventKind::Trap { cause: 25, .. }, _) => at = Some((e.cycle, None, None)),
            (EventKind::KernelEnter, Some((t, None, None))) => at = Some((t, Some(e.cycle), None)),
            (EventKind::KernelLeave, Some((t, Some(k), None))) => {
                at = Some((t, Some(k), Some(e.cycle)));
            }
            (EventKind::Mret { .. }, Some((t, Some(k), Some(l)))) => {
                out.push([k - t, l - k, e.cycle - l]);
                at = None;
            }
            (EventKind::Mret { .. }, _) => at = None,
            _ => {}
        }
    }
    out
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
/// The relocation firmware's row under the software window.
pub const RELOCATION_SW: &str = "relocation sw";
const SWITCH: &str = "bench/sensmart/switch.toml";

/// The three runs: the relocation firmware, the switch firmware as is and under `relocate`.
pub fn points(o: &SensmartOptions) -> Vec<Point<'_, SensmartRow>> {
    [
        ("relocation", RELOCATE, None, None),
        (RELOCATION_SW, RELOCATE, Some("relocate"), Some("sw")),
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
    if let Err(e) = build_and_run(o, manifest, stack, window, &mut row) {
        row.note = Some(e);
    }
    row
}

fn build_and_run(
    o: &SensmartOptions,
    manifest: &str,
    stack: Option<&str>,
    window: Option<&str>,
    row: &mut SensmartRow,
) -> Result<(), String> {
    let mut m = load_with_stack(&o.root.join(manifest), stack)?;
    if let Some(window) = window {
        let over = Overrides {
            window: Some(window.to_string()),
            checks: Some("mtss".to_string()),
            ..Overrides::default()
        };
        m.apply(&over).map_err(|e| e.to_string())?;
    }
    let options = BuildOptions {
        root: (!o.root.as_os_str().is_empty()).then(|| o.root.clone()),
        out_root: o.build_dir.clone(),
        ..BuildOptions::default()
    };
    let built = cactus_firmware::build(&m, &options).map_err(|e| format!("build failed: {e}"))?;
    let (machine, outcome) = run_mcu(&built.elf, MAX_CYCLES)?;
    exited_cleanly(outcome)?;
    let marker = |id: u32| last_marker(machine.events(), id);
    if manifest == RELOCATE {
        let n = marker(99).ok_or("no marker 99 (sizes measured)")?;
        let split = phases(machine.events());
        for k in 0..n {
            let bytes = marker(100 + 2 * k).ok_or(format!("no marker {}", 100 + 2 * k))?;
            let cycles = marker(101 + 2 * k).ok_or(format!("no marker {}", 101 + 2 * k))?;
            row.relocations.push(super::Relocation {
                bytes,
                cycles: u64::from(cycles),
                phases: (split.len() == n as usize).then(|| split[k as usize]),
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

fn relocations(rows: &[SensmartRow]) -> &[Relocation] {
    relocations_of(rows, "relocation")
}

/// The relocations of the passed row `name`.
pub fn relocations_of<'a>(rows: &'a [SensmartRow], name: &str) -> &'a [Relocation] {
    rows.iter()
        .find(|r| r.name == name && r.passed)
        .map_or(&[], |r| r.relocations.as_slice())
}

fn switch(rows: &[SensmartRow], name: &str) -> Option<u64> {
    rows.iter()
        .find(|r| r.name == name && r.passed)
        .and_then(|r| r.switch_cycles)
}

/// The part's summary pairs: the cycles of the relocation that moved 1 KiB, the fit's fixed
/// cost and cost per word, the switch under `static` and `relocate`.
pub fn summary_pairs(rows: &[SensmartRow]) -> Vec<(&'static str, String)> {
    let rel = relocations(rows);
    let kib = rel.iter().find(|r| r.bytes == 1024).map(|r| r.cycles);
    let line = fit(rel);
    let sw_kib = relocations_of(rows, RELOCATION_SW)
        .iter()
        .find(|r| r.bytes == 1024)
        .map(|r| r.cycles);
    vec![
        ("relocation_cycles", or_dash(kib)),
        ("relocation_sw_cycles", or_dash(sw_kib)),
        (
            "relocation_fixed",
            line.map_or("-".into(), |l| format!("{:.0}", l.0)),
        ),
        (
            "relocation_per_word",
            line.map_or("-".into(), |l| format!("{:.2}", l.1)),
        ),
        ("switch_static", or_dash(switch(rows, "switch static"))),
        ("switch_relocate", or_dash(switch(rows, "switch relocate"))),
    ]
}

/// The part's tables: each relocation (bytes, words, cycles, the goal's bound), the fit, the
/// switch.
pub fn markdown(rows: &[SensmartRow]) -> String {
    let mut t = Table::new(&[
        "window",
        ">bytes moved",
        ">words",
        ">cycles",
        ">goal: 300 + 1/word",
        "within goal",
        ">trap to copy",
        ">copy",
        ">copy to mret",
        ">copy per word",
    ]);
    let variants = [("hardware", "relocation"), ("software", RELOCATION_SW)];
    for (window, r) in variants
        .iter()
        .flat_map(|&(w, name)| relocations_of(rows, name).iter().map(move |r| (w, r)))
    {
        let words = u64::from(r.bytes / 4);
        let goal = 300 + words;
        let ph = |i: usize| r.phases.map_or("-".to_string(), |p| p[i].to_string());
        t.row([
            window.to_string(),
            r.bytes.to_string(),
            words.to_string(),
            r.cycles.to_string(),
            goal.to_string(),
            if r.cycles <= goal { "yes" } else { "no" }.to_string(),
            ph(0),
            ph(1),
            ph(2),
            r.phases.filter(|_| words > 0).map_or("-".to_string(), |p| {
                format!("{:.2}", p[1] as f64 / words as f64)
            }),
        ]);
    }
    let fitted: String = variants
        .iter()
        .map(|&(window, name)| match fit(relocations_of(rows, name)) {
            Some((a, b)) => format!(
                "Least-squares fit, {window} window: cycles = {a:.0} + {b:.2} per word moved.\n"
            ),
            None => {
                format!("No fit for the {window} window: fewer than two relocations measured.\n")
            }
        })
        .collect::<String>()
        + "Paper, AVR: 2,326 cycles for one relocation.\n";
    let mut s = Table::new(&["run", ">cycles per switch", "result"]);
    for r in rows
        .iter()
        .filter(|r| !r.name.starts_with("ops ") && r.name != RELOCATION_SW)
    {
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
    format!(
        "### Stack relocation\n\n{}\n{fitted}\n{}\n{}",
        t.render(),
        s.render(),
        ops::markdown(rows)
    )
}

/// What the part's columns mean.
pub fn reading() -> String {
    "**Stack relocation** (docs/sensmart.md; both sizes run the same two firmwares, each well \
     under a second of simulation). Relocation: bench/sensmart/relocate.toml under the \
     `relocate` strategy with the hardware stack window, and with the software one (`--window \
     sw`: the probe's store is translated by the logical-stack pass, whose slow path, \
     `port_lstack_*` to `k_lstack_trap`, grows the stack; `mtss` checks; its phases are not \
     split: no trap marks its start); its one task's region is the pool's \
     lowest, so each relocation moves exactly the live stack the probe sets up (bytes moved, \
     from the kernel's own counter). Cycles run from the store that crosses the window's bound \
     to the instruction after it (trap, the strategy choosing the donor, the memmove, the \
     window write, the return), less the same probe with a store that does not trap; \
     interrupts masked. The three phases split it by the trace's events (the sum is a few \
     cycles short: the baseline store and the events' own instruction): from the trap to the \
     copy's start (trap entry, `port_trap`, the strategy finding the task's region, scanning for \
     the donor and computing the move), the copy itself (between the kernel store bracket's \
     KERNEL_ENTER and KERNEL_LEAVE; per word), and from its end to the `mret` (the moved \
     tasks' windows, the counters, the window write, the oracle's region reports, the \
     OVERFLOW event, the context restore). Switch: bench/sensmart/switch.toml, a yield ping-pong of two tasks at \
     one priority, cycles per switch, built `static`, `--stack relocate` (every resume \
     writes the window: two loads and two CSR writes; `static` runs its switch-time stack \
     check instead, which `relocate` does not need: the window checks every access) and `--stack relocate --window sw` \
     (the logical-stack pass and `mtss` checks; no window to write). "
        .to_string()
}
