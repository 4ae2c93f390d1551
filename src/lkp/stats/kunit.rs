//! KUnit's TAP output in the kernel log as lkp-tests' programs/kunit/parse reads it:
//! each `ok|not ok N [- ]<case>` of a `# Subtest: <suite>` as `<suite>.<case>.<result>: 1`
//! (a suite's own line as `<suite>.<result>`), `# SKIP` cases as `.skip`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse KUnit output (`path` names it in errors: a skipped case reported twice, where
/// lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [subtest_re, skip, result, dash] = P.get_or_init(|| {
        [re(r"# Subtest: (.*)"), re(r"(not ok|ok) \d+ - (.*) # (SKIP)"), re(r"(not ok|ok) \d+ (.*)"), re(r"-\s+")]
    });
    let mut stats = Stats::default();
    let mut subtest: Option<String> = None;
    for (i, line) in ruby::lines(text).enumerate() {
        let added = if let Some(c) = subtest_re.captures(line) {
            subtest = Some(c.get(1).map_or("", |m| m.as_str()).to_string());
            Ok(())
        } else if let Some(c) = skip.captures(line) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            stats.add(&format!("{}.{}", subtest.as_deref().unwrap_or(""), g(2)), g(3), false)
        } else if let Some(c) = result.captures(line) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            let stat = dash.replacen(g(2), 1, "").into_owned();
            let stat = if Some(stat.as_str()) == subtest.as_deref() {
                stat
            } else {
                format!("{}.{stat}", subtest.as_deref().unwrap_or(""))
            };
            stats.add(&stat, g(1), true)
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("ok", "pass"), ("not_ok", "fail")]))
}
