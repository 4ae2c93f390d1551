//! Avocado's output as lkp-tests' programs/avocado/parse reads it: each
//! `(i/n) <test>: <STATUS>` line of the `avocado run <test>` started before it, as
//! `<test's basename>.<status>: 1` (`STARTED` lines skipped).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, downcase, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Ruby's `File.basename`: the last component, trailing `/` ignored.
fn basename(s: &str) -> &str {
    if s.is_empty() {
        return "";
    }
    let t = s.trim_end_matches('/');
    if t.is_empty() {
        return "/";
    }
    t.rsplit('/').next().unwrap_or(t)
}

/// Parse avocado output (`path` names it in errors: a result of another test than the
/// one run, or one reported twice, where lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [run, result] = P.get_or_init(|| [re(r"avocado run (\S+)"), re(r"\(\d+\/\d+\) (\S+):\s+(\w+)")]);
    let mut stats = Stats::default();
    let mut run_option: Option<String> = None;
    for (i, line) in ruby::lines(text).enumerate() {
        let err = |e: String| bad_line(path, i + 1, e);
        if let Some(c) = run.captures(line) {
            run_option = Some(basename(c.get(1).map_or("", |m| m.as_str())).to_string());
        } else if let Some(c) = result.captures(line) {
            let test = basename(c.get(1).map_or("", |m| m.as_str()));
            let option = run_option.as_deref();
            if option != Some("--vt-config") && option != Some(test) {
                return Err(err(format!("ASSERT fail: test case '{}' not equal to '{test}'", option.unwrap_or(""))));
            }
            let status = downcase(c.get(2).map_or("", |m| m.as_str()));
            if status == "started" {
                continue;
            }
            stats.add(test, &status, false).map_err(err)?;
        }
    }
    Ok(stats.dump(&[]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn basename_as_ruby() {
        // Ruby 3.1 File.basename: "a/b.py:T.t" → "b.py:T.t", "a/b/" → "b", "/" → "/", "" → "", "x" → "x"
        for (s, want) in [("a/b.py:T.t", "b.py:T.t"), ("a/b/", "b"), ("/", "/"), ("", ""), ("x", "x")] {
            assert_eq!(super::basename(s), want);
        }
    }
}
