//! redis-benchmark's `--csv` report (`redis-<C>-<I>.log`: a header line
//! `"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms",
//! "p99_latency_ms","max_latency_ms"`, then one quoted line per test), as 2024/2025's
//! `ExtractRedis.pm` and head's `redis/parse-results.awk` read it.

use super::awk_bench::awk_number;
use super::shellpack::{emit, mark_ratio, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::numify;

/// The client counts (`redis-*-1.log`, numeric order) and, per count, its files
/// `redis-<C>-*.log` in glob order.
fn files(dir: &LogDir<'_>) -> Result<Vec<(String, Vec<String>)>> {
    let names = dir.list()?;
    let mut clients: Vec<String> =
        glob_middle(&names, "redis-", "-1.log").into_iter().map(|(_, c)| c.to_string()).collect();
    sort_numeric(&mut clients);
    Ok(clients
        .into_iter()
        .map(|c| {
            let files = glob_middle(&names, &format!("redis-{c}-"), ".log").into_iter().map(|(n, _)| n.to_string());
            (c, files.collect())
        })
        .collect())
}

/// Perl's `split(/,/, $line)`: trailing empty fields dropped.
fn split_commas(line: &str) -> Vec<&str> {
    let mut f: Vec<&str> = line.split(',').collect();
    while f.last().is_some_and(|s| s.is_empty()) {
        f.pop();
    }
    f
}

/// The test name as ExtractRedis rewrites it: ` (<N> keys)` becomes `-<N>`, then the first
/// ` (` up to the last `)` is removed, then every `"`.
fn legacy_test(name: &str) -> String {
    let mut s = name.to_string();
    if let Some(p) = s.find(" (") {
        let rest = s.get(p + 2..).unwrap_or_default();
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && rest.get(digits..).is_some_and(|r| r.starts_with(" keys)")) {
            s = format!(
                "{}-{}{}",
                s.get(..p).unwrap_or_default(),
                rest.get(..digits).unwrap_or_default(),
                rest.get(digits + 6..).unwrap_or_default()
            );
        }
    }
    if let (Some(p), Some(q)) = (s.find(" ("), s.rfind(')')) {
        if q > p {
            s = format!("{}{}", s.get(..p).unwrap_or_default(), s.get(q + 1..).unwrap_or_default());
        }
    }
    s.replace('"', "")
}

/// 2024/2025: every line of a file (the header too) is a sample of `<C>-<test>`, the
/// second comma field without quotes (the header's `rps` registers `<C>-test` without one).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (c, files) in files(dir)? {
        for f in files {
            crate::cancel::check()?;
            let log = dir.read(&f)?;
            out.files_read += 1;
            for line in log.lines() {
                let fields = split_commas(line);
                let test = legacy_test(fields.first().copied().unwrap_or_default());
                let value = fields.get(1).copied().unwrap_or_default().replace('"', "");
                out.add_text(&format!("{c}-{test}"), &value);
            }
        }
    }
    Ok(())
}

/// head: lines holding `test` are skipped; of the others (quotes removed, split on `,`,
/// the first ` (...)` of the test name removed) the rows `<test>-RPS` (rps / 1000, a
/// ratio operation), `-latMin`, `-latAvg`, `-lat95`, `-lat99`, `-latMax` (milliseconds
/// × 1000), factor C, interval the iteration (`cut -d- -f3` of the name, `.log` removed),
/// printed as awk prints numbers; sorted `sort -k1,1 -k2,2n -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (c, files) in files(dir)? {
        for f in files {
            crate::cancel::check()?;
            let iteration = f.split('-').nth(2).unwrap_or_default().replacen(".log", "", 1);
            let log = dir.read(&f)?;
            out.files_read += 1;
            for line in log.lines().filter(|l| !l.contains("test")) {
                let line = line.replace('"', "");
                let arr: Vec<&str> = line.split(',').collect();
                let field = |i: usize| numify(arr.get(i).copied().unwrap_or_default());
                let name = arr.first().copied().unwrap_or_default();
                let test = match (name.find(" ("), name.rfind(')')) {
                    (Some(p), Some(q)) if q > p => {
                        format!("{}{}", name.get(..p).unwrap_or_default(), name.get(q + 1..).unwrap_or_default())
                    }
                    _ => name.to_string(),
                };
                for (metric, v) in [
                    ("RPS", field(1) / 1000.0),
                    ("latMin", field(3) * 1000.0),
                    ("latAvg", field(2) * 1000.0),
                    ("lat95", field(5) * 1000.0),
                    ("lat99", field(6) * 1000.0),
                    ("latMax", field(7) * 1000.0),
                ] {
                    rows.push(Row {
                        metric: format!("{test}-{metric}"),
                        a: c.clone(),
                        b: "_".into(),
                        interval: iteration.clone(),
                        value: awk_number(v),
                    });
                }
            }
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::A, Key::Interval]);
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric.ends_with("-RPS")));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_as_the_perl_rewrites_them() {
        assert_eq!(legacy_test("\"MSET (10 keys)\""), "MSET-10");
        assert_eq!(legacy_test("\"LRANGE_100 (first 100 elements)\""), "LRANGE_100");
        assert_eq!(legacy_test("\"SET\""), "SET");
        assert_eq!(split_commas("a,b,,"), ["a", "b"]);
    }
}
