//! phpbench as lkp-tests' programs/phpbench/parse reads it: each test's time in
//! seconds (`<test>_sec`), `Iterations` and `Score`, as printed.

use super::ruby::{self, re, Hash, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse phpbench output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [seconds, summary] = P.get_or_init(|| [re("^ .*seconds.$"), re("^(Iterations|Score)")]);
    // a missing field is nil, printed as ""
    let mut stats: Hash<String> = Hash::default();
    for line in ruby::lines(text) {
        let f = ruby::split(line);
        let field = |i: usize| f.get(i).copied().unwrap_or("").to_string();
        if seconds.is_match(line) {
            stats.set(&format!("{}_sec", field(0)), field(1));
        } else if summary.is_match(line) {
            stats.set(&field(0), field(2));
        }
    }
    let mut out = String::new();
    for (k, v) in stats.iter() {
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}
