//! `perf stat` as printed to a terminal: one line per event, `VALUE [UNIT] EVENT
//! [# METRIC] [( +- PCT% )]`, then the elapsed, user and sys times. With `-r N` the
//! value is the mean of the N runs (perf prints no per-run values). Thousands
//! separators (`1,234,567` under a grouping locale) are accepted; `<not counted>`
//! and `<not supported>` events have no sample (docs/readers.md §1).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;

/// The samples of a `perf stat` text output.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    for (i, raw) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let line = raw.trim();
        // headers, notes and hints are text; a counter line starts with its value
        if line.is_empty() || !line.starts_with(|c: char| c.is_ascii_digit() || c == '<') {
            continue;
        }
        if line.starts_with("<not") {
            continue;
        }
        let body = line.split('#').next().unwrap_or_default().trim();
        let body = body.split("( +-").next().unwrap_or_default().trim();
        let toks: Vec<&str> = body.split_whitespace().collect();
        let bad = || Error::parse(path, Some(line_no), format!("expected 'VALUE [UNIT] EVENT', got '{}'", short(line)));
        let value = number(toks.first().copied().ok_or_else(bad)?).ok_or_else(bad)?;
        // "0.0359 +- 0.0051 seconds time elapsed", "0.0023 seconds user"
        let rest: Vec<&str> = match toks.get(1) {
            Some(&"+-") => toks.get(3..).unwrap_or_default().to_vec(),
            _ => toks.get(1..).unwrap_or_default().to_vec(),
        };
        let (metric, unit, direction) = match rest.as_slice() {
            ["seconds", "time", "elapsed"] => ("time-elapsed", "s", Direction::Lower),
            ["seconds", "user"] => ("user", "s", Direction::Lower),
            ["seconds", "sys"] => ("sys", "s", Direction::Lower),
            [event] => (*event, "", Direction::Unknown),
            [unit, event] => (*event, *unit, Direction::Unknown),
            _ => return Err(bad()),
        };
        out.push(metric, value, unit, direction, "");
    }
    Ok(out)
}

/// A counter value: digits with optional grouping commas and a decimal point.
fn number(tok: &str) -> Option<f64> {
    let plain: String = tok.chars().filter(|&c| c != ',').collect();
    plain.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn short(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}
