//! The report's pictures as inline SVG (plotters): task states over time, the stack memory map
//! over time, stack use per task against budget and bound, cycles and energy per task, and the
//! trap-duration histogram.

use crate::trace::timeline::{Timeline, TrackKind, TRAPS};
use cactus_sim::{Event, EventKind, NOBODY};
use plotters::prelude::*;
use std::collections::BTreeMap;

/// A chart that could not be drawn (plotters' error, as text).
pub type ChartResult = Result<String, String>;

/// Colours of the task states.
fn state_colour(state: &str) -> RGBColor {
    match state {
        "running" => RGBColor(46, 160, 67),
        "ready" => RGBColor(240, 190, 50),
        "sleeping" => RGBColor(90, 140, 220),
        "suspended" => RGBColor(150, 150, 150),
        _ if state.starts_with("blocked") => RGBColor(210, 70, 60),
        _ => RGBColor(200, 200, 200),
    }
}

/// The colour of task slot `n` (guards and free memory are grey).
fn owner_colour(n: usize) -> RGBColor {
    const P: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(23, 190, 207),
    ];
    P[n % P.len()]
}

/// A legend entry's coloured square.
fn key(colour: RGBColor) -> impl Fn((i32, i32)) -> Rectangle<(i32, i32)> {
    move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled())
}

/// Draws the chart's legend in a white box at its upper right.
fn legend_box<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
) -> Result<(), String> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

fn ms(t: &Timeline, cycle: u64) -> f64 {
    t.ns(cycle) as f64 / 1e6
}

/// Task states over time: one row per task, a bar per state slice.
pub fn states(t: &Timeline) -> ChartResult {
    let tasks: Vec<(u64, String)> = t
        .tracks
        .iter()
        .filter(|k| matches!(k.kind, TrackKind::Thread { tid } if tid >= 16))
        .map(|k| (k.uuid, k.name.clone()))
        .collect();
    let end = ms(t, t.points.last().map_or(1, |p| p.cycle)).max(1e-6);
    let rows = tasks.len().max(1);
    let mut svg = String::new();
    {
        let height = 80 + 28 * rows as u32;
        let root = SVGBackend::with_string(&mut svg, (900, height)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(90)
            .build_cartesian_2d(0f64..end, (0..rows - 1).into_segmented())
            .map_err(e)?;
        let names: Vec<String> = tasks.iter().map(|(_, n)| n.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .x_desc("simulated time (ms)")
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(e)?;
        for (row, (uuid, _)) in tasks.iter().enumerate() {
            let bars = t.slices(*uuid).into_iter().map(|(state, s, f)| {
                let mut r = Rectangle::new(
                    [
                        (ms(t, s), SegmentValue::Exact(row)),
                        (ms(t, f), SegmentValue::Exact(row + 1)),
                    ],
                    state_colour(&state).filled(),
                );
                r.set_margin(3, 3, 0, 0);
                r
            });
            chart.draw_series(bars).map_err(e)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// One owned stretch of stack memory: [base, base + size) owned by `owner` from `from` to `to`.
struct Held {
    base: u32,
    size: u32,
    owner: u32,
    from: u64,
    to: u64,
}

/// The stack memory map over time: which task owns which bytes of the stack memory
/// (regions, MTSS pages on loan, stacklets), from the run's region events.
pub fn stack_map(t: &Timeline, events: &[Event], names: &BTreeMap<u32, String>) -> ChartResult {
    let mut open: BTreeMap<u32, (u32, u32, u64)> = BTreeMap::new();
    let mut held = Vec::new();
    let end = events.last().map_or(0, |e| e.cycle);
    let mut close = |open: &mut BTreeMap<u32, (u32, u32, u64)>, base: u32, at: u64| {
        if let Some((size, owner, from)) = open.remove(&base) {
            held.push(Held {
                base,
                size,
                owner,
                from,
                to: at,
            });
        }
    };
    for e in events {
        match e.kind {
            EventKind::RegionAssign { base, size, owner } => {
                close(&mut open, base, e.cycle);
                if owner != NOBODY {
                    open.insert(base, (size, owner, e.cycle));
                }
            }
            EventKind::RegionLend {
                base,
                size,
                borrower,
                ..
            } => {
                close(&mut open, base, e.cycle);
                open.insert(base, (size, borrower, e.cycle));
            }
            EventKind::RegionRelease { base, .. } => close(&mut open, base, e.cycle),
            _ => {}
        }
    }
    let left: Vec<u32> = open.keys().copied().collect();
    for base in left {
        close(&mut open, base, end);
    }
    let Some(low) = held.iter().map(|h| h.base).min() else {
        return Ok(String::new());
    };
    let high = held
        .iter()
        .map(|h| h.base + h.size)
        .max()
        .unwrap_or(low + 1);
    let tmax = ms(t, end).max(1e-6);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 420)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..tmax, 0u32..(high - low))
            .map_err(e)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("simulated time (ms)")
            .y_desc("bytes from the lowest stack address")
            .draw()
            .map_err(e)?;
        let mut owners: Vec<u32> = held.iter().map(|h| h.owner).collect();
        owners.sort_unstable();
        owners.dedup();
        for (n, owner) in owners.iter().enumerate() {
            let colour = owner_colour(n);
            let rects = held.iter().filter(|h| h.owner == *owner).map(|h| {
                Rectangle::new(
                    [
                        (ms(t, h.from), h.base - low),
                        (ms(t, h.to), h.base - low + h.size),
                    ],
                    colour.mix(0.8).filled(),
                )
            });
            let name = names
                .get(owner)
                .cloned()
                .unwrap_or_else(|| format!("task {owner}"));
            chart
                .draw_series(rects)
                .map_err(e)?
                .label(name)
                .legend(key(colour));
        }
        legend_box(&mut chart)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// One task's stack figures for [`stack_use`].
pub struct StackBar {
    /// Task name.
    pub name: String,
    /// Its budget, bytes.
    pub budget: u32,
    /// Its measured high water, bytes.
    pub high_water: Option<u32>,
    /// Its static bound, bytes.
    pub bound: Option<u32>,
}

/// Stack use per task: the budget, the measured high water and the static bound side by side.
pub fn stack_use(bars: &[StackBar]) -> ChartResult {
    let figure = |f: fn(&StackBar) -> Option<u32>| -> Vec<Option<f64>> {
        bars.iter().map(|b| f(b).map(f64::from)).collect()
    };
    grouped_bars(
        &bars.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
        &[
            (
                "budget",
                RGBColor(180, 180, 180),
                figure(|b| Some(b.budget)),
            ),
            (
                "measured high water",
                RGBColor(210, 70, 60),
                figure(|b| b.high_water),
            ),
            ("static bound", RGBColor(31, 119, 180), figure(|b| b.bound)),
        ],
        "bytes",
    )
}

/// One task's (or the rest's) shares of the run for [`task_shares`].
pub struct ShareBar {
    /// Task name ("kernel and idle" for the rest).
    pub name: String,
    /// Percentage of the run's cycles.
    pub cycles: f64,
    /// Percentage of the run's energy.
    pub energy: f64,
}

/// Cycles and energy per task: each task's share of the run's cycles and of its energy side
/// by side, in percent.
pub fn task_shares(bars: &[ShareBar]) -> ChartResult {
    let share =
        |f: fn(&ShareBar) -> f64| -> Vec<Option<f64>> { bars.iter().map(|b| Some(f(b))).collect() };
    grouped_bars(
        &bars.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
        &[
            ("cycles", RGBColor(31, 119, 180), share(|b| b.cycles)),
            ("energy", RGBColor(255, 127, 14), share(|b| b.energy)),
        ],
        "% of the run",
    )
}

/// One series of [`grouped_bars`]: its legend label, its colour, a value per slot (None: no
/// bar there).
type Series<'a> = (&'a str, RGBColor, Vec<Option<f64>>);

/// A bar chart with one slot per name and the series' bars side by side in each slot.
fn grouped_bars(names: &[String], series: &[Series], y_desc: &str) -> ChartResult {
    let top = series
        .iter()
        .flat_map(|s| s.2.iter().flatten().copied())
        .fold(1.0f64, f64::max);
    let n = names.len().max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 360)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(60)
            .build_cartesian_2d((0..n - 1).into_segmented(), 0f64..top * 1.15)
            .map_err(e)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(WHITE)
            .y_desc(y_desc)
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .draw()
            .map_err(e)?;
        // The bars side by side in each slot, each 1/(k+1) of it, half a bar of margin each side.
        let slot = chart.plotting_area().dim_in_pixel().0 / n as u32;
        let bar = slot / (series.len() as u32 + 1);
        for (k, (label, colour, values)) in series.iter().enumerate() {
            let rects = values.iter().enumerate().filter_map(|(i, v)| {
                let mut r = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), (*v)?),
                    ],
                    colour.filled(),
                );
                let left = bar / 2 + bar * k as u32;
                r.set_margin(0, 0, left, slot.saturating_sub(left + bar));
                Some(r)
            });
            chart
                .draw_series(rects)
                .map_err(e)?
                .label(*label)
                .legend(key(*colour));
        }
        legend_box(&mut chart)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// The durations of the traps (entry to `mret`), in cycles, as a histogram of 20 bins.
pub fn trap_histogram(t: &Timeline) -> ChartResult {
    let d: Vec<u64> = t.slices(TRAPS).iter().map(|(_, s, f)| f - s).collect();
    if d.is_empty() {
        return Ok(String::new());
    }
    let (lo, hi) = (*d.iter().min().unwrap_or(&0), *d.iter().max().unwrap_or(&1));
    let width = ((hi - lo) / 20).max(1);
    let mut bins = [0u32; 21];
    for v in &d {
        bins[(((v - lo) / width) as usize).min(20)] += 1;
    }
    let top = *bins.iter().max().unwrap_or(&1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 300)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(50)
            .build_cartesian_2d(lo..lo + width * 21, 0u32..top + 1)
            .map_err(e)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .x_desc("cycles from trap entry to mret")
            .y_desc("traps")
            .draw()
            .map_err(e)?;
        let rects = bins
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .map(|(i, c)| {
                let x = lo + width * i as u64;
                Rectangle::new([(x, 0), (x + width, *c)], RGBColor(31, 119, 180).filled())
            });
        chart.draw_series(rects).map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}
