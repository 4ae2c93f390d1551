//! rcurefscale (the kernel's rcu-ref-scale module) as lkp-tests'
//! programs/rcurefscale/parse reads its log: after `<type>-ref-scale: END OF TEST`, the
//! mean of the per-run durations (ns per loop) as `<type>.duration_per_loop.ns`;
//! nothing without a run.

use super::ruby::{self, group, re, Lines};
use crate::lkp::num::{ruby_sum, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse an rcurefscale log.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [end, run] =
        P.get_or_init(|| [re(r"^\[.*\] (.*-ref-scale): END OF TEST"), re(r"(^\[.*\].+|^\s{5,})\d+\t(\d+).(\d+)$")]);
    let mut kind: Option<String> = None;
    let mut runs: Vec<Num> = Vec::new();
    for line in ruby::lines(text) {
        if let Some(c) = end.captures(line) {
            kind = Some(group(&c, 1).to_string());
        } else if let Some(c) = run.captures(line) {
            if kind.is_some() {
                runs.push(Num::Float(ruby::to_f(&format!("{}.{}", group(&c, 2), group(&c, 3)))));
            }
        }
    }
    let Some(kind) = kind.filter(|_| !runs.is_empty()) else { return Ok(String::new()) };
    let mean = ruby_sum(&runs).f() / runs.len() as f64;
    Ok(format!("{kind}.duration_per_loop.ns: {}\n", float_to_s(mean)))
}
