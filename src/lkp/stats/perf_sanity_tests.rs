//! `perf test`'s output as lkp-tests' programs/perf-sanity-tests/parse reads it: each
//! `<n>: <test>: Ok|FAILED!|Skip` line (a subtest `<n>.<m>` named after its test's
//! header line) as `<test>[.<subtest>].<result>: 1` (`ok` → `pass`, `failed!` →
//! `fail`), and the perf build's `perf.make.pass` or `.fail`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::{Captures, Regex};
use std::sync::OnceLock;

struct Patterns {
    header: Regex,
    run: Regex,
    result: Regex,
    make_passed: Regex,
    make_failed: Regex,
}

fn g<'t>(c: &Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

/// The script's `test_name(*parts)`: parts present, stripped, non-empty, joined by `.`.
fn test_name(parts: &[Option<&str>]) -> String {
    parts.iter().flatten().map(|p| ruby::strip(p)).filter(|p| !p.is_empty()).collect::<Vec<_>>().join(".")
}

/// Parse perf test output (`path` names it in errors: a test reported twice, where
/// lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Patterns> = OnceLock::new();
    let p = P.get_or_init(|| Patterns {
        header: re(r"([\d.]+): (.+?)\s*:$"),
        run: re(r"perf test \d+"),
        result: re(r"([\d.]+): (.*): (FAILED!$|Ok$|Skip)"),
        make_passed: re(r"make PERF passed"),
        make_failed: re(r"make PERF failed"),
    });
    let mut stats = Stats::default();
    let mut test_id: Option<String> = None;
    let mut prefix: Option<String> = None;
    for (i, line) in ruby::lines(text).enumerate() {
        let err = |e: String| bad_line(path, i + 1, e);
        if let Some(c) = p.header.captures(line) {
            test_id = Some(g(&c, 1).to_string());
            prefix = Some(g(&c, 2).to_string());
        } else if p.run.is_match(line) {
            prefix = None;
        } else if let Some(c) = p.result.captures(line) {
            if !g(&c, 1).starts_with(&format!("{}.", test_id.as_deref().unwrap_or(""))) {
                prefix = None;
            }
            stats.add(&test_name(&[prefix.as_deref(), Some(g(&c, 2))]), g(&c, 3), false).map_err(err)?;
        } else if p.make_passed.is_match(line) {
            stats.add("perf.make", "pass", false).map_err(err)?;
        } else if p.make_failed.is_match(line) {
            stats.add("perf.make", "fail", false).map_err(err)?;
        }
    }
    Ok(stats.dump(&[("failed!", "fail"), ("ok", "pass")]))
}
