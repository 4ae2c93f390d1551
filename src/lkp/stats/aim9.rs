//! AIM9 as lkp-tests' programs/aim9/parse (awk) reads it: `<test>.ops_per_sec` (the
//! sixth field) of each numbered result line; a `Skipping` line gives `<test>.skip: 1`
//! and ends the parse.

use super::ruby::re;
use regex::Regex;
use std::sync::OnceLock;

/// Parse aim9 output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (skip, result) = P.get_or_init(|| (re(r"^[ ]+[0-9]+.*[ ]+Skipping"), re(r"^[ ]+[0-9]+.*[ ]+[0-9|.]+.*")));
    let mut out = String::new();
    for line in text.lines() {
        // awk splits fields on blanks and tabs
        let f: Vec<&str> = line.split([' ', '\t']).filter(|s| !s.is_empty()).collect();
        let field = |i: usize| f.get(i).copied().unwrap_or("");
        if skip.is_match(line) {
            out.push_str(&format!("{}.skip: 1\n", field(1)));
            break;
        }
        if result.is_match(line) {
            out.push_str(&format!("{}.ops_per_sec: {}\n", field(1), field(5)));
        }
    }
    out
}
