//! hackbench as lkp-tests' programs/hackbench/parse reads it: KiB passed
//! (`tasks × messages × bytes >> 10`) per second of the best, mean and worst `Time:`,
//! and per instance when a multi-instance job printed `Instance: N` lines.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::{ruby_sum_f0, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::OnceLock;

struct Patterns {
    instance: Regex,
    running: Regex,
    messages: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        instance: re(r"^Instance: (\d+)"),
        running: re(r"^Running in .* mode with (\d+) groups using (\d+) file descriptors each \(== (\d+) tasks\)"),
        messages: re(r"^Each sender will pass (\d+) messages of (\d+) bytes|^Each sender passed (\d+) messages of (\d+) bytes in average"),
    })
}

#[derive(Default)]
struct Instance {
    tasks: Option<i64>,
    messages: Option<(i64, i64)>,
    time: Vec<f64>,
}

fn mean(t: &[f64]) -> f64 {
    let v: Vec<Num> = t.iter().map(|&x| Num::Float(x)).collect();
    ruby_sum_f0(&v) / t.len() as f64
}

fn min(t: &[f64]) -> f64 {
    t.iter().copied().fold(f64::INFINITY, f64::min)
}

fn max(t: &[f64]) -> f64 {
    t.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// Parse hackbench output (`path` names it in errors: lkp's Ruby fails without the
/// `Running in …` and `Each sender …` lines or without a `Time:`).
pub fn parse(text: &str, path: &str) -> Lines {
    let p = patterns();
    let mut instance = 1i64;
    let mut per: BTreeMap<i64, Instance> = BTreeMap::new();
    let (mut tasks, mut messages): (Option<i64>, Option<(i64, i64)>) = (None, None);
    let mut time: Vec<f64> = Vec::new();
    let mut lines = 0;
    let mut after_time = false;
    for line in ruby::lines(text) {
        lines += 1;
        // a `Time:` line cut inside its number: lkp's Ruby reads the head as the time;
        // refused here rather than read as a wrong number
        if std::mem::take(&mut after_time) && line.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return Err(bad_line(
                path,
                lines - 1,
                format!(
                    "a 'Time:' line split across two lines (the next line '{}' goes on with its number); the output is damaged",
                    line.trim_end()
                ),
            ));
        }
        if let Some(c) = p.instance.captures(line) {
            instance = ruby::to_i(group(&c, 1));
        } else if let Some(c) = p.running.captures(line) {
            tasks = Some(ruby::to_i(group(&c, 3)));
            per.entry(instance).or_default().tasks = tasks;
        } else if let Some(c) = p.messages.captures(line) {
            let (m, b) = if c.get(1).is_some() { (1, 2) } else { (3, 4) };
            messages = Some((ruby::to_i(group(&c, m)), ruby::to_i(group(&c, b))));
            per.entry(instance).or_default().messages = messages;
        } else if line.starts_with("Time:") {
            after_time = true;
            let s = ruby::split(line).get(1).map_or(0.0, |s| ruby::to_f(s));
            time.push(s);
            per.entry(instance).or_default().time.push(s);
        }
    }
    let kib = |tasks: Option<i64>, messages: Option<(i64, i64)>| -> Result<f64, crate::error::Error> {
        match (tasks, messages) {
            (Some(t), Some((m, b))) => Ok((t.wrapping_mul(m).wrapping_mul(b) >> 10) as f64),
            _ => Err(bad_line(
                path,
                lines,
                "expected a 'Running in … (== N tasks)' and an 'Each sender … messages of N bytes' line",
            )),
        }
    };
    let kb = kib(tasks, messages)?;
    if time.is_empty() {
        return Err(bad_line(path, lines, "expected a 'Time:' line"));
    }
    let mut out = String::new();
    let best = float_to_s(kb / min(&time));
    out.push_str(&format!("throughput: {best}\nthroughput_best: {best}\n"));
    out.push_str(&format!("throughput_avg: {}\n", float_to_s(ruby::round(kb / mean(&time), 2))));
    out.push_str(&format!("throughput_worst: {}\n", float_to_s(kb / max(&time))));
    if per.len() > 1 {
        for (id, st) in &per {
            if st.time.is_empty() {
                continue;
            }
            let kb = kib(st.tasks, st.messages)?;
            out.push_str(&format!("throughput.instance{id}: {}\n", float_to_s(kb / min(&st.time))));
            out.push_str(&format!(
                "throughput_avg.instance{id}: {}\n",
                float_to_s(ruby::round(kb / mean(&st.time), 2))
            ));
            out.push_str(&format!("throughput_worst.instance{id}: {}\n", float_to_s(kb / max(&st.time))));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::parse;

    /// lkp-tests' own fixture (spec/fixtures/stats/hackbench/hackbench), whole and with its
    /// line 8 `Time: 9.541` cut in two after `Time: 9.5`: lkp's Ruby reads 9.5 there.
    #[test]
    fn a_time_line_split_across_two_lines_is_an_error_naming_file_and_line() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lkp/spec/hackbench/hackbench");
        let whole = std::fs::read_to_string(path).unwrap();
        assert!(whole.contains("\nTime: 9.541\n"));
        assert!(parse(&whole, "hackbench").is_ok());
        let cut = whole.replacen("\nTime: 9.541\n", "\nTime: 9.5\n41\n", 1);
        let e = parse(&cut, "hackbench").unwrap_err().to_string();
        assert!(e.starts_with("hackbench:8: a 'Time:' line split across two lines (the next line '41'"), "{e}");
    }
}
