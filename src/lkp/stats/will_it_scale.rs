//! will-it-scale's CSV as lkp-tests' programs/will-it-scale/parse reads it: each row
//! as `<tasks>.<column>`, then `scalability` (the last row's processes / linear),
//! `per_process_ops`/`per_thread_ops` (the mean ops per task) and `workload` (all ops);
//! a failed assertion in the output becomes `<message>: 1`.

use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::{fmt_d_float, fmt_f};
use regex::Regex;
use std::sync::OnceLock;

/// Parse will-it-scale output (`path` names it in errors: a data row before the header).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<(Regex, Regex, Regex, Regex)> = OnceLock::new();
    let (header, row, assertion, upto) =
        P.get_or_init(|| (re(r"^[a-z_,]+$"), re(r"^[0-9.,]+$"), re(r"(Assertion .* failed)"), re(r".*: ")));
    let mut names: Option<Vec<String>> = None;
    let (mut scalability, mut per_process, mut per_thread) = (Vec::new(), Vec::new(), Vec::new());
    let mut workload: Option<f64> = None;
    let mut out = String::new();
    for (ln, raw) in ruby::lines(text).enumerate() {
        // `case line.chomp!`: a last line without its newline matches nothing
        let Some(line) = raw.strip_suffix('\n') else { continue };
        let line = line.strip_suffix('\r').unwrap_or(line);
        if header.is_match(line) {
            names = Some(ruby::split_on(line, ',').iter().skip(1).map(|s| s.to_string()).collect());
        } else if row.is_match(line) {
            let all = ruby::split_on(line, ',');
            let Some((&nr_task, values)) = all.split_first() else { continue };
            if nr_task == "0" {
                continue;
            }
            let at = |i: usize| values.get(i).copied();
            let processes = at(0).map_or(0, ruby::to_i);
            let threads = at(2).map_or(0, ruby::to_i);
            if processes == 0 && threads == 0 {
                continue;
            }
            let linear = values.last().map_or(0, |v| ruby::to_i(v));
            if linear != 0 && nr_task != "1" {
                scalability.push(at(0).map_or(0.0, ruby::to_f) / linear as f64);
            }
            let tasks = ruby::to_i(nr_task) as f64;
            per_process.push(Num::Float(processes as f64 / tasks));
            per_thread.push(Num::Float(threads as f64 / tasks));
            workload = Some(workload.unwrap_or(0.0) + processes as f64 + threads as f64);
            let Some(names) = &names else {
                return Err(bad_line(path, ln + 1, "a data row before the 'tasks,processes,…' header"));
            };
            for (i, name) in names.iter().enumerate() {
                out.push_str(&format!("{nr_task}.{name}: {}\n", at(i).unwrap_or("")));
            }
        } else if let Some(c) = assertion.captures(line) {
            let msg = upto.replace(group(&c, 1), "");
            let mut key = String::new();
            for ch in msg.chars() {
                let ch = if ch.is_ascii_alphanumeric() || matches!(ch, '<' | '>' | '!' | '=') { ch } else { '_' };
                if !(ch == '_' && key.ends_with('_')) {
                    key.push(ch);
                }
            }
            out.push_str(&format!("{key}: 1\n"));
        }
    }
    if let Some(s) = scalability.last() {
        out.push_str(&format!("scalability: {}\n", fmt_f(*s, 0, 6, false)));
    }
    if let Some(a) = average(&per_process) {
        out.push_str(&format!("per_process_ops: {}\n", fmt_d_float(a, 0)));
    }
    if let Some(a) = average(&per_thread) {
        out.push_str(&format!("per_thread_ops: {}\n", fmt_d_float(a, 0)));
    }
    if let Some(w) = workload.filter(|w| *w != 0.0) {
        out.push_str(&format!("workload: {}\n", fmt_d_float(w, 0)));
    }
    Ok(out)
}
