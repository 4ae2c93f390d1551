//! STREAM as lkp-tests' programs/stream/parse reads it: the element size and array
//! size as printed, and per kernel (copy, scale, add, triad) the mean and harmonic mean
//! of its best rates, rounded to 2 places, in the unit of the `Function … Best Rate`
//! header.

use super::ruby::{self, group, re, Hash, Lines};
use crate::lkp::num::{average, harmonic_mean, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

enum Value {
    Text(String),
    Rates(Vec<f64>),
}

/// Parse STREAM output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [element, array, header, kernel] = P.get_or_init(|| {
        [
            re(r"This system uses (\d+) bytes per array element"),
            re(r"Array size = (\d+) \(elements\)"),
            re(r"Function.*Best Rate (.*) Avg time"),
            re(r"(Copy|Scale|Add|Triad)"),
        ]
    });
    let mut stats: Hash<Value> = Hash::default();
    let mut unit: Option<String> = None;
    for line in ruby::lines(text) {
        if let Some(c) = element.captures(line) {
            stats.set("element_size_byte", Value::Text(group(&c, 1).to_string()));
        } else if let Some(c) = array.captures(line) {
            stats.set("array_size", Value::Text(group(&c, 1).to_string()));
        } else if let Some(c) = header.captures(line) {
            unit = Some(ruby::strip(group(&c, 1)).replace('/', "p"));
        } else if let Some(c) = kernel.captures(line) {
            // lkp logs "can not get unit" and stops before printing anything
            let Some(u) = &unit else { return Ok(String::new()) };
            let rate = ruby::split(line).get(1).map_or(0.0, |s| ruby::to_f(s));
            let key = format!("{}_bandwidth_{u}", ruby::downcase(group(&c, 1)));
            if let Some(Value::Rates(v)) = stats.entry(&key, || Value::Rates(Vec::new())) {
                v.push(rate);
            }
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        match v {
            Value::Text(t) => out.push_str(&format!("{k}: {t}\n")),
            Value::Rates(r) => {
                let nums: Vec<Num> = r.iter().map(|&x| Num::Float(x)).collect();
                let avg = average(&nums).unwrap_or(f64::NAN);
                out.push_str(&format!("{k}: {}\n", float_to_s(ruby::round(avg, 2))));
                out.push_str(&format!("{k}_harmonicMean: {}\n", float_to_s(ruby::round(harmonic_mean(r), 2))));
            }
        }
    }
    Ok(out)
}
