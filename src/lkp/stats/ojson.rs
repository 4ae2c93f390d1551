//! An order-preserving JSON value that keeps Integer vs Float, for raw outputs in JSON
//! (mpstat) and per-run `stats.json` files.

use crate::error::{Error, Result};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A JSON value; objects keep their key order, numbers their Integer/Float kind.
#[derive(Debug, Clone, PartialEq)]
pub enum JValue {
    /// null
    Null,
    /// true/false
    Bool(bool),
    /// integer literal
    Int(i64),
    /// number with fraction or exponent
    Float(f64),
    /// string
    Str(String),
    /// array
    Arr(Vec<JValue>),
    /// object in file order
    Obj(Vec<(String, JValue)>),
}

impl JValue {
    /// Member `k` of an object.
    pub fn get(&self, k: &str) -> Option<&JValue> {
        match self {
            JValue::Obj(o) => o.iter().find(|(ok, _)| ok == k).map(|(_, v)| v),
            _ => None,
        }
    }
    /// Element `i` of an array.
    pub fn index(&self, i: usize) -> Option<&JValue> {
        match self {
            JValue::Arr(a) => a.get(i),
            _ => None,
        }
    }
    /// The value as a number.
    pub fn num(&self) -> Option<f64> {
        match self {
            JValue::Int(i) => Some(*i as f64),
            JValue::Float(f) => Some(*f),
            _ => None,
        }
    }
}

struct V;

impl<'de> Visitor<'de> for V {
    type Value = JValue;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<JValue, E> {
        Ok(JValue::Null)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> std::result::Result<JValue, E> {
        Ok(JValue::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<JValue, E> {
        Ok(JValue::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<JValue, E> {
        Ok(i64::try_from(v).map_or(JValue::Float(v as f64), JValue::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<JValue, E> {
        Ok(JValue::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<JValue, E> {
        Ok(JValue::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<JValue, E> {
        Ok(JValue::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<JValue, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element_seed(Seed)? {
            v.push(x);
        }
        Ok(JValue::Arr(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<JValue, A::Error> {
        let mut o: Vec<(String, JValue)> = Vec::new();
        // a repeated key replaces the value in place (Ruby's Hash); the index keeps an
        // object of n keys O(n)
        let mut pos: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(Seed)?;
            match pos.get(&k).and_then(|&i| o.get_mut(i)) {
                Some(slot) => slot.1 = v,
                None => {
                    pos.insert(k.clone(), o.len());
                    o.push((k, v));
                }
            }
        }
        Ok(JValue::Obj(o))
    }
}

struct Seed;

impl<'de> de::DeserializeSeed<'de> for Seed {
    type Value = JValue;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<JValue, D::Error> {
        d.deserialize_any(V)
    }
}

/// Parse JSON text (`path` names it in errors, with the line).
pub fn parse(bytes: &[u8], path: &str) -> Result<JValue> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let v = de.deserialize_any(V).and_then(|v| de.end().map(|_| v)).map_err(|e| {
        let line = if e.line() > 0 { Some(e.line()) } else { None };
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        let what = if e.is_eof() { "truncated JSON" } else { "invalid JSON" };
        Error::parse(Some(path), line, format!("{what}: {msg}"))
    })?;
    Ok(v)
}
