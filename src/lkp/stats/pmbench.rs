//! pmbench output as lkp-tests' programs/pmbench/parse reads it (docs/lkp.md §4): the
//! read and write access-latency histograms (24 power-of-two buckets, finer
//! sub-buckets where printed) as percentages and their 90/95/99th percentiles, the mean
//! page latency, the summed page accesses per second of all processes with their
//! relative SD, and the mean initialization time.

use super::ruby::{self, group, re, Lines};
use crate::lkp::num::{ruby_sum, standard_deviation, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    latency: Regex,
    done: Regex,
    init: Regex,
    detailed: Regex,
    bucket: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        latency: re(r"^  Page latency during benchmark \(inc. gen\): (\d+\.\d+) us \(\d+ clks\)"),
        done: re(r" Benchmark done - took (\d+\.\d+) sec for (\d+) page access"),
        init: re(r"nitialization took (\d+\.\d+) ms"),
        detailed: re(r"^2\^\((\d+),(\d+)\) ns: (\d+)  \[(.*)\]"),
        bucket: re(r"^2\^\((\d+),(\d+)\) ns: (\d+)"),
    })
}

const BUCKETS: usize = 24;

/// One direction's histogram: bucket counts, sub-bucket counts, total (a Float in lkp).
struct Histogram {
    name: &'static str,
    counts: [i64; BUCKETS],
    details: Vec<Vec<i64>>,
    sum: f64,
}

impl Histogram {
    fn new(name: &'static str) -> Histogram {
        Histogram { name, counts: [0; BUCKETS], details: Vec::new(), sum: 0.0 }
    }

    fn add(&mut self, bucket: usize, cnt: i64) {
        self.sum += cnt as f64;
        if let Some(c) = self.counts.get_mut(bucket) {
            *c += cnt;
        }
    }
}

/// lkp's `format_power2`: `2^n` as `1`, `2`, … `512`, `1K`, … `512G`.
fn power2(mut n: usize) -> String {
    let mut unit = 0;
    while n > 9 {
        n -= 10;
        unit += 1;
    }
    format!("{}{}", 1u64 << n, ["", "K", "M", "G"].get(unit).copied().unwrap_or(""))
}

fn bucket_name(i: usize) -> String {
    match i {
        0 => "0-256".into(),
        23 => "1G-inf".into(),
        _ => format!("{}-{}", power2(i + 7), power2(i + 8)),
    }
}

const PERCENTILES: [(&str, f64); 3] = [("90", 90.0), ("95", 95.0), ("99", 99.0)];

fn histogram_lines(out: &mut String, h: &Histogram) {
    if h.sum == 0.0 {
        return;
    }
    let mut pi = 0;
    let mut cum = 0.0;
    let mut percentiles = |out: &mut String, cum: f64, ns: i128| {
        while let Some((label, p)) = PERCENTILES.get(pi) {
            if cum < *p {
                break;
            }
            out.push_str(&format!("{}.latency.{label}%.ns: {ns}\n", h.name));
            pi += 1;
        }
    };
    for (i, &count) in h.counts.iter().enumerate() {
        let res = count as f64 / h.sum * 100.0;
        out.push_str(&format!("{}.latency.ns.{}%: {}\n", h.name, bucket_name(i), float_to_s(res)));
        match h.details.get(i).filter(|d| !d.is_empty()) {
            Some(detail) => {
                for (j, &v) in detail.iter().enumerate() {
                    cum += v as f64 / h.sum * 100.0;
                    percentiles(out, cum, (1i128 << (i + 8)) + j as i128 * (1i128 << (i + 4)));
                }
            }
            None => {
                cum += res;
                percentiles(out, cum, 1i128 << (i + 8));
            }
        }
    }
}

/// `Array#sum` of Floats (0 for none), as Ruby prints it.
fn sum_s(v: &[f64]) -> String {
    let nums: Vec<Num> = v.iter().map(|&x| Num::Float(x)).collect();
    match ruby_sum(&nums) {
        crate::lkp::num::Sum::Int(i) => i.to_string(),
        s => float_to_s(s.f()),
    }
}

fn mean(v: &[f64]) -> f64 {
    let nums: Vec<Num> = v.iter().map(|&x| Num::Float(x)).collect();
    ruby_sum(&nums).f() / v.len() as f64
}

/// Parse pmbench output (one or more processes' outputs concatenated).
pub fn parse(text: &str) -> Lines {
    let p = patterns();
    let mut read = Histogram::new("read");
    let mut write = Histogram::new("write");
    let mut reading = false;
    let (mut latencies, mut throughputs, mut init_times) = (Vec::new(), Vec::new(), Vec::new());
    for (ln, line) in ruby::lines(text).enumerate() {
        crate::cancel::check_every(ln)?;
        let h = if reading { &mut read } else { &mut write };
        if line.starts_with("Read:") {
            reading = true;
        } else if line.starts_with("Write:") {
            reading = false;
        } else if let Some(c) = p.latency.captures(line) {
            latencies.push(ruby::to_f(group(&c, 1)));
        } else if let Some(c) = p.done.captures(line) {
            throughputs.push(ruby::to_f(group(&c, 2)) / ruby::to_f(group(&c, 1)));
        } else if let Some(c) = p.init.captures(line) {
            init_times.push(ruby::to_f(group(&c, 1)) / 1000.0);
        } else if let Some(c) = p.detailed.captures(line) {
            let Some(b) = usize::try_from(ruby::to_i(group(&c, 2)) - 8).ok().filter(|&b| b < BUCKETS) else {
                continue;
            };
            if h.details.len() <= b {
                h.details.resize(b + 1, Vec::new());
            }
            if let Some(d) = h.details.get_mut(b) {
                for (k, v) in group(&c, 4).split(", ").enumerate() {
                    if d.len() <= k {
                        d.resize(k + 1, 0);
                    }
                    if let Some(slot) = d.get_mut(k) {
                        *slot += ruby::to_i(v);
                    }
                }
            }
            h.add(b, ruby::to_i(group(&c, 3)));
        } else if let Some(c) = p.bucket.captures(line) {
            let end = ruby::to_i(group(&c, 2));
            let b = if end < 32 { end - 8 } else { end - 9 };
            if let Some(b) = usize::try_from(b).ok().filter(|&b| b < BUCKETS) {
                h.add(b, ruby::to_i(group(&c, 3)));
            }
        }
    }
    let mut out = String::new();
    histogram_lines(&mut out, &read);
    histogram_lines(&mut out, &write);
    if !latencies.is_empty() {
        out.push_str(&format!("latency.ns.average: {}\n", float_to_s(mean(&latencies) * 1000.0)));
    }
    out.push_str(&format!("throughput.aps: {}\n", sum_s(&throughputs)));
    let t: Vec<Num> = throughputs.iter().map(|&x| Num::Float(x)).collect();
    let rsd = standard_deviation(&t).unwrap_or(f64::NAN) * 100.0 / mean(&throughputs);
    out.push_str(&format!("throughput.std_dev%: {}\n", float_to_s(rsd)));
    if !init_times.is_empty() {
        out.push_str(&format!("init_time.avg: {}\n", float_to_s(mean(&init_times))));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_names() {
        assert_eq!(bucket_name(1), "256-512");
        assert_eq!(bucket_name(3), "1K-2K");
        assert_eq!(bucket_name(22), "512M-1G");
    }
}
