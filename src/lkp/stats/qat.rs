//! /proc/crypto as lkp-tests' programs/qat/parse reads it: each QAT driver's
//! algorithm (`driver : qat…` or `…qat-rsa…`) with its `selftest` as
//! `<driver>.pass: 1` (`passed`) or `<driver>.fail: 1`.

use super::ruby::{self, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse /proc/crypto.
pub fn parse(text: &str) -> String {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [driver_re, selftest] = P.get_or_init(|| [re(r"^driver.*: (qat.*|.*qat-rsa.*)$"), re(r"^selftest.*: (.+)$")]);
    let mut out = String::new();
    let mut driver: Option<String> = None;
    for line in ruby::lines(text) {
        if let Some(c) = driver_re.captures(line) {
            driver = Some(c.get(1).map_or("", |m| m.as_str()).to_string());
        } else if let Some(c) = selftest.captures(line) {
            let result = if c.get(1).map(|m| m.as_str()) == Some("passed") { "pass" } else { "fail" };
            if let Some(d) = driver.take() {
                out.push_str(&format!("{d}.{result}: 1\n"));
            }
        }
    }
    out
}
