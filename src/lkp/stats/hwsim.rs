//! hostap's hwsim tests as lkp-tests' programs/hwsim/parse reads them: `make.fail`
//! when the build fails, `make.pass` when `./run-tests.py` starts, and each
//! `PASS|FAIL|SKIP <test> …` line as `<test>.<result>: 1`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, split, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse hwsim output (`path` names it in errors: a test reported twice, where lkp's
/// Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [make_error, run_tests, result] = P.get_or_init(|| {
        [re(r"make: .* \[Makefile:.*\] Error"), re(r"\.\/run-tests\.py"), re(r"^(PASS|FAIL|SKIP)\s+(.*)\s+")]
    });
    let mut stats = Stats::default();
    for (i, line) in ruby::lines(text).enumerate() {
        let added = if make_error.is_match(line) {
            stats.add("make", "fail", true)
        } else if run_tests.is_match(line) {
            if stats.contains("make") {
                Ok(())
            } else {
                stats.add("make", "pass", false)
            }
        } else if let Some(c) = result.captures(line) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            stats.add(split(g(2)).first().copied().unwrap_or(""), g(1), false)
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[]))
}
