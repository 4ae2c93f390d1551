//! JSON text of the project's documents: compact, or indented by a given number of
//! spaces as Python's `json.dumps(indent=n)` lays it out (one member per line).

use crate::error::{Error, Result};
use serde::Serialize;

/// `v` as JSON text: compact when `indent` is None, else one member per line indented
/// by `indent` spaces per level.
pub fn to_string<T: Serialize + ?Sized>(v: &T, indent: Option<usize>) -> Result<String> {
    let encoding = |e: serde_json::Error| Error::Internal(format!("JSON encoding: {e}"));
    let Some(n) = indent else { return serde_json::to_string(v).map_err(encoding) };
    let pad = vec![b' '; n];
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, serde_json::ser::PrettyFormatter::with_indent(&pad));
    v.serialize(&mut ser).map_err(encoding)?;
    String::from_utf8(out).map_err(|e| Error::Internal(format!("JSON encoding: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_and_indented_as_json_dumps_lays_them_out() {
        let v = serde_json::json!({"a": [1, 2], "b": {}});
        assert_eq!(to_string(&v, None).unwrap(), r#"{"a":[1,2],"b":{}}"#);
        // json.dumps({"a": [1, 2], "b": {}}, indent=1)
        assert_eq!(to_string(&v, Some(1)).unwrap(), "{\n \"a\": [\n  1,\n  2\n ],\n \"b\": {}\n}");
    }
}
