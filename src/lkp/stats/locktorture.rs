//! locktorture (the kernel's lock-torture module) as lkp-tests'
//! programs/locktorture/parse reads its log: the result of the first `End of test` line,
//! lower-cased without spaces or `[debug]`, as `<type>.<result>` or, with CPU hotplug
//! (`onoff_interval` ≠ 0), `cpuhotplug-<type>.<result>` (success → pass, failure →
//! fail); `unknown.unknown` without one (lkp's `LKP::Stats`).

use super::lkp_stats::Stats;
use super::rcutorture::MAPPING;
use super::ruby::{self, bad_line, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse a locktorture log.
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let end = P.get_or_init(|| re(r"^\[.*\] ([A-Za-z_]+)-torture.*End of test: (.*):.*onoff_interval=([0-9]+).*"));
    let (mut kind, mut result, mut hotplug) = ("unknown".to_string(), "unknown".to_string(), false);
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        if let Some(c) = end.captures(line) {
            kind = group(&c, 1).to_string();
            result = ruby::downcase(group(&c, 2)).replace(' ', "").replace("[debug]", "");
            hotplug = group(&c, 3) != "0";
            break;
        }
    }
    let mut stats = Stats::default();
    let case = if hotplug { format!("cpuhotplug-{kind}") } else { kind };
    stats.add(&case, &result, false).map_err(|e| bad_line(path, lines, e))?;
    Ok(stats.dump(&MAPPING))
}
