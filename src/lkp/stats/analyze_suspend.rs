//! lkp-tests' programs/analyze-suspend/parse: `pass: 1` when the log says
//! `analyze_suspend test done`, else `fail: 1`.

use super::ruby::{self, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse an analyze-suspend log.
pub fn parse(text: &str) -> String {
    static P: OnceLock<Regex> = OnceLock::new();
    let done = P.get_or_init(|| re(r"^analyze_suspend test done"));
    if ruby::lines(text).any(|l| done.is_match(l)) { "pass: 1\n" } else { "fail: 1\n" }.to_string()
}
