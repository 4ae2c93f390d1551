//! tinymembench as lkp-tests' programs/tinymembench/parse reads it: the bandwidth (and
//! the spread in percent, when shown) of the standard memcpy/memset, MOVSB, MOVSD and
//! SSE2 tests, and the single and dual random read latencies of the 1024 … 1048576
//! byte blocks, first without and then with huge pages; values as printed.

use super::ruby::{self, bad_line, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Ruby `String#split(sep)` for a string separator: trailing empty fields dropped.
fn split_str<'a>(s: &'a str, sep: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = s.split(sep).collect();
    while v.last().is_some_and(|f| f.is_empty()) {
        v.pop();
    }
    v
}

/// Parse tinymembench output (`path` names it in errors: a line lkp's Ruby fails on,
/// such as a block size line without `:` or `/`).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [bandwidth, block] =
        P.get_or_init(|| [re("(standard mem|MOVSB|MOVSD|SSE2)"), re("(1024|4096|16384|65536|262144|1048576)")]);
    let mut stats: Hash<String> = Hash::default();
    for (ln, line) in ruby::lines(text).enumerate() {
        let fail = |what: &str| bad_line(path, ln + 1, format!("{what} (lkp's Ruby fails on this line)"));
        if bandwidth.is_match(line) {
            let parts = ruby::split_on(line, ':');
            let name =
                ruby::strip(parts.first().copied().unwrap_or("")).replace(['(', ')'], "").replace([' ', '-'], "_");
            let key = format!("{name}_MBpS");
            let Some(rest) = parts.get(1) else { return Err(fail("expected ':' and a value")) };
            let values = split_str(rest, " MB/s");
            let Some(v) = values.first() else { return Err(fail("expected a value before 'MB/s'")) };
            stats.set(&key, ruby::lstrip(v).to_string());
            if let Some(sd) = values.get(1) {
                stats.set(&format!("{key}_stddev"), sd.replace(['(', ')', '%', ' '], ""));
            }
        } else if block.is_match(line) {
            let parts = ruby::split_on(line, ':');
            let size = parts.first().copied().unwrap_or("");
            // lkp's `line[0].lstrip!.rstrip!` fails when there is nothing to strip on the left
            if ruby::lstrip(size) == size {
                return Err(fail("expected the block size indented"));
            }
            let size = ruby::strip(size);
            let Some(rest) = parts.get(1) else { return Err(fail("expected ':' and two latencies")) };
            let values = ruby::split_on(rest, '/');
            let (Some(single), Some(dual)) = (values.first(), values.get(1)) else {
                return Err(fail("expected two latencies separated by '/'"));
            };
            for (kind, v) in [("single", single), ("dual", dual)] {
                let k = format!("{kind}_random_read_{size}_block");
                let page = if stats.contains(&format!("{k}_nohugepage")) { "hugepage" } else { "nohugepage" };
                stats.set(&format!("{k}_{page}"), v.replace([' ', 'n', 's'], ""));
            }
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        ruby::puts(&mut out, &format!("{k}: {v}"));
    }
    Ok(out)
}
