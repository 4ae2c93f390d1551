//! `perf bench futex …` as lkp-tests' programs/perf-bench-futex/parse reads it:
//! `ops/s`, `wokeup_time_ms`, `requeued_time_ms` or `avg_per_thread_latency_ms`, each
//! followed by its `stddev%`, as printed.

use super::ruby::{self, group, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf-bench-futex output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let p = P.get_or_init(|| {
        vec![
            (re(r"Averaged ([\d.]+) operations/sec \(\+- ([\d.]+)%\)"), "ops/s"),
            (re(r"^Wokeup \d+ of \d+ threads in ([\d.]+) ms \(\+-([\d.]+)%\)"), "wokeup_time_ms"),
            (re(r"^Requeued \d+ of \d+ threads in ([\d.]+) ms \(\+-([\d.]+)%\)"), "requeued_time_ms"),
            (
                re(r"^Avg per-thread latency \(waking \d/\d threads\) in ([\d.]+) ms \(\+-([\d.]+)%\)"),
                "avg_per_thread_latency_ms",
            ),
        ]
    });
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some((c, key)) = p.iter().find_map(|(r, k)| r.captures(line).map(|c| (c, k))) {
            out.push_str(&format!("{key}: {}\nstddev%: {}\n", group(&c, 1), group(&c, 2)));
        }
    }
    out
}
