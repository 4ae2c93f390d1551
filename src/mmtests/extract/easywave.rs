//! easyWave's output (easywave, head only: `benchlog-<T>-<I>` per OpenMP thread count and
//! iteration, a line `Model time = hh:mm:ss,   elapsed: <ms> msec` per step), as head's
//! `easywave/parse-results` reads it (docs/mmtests-extract.md).

use super::awk_bench::awk_fields;
use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};

/// For T of `ls benchlog-* | cut -f2 -d- | sort -u` and I of `ls benchlog-T-* | cut -f3 -d- |
/// sort -n`: awk's `$6` of the last line of `benchlog-T-I` holding `elapsed:` is the row
/// `exectime T _ I <ms>`; sorted `sort -k2,2n` (then the whole line).
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let logs: Vec<&String> = names.iter().filter(|n| n.starts_with("benchlog-")).collect();
    let cut = |n: &str, k: usize| if n.contains('-') { n.split('-').nth(k).unwrap_or_default() } else { n }.to_string();
    let mut threads: Vec<String> = logs.iter().map(|n| cut(n, 1)).collect();
    threads.sort();
    threads.dedup();
    let mut rows = Vec::new();
    for t in threads {
        let prefix = format!("benchlog-{t}-");
        let mut iters: Vec<String> = logs.iter().filter(|n| n.starts_with(&prefix)).map(|n| cut(n, 2)).collect();
        sort_numeric(&mut iters);
        for i in iters {
            crate::cancel::check()?;
            let name = format!("benchlog-{t}-{i}");
            let value = if dir.is_file(&name) {
                out.files_read += 1;
                let log = dir.read(&name)?;
                let last = log
                    .lines()
                    .filter(|l| l.contains("elapsed:"))
                    .last()
                    .map(|l| awk_fields(l).get(5).copied().unwrap_or_default().to_string());
                last.unwrap_or_default()
            } else {
                String::new()
            };
            rows.push(Row { metric: "exectime".into(), a: t.clone(), b: "_".into(), interval: i, value });
        }
    }
    sort_rows(&mut rows, &[Key::A]);
    emit(ctx, &rows, out);
    Ok(())
}
