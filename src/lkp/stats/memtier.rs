//! memtier_benchmark as lkp-tests' programs/memtier/parse reads it: over the runs of
//! the output, per row of the `ALL STATS` table (Sets, Gets, Waits, Totals) the total
//! and the mean of each column, the GET miss rate, the preload duration as printed,
//! and the SET and GET latency distributions (the first 10 µs bucket past
//! 90/95/99/99.9 %, in ms).

use super::latency_table::Tables;
use super::ruby::{self, bad_line, group, re, Lines};
use crate::lkp::num::Num;
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// The columns of the table after the row name, as lkp names them.
const UNITS: [&str; 8] =
    ["ops/s", "hits/s", "misses/s", "avg_latency_ms", "p50_latency_ms", "p99_latency_ms", "p99.9_latency_ms", "kb/s"];

/// The column sums and counts of one table row over the runs (`$histo_*`): a sum
/// is Ruby's Integer 0 until a value is added.
#[derive(Default, Clone, Copy)]
struct Column {
    sum: f64,
    n: i64,
}

impl Column {
    fn sum_shown(self) -> String {
        if self.n == 0 {
            "0".into()
        } else {
            float_to_s(self.sum)
        }
    }

    /// `sum / num`: None where lkp's Ruby divides the Integer 0 by 0.
    fn mean(self) -> Option<f64> {
        (self.n != 0).then(|| self.sum / self.n as f64)
    }
}

type Row = [Column; 8];

/// Parse memtier_benchmark output (`path` names it in errors).
pub fn parse(text: &str, path: &str) -> Lines {
    static P: OnceLock<[Regex; 9]> = OnceLock::new();
    let [sets, gets, waits, totals, distribution, set, get, sep, preload] = P.get_or_init(|| {
        [
            re("^Sets"),
            re("^Gets"),
            re("^Waits"),
            re("^Totals"),
            re("^Request Latency Distribution"),
            re("^SET"),
            re("^GET"),
            re("^---$"),
            re(r"^preload duration: (\d+\.\d+)$"),
        ]
    });
    let mut rows: [Row; 4] = Default::default();
    let mut tables = Tables::default();
    let (mut proc_set, proc_get) = (tables.new_table(), tables.new_table());
    let (mut set_listed, mut get_listed): (Vec<Option<usize>>, Vec<Option<usize>>) = (Vec::new(), Vec::new());
    // lkp's `is_set` starts as nil: a `---` before any SET or GET line lists the GET table
    let mut is_set = false;
    let mut out = String::new();
    let mut lines = 0;
    for (ln, line) in ruby::lines(text).enumerate() {
        lines = ln + 1;
        let fail = |msg: &str| bad_line(path, ln + 1, msg);
        let row = [sets, gets, waits, totals].iter().position(|r| r.is_match(line));
        if let Some(row) = row.and_then(|r| rows.get_mut(r)) {
            for (i, v) in ruby::split(line).iter().enumerate().skip(1) {
                let Some(col) = row.get_mut(i - 1) else {
                    return Err(fail("more than 8 values in a table row (lkp's Ruby fails)"));
                };
                col.sum += ruby::to_f(v);
                col.n += 1;
            }
        } else if distribution.is_match(line) {
            proc_set = tables.new_table();
        } else if set.is_match(line) || get.is_match(line) {
            is_set = set.is_match(line);
            let data = ruby::split(line);
            let field = |i: usize| data.get(i).map_or(0.0, |s| ruby::to_f(s));
            let bucket = field(1) * 100.0;
            if !bucket.is_finite() || bucket.abs() >= 9.2e18 {
                return Err(fail("a latency that is not a finite number of 10 µs buckets"));
            }
            let table = if is_set { proc_set } else { proc_get };
            tables.set(table, bucket.trunc() as i64, Num::Float(field(2))).map_err(|e| fail(&e))?;
        } else if sep.is_match(line) {
            if is_set {
                set_listed.push(Some(proc_set));
            } else {
                get_listed.push(Some(proc_get));
            }
        } else if let Some(c) = preload.captures(line) {
            out.push_str(&format!("preload_duration: {}\n", group(&c, 1)));
        }
    }
    let names = ["sets", "gets", "waits", "totals"];
    for (row, name) in rows.iter().zip(names) {
        for (col, unit) in row.iter().zip(UNITS) {
            out.push_str(&format!("total_{name}_{unit}: {}\n", col.sum_shown()));
        }
    }
    let no_values = |name: &str| {
        bad_line(path, lines, format!("no value in a column of the {name} row (lkp's Ruby divides by zero)"))
    };
    let avg = |out: &mut String, row: &Row, name: &str| {
        for (col, unit) in row.iter().zip(UNITS) {
            let m = col.mean().ok_or_else(|| no_values(name))?;
            out.push_str(&format!("avg_{name}_{unit}: {}\n", float_to_s(m)));
        }
        Ok::<(), crate::error::Error>(())
    };
    let [r_sets, r_gets, r_waits, r_totals] = &rows;
    avg(&mut out, r_sets, "sets")?;
    avg(&mut out, r_gets, "gets")?;
    let mean_of = |i: usize| r_gets.get(i).and_then(|c| c.mean());
    let (hits, misses) = (mean_of(1), mean_of(2));
    let (Some(hits), Some(misses)) = (hits, misses) else { return Err(no_values("gets")) };
    let total = hits + misses;
    if total != 0.0 {
        out.push_str(&format!("gets_miss_rate_%: {}\n", float_to_s(100.0 * misses / total)));
    }
    avg(&mut out, r_waits, "waits")?;
    avg(&mut out, r_totals, "totals")?;
    let ms = |i: usize| float_to_s(i as f64 / 100.0);
    for (listed, name) in [(&set_listed, "set"), (&get_listed, "get")] {
        let shown = tables.show(listed, name, false, ms).map_err(|e| bad_line(path, lines, e))?;
        out.push_str(&shown);
    }
    Ok(out)
}
