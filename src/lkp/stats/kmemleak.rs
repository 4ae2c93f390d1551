//! kmemleak's report as lkp-tests' programs/kmemleak/parse reads it: each distinct
//! unreferenced object as `<comm>.unreferenced_object.<caller>.….<callee>: 1` (its
//! backtrace's functions, outermost first).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, Lines};
use crate::error::Error;
use regex::Regex;
use std::sync::OnceLock;

#[derive(PartialEq)]
struct Leak {
    comm: Option<String>,
    backtraces: Vec<String>,
}

/// Parse a kmemleak report (`path` names it in errors: a `comm` or backtrace line
/// before any `unreferenced object`, or two leaks with one stat name, where lkp's Ruby
/// raises).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [object, comm, frame] =
        P.get_or_init(|| [re(r"^unreferenced object"), re(r#"comm "(.*)""#), re(r"\[.*\] (.*)\+")]);
    let mut leaks: Vec<Leak> = Vec::new();
    let mut leak: Option<Leak> = None;
    for (i, raw) in ruby::lines(text).enumerate() {
        // `case line.chomp!`: a last line without a line end is chomp!'s nil, which no
        // pattern matches
        if !(raw.ends_with('\n') || raw.ends_with('\r')) {
            continue;
        }
        let line = ruby::chomp(raw);
        let no_object = || bad_line(path, i + 1, "undefined method for nil: no 'unreferenced object' before this line");
        if object.is_match(line) {
            leaks.extend(leak.take());
            leak = Some(Leak { comm: None, backtraces: Vec::new() });
        } else if let Some(c) = comm.captures(line) {
            leak.as_mut().ok_or_else(no_object)?.comm = Some(c.get(1).map_or("", |m| m.as_str()).to_string());
        } else if let Some(c) = frame.captures(line) {
            leak.as_mut().ok_or_else(no_object)?.backtraces.push(c.get(1).map_or("", |m| m.as_str()).to_string());
        }
    }
    leaks.extend(leak);
    let mut stats = Stats::default();
    let mut seen: Vec<&Leak> = Vec::new();
    for m in &leaks {
        if seen.contains(&m) {
            continue;
        }
        seen.push(m);
        let trace: Vec<&str> = m.backtraces.iter().rev().map(String::as_str).collect();
        let name = format!("{}.unreferenced_object.{}", m.comm.as_deref().unwrap_or(""), trace.join("."));
        stats.add_number(&name, "1", false).map_err(|e| Error::parse(Some(path), None, e))?;
    }
    Ok(stats.dump(&[]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_comm_before_any_object_is_an_error() {
        // lkp's Ruby: "undefined method `[]=' for nil:NilClass (NoMethodError)", exit 1
        let e = super::parse("comm \"x\"\n", "k").unwrap_err().to_string();
        assert!(e.starts_with("k:1:"), "{e}");
        // a last line without its line end is chomp!'s nil: ignored
        assert_eq!(super::parse("comm \"x\"", "k").unwrap(), "");
    }
}
