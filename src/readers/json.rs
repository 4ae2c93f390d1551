//! Fields of a JSON result file, with errors that name the file and the field.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};
use serde_json::Value;

/// `text` parsed as JSON, a syntax error naming its line (counted after
/// `lines_before` lines of the file that are not part of `text`).
pub fn parse(text: &str, path: Option<&str>, lines_before: usize) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| {
        let kind = match e.classify() {
            serde_json::error::Category::Eof => "the JSON ends early",
            _ => "not JSON",
        };
        Error::parse(path, Some(e.line() + lines_before), format!("{kind}: {e}"))
    })
}

/// Field `key` of object `v`, an error naming `at` (the field's path) when it is missing.
pub fn field<'a>(v: &'a Value, key: &str, at: &str, path: Option<&str>) -> Result<&'a Value> {
    v.get(key).ok_or_else(|| Error::parse(path, None, format!("{at}: expected a field \"{key}\"")))
}

/// Field `key` of `v` as an array.
pub fn array<'a>(v: &'a Value, key: &str, at: &str, path: Option<&str>) -> Result<&'a Vec<Value>> {
    field(v, key, at, path)?
        .as_array()
        .ok_or_else(|| Error::parse(path, None, format!("{at}.{key}: expected an array")))
}

/// Field `key` of `v` as a string.
pub fn string<'a>(v: &'a Value, key: &str, at: &str, path: Option<&str>) -> Result<&'a str> {
    field(v, key, at, path)?.as_str().ok_or_else(|| Error::parse(path, None, format!("{at}.{key}: expected a string")))
}

/// `v` as a finite number; `at` names it.
pub fn number(v: &Value, at: &str, path: Option<&str>) -> Result<f64> {
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(x),
        _ => Err(Error::parse(path, None, format!("{at}: expected a number, got {}", short(v)))),
    }
}

/// Field `key` of `v` as a finite number.
pub fn number_field(v: &Value, key: &str, at: &str, path: Option<&str>) -> Result<f64> {
    number(field(v, key, at, path)?, &format!("{at}.{key}"), path)
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}
