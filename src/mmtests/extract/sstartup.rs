//! The S suite's replayed start-up times (sstartup: `results/replayed_<app>_startup/repetition0/
//! <sched>-<workload>-single_times.txt`, a start-up time in seconds per line, written by
//! `comm_startup_lat.sh` and moved there by the shellpack), as head's
//! `sstartup/extract-report.pl` (through its `parse-results`) and 2024/2025's
//! `ExtractSstartup.pm` read them (docs/mmtests-extract.md).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};

/// The background workloads read, in the modules' order.
const PATTERNS: [&str; 3] = ["0r0w-seq", "5r5w-seq", "10r0w-seq"];

/// Per application (the names of `results/replayed_*_startup`, `<=>`-sorted: all 0, so in name
/// order), per scheduler (the `<sched>` of its `repetition0/*-0r0w-seq-single_times.txt`), per
/// workload: the lines of `<sched>-<workload>-single_times.txt` without their leading blanks (a
/// missing file gives none: the script's `open ... || die` never dies).
fn times(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, &'static str, Vec<String>)>> {
    let results = dir.join("results");
    if !dir.tree.is_dir(&results) {
        return Ok(Vec::new());
    }
    let mut apps: Vec<String> = dir
        .tree
        .list(&results)?
        .into_iter()
        .filter_map(|n| Some(n.strip_prefix("replayed_")?.strip_suffix("_startup")?.to_string()))
        .collect();
    sort_numeric(&mut apps);
    let mut all = Vec::new();
    for app in apps {
        let rel = crate::archive::tree::join(&results, &format!("replayed_{app}_startup/repetition0"));
        let rep = LogDir::new(dir.tree, &rel);
        let mut scheds: Vec<String> = if dir.tree.is_dir(&rel) {
            rep.list()?
                .into_iter()
                .filter_map(|n| Some(n.strip_suffix("-0r0w-seq-single_times.txt")?.to_string()))
                .collect()
        } else {
            Vec::new()
        };
        sort_numeric(&mut scheds);
        for sched in scheds {
            for pattern in PATTERNS {
                crate::cancel::check()?;
                let name = format!("{sched}-{pattern}-single_times.txt");
                let lines = if rep.is_file(&name) {
                    out.files_read += 1;
                    let log = rep.read(&name)?;
                    log.lines().map(|l| l.trim_start_matches(|c: char| c.is_ascii_whitespace()).to_string()).collect()
                } else {
                    Vec::new()
                };
                all.push((app.clone(), pattern, lines));
            }
        }
    }
    Ok(all)
}

/// head: the rows `time-<app> <workload> _ <n> <seconds>`, n counting from 1 per file, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (app, pattern, lines) in times(dir, out)? {
        for (k, v) in lines.into_iter().enumerate() {
            rows.push(Row {
                metric: format!("time-{app}"),
                a: pattern.to_string(),
                b: "_".into(),
                interval: (k + 1).to_string(),
                value: v,
            });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: each time a sample of `<app>-<workload>`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (app, pattern, lines) in times(dir, out)? {
        for v in lines {
            out.add_text(&format!("{app}-{pattern}"), &v);
        }
    }
    Ok(())
}
