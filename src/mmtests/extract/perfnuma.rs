//! `perf bench numa mem -m`'s output (perfnuma: `<workload>-<I>.log` per workload and iteration,
//! the summary lines `main, <x>, <unit>, <name>` of the run), as head's
//! `perfnuma/extract-report.pl` (through its `parse-results`) and 2024/2025's
//! `ExtractPerfnuma.pm` read it (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, mark_ratio, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;

/// The summary lines read, each with its heading: `<x>, secs, NUMA-convergence-latency`,
/// `<x>, GB/sec, thread-speed`, `<x>, GB/sec, total-speed` (in the modules' order).
const LINES: [(&str, &str); 3] = [
    ("converged", r"\s+([0-9.]+), secs,\s+NUMA-convergence-latency"),
    ("threadspeed", r"\s+([0-9.]+), GB/sec,\s+thread-speed"),
    ("totalspeed", r"\s+([0-9.]+), GB/sec,\s+total-speed"),
];

/// The workloads: the names of `*-1.log` with their first `-[0-9]+.log` removed, sorted as
/// bytes (`sort { $a cmp $b }`).
fn workloads(names: &[String]) -> Result<Vec<String>> {
    let strip = compiled(r"-[0-9]+.log")?;
    let mut v: Vec<String> =
        names.iter().filter(|n| n.ends_with("-1.log")).map(|n| strip.replacen(n, 1, "").into_owned()).collect();
    v.sort();
    Ok(v)
}

/// A workload and, per file of the glob `W-*` (in name order), the summary lines it holds in
/// line order, each as (heading, value).
type Workload = (String, Vec<Vec<(&'static str, String)>>);

fn results(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<Workload>> {
    let names = dir.list()?;
    let mut lines = Vec::new();
    for (heading, pattern) in LINES {
        lines.push((heading, compiled(pattern)?));
    }
    let mut all = Vec::new();
    for load in workloads(&names)? {
        let prefix = format!("{load}-");
        let mut files = Vec::new();
        for name in names.iter().filter(|n| n.starts_with(&prefix)) {
            crate::cancel::check()?;
            if !dir.is_file(name) {
                continue;
            }
            out.files_read += 1;
            let log = dir.read(name)?;
            let mut found = Vec::new();
            for line in log.lines() {
                for (heading, re) in &lines {
                    if let Some(c) = re.captures(line) {
                        found.push((*heading, c.get(1).map_or("", |m| m.as_str()).to_string()));
                    }
                }
            }
            files.push(found);
        }
        all.push((load, files));
    }
    Ok(all)
}

/// head: the rows `<heading>-<W'> _ _ <n> <x>` in the order read, W' the workload with its
/// first `_converge` removed before each file (the script edits the loop's alias of the name,
/// so a second `_converge` goes at the second file), n counting every line read and every
/// file from 1 per workload; a `converged-` row is a ratio row (`R`).
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (mut load, files) in results(dir, out)? {
        let mut n = 0;
        for found in files {
            load = load.replacen("_converge", "", 1);
            for (heading, value) in found {
                n += 1;
                rows.push(Row {
                    metric: format!("{heading}-{load}"),
                    a: "_".into(),
                    b: "_".into(),
                    interval: n.to_string(),
                    value,
                });
            }
            n += 1;
        }
    }
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric.starts_with("converged-")));
    Ok(())
}

/// 2024/2025: each value a sample of `<heading>-<W>`; `_Operations` every heading for every
/// workload.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let all = results(dir, out)?;
    for (load, files) in &all {
        for (heading, value) in files.iter().flatten() {
            out.add_text(&format!("{heading}-{load}"), value);
        }
    }
    out.set_order(LINES.iter().flat_map(|(h, _)| all.iter().map(move |(l, _)| format!("{h}-{l}"))).collect());
    Ok(())
}
