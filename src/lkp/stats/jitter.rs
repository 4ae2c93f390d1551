//! jitter (jitter-test) as lkp-tests' programs/jitter/parse reads it: over the sample
//! rows (six or more numeric columns), the smallest instantaneous and absolute minimum,
//! the largest maxima, the mean, relative standard deviation and 99th percentile of the
//! instantaneous jitter, and the mean last execution time.

use super::ruby::{self, bad_line, re, Lines};
use crate::lkp::num::{average, relative_stddev, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// lkp's `percentile(values, p)`: linear interpolation between the sorted values at
/// `p·(n−1)`; None with fewer than two values (lkp's Ruby fails on the missing one).
fn percentile(values: &[i64], p: f64) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let x = p * (sorted.len() as f64 - 1.0) + 1.0;
    let a = usize::try_from(x.floor() as i64 - 1).ok()?;
    let b = x % 1.0;
    let (lo, hi) = (*sorted.get(a)?, *sorted.get(a + 1)?);
    Some(lo as f64 + b * (i128::from(hi) - i128::from(lo)) as f64)
}

/// Ruby's `to_s` of an Integer array's `min`/`max` (nil prints as "").
fn shown(v: Option<&i64>) -> String {
    v.map_or(String::new(), i64::to_string)
}

/// Parse jitter output (`path` names it in errors: lkp's Ruby fails with fewer than two
/// sample rows).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let row = P.get_or_init(|| re(r"\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+.*$"));
    let mut cols: [Vec<i64>; 6] = Default::default();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        // lkp matches `line.chomp!`, which is nil (no match) for a last line without a newline
        let Some(line) = ruby::chomp_bang(line) else { continue };
        if !row.is_match(line) {
            continue;
        }
        let data = ruby::split(line);
        for (i, col) in cols.iter_mut().enumerate() {
            col.push(ruby::int(data.get(i).copied().unwrap_or(""), path, ln + 1)?);
        }
    }
    let [inst_min, inst_max, inst_jitter, last_exec, abs_min, abs_max] = &cols;
    let ints = |v: &[i64]| v.iter().map(|&x| Num::Int(x)).collect::<Vec<_>>();
    let jitter = ints(inst_jitter);
    let mut out = String::new();
    out.push_str(&format!("Instantaneous_min: {}\n", shown(inst_min.iter().min())));
    out.push_str(&format!("Instantaneous_max: {}\n", shown(inst_max.iter().max())));
    let avg = average(&jitter).unwrap_or(f64::NAN);
    out.push_str(&format!("Instantaneous_jitter: {}\n", float_to_s(ruby::round(avg, 2))));
    let rsd = relative_stddev(&jitter).unwrap_or(f64::NAN);
    out.push_str(&format!("Instantaneous_jitter_stddev: {}\n", float_to_s(ruby::round(rsd, 2))));
    let Some(p99) = percentile(inst_jitter, 0.99) else {
        return Err(bad_line(path, lines, "expected at least two sample rows (lkp's percentile needs two)"));
    };
    out.push_str(&format!("Instantaneous_jitter_99th_percentile: {}\n", float_to_s(ruby::round(p99, 2))));
    let last = average(&ints(last_exec)).unwrap_or(f64::NAN);
    out.push_str(&format!("last_exec_time: {}\n", float_to_s(last)));
    out.push_str(&format!("Absolute_min: {}\n", shown(abs_min.iter().min())));
    out.push_str(&format!("Absolute_max: {}\n", shown(abs_max.iter().max())));
    Ok(out)
}
