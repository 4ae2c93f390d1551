//! LTP's result summary as lkp-tests' programs/ltp/parse reads it: each
//! `<test>: <pass|fail|broken|warn|conf|skip> [| tainted] (<time>s)` line, colours
//! removed, as `<test>.<result>: 1`, up to the `LTP test details` section.

use super::lkp_stats::Stats;
use super::lkp_string::uncolorize;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse LTP output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let result = P.get_or_init(|| re(r"^(.+?):\s+(pass|fail|broken|warn|conf|skip)(?: \| .+)?\s+\(.+s\)"));
    let mut stats = Stats::default();
    for (i, raw) in ruby::lines(text).enumerate() {
        let line = uncolorize(raw);
        if ruby::strip(&line) == "LTP test details" {
            break;
        }
        let Some(c) = result.captures(&line) else { continue };
        let g = |n| c.get(n).map_or("", |m| m.as_str());
        stats.add(g(1), g(2), true).map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[]))
}
