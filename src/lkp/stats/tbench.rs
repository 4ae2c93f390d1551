//! tbench as lkp-tests' programs/tbench/parse reads it: from each `Throughput … MB/sec
//! N clients N procs max_latency=… ms` line the mean (and harmonic mean) of
//! `throughput_MB/s` and `max_latency`, and the last `clients` and `procs`.

use super::ruby::{self, bad_line, Lines};
use crate::lkp::num::{average, harmonic_mean, Num};
use crate::lkp::rubyfmt::float_to_s;

/// Parse tbench output (`path` names it in errors: a Throughput line without `=`).
pub fn parse(text: &str, path: &str) -> Lines {
    let (mut throughput, mut latency) = (Vec::new(), Vec::new());
    let (mut clients, mut procs) = (0i64, 0i64);
    for (ln, line) in ruby::lines(text).enumerate() {
        if !line.starts_with("Throughpu") {
            continue;
        }
        let parts = ruby::split_on(line, '=');
        let values = ruby::split(parts.first().copied().unwrap_or(""));
        let v = |i: usize| values.get(i).copied().unwrap_or("");
        throughput.push(ruby::to_f(v(1)));
        clients = ruby::to_i(v(3));
        procs = ruby::to_i(v(5));
        let Some(after) = parts.get(1) else {
            return Err(bad_line(path, ln + 1, "expected 'max_latency=<ms>'"));
        };
        latency.push(ruby::split(after).first().map_or(0.0, |s| ruby::to_f(s)));
    }
    if throughput.is_empty() {
        return Ok(String::new());
    }
    let mut out = String::new();
    let put = |out: &mut String, k: &str, v: &[f64]| {
        let nums: Vec<Num> = v.iter().map(|&x| Num::Float(x)).collect();
        let avg = average(&nums).unwrap_or(f64::NAN);
        out.push_str(&format!("{k}: {}\n", float_to_s(ruby::round(avg, 2))));
        out.push_str(&format!("{k}_harmonic_mean: {}\n", float_to_s(ruby::round(harmonic_mean(v), 2))));
    };
    put(&mut out, "throughput_MB/s", &throughput);
    out.push_str(&format!("clients: {clients}\nprocs: {procs}\n"));
    put(&mut out, "max_latency", &latency);
    Ok(out)
}
