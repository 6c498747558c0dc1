//! Tables as the CLI prints them: each column declared once with its heading and alignment, every column as
//! wide as its longest cell, so long parameters and figures stay aligned. And every line the CLI prints from a
//! result, a link or a gallery, which a stranger may have written: shown, never obeyed (`shown`).

/// `text` with every control character but the line break, and every character that reorders what follows
/// it (bidirectional marks, embeddings, overrides and isolates), written as its escape (`\u{1b}`): a label
/// from a result or a gallery cannot move the cursor, clear the screen, retitle the terminal or write its
/// clipboard (OSC 52), nor show its text in another order than it holds.
pub fn shown(text: &str) -> String {
    let hidden = |c: char| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    text.chars().map(|c| if hidden(c) { c.escape_unicode().to_string() } else { c.to_string() }).collect()
}

/// Prints a line to standard output, `shown`.
pub fn say(line: &str) {
    println!("{}", shown(line));
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Names and words.
    Left,
    /// Figures.
    Right,
}

pub struct Column {
    heading: String,
    align: Align,
}

/// A column of names and words.
pub fn left(heading: impl Into<String>) -> Column {
    Column { heading: heading.into(), align: Align::Left }
}

/// A column of figures.
pub fn right(heading: impl Into<String>) -> Column {
    Column { heading: heading.into(), align: Align::Right }
}

pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new(columns: Vec<Column>) -> Table {
        Table { columns, rows: Vec::new() }
    }

    /// Adds a row: one cell a column, in the columns' order.
    pub fn row(&mut self, cells: Vec<String>) {
        assert_eq!(cells.len(), self.columns.len(), "a row has one cell a column");
        self.rows.push(cells.iter().map(|cell| shown(cell)).collect());
    }

    pub fn print(&self) {
        let headings: Vec<String> = self.columns.iter().map(|c| c.heading.clone()).collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| self.rows.iter().chain([&headings]).map(|row| row[i].chars().count()).max().unwrap_or(0))
            .collect();
        for cells in [&headings].into_iter().chain(&self.rows) {
            let text: Vec<String> = cells
                .iter()
                .zip(&self.columns)
                .zip(&widths)
                .map(|((cell, column), &width)| match column.align {
                    Align::Left => format!("{cell:<width$}"),
                    Align::Right => format!("{cell:>width$}"),
                })
                .collect();
            println!("{}", text.join("  ").trim_end());
        }
    }
}
