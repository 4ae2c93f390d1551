//! chromeswap as lkp-tests' programs/chromeswap/parse reads it: each
//! `throughput_swap_<x>_cycles_per_second…` line as `throughput_swap_cycles_per_second…`.

use super::ruby::{self, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse chromeswap output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let p = P.get_or_init(|| re(r"^throughput_swap_(.*)_(cycles_per_second.*)"));
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = p.captures(line) {
            ruby::puts(&mut out, &format!("throughput_swap_{}", group(&c, 2)));
        }
    }
    Ok(out)
}
