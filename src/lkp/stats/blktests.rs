//! blktests' output as lkp-tests' programs/blktests/parse reads it: each
//! `<group>/<nnn> (…) … [passed|failed|not run]` line as `<test>.<result>: 1`
//! (`meta` and `nvme` tests with their condition or transport), `not run` → `skip`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse blktests output (`path` names it in errors: a test reported twice, where
/// lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Vec<Regex>; 2]> = OnceLock::new();
    let [three, two] = P.get_or_init(|| {
        [
            vec![
                re(r"^(meta[^\s]+)\s+\((.+?)\)\s+\(.+?\).*\[(passed|failed|not run)"),
                re(r"^(nvme[^\s]+)\s+\(tr=\w+ bd=(device|file)\).*\[(passed|failed|not run)\]"),
            ],
            vec![re(r"^([^ ]+? ).*\[(passed|failed|not run)\]"), re(r"^([^ ]+?\/\*\*\*).*\[(not run)\]")],
        ]
    });
    let mut stats = Stats::default();
    for (i, line) in ruby::lines(text).enumerate() {
        let added = if let Some(c) = three.iter().find_map(|r| r.captures(line)) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            stats.add(&format!("{}.{}", g(1), g(2)), g(3), false)
        } else if let Some(c) = two.iter().find_map(|r| r.captures(line)) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            stats.add(g(1), g(2), false)
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("passed", "pass"), ("failed", "fail"), ("not_run", "skip")]))
}
