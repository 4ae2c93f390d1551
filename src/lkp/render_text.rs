//! The `lkp ncompare` text table, byte for byte (lib/compare.rb `show_group`,
//! `show_group_header`, `show_failure_change`, `show_perf_change`), after
//! docs/lkp.md §3.4.

use super::ncompare::{CompareResult, StatRow};
use super::rubyfmt::{fmt_d_float, fmt_d_int, fmt_f, fmt_g};
use crate::error::Result;
use std::borrow::Cow;

const ABS_WIDTH: usize = 10;
const REL_WIDTH: usize = 10;
const ERR_WIDTH: usize = 6;

/// The perf cell of one root: value (`%10.2f` below 1000, `%10.4g` above 1e8, else `%10d`
/// truncated) and `" ±%3d%%"` when `rel_sd` (100·sd/avg, or sd where avg is 0) > 2
/// (truncated), else 6 spaces.
pub fn perf_value_cell(avg: f64, rel_sd: f64) -> String {
    let mut s = if avg.abs() < 1000.0 {
        fmt_f(avg, ABS_WIDTH, 2, false)
    } else if avg.abs() > 100_000_000.0 {
        fmt_g(avg, ABS_WIDTH, 4, false)
    } else {
        fmt_d_float(avg, ABS_WIDTH)
    };
    let sd = rel_sd;
    if sd > 2.0 {
        s.push_str(" ±");
        s.push_str(&fmt_d_float(sd, ERR_WIDTH - 3));
        s.push('%');
    } else {
        s.push_str(&" ".repeat(ERR_WIDTH));
    }
    s
}

/// The change cell: `%+10.1f` (or `%+10.2g` from 100000 on) followed by `"% "`, or two
/// spaces for absolute changes.
pub fn change_cell(p: f64, absolute: bool) -> String {
    let mut s = if p.abs() < 100_000.0 { fmt_f(p, REL_WIDTH, 1, true) } else { fmt_g(p, REL_WIDTH, 2, true) };
    s.push_str(if absolute { "  " } else { "% " });
    s
}

fn perf_line(r: &StatRow) -> String {
    let mut s = String::new();
    for (i, avg) in r.avgs.iter().enumerate() {
        if i > 0 {
            s.push_str(&change_cell(r.changes.get(i - 1).copied().unwrap_or(0.0), r.abs_change));
        }
        s.push_str(&perf_value_cell(*avg, r.rel_stddevs.get(i).copied().unwrap_or(-1.0)));
    }
    s.push_str("  ");
    s.push_str(&r.key);
    s.push('\n');
    s
}

fn failure_line(r: &StatRow) -> String {
    let mut s = String::new();
    for (i, f) in r.fails.iter().enumerate() {
        if i > 0 {
            let c = r.changes.get(i - 1).copied().unwrap_or(0.0);
            s.push_str(&fmt_f(c, REL_WIDTH, 0, false));
            s.push_str(if r.abs_change { "  " } else { "% " });
        }
        if *f == 0.0 {
            s.push_str(&" ".repeat(ABS_WIDTH + 1));
        } else {
            s.push_str(&fmt_d_float(*f, ABS_WIDTH + 1));
        }
        s.push(':');
        s.push_str(&fmt_d_int(r.runs.get(i).copied().unwrap_or(0) as i64, ERR_WIDTH - 2, true));
    }
    s.push_str("  ");
    s.push_str(&r.key);
    s.push('\n');
    s
}

fn cut(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The group header: axes, commits, column labels and dashes.
fn header(res: &CompareResult) -> String {
    let mut out = String::new();
    out.push_str(&"=".repeat(89));
    out.push('\n');
    let non_commit = |ax: &Vec<(String, String)>| -> Vec<(String, String)> {
        ax.iter().filter(|(k, _)| !res.compare_keys.contains(k)).cloned().collect()
    };
    let first = res.axes.first().map(non_commit).unwrap_or_default();
    let same = res.axes.iter().all(|a| non_commit(a) == first);
    if same && !first.is_empty() && !res.per_root_axes {
        let keys: Vec<&str> = first.iter().map(|(k, _)| k.as_str()).collect();
        let vals: Vec<&str> = first.iter().map(|(_, v)| v.as_str()).collect();
        out.push_str(&format!("{}:\n  {}\n\n", keys.join("/"), vals.join("/")));
    } else {
        for ax in &res.axes {
            let keys: Vec<&str> = ax.iter().map(|(k, _)| k.as_str()).collect();
            let vals: Vec<&str> = ax.iter().map(|(_, v)| v.as_str()).collect();
            out.push_str(&format!("{}:\n  {}\n\n", keys.join("/"), vals.join("/")));
        }
    }
    // the compare keys the base has, in its axes' order
    let keys: Vec<&str> = match res.axes.first() {
        Some(ax) if res.compare_keys != ["commit"] => {
            ax.iter().filter(|(k, _)| res.compare_keys.contains(k)).map(|(k, _)| k.as_str()).collect()
        }
        _ => vec!["commit"],
    };
    out.push_str(&format!("{}: \n", keys.join("/")));
    for c in &res.commits {
        out.push_str(&format!("  {c}\n"));
    }
    out.push('\n');
    let first_width = ABS_WIDTH + ERR_WIDTH;
    let width = first_width + REL_WIDTH + 1;
    for (i, c) in res.commits.iter().enumerate() {
        if i == 0 {
            out.push_str(&format!("{:>first_width$} ", cut(c, first_width)));
        } else {
            out.push_str(&format!("{:>width$} ", cut(c, width)));
        }
    }
    out.push('\n');
    out.push_str(&"-".repeat(first_width));
    out.push(' ');
    for _ in 1..res.commits.len() {
        out.push_str(&"-".repeat(width));
        out.push(' ');
    }
    out.push('\n');
    out
}

/// The whole table as `lkp ncompare` prints it (empty when no row was selected).
/// Polls [`crate::cancel`] every 4096 rows.
pub fn render(res: &CompareResult) -> Result<String> {
    let n = res.rows.len();
    let failure = |i: usize| res.rows.get(i).is_some_and(|r| r.failure);
    render_rows(res, n, &failure, &mut |i| Ok(res.rows.get(i).map(Cow::Borrowed)))
}

/// [`render`] of the header of `head` (its rows unused) and `n` rows made one at a time
/// by `row(i)` (`failure(i)` saying, without making it, whether row `i` is a failure
/// row), so that the rows need not all be held (the memory bound of docs/readers.md §10).
pub fn render_rows<'a>(
    head: &CompareResult,
    n: usize,
    failure: &dyn Fn(usize) -> bool,
    row: &mut dyn FnMut(usize) -> Result<Option<Cow<'a, StatRow>>>,
) -> Result<String> {
    let any_failure = (0..n).any(failure);
    let any_perf = (0..n).any(|i| !failure(i));
    if !any_failure && !any_perf {
        return Ok(String::new());
    }
    let heads = head.commits.len().saturating_sub(1);
    let mut out = header(head);
    if any_failure {
        out.push_str(&format!("       fail:runs{}\n", "  %reproduction    fail:runs".repeat(heads)));
        out.push_str(&format!("           |    {}\n", "         |             |    ".repeat(heads)));
        for i in (0..n).filter(|&i| failure(i)) {
            crate::cancel::check_every(i)?;
            if let Some(r) = row(i)? {
                out.push_str(&failure_line(&r));
            }
        }
    }
    if any_perf {
        out.push_str(&format!("         %stddev{}\n", "     %change         %stddev".repeat(heads)));
        out.push_str(&format!("             \\  {}\n", "        |                \\  ".repeat(heads)));
        for i in (0..n).filter(|&i| !failure(i)) {
            crate::cancel::check_every(i)?;
            if let Some(r) = row(i)? {
                out.push_str(&perf_line(&r));
            }
        }
    }
    out.push('\n');
    Ok(out)
}
