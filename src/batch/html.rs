//! A batch result as one self-contained HTML table (Jupyter's `_repr_html_`, and
//! `schedlab batch --format html`): a caption with the counts and the exit code, then
//! the rows that are not equivalent or noise, worst first, coloured by verdict in the
//! comparison table's colours (docs/batch.md).

use super::document::{BatchResult, InputError, Row};
use crate::cfmt::c_fmt_g;
use crate::table::html::{escape, notes_paragraph, verdict_colours, CELL_STYLE, HEAD_STYLE, TABLE_STYLE};
use crate::table::Verdict;

/// Rows shown; the rest are counted under the table.
pub const HTML_ROWS: usize = 50;

/// Error or missing-data messages quoted under the table, per kind.
const QUOTED_MESSAGES: usize = 5;

/// The shown verdicts in display order (worst first); others are not shown.
const ORDER: [Verdict; 5] =
    [Verdict::Worse, Verdict::Changed, Verdict::Better, Verdict::Inconclusive, Verdict::NotEnoughData];

const COLUMNS: [&str; 13] = [
    "verdict",
    "benchmark",
    "setup",
    "metric",
    "kernel",
    "baseline",
    "base",
    "new",
    "change",
    "p",
    "q",
    "equivalence p",
    "runs needed",
];

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_string(), |v| c_fmt_g(v, digits))
}

fn row_html(r: &Row) -> String {
    let (bg, fg) = verdict_colours(r.verdict).unwrap_or(("transparent", "inherit"));
    let mut out =
        format!("<tr><td style=\"{HEAD_STYLE};background:{bg};color:{fg}\">{}</td>", escape(r.verdict.name()));
    for t in [&r.benchmark, &r.setup, &r.metric, &r.kernel, &r.baseline] {
        out.push_str(&format!("<td style=\"{HEAD_STYLE}\">{}</td>", escape(t)));
    }
    let nums = [
        num(r.mean_base, 6),
        num(r.mean_new, 6),
        r.change_pct.map_or_else(|| "n/a".to_string(), |c| format!("{c:+.2}%")),
        num(r.p, 3),
        num(r.q, 3),
        num(r.p_equivalent, 3),
        r.runs_needed.map_or_else(|| "n/a".to_string(), |n| n.to_string()),
    ];
    for n in nums {
        out.push_str(&format!("<td style=\"{CELL_STYLE}\">{}</td>", escape(&n)));
    }
    out.push_str("</tr>");
    out
}

fn quoted(what: &str, items: &[InputError]) -> Option<String> {
    if items.is_empty() {
        return None;
    }
    let msgs: Vec<&str> = items.iter().take(QUOTED_MESSAGES).map(|e| e.message.as_str()).collect();
    let more = if items.len() > QUOTED_MESSAGES { "; ..." } else { "" };
    Some(format!("{} {what}: {}{more}", items.len(), msgs.join("; ")))
}

/// The HTML table of `res`.
pub fn html(res: &BatchResult) -> String {
    let s = &res.summary;
    let counts = [
        (s.worse, "worse"),
        (s.better, "better"),
        (s.changed, "changed"),
        (s.inconclusive, "inconclusive"),
        (s.not_enough_data, "not enough data"),
        (s.equivalent, "equivalent"),
    ]
    .iter()
    .map(|(n, k)| format!("{n} {k}"))
    .collect::<Vec<_>>()
    .join(", ");
    let head = format!(
        "schedlab batch against {}: exit code {}; {counts} in {} rows of {} comparisons ({} inputs)",
        res.options.baseline, res.exit_code, s.rows, s.comparisons, s.inputs
    );
    let mut shown: Vec<&Row> = res.rows.iter().filter(|r| ORDER.contains(&r.verdict)).collect();
    shown.sort_by_key(|r| ORDER.iter().position(|v| *v == r.verdict));
    let mut out = format!("<table class=\"schedlab-batch\" style=\"{TABLE_STYLE}\">");
    out.push_str(&format!("<caption style=\"text-align:left;font-weight:bold\">{}</caption>", escape(&head)));
    out.push_str("<thead><tr>");
    for c in COLUMNS {
        out.push_str(&format!("<th style=\"{HEAD_STYLE};font-weight:bold\">{c}</th>"));
    }
    out.push_str("</tr></thead><tbody>");
    for r in shown.iter().take(HTML_ROWS) {
        out.push_str(&row_html(r));
    }
    out.push_str("</tbody></table>");
    let mut notes = Vec::new();
    if shown.len() > HTML_ROWS {
        notes.push(format!(
            "{} more rows that are not equivalent are not shown (.to_pandas() has every row)",
            shown.len() - HTML_ROWS
        ));
    }
    if s.equivalent > 0 {
        notes.push(format!("{} equivalent rows are not shown", s.equivalent));
    }
    notes.extend(quoted("input errors", &res.errors));
    notes.extend(quoted("missing data", &res.missing));
    out.push_str(&notes_paragraph(&notes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(rows: &str) -> BatchResult {
        let text = format!(
            r#"{{"schema":"schedlab-batch","version":1,"schedlab_version":"0","options":{{"baseline":"a<b","test":"welch",
            "alpha":0.05,"min_change":0.0,"fail_on":"regression"}},"inputs":[],"rows":[{rows}],"unmatched":[],
            "summary":{{"inputs":1,"comparisons":2,"rows":2,"better":1,"worse":1,"changed":0,"noise":0,
            "not_enough_data":0}},"warnings":[],"errors":[],"missing":[],"exit_code":1}}"#
        );
        BatchResult::from_json(&text).unwrap()
    }

    const ROW: &str = r#"{"tool":"mmtests","benchmark":"hackbench","setup":"","era":null,"metric":"M",
        "statistic":"Amean","direction":"lower","kernel":"k","baseline":"b","input":"i","base_input":"i",
        "n_base":5,"n_new":5,"mean_base":1.5,"mean_new":2.0,"change_pct":-33.333,"p":0.0012345,"q":0.01,
        "test":"welch","verdict":"VERDICT"}"#;

    #[test]
    fn worst_first_coloured_and_escaped() {
        let rows = format!("{},{}", ROW.replace("VERDICT", "better"), ROW.replace("VERDICT", "worse"));
        let h = html(&doc(&rows));
        // the caption, escaped; the counts in their fixed order
        assert!(h.contains(
            ">schedlab batch against a&lt;b: exit code 1; 1 worse, 1 better, 0 changed, 0 inconclusive, \
             0 not enough data, 0 equivalent in 2 rows of 2 comparisons (1 inputs)</caption>"
        ));
        let worse = h.find(">worse</td>").unwrap();
        let better = h.find(">better</td>").unwrap();
        assert!(worse < better, "worst first");
        assert!(h.contains("background:#f8d0d0;color:#5c0a0a\">worse</td>"));
        // %.6g of 1.5 and 2.0, %+.2f of -33.333, %.3g of 0.0012345; no equivalence p, no runs needed
        for cell in [">1.5</td>", ">2</td>", ">-33.33%</td>", ">0.00123</td>", ">0.01</td>", ">n/a</td>"] {
            assert!(h.contains(cell), "{cell} in {h}");
        }
        assert!(!h.contains("<p "), "no notes without errors, missing data or hidden rows");
    }
}
