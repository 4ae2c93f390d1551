//! MMTests' JSON exports: `extract-mmtests.pl --print-json` (one extract module,
//! or an array of them) and `compare-mmtests.pl --json-export` (the comparison,
//! its modules under `_ExtractModules`; zstd or xz compressed as MMTests leaves it).
//! Each module is one kernel (`_TestName`, the samples' group); every value of
//! every iteration of each operation (`_ResultData`) is a sample, metric = the
//! operation, in MMTests' operation order, direction from `_PreferredVal`
//! (docs/readers.md §8).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::json::{array, field, parse as parse_json};
use super::Samples;
use crate::error::{Error, Result};
use crate::table::Direction;
use serde_json::Value;

/// The samples of an MMTests JSON export.
pub fn parse(text: &str, path: Option<&str>) -> Result<Samples> {
    let doc = parse_json(text, path, 0)?;
    let (modules, at): (Vec<&Value>, &str) = match &doc {
        Value::Array(m) => (m.iter().collect(), ""),
        Value::Object(o) if o.contains_key("_ExtractModules") => {
            (array(&doc, "_ExtractModules", "comparison", path)?.iter().collect(), "_ExtractModules")
        }
        Value::Object(_) => (vec![&doc], ""),
        _ => {
            return Err(Error::parse(
                path,
                None,
                "expected an MMTests extract module, an array of them, or a comparison",
            ))
        }
    };
    let mut out = Samples::default();
    for (i, m) in modules.into_iter().enumerate() {
        module(m, &format!("{at}[{i}]"), path, &mut out)?;
    }
    Ok(out)
}

fn module(m: &Value, at: &str, path: Option<&str>, out: &mut Samples) -> Result<()> {
    let name = m.get("_TestName").and_then(Value::as_str).unwrap_or_default();
    let direction = match m.get("_PreferredVal").and_then(Value::as_str) {
        Some("Higher") => Direction::Higher,
        Some("Lower") => Direction::Lower,
        _ => Direction::Unknown,
    };
    let data = field(m, "_ResultData", at, path)?
        .as_object()
        .ok_or_else(|| Error::parse(path, None, format!("{at}._ResultData: expected an object")))?;
    // MMTests' own order: the declared operations, else the order they were seen
    let declared = ["_Operations", "_GeneratedOperations"].iter().find_map(|k| m.get(*k).and_then(Value::as_array));
    let mut ops: Vec<&str> = declared.map(|d| d.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
    ops.retain(|op| data.contains_key(*op));
    let mut rest: Vec<&str> = data.keys().map(String::as_str).filter(|k| !ops.contains(k)).collect();
    rest.sort_unstable();
    ops.extend(rest);
    for op in ops {
        let at = format!("{at}._ResultData.{op}");
        let iterations = data
            .get(op)
            .and_then(Value::as_array)
            .ok_or_else(|| Error::parse(path, None, format!("{at}: expected an array of iterations")))?;
        for (k, it) in iterations.iter().enumerate() {
            let at = format!("{at}[{k}]");
            for (j, v) in array(it, "Values", &at, path)?.iter().enumerate() {
                out.push(op, number(v, &format!("{at}.Values[{j}]"), path)?, "", direction, name);
            }
        }
    }
    Ok(())
}

/// A value as Perl writes it: a number, or a number in a string.
fn number(v: &Value, at: &str, path: Option<&str>) -> Result<f64> {
    let x = match v {
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => v.as_f64(),
    };
    x.filter(|x| x.is_finite()).ok_or_else(|| Error::parse(path, None, format!("{at}: expected a number, got {v}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_errors() {
        let one = r#"{"_TestName":"k1","_PreferredVal":"Higher","_GeneratedOperations":["b","a"],
            "_ResultData":{"a":[{"Values":["1.5",2],"SampleNrs":[1,2]}],"b":[{"Values":["3"]},{"Values":[4]}]}}"#;
        let s = parse(one, None).unwrap();
        let got: Vec<_> = s.iter().map(|x| (x.metric, x.value, x.group)).collect();
        assert_eq!(got, vec![("b", 3.0, "k1"), ("b", 4.0, "k1"), ("a", 1.5, "k1"), ("a", 2.0, "k1")]);
        assert_eq!(s.to_vec()[0].direction, Direction::Higher);
        let cmp = format!(r#"{{"_ModuleName":"Compare","_ExtractModules":[{one},{}]}}"#, one.replace("k1", "k2"));
        assert_eq!(parse(&cmp, None).unwrap().iter().filter(|x| x.group == "k2").count(), 4);
        let bad = one.replace("\"3\"", "\"x\"");
        let e = parse(&format!("[{bad}]"), Some("f.json")).unwrap_err().to_string();
        assert!(e.contains("f.json") && e.contains("[0]._ResultData.b[0].Values[0]: expected a number"), "{e}");
        let e = parse(r#"{"_TestName":"k"}"#, None).unwrap_err().to_string();
        assert!(e.contains("expected a field \"_ResultData\""), "{e}");
    }
}
