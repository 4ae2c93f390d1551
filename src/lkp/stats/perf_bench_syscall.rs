//! `perf bench syscall …` as lkp-tests' programs/perf-bench-syscall/parse reads it: per
//! `# Executed N <name>() calls` block its `total_time_sec`, `usecs_per_op` and
//! `ops_per_sec` (thousands separators dropped), as printed.

use super::ruby::{self, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf-bench-syscall output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [executed, total, usecs, ops] = P.get_or_init(|| {
        [
            re(r"^# Executed [\d,]+ (\w+)\(\) calls"),
            re(r"Total time:\s*([\d.]+)\s*\[sec\]"),
            re(r"([\d.]+)\s*usecs/op"),
            re(r"([\d,]+)\s*ops/sec"),
        ]
    });
    // lkp's `name` starts as nil, which prints as ""
    let mut name = String::new();
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = executed.captures(line) {
            name = group(&c, 1).to_string();
        } else if let Some(c) = total.captures(line) {
            out.push_str(&format!("{name}.total_time_sec: {}\n", group(&c, 1)));
        } else if let Some(c) = usecs.captures(line) {
            out.push_str(&format!("{name}.usecs_per_op: {}\n", group(&c, 1)));
        } else if let Some(c) = ops.captures(line) {
            out.push_str(&format!("{name}.ops_per_sec: {}\n", group(&c, 1).replace(',', "")));
        }
    }
    Ok(out)
}
