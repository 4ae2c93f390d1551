//! `perf bench sched pipe` as lkp-tests' programs/perf-bench-sched-pipe/parse reads it:
//! `ops_per_sec` from each `N ops/sec` line.

use super::ruby::{self, group, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf-bench-sched-pipe output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    let p = P.get_or_init(|| re(r"(\d+) ops/sec"));
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = p.captures(line) {
            out.push_str(&format!("ops_per_sec: {}\n", group(&c, 1)));
        }
    }
    out
}
