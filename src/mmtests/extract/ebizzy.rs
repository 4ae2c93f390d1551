//! head's `ebizzy/parse-results`: MMTests' patched ebizzy prints, as the first line of
//! `ebizzy-<T>-<I>.log`, `<total> records/s <thread 1> <thread 2> ...` (2024/2025 read the
//! total with [`super::perl_scan`]).

use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;

/// `cut -d- -f<n>` over the `ebizzy-*.log` names without `.log`, `sort -u -n`.
fn fields(names: &[String], n: usize) -> Vec<String> {
    let mut v: Vec<String> = names
        .iter()
        .filter_map(|s| s.strip_prefix("ebizzy-")?.strip_suffix(".log"))
        .filter_map(|s| format!("ebizzy-{s}").split('-').nth(n - 1).map(str::to_string))
        .collect();
    v.sort_by(|a, b| crate::order::nan_last(numify(a), numify(b)));
    v.dedup_by(|a, b| numify(a) == numify(b));
    v
}

/// Per T and I (both from every `ebizzy-*.log`, numeric, distinct): `total_rsec T _ I <first
/// word>` and, for each word after the last ` records/s ` (the whole line when there is
/// none), `thread_rsec T _ k <word>`, k counting per T; sorted `-k1,1 -k2,2n -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let iters = fields(&names, 3);
    let mut rows = Vec::new();
    for w in fields(&names, 2) {
        let mut k = 0;
        for i in &iters {
            crate::cancel::check()?;
            let name = format!("ebizzy-{w}-{i}.log");
            let first = if names.contains(&name) {
                out.files_read += 1;
                dir.read(&name)?.lines().next().unwrap_or_default().to_string()
            } else {
                String::new()
            };
            let total = first.split_whitespace().next().unwrap_or_default().to_string();
            let row = |metric: &str, interval: String, value: String| Row {
                metric: metric.into(),
                a: w.clone(),
                b: "_".into(),
                interval,
                value,
            };
            rows.push(row("total_rsec", i.clone(), total));
            let per_thread = first.rfind(" records/s ").map_or(first.as_str(), |p| first.get(p + 11..).unwrap_or(""));
            for v in per_thread.split_whitespace() {
                k += 1;
                rows.push(row("thread_rsec", k.to_string(), v.to_string()));
            }
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::A, Key::Interval]);
    emit(ctx, &rows, out);
    Ok(())
}
