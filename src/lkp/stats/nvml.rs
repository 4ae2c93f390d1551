//! The NVML (PMDK) unit tests' output as lkp-tests' programs/nvml/parse reads it:
//! each `<item>/TEST<n>` with the subtest of its `SETUP (<check>/<fs>/<build>)` line,
//! passed, failed, timed out (`RUNTESTS: stopping: …`) or skipped, as
//! `<item>_TEST<n>_<subtest>.<result>: 1` (`<item>_TEST<n>.test_skip: 1` for a test
//! skipped before its setup).

use super::lkp_stats::Stats;
use super::lkp_string::plain_text;
use super::ruby::{self, bad_line, re, Lines};
use regex::{Captures, Regex};
use std::sync::OnceLock;

struct Patterns {
    setup: Regex,
    result: Regex,
    failed: Regex,
    failed_args: Regex,
    timed_out: Regex,
    skip: Regex,
}

fn g<'t>(c: &Captures<'t>, i: usize) -> &'t str {
    c.get(i).map_or("", |m| m.as_str())
}

/// Parse NVML unit test output (`path` names it in errors: a result reported twice,
/// where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Patterns> = OnceLock::new();
    let p = P.get_or_init(|| Patterns {
        setup: re(r"^(.+)/TEST[0-9]+: SETUP\s*\((.+)\)$"),
        result: re(r"^(.+)/(TEST[0-9]+): (PASS|FAIL)"),
        failed: re(r"RUNTESTS: stopping: (.+)/(TEST[0-9]+) failed"),
        failed_args: re(r"TEST=(.+) FS=(.+) BUILD=(.+)"),
        timed_out: re(r"RUNTESTS: stopping: (.+)/(TEST[0-9]+) timed out"),
        skip: re(r"^(.+)/(TEST[0-9]+): SKIP"),
    });
    let mut stats = Stats::default();
    let mut test_item = String::new();
    let (mut fs_type, mut build_type) = (String::new(), String::new());
    let mut subtest: Option<String> = None;
    let mut subtest_name: Option<String> = None;
    for (i, raw) in ruby::lines(text).enumerate() {
        let err = |e: String| bad_line(path, i + 1, e);
        let line = plain_text(raw);
        if let Some(c) = p.setup.captures(&line) {
            test_item = g(&c, 1).to_string();
            subtest = Some(g(&c, 2).replace('/', "_"));
        } else if let Some(c) = p.result.captures(&line) {
            if test_item != g(&c, 1) {
                continue;
            }
            let name = format!("{}_{}_{}", g(&c, 1), g(&c, 2), subtest.as_deref().unwrap_or(""));
            stats.add(&name, g(&c, 3), false).map_err(err)?;
            subtest = None;
        } else if let Some(c) = p.failed.captures(&line) {
            let item = g(&c, 1);
            if let Some(a) = p.failed_args.captures(&line) {
                test_item = item.to_string();
                subtest_name = Some(g(&a, 1).to_string());
                fs_type = g(&a, 2).to_string();
                build_type = g(&a, 3).to_string();
            }
            if test_item != item {
                continue;
            }
            let sub = subtest_name.as_deref().unwrap_or("");
            let name = format!("{item}_{}_{sub}_{fs_type}_{build_type}", g(&c, 2));
            stats.add(&name, "fail", false).map_err(err)?;
            subtest = None;
        } else if let Some(c) = p.timed_out.captures(&line) {
            if test_item != g(&c, 1) {
                continue;
            }
            let name = format!("{}_{}_{}", g(&c, 1), g(&c, 2), subtest.as_deref().unwrap_or(""));
            stats.add(&name, "timeout", false).map_err(err)?;
            subtest = None;
        } else if let Some(c) = p.skip.captures(&line) {
            let (item, name) = (g(&c, 1), g(&c, 2));
            let (stat, result) = match subtest.take() {
                Some(s) if test_item == item => (format!("{item}_{name}_{s}"), "skip"),
                kept => {
                    subtest = kept;
                    (format!("{item}_{name}"), "test_skip")
                }
            };
            stats.add(&stat, result, true).map_err(err)?;
        }
    }
    Ok(stats.dump(&[]))
}
