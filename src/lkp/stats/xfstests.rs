//! xfstests' check output as lkp-tests' programs/xfstests/parse reads it: each test
//! (`<fs>/<NNN>`) that failed (`[failed, …]`, output mismatch, something in dmesg, an
//! inconsistent or dirty file system), was not run, was expunged or passed (its
//! seconds) as `<fs>.<NNN>.<result>: 1`.

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

const TEST: &str = r"(generic|ext4|xfs|btrfs|udf|ocfs2|cifs)\/(\d\d\d)";

/// Parse xfstests output (`path` names it in errors: a test reported twice, where
/// lkp's Ruby raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let p = P.get_or_init(|| {
        let fail = [
            format!(r"^{TEST}\s+\[failed, "),
            format!(r"^{TEST}\s+- output mismatch"),
            format!(r"^{TEST}\s+_check_dmesg: something found in dmesg"),
            r"^_check_generic_filesystem: filesystem on .+ is inconsistent \(see .+\/([a-z]+)\/([0-9]+)\.full\)".into(),
            format!(r"^{TEST}\s+_check.+: filesystem on .+ has dirty log"),
            format!(r"^{TEST}\s+_check.+: filesystem on .+ is inconsistent"),
        ];
        let mut v: Vec<(Regex, &str)> = fail.iter().map(|f| (re(f), "fail")).collect();
        v.push((re(&format!(r"^{TEST}\s+\[not run\]")), "skip"));
        v.push((re(&format!(r"^{TEST}\s+\[expunged\]")), "expunged"));
        v.push((re(&format!(r"^{TEST}\s+(\d+)s")), "pass"));
        v
    });
    let mut stats = Stats::default();
    for (i, line) in ruby::lines(text).enumerate() {
        let Some((c, result)) = p.iter().find_map(|(r, result)| r.captures(line).map(|c| (c, *result))) else {
            continue;
        };
        let g = |n| c.get(n).map_or("", |m| m.as_str());
        stats.add(&format!("{}.{}", g(1), g(2)), result, false).map_err(|e| bad_line(path, i + 1, e))?;
    }
    Ok(stats.dump(&[]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_test_reported_twice_is_an_error() {
        // lkp's Ruby: "xfs.001 has already existed (RuntimeError)", exit 1
        let e = super::parse("xfs/001 1s\nxfs/001 2s\n", "x").unwrap_err().to_string();
        assert!(e.starts_with("x:2:") && e.contains("xfs.001 has already existed"), "{e}");
    }
}
