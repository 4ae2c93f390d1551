//! The Linux Kernel Validation Suite's summary as lkp-tests' programs/lkvs/parse
//! reads it: after `Test Start Time:`, each test case's `FAIL|BLOCK|PASS|NA` row (plain
//! or `[RESULT][…]`) as `<case>.<result>: 1`; a test file skipped for a missing
//! dependency as `<file>.skip: 1`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse lkvs output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    let [skip, start, row, result_row] = P.get_or_init(|| {
        [
            re(r"^Skip (\S+) due to dependece"),
            re(r"Test Start Time:"),
            re(r"^(.+)\s+(FAIL|BLOCK|PASS|NA)\s+\d+\s+.+s"),
            re(r"^\[RESULT\]\[(.+)\]\s+\[(FAIL|BLOCK|PASS|NA)\]\s+\[\d+\]\s+\[.+s\]"),
        ]
    });
    let mut stats = Stats::default();
    let mut summary = false;
    for (i, line) in ruby::lines(text).enumerate() {
        let err = |e| bad_line(path, i + 1, e);
        if let Some(c) = skip.captures(line) {
            stats.add(c.get(1).map_or("", |m| m.as_str()), "skip", true).map_err(err)?;
            continue;
        }
        summary |= start.is_match(line);
        if !summary {
            continue;
        }
        let Some(c) = row.captures(line).or_else(|| result_row.captures(line)) else { continue };
        let g = |n| c.get(n).map_or("", |m| m.as_str());
        stats.add(g(1), g(2), true).map_err(err)?;
    }
    Ok(stats.dump(&[]))
}
