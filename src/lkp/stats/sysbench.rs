//! sysbench's report as lkp-tests' programs/sysbench-threads/parse and
//! programs/sysbench-cpu/parse (the same script) read it: sums of the throughputs and
//! events, means of the rates, latencies and fairness figures, the least `min` and the
//! largest `max` latency over all reports.

use super::ruby::{self, group, re};
use crate::lkp::num::{ruby_sum_f0, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

#[derive(Clone, Copy)]
enum Kind {
    Total,
    Avg,
    Min,
    Max,
}

/// A report line: its pattern, how its values combine, the key of group 1 (and of group 2).
type Pattern = (Regex, Kind, &'static str, Option<&'static str>);

fn patterns() -> &'static [Pattern] {
    static P: OnceLock<Vec<Pattern>> = OnceLock::new();
    P.get_or_init(|| {
        use Kind::*;
        vec![
            (re(r"Total operations:\s+\d+\s+\(([0-9.]+)\s+.+\)"), Total, "throughput_ops/s", None),
            (re(r".+\s+transferred\s+\(([0-9.]+)\s+.+\)"), Total, "throughput_MB/s", None),
            (re(r"total number of events:\s+(\d+)"), Total, "workload", None),
            (re(r"events/s \(eps\):\s+([0-9.]+)"), Avg, "throughput_events/s", None),
            (re(r"time elapsed:\s+([0-9.]+)"), Avg, "throughput_time", None),
            (re(r"min:\s+([0-9.]+)"), Min, "latency_ms.min", None),
            (re(r"avg:\s+([0-9.]+)"), Avg, "latency_ms.avg", None),
            (re(r"max:\s+([0-9.]+)"), Max, "latency_ms.max", None),
            (re(r"95th percentile:\s+([0-9.]+)"), Avg, "latency_ms.95th", None),
            (
                re(r"events\s+\(avg/stddev\):\s+([0-9.]+)/([0-9.]+)"),
                Avg,
                "events/thread.avg",
                Some("events/thread.stddev"),
            ),
            (re(r"execution time.+:\s+([0-9.]+)/([0-9.]+)"), Avg, "runtime/thread.avg", Some("runtime/thread.stddev")),
        ]
    })
}

/// Insertion-ordered lists of values per key.
#[derive(Default)]
struct Results(Vec<(&'static str, Vec<f64>)>);

impl Results {
    fn add(&mut self, k: &'static str, v: f64) {
        match self.0.iter_mut().find(|(key, _)| *key == k) {
            Some((_, l)) => l.push(v),
            None => self.0.push((k, vec![v])),
        }
    }
}

/// Parse sysbench (threads, cpu) output.
pub fn parse(text: &str) -> String {
    let mut by_kind: [Results; 4] = Default::default();
    for line in ruby::lines(text) {
        let Some((c, kind, k1, k2)) =
            patterns().iter().find_map(|(r, kind, k1, k2)| r.captures(line).map(|c| (c, kind, k1, k2)))
        else {
            continue;
        };
        let Some(r) = by_kind.get_mut(*kind as usize) else { continue };
        r.add(k1, ruby::to_f(group(&c, 1)));
        if let Some(k2) = k2 {
            r.add(k2, ruby::to_f(group(&c, 2)));
        }
    }
    let mut out = String::new();
    let sum = |v: &[f64]| ruby_sum_f0(&v.iter().map(|&x| Num::Float(x)).collect::<Vec<_>>());
    let [total, avg, min, max] = &by_kind;
    for (k, v) in &total.0 {
        out.push_str(&format!("{k}: {}\n", float_to_s(sum(v))));
    }
    for (k, v) in &avg.0 {
        out.push_str(&format!("{k}: {}\n", float_to_s(sum(v) / v.len() as f64)));
    }
    for (k, v) in &min.0 {
        out.push_str(&format!("{k}: {}\n", float_to_s(v.iter().copied().fold(f64::INFINITY, f64::min))));
    }
    for (k, v) in &max.0 {
        out.push_str(&format!("{k}: {}\n", float_to_s(v.iter().copied().fold(f64::NEG_INFINITY, f64::max))));
    }
    out
}
