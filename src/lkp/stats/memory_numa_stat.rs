//! A cgroup's memory.numa_stat as lkp-tests' programs/memory--numa_stat/parse reads
//! it: the `time:` lines as they are, and per `<item>=<total> N0=… N1=…` line the total
//! as `<cgroup>.<item>` and each node's as `<cgroup>.<item>.N<i>` (the cgroup of the
//! last `cgroup:` line, `nocg` before one).

use super::ruby::{self, group, re, Lines};
use regex::Regex;
use std::sync::OnceLock;

/// Parse memory--numa_stat output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 2]> = OnceLock::new();
    let [time, cgroup] = P.get_or_init(|| [re("^time:"), re(r"^cgroup: (\S+)")]);
    let mut cg = "nocg".to_string();
    let mut out = String::new();
    for line in ruby::lines(text) {
        if time.is_match(line) {
            ruby::puts(&mut out, line);
        } else if let Some(c) = cgroup.captures(line) {
            cg = group(&c, 1).to_string();
        } else if line.contains('=') {
            let items = ruby::split(line);
            let Some((first, rest)) = items.split_first() else { continue };
            let kv = ruby::split_on(first, '=');
            // a nil key prints as ""
            let k = kv.first().copied().unwrap_or("");
            if let Some(v) = kv.get(1) {
                out.push_str(&format!("{cg}.{k}: {v}\n"));
            }
            for item in rest {
                let skv = ruby::split_on(item, '=');
                if let (Some(sk), Some(sv)) = (skv.first(), skv.get(1)) {
                    out.push_str(&format!("{cg}.{k}.{sk}: {sv}\n"));
                }
            }
        }
    }
    Ok(out)
}
