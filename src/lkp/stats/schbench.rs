//! schbench as lkp-tests' programs/schbench/parse reads it: per section (wakeup,
//! request) the mean and relative standard deviation of each latency percentile and
//! min/max over all reports, the largest and the spread of each iteration's last
//! report (`*_end_*`), and per instance when a multi-instance job printed
//! `Instance: N` lines.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::{average, relative_stddev, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Insertion-ordered `Hash.new { |h, k| h[k] = [] }`.
#[derive(Default)]
struct Lists(Vec<(String, Vec<Option<i64>>)>);

impl Lists {
    fn list(&mut self, k: &str) -> Option<&mut Vec<Option<i64>>> {
        if !self.0.iter().any(|(key, _)| key == k) {
            self.0.push((k.to_string(), Vec::new()));
        }
        self.0.iter_mut().find(|(key, _)| key == k).map(|e| &mut e.1)
    }

    /// `h[k] << v`.
    fn push(&mut self, k: &str, v: i64) {
        if let Some(l) = self.list(k) {
            l.push(Some(v));
        }
    }

    /// `h[k][i] = v` (a gap before `i` is filled with nil).
    fn set(&mut self, k: &str, i: usize, v: i64) {
        if let Some(l) = self.list(k) {
            if l.len() <= i {
                l.resize(i + 1, None);
            }
            if let Some(slot) = l.get_mut(i) {
                *slot = Some(v);
            }
        }
    }
}

#[derive(Default)]
struct Section {
    stats: Lists,
    end_latency: Lists,
}

#[derive(Clone, Copy, PartialEq)]
enum In {
    None,
    Wakeup,
    Request,
}

struct Patterns {
    instance: Regex,
    percentiles: [(Regex, &'static str, usize); 4],
    min: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        instance: re(r"^Instance: (\d+)"),
        percentiles: [
            (re("50.0th"), "latency_50%_us", 1),
            (re("90.0th"), "latency_90%_us", 1),
            (re("99.0th"), "latency_99%_us", 2),
            (re("99.9th"), "latency_99.9%_us", 1),
        ],
        min: re("min"),
    })
}

fn values(v: &[Option<i64>], path: &str, line: usize) -> Result<Vec<Num>, crate::error::Error> {
    v.iter()
        .map(|x| x.map(Num::Int))
        .collect::<Option<Vec<Num>>>()
        .ok_or_else(|| bad_line(path, line, "an iteration without this percentile (lkp's Ruby fails on the gap)"))
}

fn round2(x: Option<f64>) -> String {
    float_to_s(ruby::round(x.unwrap_or(f64::NAN), 2))
}

/// Parse schbench output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut wakeup = Section::default();
    let mut request = Section::default();
    let mut instance = 1i64;
    let mut per: BTreeMap<i64, (Lists, Lists)> = BTreeMap::new();
    let mut counter: i64 = -1;
    let mut section = In::None;
    let mut n = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        n = ln + 1;
        let mut add = |key: &str, v: i64, end: bool, section: In| -> Result<(), crate::error::Error> {
            let (sec, inst) = match section {
                In::Wakeup => (&mut wakeup, &mut per.entry(instance).or_default().0),
                In::Request => (&mut request, &mut per.entry(instance).or_default().1),
                In::None => return Ok(()),
            };
            sec.stats.push(key, v);
            inst.push(key, v);
            if end {
                let Ok(i) = usize::try_from(counter) else {
                    return Err(bad_line(path, ln + 1, "a percentile before the first 'Iteration' line"));
                };
                sec.end_latency.set(key, i, v);
            }
            Ok(())
        };
        if let Some(c) = p.instance.captures(line) {
            instance = ruby::to_i(group(&c, 1));
        } else if line.starts_with("Iteration") {
            counter += 1;
        } else if line.starts_with("Wakeup Latencies percentiles") {
            section = In::Wakeup;
        } else if line.starts_with("Request Latencies percentiles") {
            section = In::Request;
        } else if line.starts_with("RPS percentiles") {
            section = In::None;
        } else if let Some((_, key, field)) = p.percentiles.iter().find(|(r, _, _)| r.is_match(line)) {
            let v = ruby::split(line).get(*field).map_or(0, |s| ruby::to_i(s));
            add(key, v, true, section)?;
        } else if p.min.is_match(line) {
            let spaced = line.replace([',', '='], " ");
            let parts = ruby::split(&spaced);
            let part = |i: usize| parts.get(i).copied().unwrap_or("");
            add(&format!("latency_{}_us", part(0)), ruby::to_i(part(1)), false, section)?;
            add(&format!("latency_{}_us", part(2)), ruby::to_i(part(3)), false, section)?;
        }
    }
    let mut out = String::new();
    for (name, sec) in [("wakeup", &wakeup), ("request", &request)] {
        for (k, v) in &sec.stats.0 {
            let v = values(v, path, n)?;
            out.push_str(&format!("{name}_{k}: {}\n", round2(average(&v))));
            out.push_str(&format!("{name}_{k}_stddev%: {}\n", round2(relative_stddev(&v))));
        }
        for (k, v) in &sec.end_latency.0 {
            let v = values(v, path, n)?;
            let max = v.iter().map(|x| x.f() as i64).max().map_or("".into(), |m| m.to_string());
            out.push_str(&format!("{name}_end_{k}_max: {max}\n"));
            out.push_str(&format!("{name}_end_{k}_stddev%: {}\n", round2(relative_stddev(&v))));
        }
    }
    if per.len() > 1 {
        for (id, (w, r)) in &per {
            for (name, lists) in [("wakeup", w), ("request", r)] {
                for (k, v) in &lists.0 {
                    if v.is_empty() {
                        continue;
                    }
                    let v = values(v, path, n)?;
                    out.push_str(&format!("{name}_{k}.instance{id}: {}\n", round2(average(&v))));
                }
            }
        }
    }
    Ok(out)
}
