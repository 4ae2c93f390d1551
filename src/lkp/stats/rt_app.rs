//! rt-app's per-task logs (concatenated, each after its `<task>.log` name line) as
//! lkp-tests' programs/rt-app/parse reads them: per task the mean and standard
//! deviation of the `run`, `period`, `slack` and `wu_lat` columns and `<task>.pass: 1`,
//! or `<task>.fail: 1` for a task without rows.

use super::ruby::{self, group, re};
use crate::lkp::num::{average, standard_deviation, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

#[derive(Default)]
struct Task {
    name: String,
    columns: [Vec<Num>; 4],
}

fn put(task: Option<&Task>, out: &mut String) {
    let Some(t) = task else { return };
    if t.columns[0].is_empty() {
        out.push_str(&format!("{}.fail: 1\n", t.name));
        return;
    }
    for (name, v) in ["run", "period", "slack", "wu_lat"].iter().zip(&t.columns) {
        let f = |x: Option<f64>| float_to_s(x.unwrap_or(f64::NAN));
        out.push_str(&format!("{}.{name}.average: {}\n", t.name, f(average(v))));
        out.push_str(&format!("{}.{name}.stddev: {}\n", t.name, f(standard_deviation(v))));
    }
    out.push_str(&format!("{}.pass: 1\n", t.name));
}

/// Parse rt-app logs.
pub fn parse(text: &str) -> String {
    static P: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (log, row) = P.get_or_init(|| {
        (
            re(r"(.*).log$"),
            re(r"(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)(\d+)(\s+)"),
        )
    });
    let mut task: Option<Task> = None;
    let mut out = String::new();
    for line in ruby::lines(text) {
        if let Some(c) = log.captures(line) {
            put(task.as_ref(), &mut out);
            task = Some(Task { name: group(&c, 1).replace("./", ""), ..Task::default() });
        } else if let Some(c) = row.captures(line) {
            let Some(t) = task.as_mut() else { continue };
            for (col, g) in t.columns.iter_mut().zip([5, 7, 15, 21]) {
                col.push(Num::Int(ruby::to_i(group(&c, g))));
            }
        }
    }
    put(task.as_ref(), &mut out);
    out
}
