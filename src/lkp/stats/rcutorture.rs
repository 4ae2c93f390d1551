//! rcutorture (the kernel's rcu-torture module) as lkp-tests' programs/rcutorture/parse
//! reads its log: the result of the `End of test` line of the type the `Start of test`
//! line named, as `<type>.<result>` or, with CPU hotplug (`onoff_interval` ≠ 0),
//! `cpuhotplug-<type>.<result>` (SUCCESS → pass, FAILURE → fail); `<type>.skip` for a
//! skipped test; `unknown.unknown` without either (lkp's `LKP::Stats`).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// lkp's result mapping.
pub const MAPPING: [(&str, &str); 2] = [("success", "pass"), ("failure", "fail")];

/// Parse an rcutorture log (`path` names it in errors: a second result for one type,
/// where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [skip, start] =
        P.get_or_init(|| [re("^([A-Za-z-]+)-torture: Skip"), re(r"^\[.*\] ([A-Za-z_-]+)-torture.*Start of test:")]);
    let (mut kind, mut result) = ("unknown".to_string(), "unknown".to_string());
    // lkp builds the End of test pattern from the current type at each line
    let mut end: Option<(String, Regex)> = None;
    let mut stats = Stats::default();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        let fail = |e: String| bad_line(path, ln + 1, e);
        if let Some(c) = skip.captures(line) {
            stats.add(group(&c, 1), "skip", false).map_err(fail)?;
            break;
        }
        if let Some(c) = start.captures(line) {
            kind = group(&c, 1).to_string();
            continue;
        }
        if end.as_ref().is_none_or(|(k, _)| *k != kind) {
            // the type is letters, '_' and '-' only: no character to escape
            let r = re(&format!(r"^\[.*\] {kind}-torture.*End of test: (.*):.*onoff_interval=([0-9]+).*"));
            end = Some((kind.clone(), r));
        }
        let Some(c) = end.as_ref().and_then(|(_, r)| r.captures(line)) else { continue };
        result = group(&c, 1).to_string();
        let case = if group(&c, 2) == "0" { kind.clone() } else { format!("cpuhotplug-{kind}") };
        stats.add(&case, &result, false).map_err(fail)?;
    }
    if stats.is_empty() {
        stats.add(&kind, &result, false).map_err(|e| bad_line(path, lines, e))?;
    }
    Ok(stats.dump(&MAPPING))
}
