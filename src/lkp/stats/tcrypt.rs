//! The kernel's tcrypt speed tests as lkp-tests' programs/tcrypt/parse reads them: per
//! `testing speed of <algorithm>` block (spaces in the name become `.`) the mean of its
//! bytes per second (bytes / seconds of each `operations in` line, or the `opers/sec`
//! lines' bytes/sec), truncated to an integer.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::fmt_d_float;
use regex::Regex;
use std::sync::OnceLock;

/// lkp's `show_one`: the finished block's line, if it had a name and values.
fn show_one(out: &mut String, test: &str, values: &[Num]) {
    if test.is_empty() {
        return;
    }
    if let Some(avg) = average(values) {
        out.push_str(&format!("{test}: {}\n", fmt_d_float(avg, 0)));
    }
}

/// Parse tcrypt output (`path` names it in errors: a test of 0 seconds, where lkp's
/// Ruby divides by zero).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [speed, operations, opers] = P.get_or_init(|| {
        [
            re("testing speed of (.*)$"),
            re(r"\d+ operations in (\d+) seconds \((\d+) bytes\)"),
            re(r"\d+ opers/sec, +(\d+) bytes/sec"),
        ]
    });
    let (mut test, mut values) = (String::new(), Vec::new());
    let mut out = String::new();
    for (ln, line) in ruby::lines(text).enumerate() {
        if let Some(c) = speed.captures(line) {
            show_one(&mut out, &test, &values);
            test = group(&c, 1).replace(' ', ".");
            values.clear();
        } else if let Some(c) = operations.captures(line) {
            let secs = ruby::int(group(&c, 1), path, ln + 1)?;
            let bytes = ruby::int(group(&c, 2), path, ln + 1)?;
            if secs == 0 {
                return Err(bad_line(path, ln + 1, "a test of 0 seconds (lkp's Ruby divides by zero)"));
            }
            values.push(Num::Int(bytes.div_euclid(secs)));
        } else if let Some(c) = opers.captures(line) {
            values.push(Num::Int(ruby::int(group(&c, 1), path, ln + 1)?));
        }
    }
    show_one(&mut out, &test, &values);
    Ok(out)
}
