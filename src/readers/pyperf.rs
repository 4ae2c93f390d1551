//! pyperf's JSON (a benchmark or a suite): per benchmark (metric = its `name`
//! metadata, or the file's), every value of every run, warmups and calibration runs
//! left out, in the unit of its `unit` metadata (`second` by default; lower is
//! better) (docs/readers.md §5).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{array, each_element, number};
use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;
use serde_json::Value;

fn meta<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str)
}

/// A benchmark read: its own name and unit, if it gives them, and its values.
type Read = (Option<String>, Option<String>, Vec<f64>);

/// The samples of a pyperf JSON file, read one benchmark at a time
/// ([`each_element`]); the file's metadata, which names a benchmark that does not
/// name itself, comes after the benchmarks.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let mut read: Vec<Read> = Vec::new();
    let kept = each_element(text, path, 0, ("benchmarks", "pyperf file"), &["metadata"], &mut |i, b| {
        let at = format!("benchmarks[{i}]");
        let mut values = Vec::new();
        for (r, run) in array(b, "runs", &at, path)?.iter().enumerate() {
            let Some(vs) = run.get("values").and_then(Value::as_array) else { continue };
            for (k, v) in vs.iter().enumerate() {
                values.push(number(v, &format!("{at}.runs[{r}].values[{k}]"), path)?);
            }
        }
        read.push((meta(b, "name").map(str::to_owned), meta(b, "unit").map(str::to_owned), values));
        Ok(())
    })?;
    let file = |key: &str| kept.get("metadata").and_then(|m| m.get(key)).and_then(Value::as_str);
    let mut out = Samples::default();
    for (i, (name, unit, values)) in read.into_iter().enumerate() {
        let name = name.as_deref().or_else(|| file("name")).ok_or_else(|| {
            Error::parse(path, None, format!("benchmarks[{i}]: expected a \"name\" in its metadata or the file's"))
        })?;
        let unit = unit.as_deref().or_else(|| file("unit")).unwrap_or("second");
        for x in values {
            out.push(name, x, unit, Direction::Lower, "");
        }
    }
    Ok(out)
}
