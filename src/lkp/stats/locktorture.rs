//! locktorture's end-of-test line as lkp-tests' programs/locktorture/parse reads it:
//! `[cpuhotplug-]<lock type>.<result>: 1` (`success` → `pass`, `failure` → `fail`,
//! `lock_hotplug` kept; `unknown.unknown: 1` without the line).

use super::lkp_stats::Stats;
use super::ruby::{self, downcase, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse a locktorture log.
pub fn parse(text: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    let end = P.get_or_init(|| re(r"^\[.*\] ([A-Za-z_]+)-torture.*End of test: (.*):.*onoff_interval=([0-9]+).*"));
    let (mut kind, mut result, mut hotplug) = ("unknown".to_string(), "unknown".to_string(), false);
    if let Some(c) = ruby::lines(text).find_map(|l| end.captures(l)) {
        let g = |n| c.get(n).map_or("", |m| m.as_str());
        kind = g(1).to_string();
        result = downcase(g(2)).replace(' ', "").replace("[debug]", "");
        hotplug = g(3) != "0";
    }
    let mut stats = Stats::default();
    let case = format!("{}{kind}", if hotplug { "cpuhotplug-" } else { "" });
    // one case into an empty table: never "already existed"
    let _ = stats.add(&case, &result, false);
    stats.dump(&[("success", "pass"), ("failure", "fail")])
}
