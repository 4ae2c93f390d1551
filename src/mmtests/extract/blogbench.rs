//! blogbench's logs (`blogbench-<I>.log`, one run each, ending with `Final score for writes:  N`
//! and `Final score for reads :  N`), as head's `blogbench/parse-results` and 2024/2025's
//! `ExtractBlogbench.pm` read them (docs/mmtests-extract.md).

use super::awk_bench::awk_fields;
use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{iterations, LogDir};

/// head: for I of `ls blogbench-*.log | sed 's/\.log$//' | cut -d- -f2 | sort -n`, the lines of
/// `blogbench-I.log` holding `Final score for`, their `:` removed: awk's `$4` (`writes`,
/// `reads`) is the metric, `$NF` the value, I the interval; sorted `sort -k1,1 -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let iters = iterations(&names, "blogbench", ".log");
    let mut rows = Vec::new();
    for i in iters {
        crate::cancel::check()?;
        let name = format!("blogbench-{i}.log");
        if !dir.is_file(&name) {
            continue; // grep finds no file: no rows
        }
        let log = dir.read(&name)?;
        out.files_read += 1;
        for line in log.lines().filter(|l| l.contains("Final score for")) {
            let line = line.replace(':', "");
            let f = awk_fields(&line);
            rows.push(Row {
                metric: f.get(3).copied().unwrap_or_default().to_string(),
                a: "_".into(),
                b: "_".into(),
                interval: i.clone(),
                value: f.last().copied().unwrap_or_default().to_string(),
            });
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::Interval]);
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: every file of `blogbench-*.log*` in glob order (through `open_log`), the lines
/// starting `Final score`: the last field is a sample of `ReadScore` when the line holds
/// `reads`, of `WriteScore` when it holds `writes` (all in one iteration).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    for n in names.iter().filter(|n| n.strip_prefix("blogbench-").is_some_and(|r| r.contains(".log"))) {
        crate::cancel::check()?;
        let Some(log) = dir.open_log(n)? else { continue };
        out.files_read += 1;
        for line in log.lines().filter(|l| l.starts_with("Final score")) {
            let last = line.split_ascii_whitespace().last().unwrap_or_default();
            if line.contains("reads") {
                out.add_text("ReadScore", last);
            }
            if line.contains("writes") {
                out.add_text("WriteScore", last);
            }
        }
    }
    Ok(())
}
