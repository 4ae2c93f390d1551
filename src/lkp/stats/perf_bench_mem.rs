//! `perf bench mem …` as lkp-tests' programs/perf-bench-mem/parse reads it: per
//! benchmark (`mem/memcpy`, …) and function the rate, `<op>.<function>.<unit>_per_sec`,
//! as printed.

use super::ruby::{self, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf-bench-mem output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [running, function, rate] = P.get_or_init(|| {
        [
            re(r"^# Running 'mem/(\w+)' benchmark:"),
            re(r"^# function '([^']+)'"),
            re(r"^\s*([\d.]+)d?\s+(bytes|KB|MB|GB)/sec"),
        ]
    });
    // lkp's `op` starts as nil, which prints as ""
    let (mut op, mut func) = (String::new(), "default".to_string());
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = running.captures(line) {
            op = group(&c, 1).to_string();
        } else if let Some(c) = function.captures(line) {
            func = group(&c, 1).to_string();
        } else if let Some(c) = rate.captures(line) {
            out.push_str(&format!("{op}.{func}.{}_per_sec: {}\n", group(&c, 2), group(&c, 1)));
        }
    }
    Ok(out)
}
