//! The CLI's plain text tables (the statistics of `cactus run`, the firmware's per-task table,
//! `cactus stack-report`, `cactus switch-report`, `cactus rta`), all laid out by comfy-table the
//! same way: no borders and no lines, every column as wide as its widest cell (header
//! included), two spaces between columns, each cell left- or right-aligned as its column says
//! (numbers right, names left), every line indented the same and without trailing spaces.
//! Free lines (a note under a row, a call path) can sit between the rows without widening any
//! column.

use comfy_table::{presets::NOTHING, Cell, CellAlignment, Table};

/// How a column's cells sit in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Against the column's left edge (names, text).
    Left,
    /// Against the column's right edge (numbers).
    Right,
}

impl Align {
    fn comfy(self) -> CellAlignment {
        match self {
            Align::Left => CellAlignment::Left,
            Align::Right => CellAlignment::Right,
        }
    }
}

/// A borderless text table under construction. Rows have as many cells as there are columns
/// (missing cells are empty); [`TextTable::render`] gives the finished text.
#[derive(Debug)]
pub struct TextTable {
    table: Table,
    aligns: Vec<Align>,
    indent: usize,
    rows: usize,
    /// Free lines and the number of rows above each.
    lines: Vec<(usize, String)>,
}

impl TextTable {
    /// A table whose first line is the header: one `(title, alignment)` per column. The titles
    /// are aligned like their columns' cells.
    pub fn new(indent: usize, columns: &[(&str, Align)]) -> Self {
        let mut t = Self::headless(indent, &columns.iter().map(|c| c.1).collect::<Vec<_>>());
        let header: Vec<Cell> = columns
            .iter()
            .map(|(title, align)| Cell::new(title).set_alignment(align.comfy()))
            .collect();
        t.table.set_header(header);
        t
    }

    /// A table without a header line, one alignment per column.
    pub fn headless(indent: usize, aligns: &[Align]) -> Self {
        let mut table = Table::new();
        table.load_style(NOTHING);
        Self {
            table,
            aligns: aligns.to_vec(),
            indent,
            rows: 0,
            lines: Vec::new(),
        }
    }

    /// Adds a row: one cell per column, aligned as its column.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Self {
        let cells: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
        self.row_aligned(cells.iter().map(|c| (c.as_str(), None)))
    }

    /// Adds a row whose cells may override their column's alignment (`Some`), e.g. a note in a
    /// column of numbers.
    pub fn row_aligned<'a>(
        &mut self,
        cells: impl IntoIterator<Item = (&'a str, Option<Align>)>,
    ) -> &mut Self {
        let row: Vec<Cell> = cells
            .into_iter()
            .enumerate()
            .map(|(i, (text, align))| {
                let align = align
                    .or_else(|| self.aligns.get(i).copied())
                    .unwrap_or(Align::Left);
                Cell::new(text).set_alignment(align.comfy())
            })
            .collect();
        self.table.add_row(row);
        self.rows += 1;
        self
    }

    /// Adds a free line below the rows so far: printed as given (after the table's indent),
    /// it sizes no column.
    pub fn line(&mut self, text: impl Into<String>) -> &mut Self {
        self.lines.push((self.rows, text.into()));
        self
    }

    /// The table as text: the header (if any), the rows and the free lines in the order they
    /// were added, each line indented and ending in a newline, without trailing spaces.
    pub fn render(mut self) -> String {
        let columns = self.table.column_count();
        for (i, column) in self.table.column_iter_mut().enumerate() {
            let left = if i == 0 { 0 } else { 1 };
            let right = if i + 1 == columns { 0 } else { 1 };
            column.set_padding((left, right));
        }
        let indent = " ".repeat(self.indent);
        let mut table_lines = self.table.lines();
        let mut out = String::new();
        let push = |out: &mut String, line: &str| {
            let line = format!("{indent}{line}");
            out.push_str(line.trim_end());
            out.push('\n');
        };
        if self.table.header().is_some() {
            if let Some(h) = table_lines.next() {
                push(&mut out, &h);
            }
        }
        let mut free = self.lines.iter().peekable();
        for row in 0..=self.rows {
            while let Some((_, text)) = free.next_if(|(above, _)| *above == row) {
                push(&mut out, text);
            }
            if row < self.rows {
                if let Some(l) = table_lines.next() {
                    push(&mut out, &l);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_their_widest_cell_two_spaces_apart() {
        let mut t = TextTable::new(2, &[("task", Align::Left), ("cycles", Align::Right)]);
        t.row(["sensor", "605756"]).row(["io", "7"]);
        assert_eq!(
            t.render(),
            "  task    cycles\n  sensor  605756\n  io           7\n"
        );
    }

    #[test]
    fn no_borders_and_no_trailing_spaces() {
        let mut t = TextTable::headless(0, &[Align::Left, Align::Left]);
        t.row(["a longer name", ""]).row(["b", "x"]);
        let text = t.render();
        assert_eq!(text, "a longer name\nb              x\n");
        assert!(!text.contains(['|', '+', '-', '─', '│']), "{text}");
    }

    #[test]
    fn free_lines_sit_between_rows_and_size_no_column() {
        let mut t = TextTable::new(0, &[("n", Align::Right)]);
        t.line("before any row");
        t.row([1]);
        t.line("a long note under the first row");
        t.row([22]);
        t.line("at the end");
        assert_eq!(
            t.render(),
            " n\nbefore any row\n 1\na long note under the first row\n22\nat the end\n"
        );
    }

    #[test]
    fn a_cell_can_override_its_column_alignment() {
        let mut t = TextTable::headless(0, &[Align::Right, Align::Right]);
        t.row(["1", "12345"]);
        t.row_aligned([("2", None), ("ab", Some(Align::Left))]);
        assert_eq!(t.render(), "1  12345\n2  ab\n");
    }

    #[test]
    fn an_empty_table_is_its_header() {
        let t = TextTable::new(1, &[("a", Align::Left), ("b", Align::Right)]);
        assert_eq!(t.render(), " a  b\n");
    }
}
