//! head's `apachebench/parse-results`: ApacheBench's report `apachebench-<C>-<I>.log`,
//! whose first `Time per request:` line is the mean latency in milliseconds (2024/2025's
//! module reads GNU time's elapsed time instead: [`super::gnu_time`]).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;

/// `cut -d- -f<n>` of `names` (`.log` removed), `sort -n` (with `-u` when `unique`).
fn cut_sorted(names: &[&str], n: usize, unique: bool) -> Vec<String> {
    let mut v: Vec<String> = names
        .iter()
        .map(|s| if s.contains('-') { s.split('-').nth(n - 1).unwrap_or_default() } else { s }.to_string())
        .collect();
    v.sort_by(|a, b| crate::order::nan_last(numify(a), numify(b)).then(a.cmp(b)));
    if unique {
        v.dedup_by(|a, b| numify(a) == numify(b));
    }
    v
}

/// Per C (`ls apachebench*.log`) and I (`ls apachebench-C-*.log`): the fourth field of the
/// first `Time per request` line as `mean-request C _ I <ms>`, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let logs: Vec<&str> =
        names.iter().filter(|n| n.starts_with("apachebench")).filter_map(|n| n.strip_suffix(".log")).collect();
    let mut rows = Vec::new();
    for c in cut_sorted(&logs, 2, true) {
        let prefix = format!("apachebench-{c}-");
        let runs: Vec<&str> = logs.iter().copied().filter(|n| n.starts_with(&prefix)).collect();
        for i in cut_sorted(&runs, 3, false) {
            crate::cancel::check()?;
            let name = format!("apachebench-{c}-{i}.log");
            if !dir.is_file(&name) {
                continue;
            }
            let log = dir.read(&name)?;
            out.files_read += 1;
            let first = log.lines().find(|l| l.contains("Time per request")).map(str::to_string);
            if let Some(line) = first {
                let value = line.split([' ', '\t']).filter(|w| !w.is_empty()).nth(3).unwrap_or_default();
                rows.push(Row {
                    metric: "mean-request".into(),
                    a: c.clone(),
                    b: "_".into(),
                    interval: i.clone(),
                    value: value.into(),
                });
            }
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}
