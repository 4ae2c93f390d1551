//! UnixBench's report as lkp-tests' programs/unixbench/parse reads it: `score` (the
//! Benchmarks Index Score), `throughput` (the RESULT column under an index table
//! header, else the last per-test `N lps (… s, … samples)` line), `workload` =
//! duration × throughput, `test.pass: 1`; only `test.fail: 1` without a
//! `Benchmark Run:` line or a throughput.

use super::ruby::{self, group, re};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    run: Regex,
    index_header: Regex,
    per_test: Regex,
    score: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        run: re(r"^Benchmark Run: .+ (\d+:\d+:\d+) - (\d+:\d+:\d+)$"),
        index_header: re(r"^.+ Benchmarks .*Index .* INDEX$"),
        per_test: re(r"^.+? ([\d.]+) (KBps|lps|lpm|score)\s+\([\d.]+ s, \d+ samples?\)"),
        score: re(r"^.+ Benchmarks Index Score .* ([0-9.]+)$"),
    })
}

/// `15:48:24` as seconds of the day.
fn seconds(hms: &str) -> f64 {
    hms.split(':').fold(0.0, |acc, p| acc * 60.0 + ruby::to_f(p))
}

/// Parse a UnixBench report into lkp's `key: value` lines.
pub fn parse(text: &str) -> String {
    let p = patterns();
    let mut duration: Option<f64> = None;
    let mut throughput: Option<f64> = None;
    let mut score: Option<f64> = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(c) = p.run.captures(line) {
            let (start, end) = (seconds(group(&c, 1)), seconds(group(&c, 2)));
            // a run past midnight wraps
            duration = Some(if end > start { end - start } else { end + 86400.0 - start });
        } else if p.index_header.is_match(line) {
            // the first line of the table: `<name>  <baseline>  <result>  <index>`
            let Some(row) = lines.next() else { break };
            if !row.is_empty() {
                let f = ruby::split(row);
                throughput = Some(f.len().checked_sub(2).and_then(|i| f.get(i)).map_or(0.0, |v| ruby::to_f(v)));
            }
        } else if let Some(c) = p.per_test.captures(line) {
            throughput = Some(ruby::to_f(group(&c, 1)));
        } else if let Some(c) = p.score.captures(line) {
            score = Some(ruby::to_f(group(&c, 1)));
        }
    }
    let (Some(duration), Some(throughput)) = (duration, throughput) else { return "test.fail: 1\n".into() };
    let mut out = String::new();
    if let Some(s) = score {
        out.push_str(&format!("score: {}\n", float_to_s(s)));
    }
    out.push_str(&format!("throughput: {}\n", float_to_s(throughput)));
    out.push_str(&format!("workload: {}\n", float_to_s(duration * throughput)));
    out.push_str("test.pass: 1\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_hand() {
        let t = "Benchmark Run: Tue Jan 01 2019 23:59:50 - 00:00:20\n\
                 Execl Throughput                              100.5 lps   (30.0 s, 7 samples)\n\
                 System Benchmarks Index Score (Partial Only)                         23.40\n";
        // 30 s across midnight; workload = 100.5 × 30; the score printed as a Float
        assert_eq!(parse(t), "score: 23.4\nthroughput: 100.5\nworkload: 3015.0\ntest.pass: 1\n");
        // no Benchmark Run line: only the failure
        assert_eq!(parse("Execl Throughput      100.5 lps   (30.0 s, 7 samples)\n"), "test.fail: 1\n");
    }
}
