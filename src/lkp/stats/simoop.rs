//! simoop as lkp-tests' programs/simoop/parse reads it: the read, write and allocation
//! latency percentiles and the average work, allocstall and nr_vmscan_write rates of
//! the last report (each key keeps the place of its first report), as printed.

use super::ruby::{self, group, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse simoop output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [latency, work, allocstall, vmscan] = P.get_or_init(|| {
        [
            re(r"^(Read|Write|Allocation) latency usec: \(p50: (\d+)\) \(p95: (\d+)\) \(p99: (\d+)\) \(max: (\d+)\)"),
            re(r"^work rate = [0-9.]+/sec \(avg ([0-9.]+)/sec\)"),
            re(r"^allocstall rate = [0-9.]+/sec \(avg: ([0-9.]+)\)"),
            re(r"^nr_vmscan_write rate = [0-9.]+/sec \(avg: ([0-9.]+)\)"),
        ]
    });
    let mut stats: Hash<String> = Hash::default();
    for line in ruby::lines(text) {
        if let Some(c) = latency.captures(line) {
            let prefix = ruby::downcase(group(&c, 1));
            for (i, p) in ["p50", "p95", "p99", "max"].iter().enumerate() {
                stats.set(&format!("{prefix}_latency_usec.{p}"), group(&c, i + 2).to_string());
            }
        } else if let Some(c) = work.captures(line) {
            stats.set("work_rate_avg_per_sec", group(&c, 1).to_string());
        } else if let Some(c) = allocstall.captures(line) {
            stats.set("allocstall_rate_avg_per_sec", group(&c, 1).to_string());
        } else if let Some(c) = vmscan.captures(line) {
            stats.set("nr_vmscan_write_rate_avg_per_sec", group(&c, 1).to_string());
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}
