//! The page of a sweep's report (`cactus bench ... --report FILE.html`, `cactus report
//! RESULTS.md`): the Markdown report (docs/results/*.md) as one self-contained HTML page, each
//! table followed by one bar chart per figures column, so the tables' figures are seen as plots
//! beside them. Rows whose label is emphasised (`*paper*`) are the paper's figures and drawn in
//! their own colour beside ours; bold rows (`**average**`) are summaries.

use super::{esc, PAGE_STYLE};
use plotters::prelude::*;
use pulldown_cmark::{html, Alignment, Event, Options, Parser, Tag, TagEnd};
use std::fmt::Write;

/// What a table row is, from the emphasis of its first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowKind {
    /// One of our measurements.
    Ours,
    /// A summary row (`**average**`).
    Summary,
    /// The paper's figure (`*paper*`).
    Paper,
}

/// One table of the report, as text cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column headings.
    pub head: Vec<String>,
    /// Which columns are right-aligned (figures).
    pub figures: Vec<bool>,
    /// Rows of cells, with what each row is.
    pub rows: Vec<(RowKind, Vec<String>)>,
}

/// A figure read from a cell: its value, and for a `min / avg / max` cell the range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The value drawn (a range cell's middle figure).
    pub value: f64,
    /// `(min, max)` of a range cell.
    pub range: Option<(f64, f64)>,
}

/// The number a cell starts with (`41.4 %` is 41.4, `1524 (92.1 %)` 1524, `-5.3 %` -5.3),
/// or a `a / b / c` range; `None` for a cell that does not start with a number (`-`, `–`,
/// `≤ 90`, text).
pub fn figure(cell: &str) -> Option<Figure> {
    let parts: Vec<&str> = cell.split(" / ").collect();
    if parts.len() == 3 {
        let v: Vec<f64> = parts.iter().filter_map(|p| leading_number(p)).collect();
        if v.len() == 3 {
            return Some(Figure {
                value: v[1],
                range: Some((v[0], v[2])),
            });
        }
    }
    leading_number(cell).map(|value| Figure { value, range: None })
}

fn leading_number(cell: &str) -> Option<f64> {
    let s = cell.trim().replace('\u{2212}', "-");
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || c == ',' || (i == 0 && c == '-')))
        .map_or(s.len(), |(i, _)| i);
    let number = s[..end].replace(',', "");
    if !number.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok().filter(|v: &f64| v.is_finite())
}

/// Renders the Markdown report `markdown` as a page titled `title`.
pub fn render(markdown: &str, title: &str) -> String {
    let mut body = String::new();
    let mut pending: Vec<Event<'_>> = Vec::new();
    let mut table: Option<(Vec<Event<'_>>, TableReader)> = None;
    let mut charts = 0usize;
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        if let Some((events, reader)) = table.as_mut() {
            reader.read(&event);
            let end = matches!(event, Event::End(TagEnd::Table));
            events.push(event);
            if end {
                let (events, reader) = table.take().expect("inside a table");
                html::push_html(&mut body, events.into_iter());
                let drawn = table_charts(&reader.table);
                charts += drawn.matches("<svg").count();
                body.push_str(&drawn);
            }
            continue;
        }
        if let Event::Start(Tag::Table(aligns)) = &event {
            html::push_html(&mut body, pending.drain(..));
            let reader = TableReader::new(aligns);
            table = Some((vec![event], reader));
            continue;
        }
        pending.push(event);
    }
    html::push_html(&mut body, pending.into_iter());
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{t}</title><style>{PAGE_STYLE}\
         .charts{{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0 24px}}\
         figure{{margin:0;border:1px solid #eee}}figcaption{{font-size:13px;padding:2px 6px;background:#fafafa}}\
         code{{background:#f3f3f3;padding:0 2px}}td,th{{text-align:left}}\
         body{{max-width:1200px}}h1{{font-size:1.3em}}table{{font-size:13px}}\
         </style></head><body>\n<h1>{t}</h1>\n\
         <p class=\"legend\"><span><i class=\"key\" style=\"background:#1f77b4\"></i>ours</span>\
         <span><i class=\"key\" style=\"background:#555555\"></i>summary row</span>\
         <span><i class=\"key\" style=\"background:#ff7f0e\"></i>the paper's figure</span>\
         <span>{charts} chart(s); a range cell (min / avg / max) is drawn to its middle figure with a line from min to max.</span></p>\n",
        t = esc(title)
    );
    page.push_str(&body);
    page.push_str("</body></html>\n");
    page
}

/// Collects a table's cells from its Markdown events.
struct TableReader {
    table: Table,
    in_head: bool,
    row: Vec<String>,
    kind: RowKind,
    cell: Option<String>,
    emphasis: Option<RowKind>,
}

impl TableReader {
    fn new(aligns: &[Alignment]) -> TableReader {
        TableReader {
            table: Table {
                figures: aligns.iter().map(|a| *a == Alignment::Right).collect(),
                ..Table::default()
            },
            in_head: false,
            row: Vec::new(),
            kind: RowKind::Ours,
            cell: None,
            emphasis: None,
        }
    }

    fn read(&mut self, event: &Event<'_>) {
        match event {
            Event::Start(Tag::TableHead) => self.in_head = true,
            Event::End(TagEnd::TableHead) => {
                self.table.head = std::mem::take(&mut self.row);
                self.in_head = false;
            }
            Event::Start(Tag::TableRow) => {
                self.row.clear();
                self.kind = RowKind::Ours;
            }
            Event::End(TagEnd::TableRow) => {
                let row = std::mem::take(&mut self.row);
                self.table.rows.push((self.kind, row));
            }
            Event::Start(Tag::TableCell) => {
                self.cell = Some(String::new());
                self.emphasis = None;
            }
            Event::End(TagEnd::TableCell) => {
                let text = self.cell.take().unwrap_or_default();
                let first = self.row.is_empty() && !self.in_head;
                if let (true, Some(kind)) = (first, self.emphasis) {
                    if text.trim() != "" {
                        self.kind = kind;
                    }
                }
                self.row.push(text.trim().to_string());
            }
            Event::Start(Tag::Strong) => self.emphasis = Some(RowKind::Summary),
            Event::Start(Tag::Emphasis) => {
                self.emphasis.get_or_insert(RowKind::Paper);
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some(cell) = self.cell.as_mut() {
                    cell.push_str(t);
                }
            }
            _ => {}
        }
    }
}

/// The charts of one table: one per figures column that has at least two rows with a figure.
fn table_charts(t: &Table) -> String {
    let mut out = String::new();
    for (c, heading) in t.head.iter().enumerate().skip(1) {
        if !t.figures.get(c).copied().unwrap_or(false) {
            continue;
        }
        let bars: Vec<Bar> = t
            .rows
            .iter()
            .filter_map(|(kind, cells)| {
                let f = figure(cells.get(c)?)?;
                Some(Bar {
                    label: label(cells, &t.figures),
                    kind: *kind,
                    figure: f,
                })
            })
            .collect();
        if bars.len() < 2 {
            continue;
        }
        match bar_chart(&bars) {
            Ok(svg) => {
                let _ = write!(
                    out,
                    "<figure><figcaption>{}</figcaption>{svg}</figure>",
                    esc(heading)
                );
            }
            Err(e) => {
                let _ = write!(
                    out,
                    "<figure><figcaption>{}: not drawn: {}</figcaption></figure>",
                    esc(heading),
                    esc(&e)
                );
            }
        }
    }
    if out.is_empty() {
        out
    } else {
        format!("<div class=\"charts\">{out}</div>\n")
    }
}

/// A row's label: its leading text cells (up to the first figures column) joined, so rows
/// told apart by a second text column (`workload`, `config`) are told apart in the charts.
fn label(cells: &[String], figures: &[bool]) -> String {
    let texts: Vec<&str> = cells
        .iter()
        .zip(figures.iter().chain(std::iter::repeat(&false)))
        .take_while(|(_, &figure)| !figure)
        .map(|(c, _)| c.as_str())
        .filter(|c| !c.is_empty())
        .collect();
    texts.join(" · ")
}

/// One bar of a column's chart.
struct Bar {
    label: String,
    kind: RowKind,
    figure: Figure,
}

/// Horizontal bars, one per row, labelled with the row's first cell.
fn bar_chart(bars: &[Bar]) -> Result<String, String> {
    let lo = bars
        .iter()
        .map(|b| b.figure.range.map_or(b.figure.value, |r| r.0))
        .fold(0.0f64, f64::min);
    let hi = bars
        .iter()
        .map(|b| b.figure.range.map_or(b.figure.value, |r| r.1))
        .fold(0.0f64, f64::max);
    let span = if hi - lo > 0.0 { hi - lo } else { 1.0 };
    let (lo, hi) = (
        if lo < 0.0 { lo - span * 0.05 } else { 0.0 },
        hi + span * 0.08,
    );
    let labels: Vec<String> = bars.iter().map(|b| short(&b.label)).collect();
    let label_px = labels.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32 * 6 + 10;
    let n = bars.len();
    let height = 40 + 18 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (300 + label_px, height)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(6)
            .x_label_area_size(22)
            .y_label_area_size(label_px)
            .build_cartesian_2d(lo..hi, (0..n - 1).into_segmented())
            .map_err(e)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .label_style(("sans-serif", 11))
            .x_labels(4)
            .y_labels(n)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => labels.get(n - 1 - *i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .x_label_formatter(&|v| axis_number(*v))
            .draw()
            .map_err(e)?;
        let colour = |k: RowKind| match k {
            RowKind::Ours => RGBColor(31, 119, 180),
            RowKind::Summary => RGBColor(85, 85, 85),
            RowKind::Paper => RGBColor(255, 127, 14),
        };
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                // The first row at the top, as in the table.
                let i = n - 1 - i;
                let mut r = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(i)),
                        (b.figure.value, SegmentValue::Exact(i + 1)),
                    ],
                    colour(b.kind).filled(),
                );
                r.set_margin(3, 3, 0, 0);
                r
            }))
            .map_err(e)?;
        chart
            .draw_series(bars.iter().enumerate().filter_map(|(i, b)| {
                let (min, max) = b.figure.range?;
                let i = n - 1 - i;
                Some(PathElement::new(
                    vec![
                        (min, SegmentValue::CenterOf(i)),
                        (max, SegmentValue::CenterOf(i)),
                    ],
                    BLACK.stroke_width(2),
                ))
            }))
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// An axis figure without a needless fraction (`20000`, `2.5`).
fn axis_number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// A row label short enough for the chart's axis.
fn short(label: &str) -> String {
    const MAX: usize = 28;
    if label.chars().count() <= MAX {
        label.to_string()
    } else {
        let mut s: String = label.chars().take(MAX - 1).collect();
        s.push('…');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_joins_the_leading_text_cells() {
        let cells = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let figures = [false, false, true, false];
        assert_eq!(
            label(&cells(&["mal", "srp", "12", "ok"]), &figures),
            "mal · srp"
        );
        assert_eq!(label(&cells(&["paper", "", "15"]), &figures), "paper");
    }

    #[test]
    fn axis_figures_drop_needless_fractions() {
        assert_eq!(axis_number(20000.0), "20000");
        assert_eq!(axis_number(2.5), "2.5");
        assert_eq!(axis_number(-0.25), "-0.25");
    }

    #[test]
    fn cells_give_their_leading_figure_or_a_range() {
        let v = |s: &str| figure(s).map(|f| f.value);
        assert_eq!(v("41.4 %"), Some(41.4));
        assert_eq!(v("1524 (92.1 %)"), Some(1524.0));
        assert_eq!(v("-5.3 %"), Some(-5.3));
        assert_eq!(v("\u{2212}2"), Some(-2.0));
        assert_eq!(v("12,345"), Some(12345.0));
        assert_eq!(v("-"), None);
        assert_eq!(v("–"), None);
        assert_eq!(v("≤ 90"), None);
        assert_eq!(v("PASS"), None);
        assert_eq!(
            figure("104 / 104.5 / 110"),
            Some(Figure {
                value: 104.5,
                range: Some((104.0, 110.0))
            })
        );
    }

    const REPORT: &str = "<!-- generated by `cactus bench x`; do not edit by hand -->\n\n\
        Generated by `cactus bench x` in 3 s.\n\n### Per workload\n\n\
        | Workload | Bytes | Saved | note |\n|---|---:|---:|---|\n\
        | alpha | 100 | 10.0 % | a |\n| beta | 300 | -5.0 % | b |\n\
        | **average** | | 2.5 % | |\n| *paper* | | 15.7 % | |\n\n\
        | only | one |\n|---|---:|\n| row | 1 |\n";

    #[test]
    fn a_report_becomes_tables_with_a_chart_per_figures_column() {
        let page = render(REPORT, "cactus bench x");
        assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
        assert_eq!(page.matches("<table>").count(), 2, "{page}");
        // Bytes (two rows) and Saved (four rows) are drawn; the text column and the
        // one-row table are not.
        assert_eq!(page.matches("<figure>").count(), 2, "{page}");
        assert!(page.contains("<figcaption>Saved</figcaption>"), "{page}");
        assert!(page.contains("<h3>Per workload</h3>"), "{page}");
        assert!(page.contains("2 chart(s)"), "{page}");
        // The paper's bar has its own colour (#ff7f0e), the summary row its own.
        assert!(page.contains("#FF7F0E"), "{page}");
        assert!(page.contains("#555555"), "{page}");
        assert!(!page.contains("src=") && !page.contains("href="));
    }

    #[test]
    fn rows_are_told_apart_by_their_first_cell() {
        let mut reader = None;
        for e in Parser::new_ext(REPORT, Options::ENABLE_TABLES) {
            if let Event::Start(Tag::Table(a)) = &e {
                reader.get_or_insert_with(|| TableReader::new(a));
                continue;
            }
            if let Some(r) = reader.as_mut() {
                if matches!(e, Event::End(TagEnd::Table)) {
                    break;
                }
                r.read(&e);
            }
        }
        let t = reader.unwrap().table;
        assert_eq!(t.head, ["Workload", "Bytes", "Saved", "note"]);
        assert_eq!(t.figures, [false, true, true, false]);
        let kinds: Vec<RowKind> = t.rows.iter().map(|r| r.0).collect();
        assert_eq!(
            kinds,
            [
                RowKind::Ours,
                RowKind::Ours,
                RowKind::Summary,
                RowKind::Paper
            ]
        );
        assert_eq!(t.rows[3].1, ["paper", "", "15.7 %", ""]);
    }
}
