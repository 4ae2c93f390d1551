//! The kernel's test_bpf module log as lkp-tests' programs/test-bpf/parse reads it:
//! each `test_bpf: #<n> <test> … PASS|FAIL` (also when the result comes on a later
//! line) as `<test>.<result>: 1`, `check:_<test>` for the checks.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, strip, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse a test_bpf log (`path` names it in errors: a test reported twice, where lkp's
/// Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 6]> = OnceLock::new();
    let [jited, check, plain, check_start, start, result] = P.get_or_init(|| {
        [
            re(r"test_bpf: #[0-9]+ (.+) jited:.+ (PASS|FAIL)$"),
            re(r"test_bpf: #[0-9]+ check: (.+) (PASS|FAIL)$"),
            re(r"test_bpf: #[0-9]+ (.+) (PASS|FAIL)$"),
            re(r"test_bpf: #[0-9]+ check: (.+)"),
            re(r"test_bpf: #[0-9]+ (.+)"),
            re(r"(PASS|FAIL)"),
        ]
    });
    let mut stats = Stats::default();
    let mut kind = String::new();
    let mut divided = false;
    for (i, line) in ruby::lines(text).enumerate() {
        let g = |c: &regex::Captures, n| c.get(n).map_or("", |m| m.as_str()).to_string();
        let added = if let Some(c) = jited.captures(line) {
            kind = g(&c, 1).replace(' ', "_");
            stats.add(&kind, &g(&c, 2), true)
        } else if let Some(c) = check.captures(line) {
            kind = g(&c, 1).replace(' ', "_");
            stats.add(&format!("check:_{kind}"), &g(&c, 2), false)
        } else if let Some(c) = plain.captures(line) {
            kind = g(&c, 1).replace(' ', "_");
            stats.add(&kind, &g(&c, 2), false)
        } else if let Some(c) = check_start.captures(line) {
            kind = format!("check:_{}", strip(&g(&c, 1)).replace(' ', "_"));
            divided = true;
            Ok(())
        } else if let Some(c) = start.captures(line) {
            kind = strip(&g(&c, 1)).replace(' ', "_");
            divided = true;
            Ok(())
        } else if let Some(c) = result.captures(line) {
            if divided {
                divided = false;
                stats.add(&kind, &g(&c, 1), true)
            } else {
                Ok(())
            }
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[]))
}
