//! perf_event_tests' output as lkp-tests' programs/perf-event-tests/parse reads it:
//! each `+ tests/<dir>/<test>` followed by its `Testing …... <RESULT>` line as
//! `<dir>/<test>.<result>: 1` (lower case), and the build as `make.pass` or `make.fail`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, downcase, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse perf_event_tests output (`path` names it in errors: a test or the build
/// reported twice, where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 5]> = OnceLock::new();
    let [test, result, make_error, make_failed, run] = P.get_or_init(|| {
        [
            re(r"^ +\+ tests\/(\S+)$"),
            re(r"\.\.\.\s+(.+)$"),
            re(r"^make: \*\*\* (.*) (Error \d+|Stop\.)$"),
            re(r"make failed"),
            re(r"\.\/run_tests\.sh"),
        ]
    });
    let mut stats = Stats::default();
    let mut testcase: Option<String> = None;
    for (i, line) in ruby::lines(text).enumerate() {
        let added = if let Some(c) = test.captures(line) {
            testcase = Some(downcase(c.get(1).map_or("", |m| m.as_str())));
            Ok(())
        } else if let Some(c) = result.captures(line) {
            match testcase.as_deref() {
                Some(t) if !t.is_empty() => {
                    let t = t.to_string();
                    testcase = Some(String::new());
                    stats.add(&t, c.get(1).map_or("", |m| m.as_str()), false)
                }
                _ => Ok(()),
            }
        } else if make_error.is_match(line) || make_failed.is_match(line) {
            stats.add("make", "fail", true)
        } else if run.is_match(line) {
            stats.add("make", "pass", false)
        } else {
            Ok(())
        };
        added.map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[("passed", "pass"), ("failed", "fail"), ("skipped", "skip")]))
}
