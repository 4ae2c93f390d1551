//! google-benchmark's JSON (`--benchmark_out_format=json`): per benchmark run
//! (`run_type` "iteration"; the mean/median/stddev aggregates left out), metric
//! `NAME.real_time` and `NAME.cpu_time` in its `time_unit` (lower is better), and
//! `NAME.items_per_second` / `NAME.bytes_per_second` when reported (higher is
//! better); with `--benchmark_repetitions=N` each repetition is a sample. A run that
//! reported an error is an error naming it (docs/readers.md §6).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{each_element, number, number_field, string};
use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;
use serde_json::Value;

/// The samples of a google-benchmark JSON file, read one run at a time
/// ([`each_element`]).
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    each_element(text, path, 0, ("benchmarks", "google-benchmark file"), &[], &mut |i, b| {
        let at = format!("benchmarks[{i}]");
        if b.get("run_type").and_then(Value::as_str) == Some("aggregate") {
            return Ok(());
        }
        let name = b.get("run_name").and_then(Value::as_str).map_or_else(|| string(b, "name", &at, path), Ok)?;
        if b.get("error_occurred").and_then(Value::as_bool) == Some(true) {
            let msg = b.get("error_message").and_then(Value::as_str).unwrap_or("no message");
            return Err(Error::parse(path, None, format!("{at}: benchmark '{name}' reported an error: {msg}")));
        }
        let unit = b.get("time_unit").and_then(Value::as_str).unwrap_or("ns");
        for key in ["real_time", "cpu_time"] {
            out.push(&format!("{name}.{key}"), number_field(b, key, &at, path)?, unit, Direction::Lower, "");
        }
        for key in ["items_per_second", "bytes_per_second"] {
            if let Some(v) = b.get(key) {
                let x = number(v, &format!("{at}.{key}"), path)?;
                out.push(&format!("{name}.{key}"), x, "/s", Direction::Higher, "");
            }
        }
        Ok(())
    })?;
    Ok(out)
}
