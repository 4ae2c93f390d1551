//! libhugetlbfs' test output as lkp-tests' programs/libhugetlbfs-test/parse reads it:
//! each `<test> (<size>: 32|64): <result>` line as `<32|64>bit.<test>.<result>: 1`
//! (`PASS`, `FAIL`, `SKIPPED` → `skip`, `Bad configuration`, else killed by a signal).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, downcase, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Ruby's `rstrip`: trailing whitespace and NUL removed.
fn rstrip(s: &str) -> &str {
    s.trim_end_matches(['\0', ' ', '\t', '\n', '\x0b', '\x0c', '\r'])
}

/// Parse libhugetlbfs test output (`path` names it in errors: a bad configuration or
/// killed test reported twice, where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [result, bad, other] =
        P.get_or_init(|| [re(r"(32|64)\):\s+(PASS|FAIL|SKIPPED)"), re(r"(32|64)\):\s+Bad"), re(r"(32|64)\):\s+")]);
    let mut stats = Stats::default();
    for (i, line) in ruby::lines(text).enumerate() {
        // "#{bits}bit.#{line.split('(')[0].rstrip.tr('[ .]', '_')}".downcase
        let test = |bits: &str| {
            let name = rstrip(line.split('(').next().unwrap_or(""));
            let name: String = name.chars().map(|c| if matches!(c, '[' | ' ' | '.' | ']') { '_' } else { c }).collect();
            downcase(&format!("{bits}bit.{name}"))
        };
        let g = |c: &regex::Captures, n| c.get(n).map_or("", |m| m.as_str()).to_string();
        let added = if let Some(c) = result.captures(line) {
            stats.add(&test(&g(&c, 1)), &downcase(&g(&c, 2).replace(' ', "_")), true)
        } else if let Some(c) = bad.captures(line) {
            stats.add(&test(&g(&c, 1)), "bad_configuration", false)
        } else if let Some(c) = other.captures(line) {
            stats.add(&test(&g(&c, 1)), "killed_by_signal", false)
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("skipped", "skip")]))
}
