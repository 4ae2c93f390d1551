//! `perf bench numa mem` as lkp-tests' programs/perf-bench-numa-mem/parse reads it: the
//! value before each of ten `<unit>, <metric>` summary columns (`secs_latency`,
//! `GB_sec_total`, …), as printed.

use super::ruby::{self, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// lkp's keys and the text after the value that selects each (its order of checks).
const KEYS: [(&str, &str); 10] = [
    ("secs_latency", r"secs,\s*NUMA-convergence-latency"),
    ("secs_slowest", r"secs,\s*runtime-max/thread"),
    ("secs_fastest", r"secs,\s*runtime-min/thread"),
    ("secs_avg", r"secs,\s*runtime-avg/thread"),
    ("max_avg_diff", r"%,\s*spread-runtime/thread"),
    ("GB_per_thread", r"GB,\s*data/thread"),
    ("GB_total", r"GB,\s*data-total"),
    ("nsecs_byte_thread", r"nsecs,\s*runtime/byte/thread"),
    ("GB_sec_thread", r"GB/sec,\s*thread-speed"),
    ("GB_sec_total", r"GB/sec,\s*total-speed"),
];

/// Parse perf-bench-numa-mem output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<Vec<(&'static str, Regex)>> = OnceLock::new();
    let p = P.get_or_init(|| KEYS.iter().map(|(k, v)| (*k, re(&format!(r"([\d.]+),\s*{v}")))).collect());
    let mut out = String::new();
    for line in ruby::lines(text) {
        for (k, r) in p {
            if let Some(c) = r.captures(line) {
                out.push_str(&format!("{k}: {}\n", group(&c, 1)));
            }
        }
    }
    Ok(out)
}
