//! autonuma-benchmark as lkp-tests' programs/autonuma-benchmark/parse reads it: after
//! `Hyper-Threading IS …`, each `numa…` test name followed by its times in seconds;
//! per test the mean, rounded to 2 places, as `<test>.seconds`.

use super::ruby::{self, re, Hash, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse autonuma-benchmark output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [start, name, value] = P.get_or_init(|| [re("^Hyper-Threading IS"), re("^numa"), re(r"\d+.\d+")]);
    let mut results: Hash<Vec<Num>> = Hash::default();
    let mut output = false;
    // lkp's `key` starts as nil, which prints as ""
    let mut key = String::new();
    for line in ruby::lines(text) {
        let line = ruby::strip(line);
        if start.is_match(line) {
            output = true;
        } else if output && name.is_match(line) {
            key = line.to_string();
        } else if output && value.is_match(line) {
            if let Some(v) = results.entry(&key, Vec::new) {
                v.push(Num::Float(ruby::to_f(line)));
            }
        }
    }
    let mut out = String::new();
    for (k, v) in results.iter() {
        let avg = average(v).unwrap_or(f64::NAN);
        out.push_str(&format!("{k}.seconds: {}\n", float_to_s(ruby::round(avg, 2))));
    }
    Ok(out)
}
