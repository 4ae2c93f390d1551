//! pyperf's JSON (a benchmark or a suite): per benchmark (metric = its `name`
//! metadata, or the file's), every value of every run, warmups and calibration runs
//! left out, in the unit of its `unit` metadata (`second` by default; lower is
//! better) (docs/readers.md §5).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{array, number, parse as parse_json};
use super::Sample;
use crate::error::{Error, Result};
use crate::table::Direction;
use serde_json::Value;

fn meta<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str)
}

/// The samples of a pyperf JSON file.
pub fn parse(text: &str, path: Option<&str>) -> Result<Vec<Sample>> {
    let doc = parse_json(text, path, 0)?;
    let mut out = Vec::new();
    for (i, b) in array(&doc, "benchmarks", "pyperf file", path)?.iter().enumerate() {
        let at = format!("benchmarks[{i}]");
        let name = meta(b, "name").or_else(|| meta(&doc, "name")).ok_or_else(|| {
            Error::parse(path, None, format!("{at}: expected a \"name\" in its metadata or the file's"))
        })?;
        let unit = meta(b, "unit").or_else(|| meta(&doc, "unit")).unwrap_or("second");
        for (r, run) in array(b, "runs", &at, path)?.iter().enumerate() {
            let Some(values) = run.get("values").and_then(Value::as_array) else { continue };
            for (k, v) in values.iter().enumerate() {
                let x = number(v, &format!("{at}.runs[{r}].values[{k}]"), path)?;
                out.push(Sample::new(name, x, unit, Direction::Lower));
            }
        }
    }
    Ok(out)
}
