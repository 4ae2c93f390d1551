//! rcuscale (the kernel's rcu-scale module) as lkp-tests' programs/rcuscale/parse reads
//! its log: `<type>.skip` for a skipped test, `<type>.pass` at `Test complete`, else
//! `unknown.unknown` (lkp's `LKP::Stats`).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse an rcuscale log (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [skip, complete] =
        P.get_or_init(|| [re("^([A-Za-z-]+)-scale: Skip"), re(r"^\[.*\] ([A-Za-z-]+)-scale: Test complete")]);
    let mut stats = Stats::default();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        let hit = skip.captures(line).map(|c| (c, "skip")).or_else(|| complete.captures(line).map(|c| (c, "pass")));
        if let Some((c, result)) = hit {
            stats.add(group(&c, 1), result, false).map_err(|e| bad_line(path, ln + 1, e))?;
            break;
        }
    }
    if stats.is_empty() {
        stats.add("unknown", "unknown", false).map_err(|e| bad_line(path, lines, e))?;
    }
    Ok(stats.dump(&[]))
}
