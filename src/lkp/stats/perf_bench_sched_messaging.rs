//! `perf bench sched messaging` as lkp-tests' programs/perf-bench-sched-messaging/parse
//! reads it: `total_time_sec` from each `Total time: N [sec]` line.

use super::ruby::{self, group, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf-bench-sched-messaging output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    let p = P.get_or_init(|| re(r"Total time:\s*([\d.]+)\s*\[sec\]"));
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = p.captures(line) {
            out.push_str(&format!("total_time_sec: {}\n", group(&c, 1)));
        }
    }
    out
}
