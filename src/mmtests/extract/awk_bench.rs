//! MMTests head's `shellpack_src/parsers/awk-parse-results`, the driver of the families whose
//! `parse-results.awk` turns each line of `benchlog-<T>-_-<I>` into rows (stream,
//! perffutexwake): for every T of `ls benchlog-* | cut -d- -f2 | sort -n -u` and every I of
//! `ls benchlog-* | cut -d- -f4 | sort -n -u` (over all the files), the lines of
//! `benchlog-T-_-I` (absent: none) through the family's awk rules; the rows are not sorted.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::cfmt::c_fmt_g;
use crate::error::Result;
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;

/// A family's `parse-results.awk`: the (metric, value) rows a line prints.
pub type AwkRules = fn(&str) -> Vec<(&'static str, String)>;

/// awk's default fields of a line.
pub fn awk_fields(line: &str) -> Vec<&str> {
    line.split([' ', '\t']).filter(|w| !w.is_empty()).collect()
}

/// `sort -n -u` of `cut -d- -f<n>` over the `benchlog-*` names.
fn distinct(names: &[&String], n: usize) -> Vec<String> {
    let mut v: Vec<String> = names
        .iter()
        .map(|s| if s.contains('-') { s.split('-').nth(n - 1).unwrap_or("") } else { s.as_str() }.to_string())
        .collect();
    v.sort_by(|a, b| crate::order::nan_last(numify(a), numify(b)).then(a.cmp(b)));
    v.dedup_by(|a, b| numify(a) == numify(b));
    v
}

/// Run the driver with `rules` over one iteration's directory.
pub fn awk_bench(ctx: &Ctx, dir: &LogDir<'_>, rules: AwkRules, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let logs: Vec<&String> = names.iter().filter(|n| n.starts_with("benchlog-")).collect();
    let iters = distinct(&logs, 4);
    let mut rows = Vec::new();
    for t in distinct(&logs, 2) {
        for i in &iters {
            crate::cancel::check()?;
            let name = format!("benchlog-{t}-_-{i}");
            if !names.contains(&name) {
                continue;
            }
            let log = dir.read(&name)?;
            out.files_read += 1;
            for line in log.lines() {
                for (metric, value) in rules(line) {
                    rows.push(Row { metric: metric.into(), a: t.clone(), b: "_".into(), interval: i.clone(), value });
                }
            }
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// stream's rules: a line holding `Copy:`, `Scale:`, `Add:` or `Triad:` prints its `$2`
/// under that metric.
pub fn stream(line: &str) -> Vec<(&'static str, String)> {
    let f = awk_fields(line);
    let v = f.get(1).copied().unwrap_or_default().to_string();
    ["Copy", "Scale", "Add", "Triad"]
        .into_iter()
        .filter(|m| line.contains(&format!("{m}:")))
        .map(|m| (m, v.clone()))
        .collect()
}

/// perffutexwake's rule: a line holding `: Wokeup` loses everything up to its last
/// `threads in`; its first field times 1000 is `wake-latency` (printed by awk: `%.6g`,
/// integers whole).
pub fn futex_wake(line: &str) -> Vec<(&'static str, String)> {
    if !line.contains(": Wokeup") {
        return Vec::new();
    }
    let rest = line.rfind("threads in").map_or(line, |p| line.get(p + "threads in".len()..).unwrap_or(""));
    let v = numify(awk_fields(rest).first().copied().unwrap_or("0")) * 1000.0;
    vec![("wake-latency", awk_number(v))]
}

/// A number as awk's `print` writes it: an integral value whole, any other with `OFMT`
/// (`%.6g`).
pub fn awk_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        c_fmt_g(v, 6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_as_awk() {
        assert_eq!(stream("Copy:           12345.6     0.013     0.013     0.014"), [("Copy", "12345.6".to_string())]);
        assert!(stream("Function    Best Rate MB/s  Avg time").is_empty());
        assert_eq!(futex_wake("[Run 1]: Wokeup 4 of 4 threads in 0.0120 ms"), [("wake-latency", "12".to_string())]);
        assert_eq!(
            futex_wake("[Run 2]: Wokeup 4 of 4 threads in 0.0123456 ms"),
            [("wake-latency", "12.3456".to_string())]
        );
    }
}
