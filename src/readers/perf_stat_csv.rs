//! `perf stat -x SEP`: one line per event, fields VALUE, UNIT, EVENT, VARIANCE,
//! RUNTIME, PERCENT-RUNNING, METRIC-VALUE, METRIC-UNIT; with `-I MSEC` a timestamp
//! comes first (padded with spaces), and every interval gives one sample per
//! event. The separator is whatever follows the first value (`,` or `;` usually).
//! `<not counted>` and `<not supported>` values have no sample (docs/readers.md §1).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;

/// The samples of a `perf stat -x` output.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    let mut sep: Option<char> = None;
    for (i, raw) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let interval = raw.starts_with(' ');
        let line = raw.trim();
        // '#' comments (perf's "# started on"), and the notes perf prints in text
        if line.is_empty() || line.starts_with('#') || line.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let s = match sep {
            Some(s) => s,
            None => {
                let found = line
                    .chars()
                    .find(|c| {
                        !(c.is_ascii_digit()
                            || *c == '.'
                            || *c == '<'
                            || *c == '>'
                            || c.is_ascii_alphabetic()
                            || *c == ' ')
                    })
                    .ok_or_else(|| Error::parse(path, Some(line_no), "expected fields separated by a -x separator"))?;
                sep = Some(found);
                found
            }
        };
        let fields: Vec<&str> = line.split(s).collect();
        let f = if interval { fields.get(1..).unwrap_or_default() } else { fields.as_slice() };
        let (Some(value), Some(unit), Some(event)) = (f.first(), f.get(1), f.get(2)) else {
            return Err(Error::parse(
                path,
                Some(line_no),
                format!("expected VALUE{s}UNIT{s}EVENT{s}..., got {} field(s)", fields.len()),
            ));
        };
        let value = value.trim();
        if value.starts_with("<not") {
            continue;
        }
        let v: f64 = value.parse().ok().filter(|v: &f64| v.is_finite()).ok_or_else(|| {
            Error::parse_col(path, Some(line_no), "value", format!("expected a counter value, got '{value}'"))
        })?;
        if event.is_empty() {
            return Err(Error::parse_col(path, Some(line_no), "event", "expected an event name"));
        }
        out.push(event, v, unit, Direction::Unknown, "");
    }
    Ok(out)
}
