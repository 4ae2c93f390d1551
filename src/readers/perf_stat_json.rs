//! `perf stat -j`: one JSON object a line with `"counter-value"` (a number in a
//! string, or `<not counted>`/`<not supported>`), `"unit"` and `"event"`; with `-I`
//! an `"interval"` field, one sample per event per interval (docs/readers.md §1).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;
use serde_json::Value;

/// The samples of a `perf stat -j` output.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    for (i, raw) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let line = raw.trim();
        if !line.starts_with('{') {
            continue; // blank lines and perf's notes
        }
        let v: Value = serde_json::from_str(line)
            .map_err(|e| Error::parse(path, Some(line_no), format!("expected a JSON object: {e}")))?;
        let text_field = |k: &str| -> Result<&str> {
            v.get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| Error::parse(path, Some(line_no), format!("expected a string field \"{k}\"")))
        };
        let value = text_field("counter-value")?;
        if value.starts_with("<not") {
            continue;
        }
        let x: f64 = value.trim().parse().ok().filter(|x: &f64| x.is_finite()).ok_or_else(|| {
            Error::parse(path, Some(line_no), format!("\"counter-value\": expected a number, got '{value}'"))
        })?;
        let unit = v.get("unit").and_then(Value::as_str).unwrap_or_default();
        out.push(text_field("event")?, x, unit, Direction::Unknown, "");
    }
    Ok(out)
}
