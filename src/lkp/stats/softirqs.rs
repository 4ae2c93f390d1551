//! `/proc/softirqs` snapshots (after `time:` lines) as lkp-tests' programs/softirqs/parse
//! reads them: per CPU `CPU<n>.<softirq>: <count>` and the total `<softirq>: <sum>`.

use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse softirqs snapshots (`path` names it in errors: a counter row before the CPU
/// header line).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Regex> = OnceLock::new();
    let row = P.get_or_init(|| re(r"^\s*[^\s]+:"));
    let mut titles: Option<Vec<&str>> = None;
    let mut out = String::new();
    for (ln, line) in ruby::lines(text).enumerate() {
        if line.starts_with("time:") {
            out.push_str(line.strip_suffix('\n').unwrap_or(line));
            out.push('\n');
        } else if row.is_match(line) {
            let values = ruby::split(line);
            let Some(titles) = &titles else {
                return Err(bad_line(path, ln + 1, "a softirq row before the 'CPU0 CPU1 …' header"));
            };
            let name = values.first().copied().unwrap_or("");
            let mut sum = 0i64;
            for (i, title) in titles.iter().enumerate() {
                let v = values.get(i + 1).copied().unwrap_or("");
                out.push_str(&format!("{title}.{name} {v}\n"));
                sum = sum.wrapping_add(ruby::to_i(v));
            }
            out.push_str(&format!("{name} {sum}\n"));
        } else {
            titles = Some(ruby::split(line));
        }
    }
    Ok(out)
}
