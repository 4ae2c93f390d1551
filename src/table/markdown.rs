//! A comparison as a GitHub-flavoured markdown table: one column per kernel, the
//! change in brackets, `*` where significant (the cell text of [`super::cell_text`]).

use super::cell_text::cell_text;
use super::comparison::Comparison;

/// `text` as one markdown table cell: CR, LF and tab (which would end the row or the
/// cell) become spaces; `&`, `<`, `>` are HTML-escaped so they print as text; `|` is
/// backslash-escaped.
pub fn md_cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\r' | '\n' | '\t' => out.push(' '),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            _ => out.push(ch),
        }
    }
    out
}

/// The markdown table: a header of kernels, then one line per row labelled
/// `group name`.
pub fn render(c: &Comparison) -> String {
    let mut out = String::from("| |");
    for k in &c.kernels {
        out.push(' ');
        out.push_str(&md_cell(k));
        out.push_str(" |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(c.kernels.len()));
    out.push('\n');
    for r in &c.rows {
        out.push_str("| ");
        out.push_str(&md_cell(format!("{} {}", r.group, r.name).trim()));
        out.push_str(" |");
        for (i, cell) in r.cells.iter().enumerate() {
            out.push(' ');
            out.push_str(&md_cell(&cell_text(c, r, cell, i)));
            out.push_str(" |");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Cell, Row};

    #[test]
    fn table_and_escaping() {
        let mut c = Comparison::new("schedlab", "", vec!["a|b".into(), "<new>".into()]);
        c.rows.push(Row {
            group: "Hmean".into(),
            name: "x\ny".into(),
            cells: vec![Cell { value: Some(1.0), ..Default::default() }, Cell::default()],
            ..Default::default()
        });
        // written out by hand from the rules above
        let want = "| | a\\|b | &lt;new&gt; |\n|---|---:|---:|\n| Hmean x y | 1.00 | - |\n";
        assert_eq!(render(&c), want);
    }
}
