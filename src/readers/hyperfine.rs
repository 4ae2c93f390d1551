//! hyperfine's JSON export (`--export-json`): each command's wall-clock times, one
//! sample per run, as metric = the command (seconds, lower is better; the
//! parameters of a `--parameter-scan` are part of the command line it ran)
//! (docs/readers.md §3).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{array, number, parse as parse_json, string};
use super::Sample;
use crate::error::Result;
use crate::table::Direction;

/// The samples of a hyperfine JSON export.
pub fn parse(text: &str, path: Option<&str>) -> Result<Vec<Sample>> {
    let doc = parse_json(text, path, 0)?;
    let mut out = Vec::new();
    for (i, r) in array(&doc, "results", "hyperfine export", path)?.iter().enumerate() {
        let at = format!("results[{i}]");
        let command = string(r, "command", &at, path)?;
        for (k, t) in array(r, "times", &at, path)?.iter().enumerate() {
            out.push(Sample::new(command, number(t, &format!("{at}.times[{k}]"), path)?, "s", Direction::Lower));
        }
    }
    Ok(out)
}
