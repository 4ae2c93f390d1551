//! Markdown of a [`BatchResult`] within a size budget, for the places CI output is
//! shown: a pull-request comment (GitHub takes 65,536 characters) or a job's step
//! summary (1 MiB). Summary first: the headline and settings, one line per
//! comparison that has a row worth a look (comparisons whose rows are all
//! equivalent are collapsed into one count), then the rows that are not
//! equivalent, regressions first, as many as the budget holds; each cut says what
//! it left out, with counts, and that the JSON output has everything
//! (docs/batch.md, "Outputs").

use super::document::{BatchResult, Row};
use super::render::{headline, opt, pct, settings, setup_tag, verdict_rank};
use crate::cancel;
use crate::error::Result;
use crate::table::markdown::md_cell;
use crate::table::Verdict;
use std::collections::HashMap;
use std::fmt::Write;

/// The default budget in bytes: below a pull-request comment's 65,536 characters
/// with room for a caller's own line or two.
pub const DEFAULT_BUDGET: usize = 60_000;

/// Bytes kept for each elision note.
const NOTE: usize = 300;

/// How many of `lines` fit in `budget` bytes (in order, stopping at the first that
/// does not).
fn fitting(lines: &[String], budget: usize) -> usize {
    let mut used = 0;
    lines
        .iter()
        .take_while(|l| {
            used += l.len();
            used <= budget
        })
        .count()
}

/// Counts of verdicts as `2 worse, 1 inconclusive`, largest concern first.
fn counts(rows: &[&Row]) -> String {
    let mut n: Vec<(Verdict, usize)> = Vec::new();
    for r in rows {
        match n.iter_mut().find(|(v, _)| *v == r.verdict) {
            Some((_, c)) => *c += 1,
            None => n.push((r.verdict, 1)),
        }
    }
    n.sort_by_key(|(v, _)| verdict_rank(*v));
    n.iter().map(|(v, c)| format!("{c} {}", v.name().replace('_', " "))).collect::<Vec<_>>().join(", ")
}

fn is_shown(r: &Row) -> bool {
    !matches!(r.verdict, Verdict::Noise | Verdict::Baseline | Verdict::Equivalent)
}

/// The comparison a row belongs to, as shown.
fn comparison(r: &Row) -> String {
    format!("{} {}{}: {} vs {}", r.tool, r.benchmark, setup_tag(&r.setup), r.kernel, r.baseline)
}

fn row_line(r: &Row) -> String {
    format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} |\n",
        if r.verdict == Verdict::Worse { "**worse**".to_string() } else { r.verdict.name().to_string() },
        md_cell(&r.tool),
        md_cell(&r.benchmark),
        md_cell(&r.setup),
        md_cell(&r.metric),
        md_cell(&r.kernel),
        md_cell(&r.baseline),
        r.statistic,
        opt(r.mean_base, 6),
        opt(r.mean_new, 6),
        pct(r.change_pct),
        opt(r.p, 3),
        opt(r.q, 3),
        opt(r.p_equivalent, 3),
        r.runs_needed.map(|n| n.to_string()).unwrap_or_else(|| "n/a".to_string()),
        r.n_base,
        r.n_new
    )
}

/// A list section (`**title**` then `- item` lines) within `budget` bytes; the
/// items cut are counted.
fn list(title: &str, items: &[String], budget: usize) -> String {
    if items.is_empty() {
        return String::new();
    }
    let lines: Vec<String> = items.iter().map(|i| format!("- {i}\n")).collect();
    let n = fitting(&lines, budget.saturating_sub(title.len() + NOTE));
    let mut s = format!("\n**{title}** ({})\n\n", items.len());
    lines.iter().take(n).for_each(|l| s.push_str(l));
    if n < lines.len() {
        let _ = writeln!(s, "- … and {} more, not shown (the JSON output lists every one)", lines.len() - n);
    }
    s
}

/// The comparisons with a row that is not equivalent, one table line each, within
/// `budget` bytes; the comparisons whose rows are all equivalent are counted.
fn comparisons(rows: &[Row], budget: usize) -> Result<String> {
    let mut order: Vec<String> = Vec::new();
    let mut by: HashMap<String, Vec<&Row>> = HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        cancel::check_every(i)?;
        let key = format!("{}\u{0}{}", comparison(r), r.input);
        by.entry(key.clone())
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r);
    }
    let mut flagged: Vec<(u8, String, &Vec<&Row>)> = Vec::new();
    let (mut quiet, mut quiet_rows) = (0usize, 0usize);
    for key in &order {
        let Some(rs) = by.get(key) else { continue };
        match rs.iter().filter(|r| is_shown(r)).map(|r| verdict_rank(r.verdict)).min() {
            Some(rank) => flagged.push((rank, key.clone(), rs)),
            None => {
                quiet += 1;
                quiet_rows += rs.len();
            }
        }
    }
    flagged.sort_by_key(|(rank, _, _)| *rank);
    let mut s = String::new();
    if !flagged.is_empty() {
        let lines: Vec<String> = flagged
            .iter()
            .map(|(_, _, rs)| {
                let first = rs.first().map(|r| comparison(r)).unwrap_or_default();
                format!("| {} | {} | {} |\n", md_cell(&first), rs.len(), counts(rs))
            })
            .collect();
        let head = "\n**Comparisons with a row to look at**\n\n| comparison | rows | verdicts |\n|---|---:|---|\n";
        let n = fitting(&lines, budget.saturating_sub(head.len() + 2 * NOTE));
        s.push_str(head);
        lines.iter().take(n).for_each(|l| s.push_str(l));
        if n < lines.len() {
            let cut: Vec<&Row> = flagged.iter().skip(n).flat_map(|(_, _, rs)| rs.iter().copied()).collect();
            let _ = writeln!(s, "\n{} more comparisons not listed ({}).", lines.len() - n, counts(&cut));
        }
    }
    if quiet > 0 {
        let _ = writeln!(s, "\n{quiet} comparisons ({quiet_rows} rows) where every row is equivalent are collapsed.");
    }
    Ok(s)
}

/// Markdown of `res` within `budget` bytes (the headline, settings and notes are
/// always written, so a budget below about 2 KB may be exceeded): the summary first,
/// then the rows that are not equivalent (regressions first) as far as they fit,
/// then what was not compared, input errors, missing data and warnings, each list
/// cut to its share of the budget with a count of what was left out.
pub fn markdown(res: &BatchResult, budget: usize) -> Result<String> {
    let mut head = String::new();
    let _ = writeln!(head, "### {}\n", headline(res));
    let _ = writeln!(head, "{}; exit code {}.", settings(res), res.exit_code);
    let share = budget / 10;
    let unmatched: Vec<String> = res
        .unmatched
        .iter()
        .map(|u| {
            format!(
                "{} {}{} `{}` in `{}`: {}",
                u.tool,
                md_cell(&u.benchmark),
                md_cell(&setup_tag(&u.setup)),
                md_cell(&u.kernel),
                md_cell(&u.input),
                md_cell(&u.reason)
            )
        })
        .collect();
    let errors: Vec<String> =
        res.errors.iter().map(|e| format!("`{}`: {}", md_cell(&e.input), md_cell(&e.message))).collect();
    let missing: Vec<String> = res.missing.iter().map(|e| md_cell(&e.message)).collect();
    let warnings: Vec<String> = res.warnings.iter().map(|w| md_cell(w)).collect();
    let tail = [
        list("Input errors", &errors, share),
        list("Missing data", &missing, share),
        list("Not compared", &unmatched, share),
        list("Warnings", &warnings, share),
    ]
    .concat();
    let summary = comparisons(&res.rows, budget / 4)?;
    let mut shown: Vec<&Row> = res.rows.iter().filter(|r| is_shown(r)).collect();
    shown.sort_by_key(|r| verdict_rank(r.verdict));
    let mut body = String::new();
    if shown.is_empty() {
        body.push_str("\nNo row shows a significant change, and none is inconclusive.\n");
    } else {
        let table_head = "\n**Rows that are not equivalent** (regressions first)\n\n| verdict | tool | benchmark | \
                          setup | metric | kernel | baseline | statistic | base | new | change | p | q | equivalence p | \
                          runs needed | n |\n|---|---|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
        let lines: Vec<String> = shown
            .iter()
            .enumerate()
            .map(|(i, r)| cancel::check_every(i).map(|()| row_line(r)))
            .collect::<Result<_>>()?;
        let used = head.len() + summary.len() + tail.len() + table_head.len() + 2 * NOTE;
        let n = fitting(&lines, budget.saturating_sub(used));
        body.push_str(table_head);
        lines.iter().take(n).for_each(|l| body.push_str(l));
        if n < lines.len() {
            let cut: Vec<&Row> = shown.iter().skip(n).copied().collect();
            let _ = writeln!(
                body,
                "\n{} more rows not shown ({}), to keep this under {budget} bytes; the JSON output \
                 (`--format json`) has every row.",
                cut.len(),
                counts(&cut)
            );
        }
    }
    let equivalent = res.rows.iter().filter(|r| r.verdict == Verdict::Equivalent).count();
    if equivalent > 0 {
        let _ = writeln!(body, "\n{equivalent} rows judged equivalent are not shown.");
    }
    Ok([head, summary, body, tail].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_stops_at_the_first_line_over() {
        let lines: Vec<String> = ["abc", "de", "fghij", "k"].iter().map(|s| s.to_string()).collect();
        assert_eq!(fitting(&lines, 5), 2); // 3 + 2 = 5 fits, + 5 does not
        assert_eq!(fitting(&lines, 4), 1);
        assert_eq!(fitting(&lines, 100), 4);
    }
}
