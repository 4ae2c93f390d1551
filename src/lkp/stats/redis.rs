//! redis-benchmark as lkp-tests' programs/redis/parse reads it: the per-command rates
//! as printed, then over the SET and GET runs the total and mean throughput and time,
//! and their latency distributions (mean cumulative percentage per millisecond bucket
//! and the first bucket past 90/95/99/99.9 %).

use super::latency_table::Tables;
use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::Num;
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// The commands whose rate is printed as is: the pattern's name and lkp's key.
const SIMPLE: [(&str, &str); 16] = [
    ("PING_INLINE", "PING_INLINE"),
    ("PING_BULK", "PING_BULK"),
    ("INCR", "INCR"),
    ("LPUSH", "LPUSH"),
    ("RPUSH", "RPUSH"),
    ("LPOP", "LPOP"),
    ("RPOP", "RPOP"),
    ("SADD", "SADD"),
    ("HSET", "HSET"),
    ("SPOP", "SPOP"),
    ("LPUSH .needed to benchmark LRANGE.", "LPUSH_LRANGE"),
    ("LRANGE_100 .first 100 elements.", "LRANGE_100"),
    ("LRANGE_300 .first 300 elements.", "LRANGE_300"),
    ("LRANGE_500 .first 450 elements.", "LRANGE_500"),
    ("LRANGE_600 .first 600 elements.", "LRANGE_600"),
    ("MSET .10 keys.", "MSET"),
];

struct Patterns {
    simple: Vec<(Regex, &'static str)>,
    set: Regex,
    get: Regex,
    throughput: Regex,
    completed: Regex,
    latency: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        simple: SIMPLE.iter().map(|(p, k)| (re(&format!(r"{p}: (\d+).(\d+) requests per second$")), *k)).collect(),
        set: re("====== SET ======$"),
        get: re("====== GET ======$"),
        throughput: re(r"  throughput summary: (\d+\.\d+) requests per second$"),
        completed: re(r"requests completed in (\d+\.\d+) seconds$"),
        latency: re(r"^(\d+\.\d+)% <= (\d+) milliseconds$"),
    })
}

/// A sum that starts as Ruby's Integer 0 and becomes a Float with the first value.
#[derive(Default)]
struct Total {
    sum: f64,
    n: i64,
}

impl Total {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.n += 1;
    }

    fn total(&self) -> String {
        if self.n == 0 {
            "0".into()
        } else {
            float_to_s(self.sum)
        }
    }

    /// lkp's `safe_div(sum, count)`.
    fn mean(&self) -> String {
        if self.n == 0 {
            "0".into()
        } else {
            float_to_s(self.sum / self.n as f64)
        }
    }
}

/// One of the SET and GET sides.
#[derive(Default)]
struct Side {
    throughput: Total,
    time: Total,
    /// The run tables listed at each throughput line (None: listed before any header).
    listed: Vec<Option<usize>>,
    /// The table of the current run (`@proc_*_latencies`).
    current: Option<usize>,
}

/// Parse redis-benchmark output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut tables = Tables::default();
    let (mut set, mut get) = (Side::default(), Side::default());
    let mut is_set = true;
    let mut out = String::new();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        if let Some((c, key)) = p.simple.iter().find_map(|(r, k)| r.captures(line).map(|c| (c, k))) {
            out.push_str(&format!("{key}: {}.{}\n", group(&c, 1), group(&c, 2)));
            continue;
        }
        let side = if is_set { &mut set } else { &mut get };
        if p.set.is_match(line) {
            is_set = true;
            set.current = Some(tables.new_table());
        } else if p.get.is_match(line) {
            is_set = false;
            get.current = Some(tables.new_table());
        } else if let Some(c) = p.throughput.captures(line) {
            side.throughput.add(ruby::to_f(group(&c, 1)));
            side.listed.push(side.current);
        } else if let Some(c) = p.completed.captures(line) {
            side.time.add(ruby::to_f(group(&c, 1)));
        } else if let Some(c) = p.latency.captures(line) {
            let Some(t) = side.current else {
                return Err(bad_line(path, ln + 1, "a latency line before the SET or GET header (lkp's Ruby fails)"));
            };
            let ms = ruby::int(group(&c, 2), path, ln + 1)?;
            tables.set(t, ms, Num::Float(ruby::to_f(group(&c, 1)))).map_err(|e| bad_line(path, ln + 1, e))?;
        }
    }
    out.push_str(&format!("set_total_throughput_rps: {}\n", set.throughput.total()));
    out.push_str(&format!("get_total_throughput_rps: {}\n", get.throughput.total()));
    out.push_str(&format!("set_total_time_sec: {}\n", set.time.total()));
    out.push_str(&format!("get_total_time_sec: {}\n", get.time.total()));
    out.push_str(&format!("set_avg_throughput_rps: {}\n", set.throughput.mean()));
    out.push_str(&format!("get_avg_throughput_rps: {}\n", get.throughput.mean()));
    out.push_str(&format!("set_avg_time_sec: {}\n", set.time.mean()));
    out.push_str(&format!("get_avg_time_sec: {}\n", get.time.mean()));
    for (side, name) in [(&set, "set"), (&get, "get")] {
        let shown = tables.show(&side.listed, name, true, |i| i.to_string()).map_err(|e| bad_line(path, lines, e))?;
        out.push_str(&shown);
    }
    Ok(out)
}
