//! pytest-benchmark's JSON (`--benchmark-json`): per benchmark (metric = its
//! `fullname`), the time of every round when the file kept them
//! (`--benchmark-save-data`: `stats.data`), else the mean as one sample (seconds,
//! lower is better) (docs/readers.md §4).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{each_element, field, number, number_field, string};
use super::Samples;
use crate::error::Result;
use crate::table::Direction;

/// The samples of a pytest-benchmark JSON file, read one benchmark at a time
/// ([`each_element`]).
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    each_element(text, path, 0, ("benchmarks", "pytest-benchmark file"), &[], &mut |i, b| {
        let at = format!("benchmarks[{i}]");
        let name = string(b, "fullname", &at, path)?;
        let stats = field(b, "stats", &at, path)?;
        let at = format!("{at}.stats");
        match stats.get("data").and_then(|d| d.as_array()) {
            Some(data) => {
                for (k, t) in data.iter().enumerate() {
                    out.push(name, number(t, &format!("{at}.data[{k}]"), path)?, "s", Direction::Lower, "");
                }
            }
            None => out.push(name, number_field(stats, "mean", &at, path)?, "s", Direction::Lower, ""),
        }
        Ok(())
    })?;
    Ok(out)
}
