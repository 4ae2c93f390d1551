//! rdma-core's pyverbs tests as lkp-tests' programs/rdma-pyverbs/parse reads them:
//! each `<test> ... ok|ERROR|skipped` line as `<test>.pass|fail|skipped: 1` (dots in
//! the name made `_`; a name seen before prefixed `2_`).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse pyverbs test output (`path` names it in errors: a name seen a third time,
/// where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let result = P.get_or_init(|| re(r"^(.+? )\.\.\. (ok|ERROR|skipped)"));
    let mut stats = Stats::default();
    for (i, line) in ruby::lines(text).enumerate() {
        let Some(c) = result.captures(line) else { continue };
        let outcome = match c.get(2).map(|m| m.as_str()) {
            Some("ok") => "passed",
            Some("ERROR") => "failed",
            _ => "skipped",
        };
        let mut name = c.get(1).map_or("", |m| m.as_str()).replace('.', "_");
        if stats.contains(&name) {
            name = format!("2_{name}");
        }
        stats.add(&name, outcome, false).map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("passed", "pass"), ("failed", "fail"), ("not_run", "skip")]))
}
