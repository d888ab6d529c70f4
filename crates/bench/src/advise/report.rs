//! The advice as a table (with the reference figures under it), a one-line summary, and an
//! SVG bar chart.

use super::search::StrategyAdvice;
use super::Reference;
use cactus_sweep::evaluation::{verdicts, Evaluation};
use cactus_sweep::table::{or_dash, Table};
use cactus_sweep::{Meta, Summary, SweepReport};
use plotters::prelude::*;
use std::fmt::Write;

/// The advice experiment.
pub struct Advise;

impl Evaluation for Advise {
    const NAME: &'static str = "advise";
    const UNIT: &'static str = "strategies";
    type Row = StrategyAdvice;

    fn render(rows: &[StrategyAdvice], meta: &Meta) -> SweepReport {
        let reference = reference_of(meta);
        let (passed, failed) = verdicts(rows);
        let mut tables = table(rows, reference.as_ref());
        if let Some(r) = &reference {
            tables.push_str(&reference_lines(r));
        }
        let failures: Vec<String> = rows
            .iter()
            .filter_map(|r| r.error.as_ref().map(|e| format!("- {}: {e}\n", r.key)))
            .collect();
        if !failures.is_empty() {
            tables.push_str("\nNo answer:\n");
            tables.extend(failures);
        }
        SweepReport {
            tables,
            reading: READING.to_string(),
            note: seeds_note(meta),
            passed,
            failed,
            summary: summary(rows, reference.as_ref()),
        }
    }
}

/// How to read the table (no figures).
const READING: &str = "Per stack strategy: the smallest stack RAM found in which the firmware \
still exits 0 with no ownership-oracle violation at every seed (seed 0 with timer interrupts \
on time, the others with each timer interrupt late by a seeded number of cycles, so tasks are \
preempted at other instructions), the task budgets that give it, and the simulated cycles of \
that build against the firmware as written. Stack RAM is what the strategy reserves for those \
budgets (MTSS regions are whole pages; `mtss+split` adds its stacklet heap). The measured high \
water and the static bound of `cactus stack-report` are under the table. A budget found by \
running is only as good as the runs: below a task's static bound it held at these seeds, not \
on every path; the static bound is the budget that holds on every path.";

/// The reference of a store's parameters (None in a store without one).
pub fn reference_of(meta: &Meta) -> Option<Reference> {
    serde_json::from_value(meta.params.get("reference")?.clone()).ok()
}

fn seeds_note(meta: &Meta) -> String {
    match (meta.params.get("seeds"), meta.params.get("jitter_cycles")) {
        (Some(s), Some(j)) => format!(" ({s} seeds per probe, timer delays up to {j} cycles)"),
        _ => String::new(),
    }
}

fn table(rows: &[StrategyAdvice], reference: Option<&Reference>) -> String {
    let mut t = Table::new(&[
        "strategy",
        "stack RAM (bytes)",
        "of the manifest's",
        "against the high water",
        "budgets (bytes)",
        "cycles",
        "overhead",
        "probes",
    ]);
    for r in rows {
        let manifest = reference.map(|f| f.budgets.iter().sum::<u32>());
        let hw = reference.and_then(Reference::high_water_total);
        let budgets = match (&r.budgets, reference) {
            (Some(b), Some(f)) => f
                .tasks
                .iter()
                .zip(b)
                .map(|(n, b)| format!("{n} {b}"))
                .collect::<Vec<_>>()
                .join(", "),
            (Some(b), None) => format!("{b:?}"),
            _ => "-".into(),
        };
        t.row([
            r.key.clone(),
            or_dash(r.stack_bytes),
            ratio(r.stack_bytes, manifest),
            ratio(r.stack_bytes, hw),
            budgets,
            or_dash(r.cycles),
            reference
                .and_then(|f| r.overhead_pct(f))
                .map(|p| format!("{p:+.2} %"))
                .unwrap_or_else(|| "-".into()),
            r.probes.len().to_string(),
        ]);
    }
    t.render()
}

/// `part` as a percentage of `whole`, one decimal.
fn ratio(part: Option<u32>, whole: Option<u32>) -> String {
    match (part, whole) {
        (Some(p), Some(w)) if w > 0 => format!("{:.1} %", f64::from(p) * 100.0 / f64::from(w)),
        _ => "-".into(),
    }
}

fn reference_lines(r: &Reference) -> String {
    let mut s = String::new();
    let per_task = |v: &[Option<u32>]| -> String {
        r.tasks
            .iter()
            .zip(v)
            .map(|(n, b)| format!("{n} {}", or_dash(*b)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(
        s,
        "\nThe firmware as written (`{}`, stack = \"{}\"): budgets {} bytes in all; {} cycles.",
        r.manifest,
        r.stack,
        r.budgets.iter().sum::<u32>(),
        r.cycles
    );
    let _ = writeln!(
        s,
        "Measured high water: {} bytes ({}).",
        or_dash(r.high_water_total()),
        per_task(&r.high_water)
    );
    if r.static_bound.is_empty() {
        let _ = writeln!(s, "Static bound: not analysed.");
    } else {
        let _ = writeln!(
            s,
            "Static bound (cactus stack-report): {} bytes ({}).",
            or_dash(r.static_bound_total()),
            per_task(&r.static_bound)
        );
    }
    s
}

/// The passing row of the least stack RAM (the first in table order on a tie).
pub fn best(rows: &[StrategyAdvice]) -> Option<&StrategyAdvice> {
    rows.iter()
        .filter(|r| r.stack_bytes.is_some())
        .min_by_key(|r| r.stack_bytes)
}

fn summary(rows: &[StrategyAdvice], reference: Option<&Reference>) -> Summary {
    let mut s = Summary::new("advise");
    let bytes_of = |strategy: &str| -> Option<u32> {
        rows.iter()
            .filter(|r| r.strategy == strategy)
            .filter_map(|r| r.stack_bytes)
            .min()
    };
    for (key, strategy) in [
        ("static_bytes", "static"),
        ("mtss_bytes", "mtss"),
        ("mtss_split_bytes", "mtss+split"),
    ] {
        if rows.iter().any(|r| r.strategy == strategy) {
            s.add(key, or_dash(bytes_of(strategy)));
        }
    }
    let best = best(rows);
    s.add("best", best.map_or("-".into(), |b| b.key.replace(' ', "_")));
    s.add("best_bytes", or_dash(best.and_then(|b| b.stack_bytes)));
    s.add(
        "high_water_bytes",
        or_dash(reference.and_then(Reference::high_water_total)),
    );
    s.add(
        "static_bound_bytes",
        or_dash(reference.and_then(Reference::static_bound_total)),
    );
    s
}

/// The advice as an SVG bar chart: one bar of stack RAM per strategy, with the manifest's
/// budgets, the measured high water and the static bound as horizontal lines. Rows without an
/// answer get no bar (their label says so).
pub fn plot_svg(rows: &[StrategyAdvice], reference: &Reference) -> Result<String, String> {
    let mut svg = String::new();
    let lines: Vec<(&str, Option<u32>, RGBColor)> = vec![
        (
            "manifest budgets",
            Some(reference.budgets.iter().sum()),
            BLACK,
        ),
        ("measured high water", reference.high_water_total(), RED),
        ("static bound", reference.static_bound_total(), BLUE),
    ];
    let top = rows
        .iter()
        .filter_map(|r| r.stack_bytes)
        .chain(lines.iter().filter_map(|l| l.1))
        .max()
        .unwrap_or(1);
    let labels: Vec<String> = rows
        .iter()
        .map(|r| match r.stack_bytes {
            Some(_) => r.key.clone(),
            None => format!("{} (no answer)", r.key),
        })
        .collect();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 420)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let n = rows.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Stack RAM per strategy: {}", reference.manifest),
                ("sans-serif", 18),
            )
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            // Segments 0..=n-1: one per row.
            .build_cartesian_2d((0..n - 1).into_segmented(), 0u32..top + top / 8)
            .map_err(e)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .y_desc("stack RAM (bytes)")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(e)?;
        let bars = rows.iter().enumerate().filter_map(|(i, r)| {
            let b = r.stack_bytes?;
            let (l, rt) = (SegmentValue::Exact(i), SegmentValue::Exact(i + 1));
            let mut rect = Rectangle::new([(l, 0), (rt, b)], GREEN.mix(0.6).filled());
            rect.set_margin(0, 0, 12, 12);
            Some(rect)
        });
        chart.draw_series(bars).map_err(e)?;
        for (name, value, color) in lines {
            let Some(v) = value else { continue };
            chart
                .draw_series(LineSeries::new(
                    [(SegmentValue::Exact(0), v), (SegmentValue::Exact(n), v)],
                    color.stroke_width(2),
                ))
                .map_err(e)?
                .label(format!("{name}: {v} bytes"))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}
