//! ebizzy as lkp-tests' programs/ebizzy/parse reads it: `throughput` (records/s) with
//! the per-thread min, max and relative spread, `time.real/user/sys`, and `workload`
//! (Σ throughput × real time).

use super::ruby::{self, group, re};
use crate::lkp::num::{standard_deviation, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse ebizzy output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [records, real, user, sys] = P.get_or_init(|| {
        [re(r"^(\d+) records/s(.*)$"), re(r"^real +(\d+.\d+) s"), re(r"^user +(\d+.\d+) s"), re(r"^sys +(\d+.\d+) s")]
    });
    let mut out = String::new();
    let mut throughput = 0i64;
    let mut workload: Option<f64> = None;
    for line in ruby::lines(text) {
        if let Some(c) = records.captures(line) {
            out.push_str(&format!("throughput: {}\n", group(&c, 1)));
            throughput = ruby::to_i(group(&c, 1));
            let data: Vec<i64> = ruby::split(group(&c, 2)).iter().map(|s| ruby::to_i(s)).collect();
            let show = |v: Option<&i64>| v.map_or(String::new(), i64::to_string);
            out.push_str(&format!("throughput.per_thread.min: {}\n", show(data.iter().min())));
            out.push_str(&format!("throughput.per_thread.max: {}\n", show(data.iter().max())));
            let nums: Vec<Num> = data.iter().map(|&x| Num::Int(x)).collect();
            let sd = standard_deviation(&nums).unwrap_or(f64::NAN);
            out.push_str(&format!(
                "throughput.per_thread.stddev_percent: {}\n",
                float_to_s(100.0 * sd / throughput as f64)
            ));
        } else if let Some(c) = real.captures(line) {
            out.push_str(&format!("time.real: {}\n", group(&c, 1)));
            workload = Some(workload.unwrap_or(0.0) + throughput as f64 * ruby::to_f(group(&c, 1)));
        } else if let Some(c) = user.captures(line) {
            out.push_str(&format!("time.user: {}\n", group(&c, 1)));
        } else if let Some(c) = sys.captures(line) {
            out.push_str(&format!("time.sys: {}\n", group(&c, 1)));
        }
    }
    // lkp's workload stays the Integer 0 without a `real` line
    out.push_str(&format!("workload: {}\n", workload.map_or("0".into(), float_to_s)));
    out
}
