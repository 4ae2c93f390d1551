//! kvm-unit-tests' summary as lkp-tests' programs/kvm-unit-tests/parse reads it: each
//! `PASS|SKIP|FAIL <test> …` line (colours removed), and `ignore_by_lkp: <test>`, as
//! `<test>.<result>: 1`.

use super::lkp_stats::Stats;
use super::lkp_string::uncolorize;
use super::ruby::{self, bad_line, re, split, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse kvm-unit-tests output (`path` names it in errors: a test reported twice,
/// where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let result = P.get_or_init(|| re(r"^(PASS|SKIP|FAIL|ignore_by_lkp:) ([a-zA-Z].*)"));
    let mut stats = Stats::default();
    for (i, raw) in ruby::lines(text).enumerate() {
        let line = uncolorize(raw);
        let Some(c) = result.captures(&line) else { continue };
        let g = |n| c.get(n).map_or("", |m| m.as_str());
        let outcome = g(1).split(':').next().unwrap_or("");
        let name = split(g(2)).first().copied().unwrap_or("");
        stats.add(name, outcome, false).map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("ok", "pass"), ("not_ok", "fail")]))
}
