//! The kernel's scripts/leaking_addresses.pl report as lkp-tests'
//! programs/leaking-addresses/parse reads it: each leaking dmesg line or /proc file
//! (its kernel address removed) as `dmesg.<message>: 1` or `proc.<file>.<text>: 1`,
//! then `leaking_number`, `total_number` and `result.fail: 1` (lkp's table is never
//! empty, so never `result.pass`).

use super::lkp_stats::Stats;
use super::ruby::{self, bad_line, re, to_i, Lines};
use crate::error::Error;
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    skip: Vec<Regex>,
    total: Regex,
    dmesg: Regex,
    proc: Regex,
    address: Regex,
    space: Regex,
}

/// Parse a leaking-addresses report (`path` names it in errors: a leak line without a
/// kernel address, where lkp's Ruby calls a method of nil).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<Patterns> = OnceLock::new();
    let p = P.get_or_init(|| Patterns {
        skip: vec![
            re(r"^\[\d+ modules\] .+(Live|Loading|Unloading) .+"),
            re(r"addr:.*vm_flags:.*anon_vma:.*mapping:.*index:"),
        ],
        total: re(r"Total number of results.*: (.*)"),
        dmesg: re(r"^\[ +([\d.]+)\] (.*)"),
        proc: re(r"^\[\d+ ([^\d])([^\]]+)\](.*)"),
        address: re(r"\b(0x)?ffff[[:xdigit:]]{12}\b"),
        space: re(r"\s+"),
    });
    let mut results = ruby::Hash::default();
    let mut leaking = 0i64;
    let mut total: Option<String> = None;
    for (i, line) in ruby::lines(text).enumerate() {
        // `$n.sub!(address, '')`: nil (and lkp's NoMethodError) when there is no address
        let unaddressed = |s: &str| -> Result<String, Error> {
            let cut = p.address.replacen(s, 1, "");
            if cut == s {
                return Err(bad_line(path, i + 1, "a leak without a kernel address (lkp's sub! returns nil)"));
            }
            Ok(cut.into_owned())
        };
        if p.skip.iter().any(|r| r.is_match(line)) {
            continue;
        } else if let Some(c) = p.total.captures(line) {
            total = Some(c.get(1).map_or("", |m| m.as_str()).to_string());
        } else if let Some(c) = p.dmesg.captures(line) {
            let msg = unaddressed(c.get(2).map_or("", |m| m.as_str()))?.replace(' ', "");
            results.set(&format!("dmesg.{msg}"), 1);
            leaking += 1;
        } else if let Some(c) = p.proc.captures(line) {
            let g = |n| c.get(n).map_or("", |m| m.as_str());
            let rest = unaddressed(g(3))?;
            let rest = p.space.replace_all(&rest, "");
            results.set(&format!("proc.{}{}.{rest}", g(1), g(2)), 1);
            leaking += 1;
        }
    }
    results.set("leaking_number", leaking);
    results.set("total_number", total.as_deref().map_or(0, to_i));
    // results always holds the two numbers: lkp's `results.empty?` is false
    results.set("result.fail", 1);
    let mut stats = Stats::default();
    for (k, v) in results.iter() {
        stats.add_number(k, &v.to_string(), false).map_err(|e| Error::parse(Some(path), None, e))?;
    }
    Ok(stats.dump(&[]))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_leak_line_without_an_address_is_an_error() {
        // lkp's Ruby: "undefined method `delete' for nil:NilClass (NoMethodError)", exit 1
        let e = super::parse("[    1.000000] no address here\n", "l").unwrap_err().to_string();
        assert!(e.starts_with("l:1:"), "{e}");
    }
}
