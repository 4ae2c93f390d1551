//! lkp-tests' programs/stderr/parse: the run's stderr, each line not matched by a
//! pattern of etc/ignore-stderr (copied in `etc/ignore-stderr`), its unprintable
//! characters removed, as `# <line>` and `<error id>: 1` (lib/dmesg.rb's
//! `common_error_id`, a leading `#` made `_#`), and `has_stderr: 1`
//! (docs/lkp-stats.md §6).

use super::error_id::common_error_id;
use super::lkp_string::strip_nonprintable;
use super::ruby::{self, chomp};
use super::ruby_regex::translate;
use regex::{Regex, RegexSet};
use std::sync::OnceLock;

const IGNORE_STDERR: &str = include_str!("etc/ignore-stderr");

/// The ignore patterns, each `^<line>$` as lkp's `Regexp.new`.
fn ignore() -> &'static RegexSet {
    static P: OnceLock<RegexSet> = OnceLock::new();
    P.get_or_init(|| {
        let patterns: Vec<String> = ruby::split_on(IGNORE_STDERR, '\n')
            .into_iter()
            .map(|l| {
                // the table is a constant: a line that does not translate is a bug
                translate(&format!("^{}$", chomp(l)), false)
                    .unwrap_or_else(|e| panic!("schedlab bug: etc/ignore-stderr line {l}: {e}"))
            })
            .collect();
        RegexSet::new(patterns).unwrap_or_else(|e| panic!("schedlab bug: etc/ignore-stderr: {e}"))
    })
}

/// Parse the stderr `text`.
pub fn parse(text: &str) -> String {
    static LEAD: OnceLock<Regex> = OnceLock::new();
    let lead = LEAD.get_or_init(|| ruby::re("^#"));
    let mut ids = ruby::Hash::default();
    for line in ruby::lines(text) {
        let line = chomp(line);
        if ignore().is_match(line) {
            continue;
        }
        let line = strip_nonprintable(line);
        let id = common_error_id(&line);
        if id.chars().count() < 3 {
            continue;
        }
        let id = if line.starts_with('#') { id } else { lead.replace_all(&id, "_#").into_owned() };
        ids.set(&id, line);
    }
    let mut out = String::new();
    for (id, line) in ids.iter() {
        ruby::puts(&mut out, &format!("# {line}"));
        ruby::puts(&mut out, &format!("{id}: 1"));
        out.push('\n');
    }
    if !ids.is_empty() {
        out.push_str("has_stderr: 1\n");
    }
    out
}
