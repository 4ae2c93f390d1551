//! `/proc/lock_stat` (lock_stat version 0.3/0.4) as lkp-tests' programs/lock_stat/parse
//! reads it: per lock class `<class>.<column>` for each column of the header (Floats
//! for the `*time*` columns), summed over the class's lines, and
//! `<class>.contentions.<function>` from its contention call sites.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::collections::HashMap;
use std::sync::OnceLock;

#[derive(Clone, Copy)]
enum Val {
    Int(i64),
    Float(f64),
}

/// Parse lock_stat output (`path` names it in errors: call sites before any class).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 6]> = OnceLock::new();
    let [version, rule, class, site, kernel_tests, kbuild] = P.get_or_init(|| {
        [
            re(r"lock_stat version 0.[34]"),
            re(r"---------------------"),
            re(r" +(.+): +([0-9.]+ +[0-9.]+ +[0-9.]+ +.*)"),
            re(r" +(\d+) +\[<[0-9a-f]+>\] ([a-zA-Z0-9_]+)"),
            re(r"/c/kernel-tests/src/[^/]+/"),
            re(r"/kbuild/src/[^/]+/"),
        ]
    });
    let mut lines = ruby::lines(text);
    if !lines.next().is_some_and(|l| version.is_match(l)) || !lines.next().is_some_and(|l| rule.is_match(l)) {
        return Ok(String::new());
    }
    let names: Vec<String> =
        lines.next().map(|l| ruby::split(l).into_iter().skip(2).map(String::from).collect()).unwrap_or_default();
    let mut keys: Vec<String> = Vec::new();
    let mut stats: HashMap<String, Val> = HashMap::new();
    let mut add = |k: String, v: Val| {
        let slot = stats.entry(k.clone()).or_insert_with(|| {
            keys.push(k);
            Val::Int(0)
        });
        *slot = match (*slot, v) {
            (Val::Int(a), Val::Int(b)) => Val::Int(a.wrapping_add(b)),
            (a, b) => Val::Float(as_f(a) + as_f(b)),
        };
    };
    let mut lock: Option<String> = None;
    let mut contentions: Vec<(String, i64)> = Vec::new();
    for (ln, raw) in lines.enumerate() {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = kernel_tests.replace(line, "");
        let line = kbuild.replace(&line, "");
        if let Some(c) = class.captures(&line) {
            let l = group(&c, 1).replace(' ', "");
            for (i, value) in ruby::split(group(&c, 2)).iter().enumerate() {
                let name = names.get(i).map_or("", String::as_str);
                let v = if name.contains("time") { Val::Float(ruby::to_f(value)) } else { Val::Int(ruby::to_i(value)) };
                add(format!("{l}.{name}"), v);
            }
            lock = Some(l);
        } else if let Some(c) = site.captures(&line) {
            let f = group(&c, 2);
            let n = ruby::to_i(group(&c, 1));
            match contentions.iter_mut().find(|(k, _)| k == f) {
                Some(slot) => slot.1 += n,
                None => contentions.push((f.to_string(), n)),
            }
        } else if line.is_empty() && !contentions.is_empty() {
            let Some(l) = lock.as_mut() else {
                return Err(bad_line(path, ln + 4, "contention call sites before any lock class"));
            };
            if let Some(s) = l.strip_suffix("-R") {
                *l = s.to_string();
            }
            for (f, n) in contentions.drain(..) {
                add(format!("{l}.contentions.{f}"), Val::Int(n));
            }
        }
    }
    let mut out = String::new();
    for k in &keys {
        let v = match stats.get(k) {
            Some(Val::Int(i)) => i.to_string(),
            Some(Val::Float(f)) => float_to_s(*f),
            None => continue,
        };
        out.push_str(&format!("{k}: {v}\n"));
    }
    Ok(out)
}

fn as_f(v: Val) -> f64 {
    match v {
        Val::Int(i) => i as f64,
        Val::Float(f) => f,
    }
}
