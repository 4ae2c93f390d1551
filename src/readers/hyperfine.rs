//! hyperfine's JSON export (`--export-json`): each command's wall-clock times, one
//! sample per run, as metric = the command (seconds, lower is better; the
//! parameters of a `--parameter-scan` are part of the command line it ran)
//! (docs/readers.md §3).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{array, each_element, number, string};
use super::Samples;
use crate::error::Result;
use crate::table::Direction;

/// The samples of a hyperfine JSON export.
/// Read one command at a time ([`each_element`]).
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut out = Samples::default();
    each_element(text, path, 0, ("results", "hyperfine export"), &[], &mut |i, r| {
        let at = format!("results[{i}]");
        let command = string(r, "command", &at, path)?;
        for (k, t) in array(r, "times", &at, path)?.iter().enumerate() {
            out.push(command, number(t, &format!("{at}.times[{k}]"), path)?, "s", Direction::Lower, "");
        }
        Ok(())
    })?;
    Ok(out)
}
