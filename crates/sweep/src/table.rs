//! Markdown tables and the cell formats every report shares: one place, so every evaluation's
//! tables look alike and a figure that was never measured shows as `-`, never as 0.

use std::fmt::Display;

/// A column's alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text (`---`).
    Left,
    /// Figures (`---:`).
    Right,
}

/// A Markdown table: a header, an alignment row and rows of cells.
#[derive(Clone, Debug)]
pub struct Table {
    head: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headings; a heading that starts with `>` is a right-aligned
    /// (figures) column, the `>` dropped.
    pub fn new(columns: &[&str]) -> Table {
        let (head, align) = columns
            .iter()
            .map(|c| match c.strip_prefix('>') {
                Some(h) => (h.to_string(), Align::Right),
                None => (c.to_string(), Align::Left),
            })
            .unzip();
        Table {
            head,
            align,
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells are empty, extra ones kept).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Table {
        self.rows.push(cells.into_iter().map(Into::into).collect());
        self
    }

    /// Rows so far.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows yet.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as Markdown, one line each (header, alignment, rows), each ending in `\n`.
    pub fn render(&self) -> String {
        let mut s = line(&self.head);
        s.push('|');
        for a in &self.align {
            s.push_str(match a {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        s.push('\n');
        for r in &self.rows {
            let mut cells = r.clone();
            if cells.len() < self.head.len() {
                cells.resize(self.head.len(), String::new());
            }
            s.push_str(&line(&cells));
        }
        s
    }
}

fn line(cells: &[String]) -> String {
    let mut s = String::from("|");
    for c in cells {
        if c.is_empty() {
            s.push_str(" |");
        } else {
            s.push(' ');
            s.push_str(c);
            s.push_str(" |");
        }
    }
    s.push('\n');
    s
}

/// `12.3 %`, or `-` when there is no value.
pub fn pct(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.1} %")).unwrap_or_else(|| "-".into())
}

/// The value, or `-` when there is none.
pub fn or_dash<T: Display>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "-".into())
}

/// The mean, or None of nothing.
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = values.into_iter().collect();
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Energy given in nJ, in whichever of nJ, µJ, mJ and J keeps the number at least 1 (below
/// 1 nJ: nJ), with three decimals. The one energy format of every Cactus table.
pub fn energy(nj: f64) -> String {
    match nj {
        x if x >= 1e9 => format!("{:.3} J", x / 1e9),
        x if x >= 1e6 => format!("{:.3} mJ", x / 1e6),
        x if x >= 1e3 => format!("{:.3} µJ", x / 1e3),
        x => format!("{x:.3} nJ"),
    }
}

/// `part` as a percentage of `whole` (None when `whole` is 0).
pub fn percent(part: f64, whole: f64) -> Option<f64> {
    (whole != 0.0).then(|| part * 100.0 / whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_scales_with_the_value() {
        assert_eq!(energy(0.5), "0.500 nJ");
        assert_eq!(energy(12.0), "12.000 nJ");
        assert_eq!(energy(1_500.0), "1.500 µJ");
        assert_eq!(energy(2.0e6), "2.000 mJ");
        assert_eq!(energy(3.0e9), "3.000 J");
    }

    #[test]
    fn renders_header_alignment_and_rows() {
        let mut t = Table::new(&["Workload", ">Cycles", ">MSO"]);
        t.row(["net", "100", "12.5 %"]);
        t.row(["**average**", "", "3.0 %"]);
        t.row(["short"]);
        assert_eq!(
            t.render(),
            "| Workload | Cycles | MSO |\n|---|---:|---:|\n| net | 100 | 12.5 % |\n\
             | **average** | | 3.0 % |\n| short | | |\n"
        );
    }

    #[test]
    fn cells_show_a_dash_for_what_was_not_measured() {
        assert_eq!(pct(None), "-");
        assert_eq!(pct(Some(4.25)), "4.2 %");
        assert_eq!(or_dash::<u32>(None), "-");
        assert_eq!(mean([]), None);
        assert_eq!(mean([1.0, 2.0]), Some(1.5));
        assert_eq!(percent(1.0, 0.0), None);
    }
}
