//! rt-migrate-test's log (rtmigration: `rtmigration.log.gz`, a line per run `   i:   t0  t1 ...`
//! of the time each RT task ran after the header `Iter: 0 1 ...`, then per task ` Task <n> (prio
//! <p>) ...` and its summary), as head's `rtmigration/extract-report.pl` (through its
//! `parse-results`) and 2024/2025's `ExtractRtmigration.pm` read it: the same reading, head
//! printing the rows the older module adds (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::LogDir;
use std::collections::HashMap;

/// Per task (in task order) its label `task-<i>-p<prio>` and samples: the header `Iter:` gives
/// the task count (its fields after the first) and starts the runs; each line `^\s+<n>:` then
/// gives the fields after the first to tasks 0.., until `Parent pid:`; after it, ` Task <i> (prio
/// <p>)` names task i's priority (none: an empty one).
fn tasks(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, Vec<String>)>> {
    let Some(log) = dir.open_log("rtmigration.log")? else {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            "no rtmigration.log(.gz) (compare-mmtests.pl dies reading an unopened file)",
        ));
    };
    out.files_read += 1;
    let run = compiled(r"^\s+[0-9]+:")?;
    let prio = compiled(r"^ Task ([0-9]+) \(prio ([0-9]+)\)")?;
    let (mut n, mut reading) = (0usize, false);
    let mut samples: HashMap<usize, Vec<String>> = HashMap::new();
    let mut prios: HashMap<String, String> = HashMap::new();
    for line in log.lines() {
        if line.starts_with("Iter:") {
            n = super::perl_split_ws(line).len().saturating_sub(1);
            reading = true;
            continue;
        }
        if reading && run.is_match(line) {
            let e = super::perl_split_ws(line.trim_start());
            for i in 0..n {
                samples.entry(i).or_default().push(e.get(i + 1).copied().unwrap_or_default().to_string());
            }
            continue;
        }
        if line.starts_with("Parent pid:") {
            reading = false;
        }
        if !reading {
            if let Some(c) = prio.captures(line) {
                let get = |k| c.get(k).map_or("", |m| m.as_str()).to_string();
                prios.insert(get(1), get(2));
            }
        }
    }
    Ok((0..n)
        .map(|i| {
            let p = prios.get(&i.to_string()).cloned().unwrap_or_default();
            (format!("task-{i}-p{p}"), samples.remove(&i).unwrap_or_default())
        })
        .collect())
}

/// head: the rows `task-<i>-p<prio> _ _ <n> <µs>`, task by task.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (label, values) in tasks(dir, out)? {
        for (k, v) in values.into_iter().enumerate() {
            rows.push(Row {
                metric: label.clone(),
                a: "_".into(),
                b: "_".into(),
                interval: (k + 1).to_string(),
                value: v,
            });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: the same samples added to `task-<i>-p<prio>`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (label, values) in tasks(dir, out)? {
        for v in values {
            out.add_text(&label, &v);
        }
    }
    Ok(())
}
