//! pybench as lkp-tests' programs/pybench/parse reads it: `Rounds`, `Warp`, each
//! test's minimum time in ms (`<test>_ms`) and the total (`Total_ms`), as printed.

use super::ruby::{self, bad_line, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse pybench output (`path` names it in errors: a timing line without its third
/// field, on which lkp's Ruby fails).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [setting, timing, totals] =
        P.get_or_init(|| [re("(Rounds:|Warp:)"), re(r".*:.*ms.*ms.*us.*ms$"), re("^Totals")]);
    // a missing field is nil, printed as ""
    let mut stats: Hash<String> = Hash::default();
    for (ln, line) in ruby::lines(text).enumerate() {
        let f = ruby::split(line);
        let first = f.first().copied().unwrap_or("");
        let third = || {
            f.get(2)
                .map(|v| v.replace("ms", ""))
                .ok_or_else(|| bad_line(path, ln + 1, "expected a third field, the time in ms (lkp's Ruby fails)"))
        };
        if setting.is_match(line) {
            stats.set(&first.replace(':', ""), f.get(1).copied().unwrap_or("").to_string());
        } else if timing.is_match(line) {
            let key = first.strip_suffix(':').map_or_else(|| first.to_string(), |k| format!("{k}_ms"));
            stats.set(&key, third()?);
        } else if totals.is_match(line) {
            stats.set(&first.replace("s:", "_ms"), third()?);
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}
