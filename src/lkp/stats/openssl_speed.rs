//! `openssl speed` as lkp-tests' programs/openssl-speed/parse reads it: the RSA 4096
//! sign and verify rates (the first two of the rate columns, the second half of the
//! fields after `rsa 4096 bits`) as printed, and the SHA-256 throughput in kB/s per
//! block size.

use super::ruby::{self, bad_line, re, Hash, Lines};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// The SHA-256 block sizes, in the order of the columns.
const BLOCKS: [&str; 6] = ["16", "64", "256", "1024", "8192", "16384"];

/// Parse `openssl speed` output (`path` names it in errors: lines lkp's Ruby fails on).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [rsa, sha256] = P.get_or_init(|| [re("^rsa.*4096.*bits"), re("^sha256.*")]);
    // a rate lkp did not find is nil, printed as ""
    let mut stats: Hash<String> = Hash::default();
    for (ln, line) in ruby::lines(text).enumerate() {
        let f = ruby::split(line);
        if rsa.is_match(line) {
            let Some(fields) = f.get(3..) else {
                return Err(bad_line(path, ln + 1, "expected the fields after 'rsa 4096 bits' (lkp's Ruby fails)"));
            };
            let rates = fields.get(fields.len() / 2..).unwrap_or_default();
            stats.set("sign_per_sec", rates.first().copied().unwrap_or("").to_string());
            stats.set("verify_per_sec", rates.get(1).copied().unwrap_or("").to_string());
        } else if sha256.is_match(line) {
            for (i, block) in BLOCKS.iter().enumerate() {
                let Some(v) = f.get(i + 1) else {
                    return Err(bad_line(path, ln + 1, "expected six block sizes' rates (lkp's Ruby fails)"));
                };
                stats.set(&format!("{block}_size_block_Kbps"), float_to_s(ruby::to_f(&v.replace('k', ""))));
            }
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}
