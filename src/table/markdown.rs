//! A comparison as a GitHub-flavoured markdown table: one column per kernel, the
//! change in brackets, `*` where significant (the cell text of [`super::cell_text`]),
//! then, for the compared kernels, the verdict and the test with its p and q (what
//! the HTML table prints under each value), so a pasted table says why a cell is marked.

use super::cell_text::{cell_text, stat_words};
use super::comparison::Comparison;
use crate::error::Result;

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
/// `group name`. Polls [`crate::cancel`] every 4096 rows.
pub fn render(c: &Comparison) -> Result<String> {
    let mut out = String::from("| |");
    for k in &c.kernels {
        out.push(' ');
        out.push_str(&md_cell(k));
        out.push_str(" |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(c.kernels.len()));
    out.push('\n');
    for (ri, r) in c.rows.iter().enumerate() {
        crate::cancel::check_every(ri)?;
        out.push_str("| ");
        out.push_str(&md_cell(format!("{} {}", r.group, r.name).trim()));
        out.push_str(" |");
        for (i, cell) in r.cells.iter().enumerate() {
            out.push(' ');
            let mut text = cell_text(c, &r, cell, i);
            if i > 0 {
                for word in [cell.verdict.map(|v| v.name().to_string()), stat_words(cell)].into_iter().flatten() {
                    text.push(' ');
                    text.push_str(&word);
                }
            }
            out.push_str(&md_cell(&text));
            out.push_str(" |");
        }
        out.push('\n');
    }
    Ok(out)
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
        assert_eq!(render(&c).unwrap(), want);
    }

    #[test]
    fn compared_cells_carry_verdict_test_p_and_q() {
        use crate::table::Verdict;
        let mut c = Comparison::new("schedlab", "", vec!["base".into(), "new".into()]);
        let new = Cell {
            value: Some(2.0),
            change: Some(100.0),
            verdict: Some(Verdict::Better),
            test: Some(crate::table::Test::Welch.into()),
            p: Some(0.0123456),
            q: Some(0.5),
            ..Default::default()
        };
        let base = Cell { value: Some(1.0), verdict: Some(Verdict::Baseline), ..Default::default() };
        c.rows.push(Row { name: "lps".into(), cells: vec![base, new], ..Default::default() });
        // C's printf("%.3g", 0.0123456) is 0.0123; the baseline cell carries no verdict words
        let want = "| | base | new |\n|---|---:|---:|\n| lps | 1.00 | 2.00 (+100.00%)* better welch p=0.0123 q=0.5 |\n";
        assert_eq!(render(&c).unwrap(), want);
    }
}
