//! kbuild as lkp-tests' programs/kbuild/parse reads it: the mean build time per
//! iteration (`end time:` − `start time:`), the mean `real:`/`user:`/`sys:` times when
//! printed, and the iteration count as `workload`.

use super::ruby::{self, group, re, Lines};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse kbuild output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 5]> = OnceLock::new();
    let [start, real, user, sys, end] = P.get_or_init(|| {
        [
            re(r"^start time: (\d+\.\d+)"),
            re(r"^real: (\d+\.\d+s)"),
            re(r"^user: (\d+\.\d+s)"),
            re(r"^sys: (\d+\.\d+s)"),
            re(r"^end time: (\d+\.\d+)"),
        ]
    });
    let (mut runtime, mut iterations, mut start_time) = (0.0f64, 0i64, 0.0f64);
    let (mut real_time, mut user_time, mut sys_time) = (0.0f64, 0.0f64, 0.0f64);
    let f = |r: &Regex, line: &str| r.captures(line).map(|c| ruby::to_f(group(&c, 1)));
    for line in ruby::lines(text) {
        if let Some(v) = f(start, line) {
            start_time = v;
        }
        if let Some(v) = f(real, line) {
            real_time += v;
        }
        if let Some(v) = f(user, line) {
            user_time += v;
        }
        if let Some(v) = f(sys, line) {
            sys_time += v;
        }
        if let Some(v) = f(end, line) {
            runtime += v - start_time;
            iterations += 1;
        }
    }
    let mut out = String::new();
    if iterations != 0 {
        let n = iterations as f64;
        out.push_str(&format!("buildtime_per_iteration: {}\n", float_to_s(runtime / n)));
        // lkp prints these three with a trailing space
        for (k, v) in [("real", real_time), ("user", user_time), ("sys", sys_time)] {
            if v > 0.0 {
                out.push_str(&format!("{k}_time_per_iteration: {} \n", float_to_s(v / n)));
            }
        }
        out.push_str(&format!("workload: {iterations}\n"));
    }
    Ok(out)
}
