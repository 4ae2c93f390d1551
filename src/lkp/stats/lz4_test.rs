//! lz4 `-b` benchmark as lkp-tests' programs/lz4-test/parse reads it: from each
//! `-<level>… (…)` result line the level (the last one, as printed) and the mean
//! compression and decompression speeds in MB/s, rounded to 2 places.

use super::ruby::{self, re, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse lz4-test output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let row = P.get_or_init(|| re(r"^-.*\(.*\)"));
    let mut level: Option<String> = None;
    let (mut compression, mut decompression): (Vec<Num>, Vec<Num>) = (Vec::new(), Vec::new());
    for line in ruby::lines(text) {
        if !row.is_match(line) {
            continue;
        }
        let f = ruby::split(line);
        let field = |i: usize| f.get(i).map_or(0.0, |s| ruby::to_f(s));
        level = Some(f.first().copied().unwrap_or("").replace('-', ""));
        compression.push(Num::Float(field(3)));
        decompression.push(Num::Float(field(5)));
    }
    let Some(level) = level else { return Ok(String::new()) };
    let mean = |v: &[Num]| float_to_s(ruby::round(average(v).unwrap_or(f64::NAN), 2));
    Ok(format!(
        "compression_level: {level}\ncompression_MB_per_sec: {}\ndecompression_MB_per_sec: {}\n",
        mean(&compression),
        mean(&decompression)
    ))
}
