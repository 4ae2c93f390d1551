//! `perf report` text as lkp-tests' programs/perf-profile/parse reads it: per symbol
//! `children.<event>.<symbol>` and `self.<event>.<symbol>` (the two overhead columns)
//! and per call chain `calltrace.<event>.<f1>.<f2>…` (at most 5 frames), summed, sorted
//! by key, printed with two decimals when at least 0.05. `.isra.N`, `.constprop.N` and
//! `.part.N` are cut from symbol names. Output without perf's header gives nothing.

use super::ruby::{self, group, re};
use crate::lkp::rubyfmt::fmt_f;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

struct Patterns {
    header: Regex,
    events: Regex,
    samples: Regex,
    symbol: Regex,
    chain: Regex,
    suffix: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        header: re(r"^# ========$| --header"),
        events: re(r"^# Events: \d+[KMG ]\s+"),
        samples: re(r"^# Samples: \d+[KMG ] of event "),
        symbol: re(r"^\s*(\d+\.\d+)%\s+(\d+\.\d+)%\s+\S+\s+\S+\s+(\S+)(\s+\S+\s+\S+)?\s*$"),
        chain: re(r"^(\d+\.\d+)%\s+(\S+)$"),
        suffix: re(r"\.(isra|constprop|part)\.[0-9]+"),
    })
}

fn fixup(symbol: &str) -> String {
    patterns().suffix.replace_all(symbol, "").into_owned()
}

/// Parse perf-profile (`perf report`) output.
pub fn parse(text: &str) -> String {
    let p = patterns();
    let mut lines = ruby::lines(text);
    if !lines.next().is_some_and(|l| p.header.is_match(l)) {
        return String::new();
    }
    let mut event = String::new();
    for line in lines.by_ref() {
        if let Some(m) = p.events.find(line).or_else(|| p.samples.find(line)) {
            let post = line.get(m.end()..).unwrap_or("");
            let post = post.strip_suffix('\n').unwrap_or(post);
            event = post.replace(':', "-").replace('\'', "");
            break;
        }
    }
    let mut results: BTreeMap<String, f64> = BTreeMap::new();
    let mut add = |k: String, v: f64| *results.entry(k).or_insert(0.0) += v;
    for line in lines {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        // `# …` lines (the later `# Samples:` headers among them) are skipped
        if line.starts_with("# ") {
            continue;
        }
        if let Some(c) = p.symbol.captures(line) {
            let symbol = fixup(group(&c, 3));
            add(format!("children.{event}.{symbol}"), ruby::to_f(group(&c, 1)));
            add(format!("self.{event}.{symbol}"), ruby::to_f(group(&c, 2)));
        } else if let Some(c) = p.chain.captures(line) {
            let frames: Vec<String> = group(&c, 2).split(';').take(5).map(fixup).collect();
            add(format!("calltrace.{event}.{}", frames.join(".")), ruby::to_f(group(&c, 1)));
        }
    }
    let mut out = String::new();
    for (k, v) in &results {
        if *v >= 0.05 {
            out.push_str(&format!("{k}: {}\n", fmt_f(*v, 0, 2, false)));
        }
    }
    out
}
