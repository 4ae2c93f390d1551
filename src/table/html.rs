//! A comparison as a self-contained HTML table (Jupyter's `_repr_html_`): inline
//! styles only, right-aligned numbers, each cell coloured by its verdict with its own
//! text colour (so it reads in light and dark themes), and each changed cell's test,
//! p and q printed under its value.

use super::cell_text::{cell_text, stat_words};
use super::comparison::{Cell, Comparison};
use super::verdict::Verdict;

/// The inline style of the `<table>`.
pub const TABLE_STYLE: &str = "border-collapse:collapse;font-variant-numeric:tabular-nums;margin:0.5em 0";
/// The inline style of a number cell.
pub const CELL_STYLE: &str = "border:1px solid #999;padding:2px 6px;text-align:right;white-space:nowrap";
/// The inline style of a heading or text cell.
pub const HEAD_STYLE: &str = "border:1px solid #999;padding:2px 6px;text-align:left;font-weight:normal";

/// The (background, text) colours of a verdict; None for the uncoloured ones.
pub fn verdict_colours(v: Verdict) -> Option<(&'static str, &'static str)> {
    match v {
        Verdict::Better => Some(("#d4f4d4", "#0b3d0b")),
        Verdict::Worse => Some(("#f8d0d0", "#5c0a0a")),
        Verdict::Changed => Some(("#fff2b3", "#4d3b00")),
        Verdict::Equivalent => Some(("#e3ecf7", "#12304d")),
        Verdict::Inconclusive => Some(("#eeeeee", "#333333")),
        _ => None,
    }
}

/// `text` escaped for HTML text and attribute values (`&`, `<`, `>`, `"`, `'`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            _ => out.push(ch),
        }
    }
    out
}

/// The notes under a table: one small paragraph, each note escaped, a line each;
/// nothing without notes.
pub fn notes_paragraph(notes: &[String]) -> String {
    if notes.is_empty() {
        return String::new();
    }
    let body: Vec<String> = notes.iter().map(|n| escape(n)).collect();
    format!("<p style=\"margin:0.2em 0;font-size:90%\">{}</p>", body.join("<br>"))
}

fn stat_line(cell: &Cell) -> String {
    match stat_words(cell) {
        Some(w) => format!("<br><span style=\"font-size:80%;opacity:0.8\">{}</span>", escape(&w)),
        None => String::new(),
    }
}

/// The HTML table. Polls [`crate::cancel`] every 4096 rows.
pub fn render(c: &Comparison) -> crate::error::Result<String> {
    let mut out = format!(
        "<table class=\"schedlab-comparison\" style=\"{TABLE_STYLE}\"><caption style=\"text-align:left;font-weight:bold\">{} {}</caption><thead><tr><th style=\"{HEAD_STYLE}\"></th>",
        escape(&c.tool),
        escape(&c.benchmark)
    );
    for k in &c.kernels {
        out.push_str(&format!("<th style=\"{CELL_STYLE};font-weight:bold\">{}</th>", escape(k)));
    }
    out.push_str("</tr></thead><tbody>");
    for (ri, r) in c.rows.iter().enumerate() {
        crate::cancel::check_every(ri)?;
        out.push_str(&format!(
            "<tr><th style=\"{HEAD_STYLE}\">{}</th>",
            escape(format!("{} {}", r.group, r.name).trim())
        ));
        for (i, cell) in r.cells.iter().enumerate() {
            let mut style = CELL_STYLE.to_string();
            if let Some((bg, fg)) = cell.verdict.and_then(verdict_colours) {
                style.push_str(&format!(";background:{bg};color:{fg}"));
            }
            let extra = if i > 0 { stat_line(cell) } else { String::new() };
            out.push_str(&format!("<td style=\"{style}\">{}{extra}</td>", escape(&cell_text(c, &r, cell, i))));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Row;

    #[test]
    fn escapes_and_colours() {
        let mut c = Comparison::new("t<", "b&", vec!["a".into(), "\"b\"".into()]);
        c.rows.push(Row {
            name: "x'".into(),
            cells: vec![
                Cell { value: Some(1.0), ..Default::default() },
                Cell {
                    value: Some(2.0),
                    change: Some(100.0),
                    verdict: Some(Verdict::Better),
                    test: Some(crate::table::Test::Welch.into()),
                    p: Some(0.012345),
                    ..Default::default()
                },
            ],
            ..Default::default()
        });
        let h = render(&c).unwrap();
        assert!(h.contains("<caption style=\"text-align:left;font-weight:bold\">t&lt; b&amp;</caption>"), "{h}");
        assert!(h.contains("&quot;b&quot;") && h.contains(">x&#x27;</th>"), "{h}");
        // Python: f"{0.012345:.3g}" == '0.0123'
        assert!(h.contains("background:#d4f4d4;color:#0b3d0b\">2.00 (+100.00%)*<br><span style=\"font-size:80%;opacity:0.8\">welch p=0.0123</span></td>"), "{h}");
    }
}
