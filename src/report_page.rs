//! The `schedlab report` page: one self-contained HTML document (no network assets)
//! and its plain-text summary, rendered from the document `schedlab.report` builds
//! (sections of headings, paragraphs, notes, preformatted tool tables, comparison
//! tables, text grids, the verdict key, inline figures and folded parts). Cells are
//! coloured by the tables' own verdict colours ([`crate::table::html::verdict_colours`])
//! and marked so that the meaning survives print and paste (docs/report.md).

use crate::table::cell_text::cell_text;
use crate::table::html::{escape, verdict_colours};
use crate::table::{Comparison, Verdict};
use serde::Deserialize;

/// Verdict → (marker printed after the value, meaning), in the key's order.
pub const MARKS: [(Verdict, &str, &str); 5] = [
    (Verdict::Better, "▲", "better: significant after BH-FDR, in the good direction"),
    (Verdict::Worse, "▼", "worse: significant after BH-FDR, in the bad direction"),
    (Verdict::Changed, "◆", "changed: significant, direction unknown (lkp metric without one)"),
    (Verdict::Equivalent, "=", "equivalent: shown to lie within the equivalence margin"),
    (Verdict::Inconclusive, "?", "inconclusive: neither a change nor equivalence shown"),
];

/// The page's style sheet (the verdict classes are appended by [`css`]).
const CSS: &str = include_str!("report_page.css");

/// The self-check a headless browser test reads: counts what rendered, checks that
/// each figure shows its title and axis labels, records where the first table is and
/// any script error; before printing, every folded part is opened.
const SELFCHECK: &str = include_str!("report_page_selfcheck.js");

/// A cell of a text grid: plain text, or `(text, verdict, sub-line)`.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum GridCell {
    /// Text (left-aligned in the first `text_columns` columns).
    Text(String),
    /// Text coloured and marked by a verdict, with an optional smaller second line.
    Verdict(String, Option<String>, String),
}

/// One block of a section.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Block {
    /// A sub-heading.
    H3 {
        /// Its text.
        text: String,
    },
    /// A paragraph.
    P {
        /// Its text.
        text: String,
    },
    /// A highlighted note.
    Note {
        /// Its text.
        text: String,
    },
    /// Preformatted text (a tool's own table layout), folded under `folded` if not empty.
    Pre {
        /// The text.
        text: String,
        /// The label it is folded under ("" = shown).
        #[serde(default)]
        folded: String,
    },
    /// A comparison table, cells coloured and marked by verdict: [`comparison_html`] of
    /// it, which the front end asks the core for with the comparison it holds (no copy of
    /// the comparison crosses into the page document).
    Table {
        /// The table's HTML.
        html: String,
        /// A heading above it ("" = none).
        #[serde(default)]
        caption: String,
    },
    /// A table of text cells.
    Grid {
        /// Column headings.
        headers: Vec<String>,
        /// The rows.
        rows: Vec<Vec<GridCell>>,
        /// The caption ("" = none).
        #[serde(default)]
        caption: String,
        /// How many leading columns are text (left-aligned).
        text_columns: usize,
    },
    /// The colour key of the verdicts.
    Key,
    /// An inline figure (SVG markup or an `<img>`), its caption and the labels it must show.
    Figure {
        /// The markup, inserted as it is.
        markup: String,
        /// The caption ("" = none).
        #[serde(default)]
        caption: String,
        /// The title and axis labels the self-check looks for.
        labels: Vec<String>,
    },
    /// A part folded under a label (opened for printing).
    Details {
        /// The folded part.
        section: Section,
    },
}

/// A section (or a folded part of one).
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Section {
    /// The `<h2>` title (the `<summary>` label of a folded part).
    pub title: String,
    /// The blocks, in order.
    pub blocks: Vec<Block>,
    /// Its lines of the text summary.
    #[serde(default)]
    pub summary: Vec<String>,
    /// The section's id ("" = `s<index>`).
    #[serde(default)]
    pub anchor: String,
}

/// The whole report.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Page {
    /// The title.
    pub title: String,
    /// Paragraphs under the title.
    #[serde(default)]
    pub intro: Vec<String>,
    /// The sections.
    pub sections: Vec<Section>,
}

fn mark_of(verdict: &str) -> Option<(Verdict, &'static str, &'static str)> {
    MARKS.iter().copied().find(|(v, _, _)| v.name() == verdict)
}

/// The style sheet with one class per marked verdict (`.v-worse`...).
pub fn css() -> String {
    let mut out = CSS.to_string();
    for (v, _, _) in MARKS {
        if let Some((bg, fg)) = verdict_colours(v) {
            out.push_str(&format!("\n.v-{} {{ background: {bg}; color: {fg}; }}", v.name()));
        }
    }
    out.push_str(include_str!("report_page_print.css"));
    out
}

/// A `<td>` coloured and marked by `verdict`; a verdict without a colour (other than
/// the baseline's) is printed after the text as it is, uncoloured.
pub fn verdict_cell(text: &str, verdict: Option<&str>, sub: &str) -> String {
    let known = verdict.and_then(mark_of);
    let (cls, mark) = match (known, verdict) {
        (Some((v, m, _)), _) => (format!(" class=\"v-{}\"", v.name()), format!("<span class=\"mark\">{m}</span>")),
        (None, Some(v)) if v != "baseline" && v != text && !v.is_empty() => {
            (String::new(), format!(" <span class=\"mark\">{}</span>", escape(v)))
        }
        _ => (String::new(), String::new()),
    };
    let extra = if sub.is_empty() { String::new() } else { format!("<br><span class=\"sub\">{}</span>", escape(sub)) };
    format!("<td{cls}>{}{mark}{extra}</td>", escape(text))
}

/// The legend of the verdict colours and markers.
pub fn colour_key() -> String {
    let items: String = MARKS
        .iter()
        .map(|(v, m, t)| format!("<li><span class=\"swatch v-{}\">{m}</span>{}</li>", v.name(), escape(t)))
        .collect();
    format!(
        "<ul class=\"key\"><li><b>Key</b> (colour and marker mean the same; any other verdict is printed as a word, e.g. noise: tested, not significant; in the overview, the colour follows the Gmean label, and the rows behind it are under What changed):</li>{items}</ul>"
    )
}

/// A comparison as an HTML table: the tool's values with the change in brackets, each
/// cell (after the baseline's) coloured and marked by its verdict.
pub fn comparison_html(c: &Comparison) -> String {
    let mut out = format!("<table><caption>{} {}</caption><thead><tr><th></th>", escape(&c.tool), escape(&c.benchmark));
    for k in &c.kernels {
        out.push_str(&format!("<th>{}</th>", escape(k)));
    }
    out.push_str("</tr></thead><tbody>");
    for r in &c.rows {
        out.push_str(&format!("<tr><th>{}</th>", escape(format!("{} {}", r.group, r.name).trim())));
        for (i, cell) in r.cells.iter().enumerate() {
            let verdict = if i > 0 { cell.verdict.map(Verdict::name) } else { None };
            out.push_str(&verdict_cell(&cell_text(c, &r, cell, i), verdict, ""));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn grid_html(headers: &[String], rows: &[Vec<GridCell>], caption: &str, text_columns: usize) -> String {
    let mut out = String::from("<table>");
    if !caption.is_empty() {
        out.push_str(&format!("<caption>{}</caption>", escape(caption)));
    }
    out.push_str("<thead><tr>");
    for h in headers {
        out.push_str(&format!("<th>{}</th>", escape(h)));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for (i, cell) in row.iter().enumerate() {
            out.push_str(&match cell {
                GridCell::Verdict(text, verdict, sub) => verdict_cell(text, verdict.as_deref(), sub),
                GridCell::Text(t) if i < text_columns => format!("<td class=\"text\">{}</td>", escape(t)),
                GridCell::Text(t) => format!("<td>{}</td>", escape(t)),
            });
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn section_html(s: &Section, out: &mut Vec<String>) {
    for b in &s.blocks {
        match b {
            Block::H3 { text } => out.push(format!("<h3>{}</h3>", escape(text))),
            Block::P { text } => out.push(format!("<p>{}</p>", escape(text))),
            Block::Note { text } => out.push(format!("<p class=\"note\">{}</p>", escape(text))),
            Block::Pre { text, folded } if !folded.is_empty() => {
                out.push(format!("<details><summary>{}</summary><pre>{}</pre></details>", escape(folded), escape(text)))
            }
            Block::Pre { text, .. } => out.push(format!("<pre>{}</pre>", escape(text))),
            Block::Table { html, caption } => {
                if !caption.is_empty() {
                    out.push(format!("<h4>{}</h4>", escape(caption)));
                }
                out.push(html.clone());
            }
            Block::Grid { headers, rows, caption, text_columns } => {
                out.push(grid_html(headers, rows, caption, *text_columns))
            }
            Block::Key => out.push(colour_key()),
            Block::Details { section } => {
                out.push(format!("<details><summary>{}</summary>", escape(&section.title)));
                section_html(section, out);
                out.push("</details>".to_string());
            }
            Block::Figure { markup, caption, labels } => {
                let cap = if caption.is_empty() {
                    String::new()
                } else {
                    format!("<figcaption>{}</figcaption>", escape(caption))
                };
                let labels = serde_json::to_string(labels).unwrap_or_else(|_| "[]".to_string());
                out.push(format!("<figure data-labels=\"{}\">{markup}{cap}</figure>", escape(&labels)));
            }
        }
    }
}

/// The whole report as one self-contained HTML document.
pub fn html(p: &Page) -> String {
    let mut out = vec![
        "<!DOCTYPE html>".to_string(),
        "<html lang=\"en\"><head><meta charset=\"utf-8\">".to_string(),
        format!("<title>{}</title>", escape(&p.title)),
        format!("<style>{}</style></head><body>", css()),
        format!("<h1>{}</h1>", escape(&p.title)),
    ];
    out.extend(p.intro.iter().map(|x| format!("<p>{}</p>", escape(x))));
    let ids: Vec<String> = p
        .sections
        .iter()
        .enumerate()
        .map(|(i, s)| if s.anchor.is_empty() { format!("s{i}") } else { s.anchor.clone() })
        .collect();
    if p.sections.len() > 1 {
        let items: String = ids
            .iter()
            .zip(&p.sections)
            .map(|(id, s)| format!("<li><a href=\"#{id}\">{}</a></li>", escape(&s.title)))
            .collect();
        out.push(format!("<nav class=\"toc\"><ul>{items}</ul></nav>"));
    }
    for (id, s) in ids.iter().zip(&p.sections) {
        out.push(format!("<section id=\"{}\"><h2>{}</h2>", escape(id), escape(&s.title)));
        section_html(s, &mut out);
        out.push("</section>".to_string());
    }
    out.push("<pre id=\"schedlab-selfcheck\" hidden></pre>".to_string());
    out.push(SELFCHECK.to_string());
    out.push("</body></html>".to_string());
    out.join("\n")
}

/// A section's summary lines and those of its folded parts.
fn all_summary<'a>(s: &'a Section, out: &mut Vec<&'a str>) {
    out.extend(s.summary.iter().map(String::as_str));
    for b in &s.blocks {
        if let Block::Details { section } = b {
            all_summary(section, out);
        }
    }
}

/// The plain-text summary: the title, the intro, then each section's summary lines.
pub fn text(p: &Page) -> String {
    let rule = |t: &str, c: char| c.to_string().repeat(t.chars().count());
    let mut lines: Vec<String> = vec![p.title.clone(), rule(&p.title, '=')];
    lines.extend(p.intro.iter().cloned());
    for s in &p.sections {
        let mut summary = Vec::new();
        all_summary(s, &mut summary);
        if !summary.is_empty() {
            lines.extend([String::new(), s.title.clone(), rule(&s.title, '-')]);
            lines.extend(summary.into_iter().map(str::to_string));
        }
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(json: &str) -> Page {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn blocks_render_escaped_and_summary_collects_folded_parts() {
        let p = page(
            r#"{"title": "T <1>", "intro": ["in"], "sections": [
            {"title": "A", "summary": ["a1"], "blocks": [
                {"kind": "p", "text": "<script>"}, {"kind": "note", "text": "n"},
                {"kind": "pre", "text": "x", "folded": "raw"}, {"kind": "key"},
                {"kind": "grid", "headers": ["h"], "rows": [["t", ["1.0", "worse", "p=0.01"], ["2", "noise", ""]]],
                 "text_columns": 1},
                {"kind": "details", "section": {"title": "more", "summary": ["d1"], "blocks": [{"kind": "h3", "text": "h"}]}},
                {"kind": "figure", "markup": "<svg></svg>", "caption": "c", "labels": ["x \"y\""]}]},
            {"title": "B", "anchor": "b", "blocks": []}]}"#,
        );
        let h = html(&p);
        assert!(h.contains("<title>T &lt;1&gt;</title>") && h.contains("<p>&lt;script&gt;</p>"), "{h}");
        assert!(h.contains("<li><a href=\"#s0\">A</a></li><li><a href=\"#b\">B</a></li>"), "{h}");
        assert!(h.contains("<td class=\"text\">t</td><td class=\"v-worse\">1.0<span class=\"mark\">▼</span><br><span class=\"sub\">p=0.01</span></td><td>2 <span class=\"mark\">noise</span></td>"), "{h}");
        assert!(h.contains("<details><summary>raw</summary><pre>x</pre></details>"), "{h}");
        assert!(h.contains("<figure data-labels=\"[&quot;x \\&quot;y\\&quot;&quot;]\"><svg></svg><figcaption>c</figcaption></figure>"), "{h}");
        assert!(h.contains(".v-worse { background: #f8d0d0; color: #5c0a0a; }"), "{h}");
        assert_eq!(text(&p), "T <1>\n=====\nin\n\nA\n-\na1\nd1\n");
    }
}
