//! Parse an lkp `%stddev %change` table as pasted in mail back into numbers: both the
//! aligned form the robot sends and the whitespace-collapsed form mail archives keep
//! (docs/lkp.md §3.4 gives the layout). Rows are recognised by their shape, so
//! surrounding prose, headers and the robot's decorations are skipped.

use serde::Serialize;

/// One root's cell of a parsed row.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct ReportCell {
    /// The printed mean (perf rows) or fail count (failure rows; blank = 0).
    pub value: Option<f64>,
    /// The printed `± N%` (None where not shown, i.e. ≤ 2%).
    pub stddev_pct: Option<f64>,
    /// Failure rows: the run count after `:`.
    pub runs: Option<u64>,
}

/// One parsed row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportRow {
    /// "perf" or "failure".
    pub section: String,
    /// Metric name.
    pub metric: String,
    /// Base first, then each head.
    pub cells: Vec<ReportCell>,
    /// Per head: the printed change (percent, or absolute where `absolute`), or the
    /// `%reproduction` for failure rows.
    pub changes: Vec<f64>,
    /// The change column had no `%` (keys ending in `%`, perf-profile).
    pub absolute: bool,
    /// The row's line in the text (1-based).
    pub line: usize,
}

/// A parsed report.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct Report {
    /// Column labels (commits) from the line above the dashes, when present.
    pub commits: Vec<String>,
    /// Rows in order.
    pub rows: Vec<ReportRow>,
}

fn num(t: &str) -> Option<f64> {
    let ok = t.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+' || c == '.');
    if !ok {
        return None;
    }
    t.parse::<f64>().ok().filter(|x| x.is_finite())
}

fn pct(t: &str) -> Option<f64> {
    num(t.strip_suffix('%')?)
}

/// lkp's `± N%`: a whole percent (it truncates), so "+200.6%" is no %stddev.
fn stddev_pct(t: &str) -> Option<f64> {
    let d = t.strip_suffix('%')?;
    (!d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())).then(|| d.parse::<f64>().ok()).flatten()
}

fn parse_perf(tokens: &[&str]) -> Option<ReportRow> {
    let (metric, body) = tokens.split_last()?;
    let mut cells = Vec::new();
    let mut changes = Vec::new();
    let mut absolute = None;
    let mut i = 0;
    let take_cell = |i: &mut usize| -> Option<ReportCell> {
        let value = num(body.get(*i)?)?;
        *i += 1;
        let mut sd = None;
        if let Some(t) = body.get(*i) {
            if *t == "±" {
                sd = Some(stddev_pct(body.get(*i + 1)?)?);
                *i += 2;
            } else if let Some(rest) = t.strip_prefix('±') {
                sd = Some(stddev_pct(rest)?);
                *i += 1;
            }
        }
        Some(ReportCell { value: Some(value), stddev_pct: sd, runs: None })
    };
    cells.push(take_cell(&mut i)?);
    while let Some(&t) = body.get(i) {
        if !(t.starts_with('+') || t.starts_with('-')) {
            return None;
        }
        let (c, abs) = match pct(t) {
            Some(p) => (p, false),
            None => (num(t)?, true),
        };
        if *absolute.get_or_insert(abs) != abs {
            return None;
        }
        changes.push(c);
        i += 1;
        cells.push(take_cell(&mut i)?);
    }
    if changes.is_empty() || metric.starts_with(['%', '\\', '|']) {
        return None;
    }
    Some(ReportRow {
        section: "perf".into(),
        metric: metric.to_string(),
        cells,
        changes,
        absolute: absolute.unwrap_or(false),
        line: 0,
    })
}

fn fail_cell(t: &str) -> Option<ReportCell> {
    let (f, r) = t.split_once(':')?;
    let runs: u64 = r.parse().ok()?;
    // a fail count is a whole number of runs (".2" or "1e1" is no count lkp prints)
    let value = if f.is_empty() { 0.0 } else { f.parse::<u64>().ok()? as f64 };
    Some(ReportCell { value: Some(value), stddev_pct: None, runs: Some(runs) })
}

fn parse_failure(tokens: &[&str]) -> Option<ReportRow> {
    let (metric, body) = tokens.split_last()?;
    if body.len() < 3 || body.len() % 2 == 0 {
        return None;
    }
    let (first, pairs) = body.split_first()?;
    let mut cells = vec![fail_cell(first)?];
    let mut changes = Vec::new();
    // an even number of tokens after the first (body.len() is odd)
    for pair in pairs.chunks(2) {
        let [change, cell] = pair else { return None };
        // lkp prints %reproduction as "%.0f%%": a whole percent
        let t = change.strip_suffix('%').unwrap_or(change);
        let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        changes.push(num(t)?);
        cells.push(fail_cell(cell)?);
    }
    Some(ReportRow { section: "failure".into(), metric: metric.to_string(), cells, changes, absolute: false, line: 0 })
}

/// Parse every table row of a pasted report (aligned or whitespace-collapsed).
///
/// ```
/// let r = schedlab::lkp::parse_report::parse_report("4626 -9.9% 4167 unixbench.score\n");
/// assert_eq!(r.rows[0].cells[1].value, Some(4167.0));
/// assert_eq!(r.rows[0].changes, vec![-9.9]);
/// ```
pub fn parse_report(text: &str) -> Report {
    let mut rep = Report::default();
    let text = crate::mail_quote::unquote(text);
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("----------------") {
            if let Some(prev) = i.checked_sub(1).and_then(|j| lines.get(j)) {
                rep.commits = prev.split_whitespace().map(str::to_string).collect();
            }
            continue;
        }
        let tokens: Vec<&str> = t.split_whitespace().collect();
        if tokens.len() < 3 {
            continue;
        }
        let row = if tokens.first().is_some_and(|t| t.contains(':') && !t.contains('%')) {
            parse_failure(&tokens)
        } else {
            parse_perf(&tokens)
        };
        if let Some(r) = row {
            rep.rows.push(ReportRow { line: i + 1, ..r });
        }
    }
    rep
}

/// A parsed report as a [`crate::table::Comparison`] (tool "lkp"): one row per metric
/// (failure rows in group `fail:runs`, value = fail count, `n` = runs), the printed
/// mean as value, the printed `± N%` as spread N + 0.5 (the robot truncates the
/// percentage, so the true value lies in [N, N+1); the midpoint also prints back as
/// `± N%`), the printed change (percent, or absolute
/// for `%` and perf-profile keys), and schedlab's direction for the metric family.
/// Kernels are the parsed commit labels, or `base`, `head1`, ... when none were found.
/// [`super::comparison::render_comparison`] prints it back in lkp's layout.
///
/// One table has one number of kernels, that of its first row: a row with another
/// (two tables pasted into one text, or a mangled row) is a parse error at its line,
/// rather than cells made up for it.
pub fn to_comparison(report: &Report) -> crate::Result<crate::table::Comparison> {
    use crate::table::{Cell, ChangeKind, Comparison, Row};
    let width = report.rows.first().map_or(2, |r| r.cells.len()).max(1);
    if let Some(r) = report.rows.iter().find(|r| r.cells.len() != width) {
        return Err(crate::Error::parse(
            Some("<lkp report>"),
            Some(r.line),
            format!(
                "row '{}' has {} kernels where the table's first row has {width}: paste one table at a time",
                r.metric,
                r.cells.len()
            ),
        ));
    }
    let kernels: Vec<String> = if report.commits.len() == width {
        report.commits.clone()
    } else {
        std::iter::once("base".to_string()).chain((1..width).map(|i| format!("head{i}"))).collect()
    };
    let mut c = Comparison::new("lkp", "", kernels);
    c.meta.lkp = Some(crate::table::LkpMeta { source: Some("parsed report".into()), ..Default::default() });
    for (i, r) in report.rows.iter().enumerate() {
        crate::cancel::check_every(i)?;
        let failure = r.section == "failure";
        let mut cells: Vec<Cell> = r
            .cells
            .iter()
            .map(|rc| Cell {
                value: rc.value,
                spread: rc.stddev_pct.map(|p| p + 0.5),
                n: rc.runs,
                ..Default::default()
            })
            .collect();
        cells.resize_with(width, Cell::default);
        for (cell, ch) in cells.iter_mut().skip(1).zip(&r.changes) {
            cell.change = Some(*ch);
        }
        c.rows.push(Row {
            group: if failure { super::comparison::FAIL_GROUP.to_string() } else { String::new() },
            name: r.metric.clone(),
            direction: super::direction::direction(&r.metric),
            change_kind: if r.absolute { ChangeKind::Absolute } else { ChangeKind::Percent },
            unit: None,
            cells,
        });
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_collapsed_rows() {
        let aligned = "      1.50 ±173%  +19450.0%     293.25        vmstat.procs.b\n\
                       \x20     0.54 ±  6%      +0.8        1.34 ±  2%  mpstat.cpu.all.idle%\n\
                       \x20         2:4          -50%            :4     dmesg.BUG:kernel_NULL_pointer_dereference\n\
                       \x20     0.00         +1e+104%     105.00 ± 10%  vmstat.io.bi\n";
        let r = parse_report(aligned);
        assert_eq!(r.rows.len(), 4);
        assert_eq!(r.rows[0].cells[0].stddev_pct, Some(173.0));
        assert_eq!(r.rows[0].changes, vec![19450.0]);
        assert!(r.rows[1].absolute);
        assert_eq!(r.rows[1].cells[1].stddev_pct, Some(2.0));
        assert_eq!(r.rows[2].section, "failure");
        assert_eq!(r.rows[2].cells[0], ReportCell { value: Some(2.0), stddev_pct: None, runs: Some(4) });
        assert_eq!(r.rows[2].cells[1].value, Some(0.0));
        assert_eq!(r.rows[3].changes, vec![1e104]);
        let collapsed = "2.866e+08 -11.6% 2.534e+08 unixbench.time.minor_page_faults\n%stddev %change %stddev\n";
        let r = parse_report(collapsed);
        assert_eq!(r.rows.len(), 1);
        assert_eq!(r.rows[0].cells[0].value, Some(2.866e8));
        assert_eq!(r.rows[0].line, 1);
        // a %stddev and a %reproduction are whole percents, a fail count a whole number
        assert!(parse_report("  :4  1.1%  1:2  dmesg.BUG:x\n").rows.is_empty());
        assert_eq!(parse_report("  :4  -25%  1:2  dmesg.BUG:x\n").rows[0].changes, [-25.0]);
        assert!(parse_report("2.967e+08 ±  2% +62.7% 4.827e+08 ± +200.6% x.ops\n").rows.is_empty());
        assert_eq!(
            parse_report("2.967e+08 ±  2% +62.7% 4.827e+08 ±200% x.ops\n").rows[0].cells[1].stddev_pct,
            Some(200.0)
        );
        assert!(parse_report("  .2:2  -100%  :2  dmesg.BUG:x\n").rows.is_empty());
        assert_eq!(parse_report("  2:2  -100%  :2  dmesg.BUG:x\n").rows[0].cells[0].value, Some(2.0));
    }

    #[test]
    fn a_row_of_another_width_is_an_error_at_its_line() {
        // two tables pasted together: one base + one head, then base + two heads
        let text = "4626 -9.9% 4167 unixbench.score\n\n16515 -13.2% 14341 +1.0% 16680 meminfo.Inactive\n";
        let e = to_comparison(&parse_report(text)).unwrap_err().to_string();
        assert_eq!(
            e,
            "<lkp report>:3: row 'meminfo.Inactive' has 3 kernels where the table's first row has 2: paste one table at a time"
        );
        assert_eq!(
            to_comparison(&parse_report("4626 -9.9% 4167 unixbench.score\n")).unwrap().kernels,
            ["base", "head1"]
        );
    }
}
