//! `/proc/sched_debug` (or debugfs sched/debug) snapshots after `time:` lines, as
//! lkp-tests' programs/sched_debug/parse reads them: `<section>.<field>` for each
//! `field : value` line, `<section>.<field>.<n>` inside numbered sections (`cpu#0`,
//! `cfs_rq[0]:/`), and before each snapshot's end the max, min, mean and standard
//! deviation of each numbered field over its sections. Autogroup sections are skipped.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::{average, standard_deviation, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

fn statistics(sample: &[(String, Vec<f64>)], out: &mut String) {
    for (k, v) in sample {
        let nums: Vec<Num> = v.iter().map(|&x| Num::Float(x)).collect();
        let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        out.push_str(&format!("{k}.max: {}\n{k}.min: {}\n", float_to_s(max), float_to_s(min)));
        out.push_str(&format!("{k}.avg: {}\n", float_to_s(average(&nums).unwrap_or(f64::NAN))));
        out.push_str(&format!("{k}.stddev: {}\n", float_to_s(standard_deviation(&nums).unwrap_or(f64::NAN))));
    }
}

/// Parse sched_debug snapshots (`path` names it in errors: a field before the first
/// `time:` line).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [field, hash_no, bracket_no] =
        P.get_or_init(|| [re(r"^\s*(\S+)\s*:\s+([0-9.-]+)"), re(r"^(.*)#([0-9]+)$"), re(r"^(.*)\[([0-9]+)\](.*)$")]);
    let mut prefix: Option<String> = None;
    let mut no: Option<String> = None;
    let mut sample: Vec<(String, Vec<f64>)> = Vec::new();
    let mut out = String::new();
    for (ln, line) in ruby::lines(text).enumerate() {
        if line.starts_with("time:") {
            statistics(&sample, &mut out);
            out.push_str(line.strip_suffix('\n').unwrap_or(line));
            out.push('\n');
            prefix = Some(String::new());
            sample.clear();
        } else if line.starts_with("Sched Debug Version:") || line.starts_with("runnable tasks:") {
            continue;
        } else if let Some(c) = field.captures(line) {
            let Some(p) = &prefix else { return Err(bad_line(path, ln + 1, "a field before the first 'time:' line")) };
            if p.contains(":/autogroup-") {
                continue;
            }
            let key = format!("{p}{}", group(&c, 1));
            let v = group(&c, 2);
            match no.as_deref().filter(|n| !n.trim().is_empty()) {
                Some(n) => {
                    out.push_str(&format!("{key}.{n}: {v}\n"));
                    let x = ruby::to_f(v);
                    match sample.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, l)) => l.push(x),
                        None => sample.push((key, vec![x])),
                    }
                }
                None => out.push_str(&format!("{key}: {v}\n")),
            }
        } else {
            let values = ruby::split(line);
            let Some(first) = values.first() else { continue };
            let p = first.replace(',', "");
            if let Some(c) = hash_no.captures(&p) {
                no = Some(group(&c, 2).to_string());
                prefix = Some(group(&c, 1).to_string());
            } else if let Some(c) = bracket_no.captures(&p) {
                no = Some(group(&c, 2).to_string());
                prefix = Some(format!("{}{}", group(&c, 1), group(&c, 3)));
            } else {
                no = None;
                prefix = Some(p);
            }
        }
    }
    statistics(&sample, &mut out);
    Ok(out)
}
