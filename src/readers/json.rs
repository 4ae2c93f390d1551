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

/// What [`each_element`] found beside the streamed array: the top-level fields it
/// was asked to keep, parsed.
#[derive(Debug, Default)]
pub struct Kept(Vec<(String, Value)>);

impl Kept {
    /// The kept field `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Read the JSON document `text` (after `lines_before` lines of the file that are not
/// JSON) one element of its top-level array field `key` at a time: each element is
/// parsed alone and given to `each(index, element)`, so that the whole document is
/// never held as a tree (the bound of 4× the input of docs/readers.md §10). The
/// other top-level fields are skipped unparsed, except those named in `keep`,
/// returned. `at` names the document in errors ("fio output"), which are those of
/// [`parse`], [`field`] and [`array`] on the whole document.
pub fn each_element(
    text: &str,
    path: Option<&str>,
    lines_before: usize,
    (key, at): (&str, &str),
    keep: &[&str],
    each: &mut dyn FnMut(usize, &Value) -> Result<()>,
) -> Result<Kept> {
    use serde::de::Deserializer as _;
    let mut de = serde_json::Deserializer::from_str(text);
    let mut stash: Option<Error> = None;
    let seen = de
        .deserialize_any(TopVisitor { key, keep, each, stash: &mut stash, path, at })
        .and_then(|kept| de.end().map(|()| kept));
    match (seen, stash) {
        (_, Some(e)) => Err(e),
        (Ok((true, kept)), None) => Ok(kept),
        (Ok((false, _)), None) => Err(Error::parse(path, None, format!("{at}: expected a field \"{key}\""))),
        (Err(e), None) => {
            let kind = match e.classify() {
                serde_json::error::Category::Eof => "the JSON ends early",
                _ => "not JSON",
            };
            Err(Error::parse(path, Some(e.line() + lines_before), format!("{kind}: {e}")))
        }
    }
}

/// The top-level object: `(whether key was there, the kept fields)`; an error of
/// ours is put in `stash` and stops the parse with a placeholder serde error.
struct TopVisitor<'a, 'f> {
    key: &'a str,
    keep: &'a [&'a str],
    each: &'a mut (dyn FnMut(usize, &Value) -> Result<()> + 'f),
    stash: &'a mut Option<Error>,
    path: Option<&'a str>,
    at: &'a str,
}

fn stop<E: serde::de::Error>(stash: &mut Option<Error>, e: Error) -> E {
    *stash = Some(e);
    E::custom("stopped")
}

impl<'de> serde::de::Visitor<'de> for TopVisitor<'_, '_> {
    type Value = (bool, Kept);
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON document")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<(bool, Kept), A::Error> {
        let mut kept = Kept::default();
        let mut found = false;
        while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if k == self.key {
                found = true;
                let (each, stash) = (&mut *self.each, &mut *self.stash);
                map.next_value_seed(ArraySeed { each, stash, path: self.path, at: self.at, key: self.key })?;
            } else if self.keep.contains(&&*k) {
                kept.0.push((k.into_owned(), map.next_value::<Value>()?));
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok((found, kept))
    }
    // any other document has no fields: as `field` on it
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(bool, Kept), A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok((false, Kept::default()))
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<(bool, Kept), E> {
        Ok((false, Kept::default()))
    }
}

struct ArraySeed<'a, 'f> {
    each: &'a mut (dyn FnMut(usize, &Value) -> Result<()> + 'f),
    stash: &'a mut Option<Error>,
    path: Option<&'a str>,
    at: &'a str,
    key: &'a str,
}

impl<'de> serde::de::DeserializeSeed<'de> for ArraySeed<'_, '_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl ArraySeed<'_, '_> {
    fn not_array<E: serde::de::Error>(self) -> E {
        let e = Error::parse(self.path, None, format!("{}.{}: expected an array", self.at, self.key));
        stop(self.stash, e)
    }
}

impl<'de> serde::de::Visitor<'de> for ArraySeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        let mut i = 0usize;
        while let Some(v) = seq.next_element::<Value>()? {
            let r = crate::cancel::check_every(i).and_then(|()| (self.each)(i, &v));
            if let Err(e) = r {
                return Err(stop(self.stash, e));
            }
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while map.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
        Err(self.not_array())
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<(), E> {
        Err(self.not_array())
    }
}
