//! `perf bench futex` logs (futexbench: the file `workloads` lists the workloads run, each
//! writing `<workload>-<T>.log` per thread count T), as head's `futexbench/extract-report.pl`
//! (through its `parse-results`) and 2024/2025's `ExtractFutexbenchcommon.pm` read them
//! (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::{numify, perl_str};
use std::collections::HashSet;

/// The result lines, tried in order: (pattern, whether the capture is in ms and printed in µs).
const RESULTS: [(&str, bool); 6] = [
    (r".*futexes:.* \[ ([0-9]+) ops/sec.*", false),
    (r".*futex:.* \[ ([0-9]+) ops/sec.*", false),
    (r".*: Requeued.* in ([0-9.]+) ms", false),
    (r".*: Awoke and Requeued.* in ([0-9.]+) ms", false),
    (r".*: Wokeup.* in ([0-9.]+) ms", false),
    (r".*: Avg per-thread latency.* in ([0-9.]+) ms", true),
];

/// One sample: (workload, futex type, threads, value as the module holds it).
struct Sample {
    workload: String,
    kind: &'static str,
    threads: String,
    value: String,
    /// The number the module holds when it computed one (`$1 * 1000`).
    number: Option<f64>,
}

/// The workloads (the first line of `workloads` split on single spaces, each chomped) and the
/// samples of every `<workload>-<T>.log`, T over the thread counts of all workloads' files
/// (numeric order, duplicates dropped), workload by workload within T.
fn read(dir: &LogDir<'_>, out: &mut Samples) -> Result<(Vec<String>, Vec<String>, Vec<Sample>)> {
    if !dir.is_file("workloads") {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            "no file 'workloads' (futexbench writes the workloads it ran there; compare-mmtests.pl dies \
             \"Failed to open\")",
        ));
    }
    let list = dir.read("workloads")?;
    let first = list.text.split_inclusive('\n').next().unwrap_or_default();
    let mut workloads: Vec<&str> = first.split(' ').collect();
    while workloads.last().is_some_and(|w| w.is_empty()) {
        workloads.pop();
    }
    let workloads: Vec<String> = workloads.iter().map(|w| w.strip_suffix('\n').unwrap_or(w).to_string()).collect();
    let names = dir.list()?;
    let mut threads: Vec<String> = Vec::new();
    for wl in &workloads {
        for (f, _) in glob_middle(&names, &format!("{wl}-"), ".log") {
            threads.push(super::thread_of_log(f));
        }
    }
    sort_numeric(&mut threads);
    let mut seen = HashSet::new();
    threads.retain(|t| seen.insert(t.clone()));
    let mut samples = Vec::new();
    for t in &threads {
        for wl in &workloads {
            crate::cancel::check()?;
            let Some(log) = dir.open_log(&format!("{wl}-{t}.log"))? else { continue };
            out.files_read += 1;
            let mut kind = "private";
            for line in log.lines() {
                if line.contains("shared") {
                    kind = "shared";
                }
                for (pat, us) in RESULTS {
                    if let Some(c) = compiled(pat)?.captures(line).and_then(|c| c.get(1)) {
                        let v = c.as_str();
                        let number = us.then(|| numify(v) * 1000.0);
                        let value = number.map_or_else(|| v.to_string(), perl_str);
                        samples.push(Sample { workload: wl.clone(), kind, threads: t.clone(), value, number });
                        break;
                    }
                }
            }
        }
    }
    Ok((workloads, threads, samples))
}

/// head: each sample the row `<workload> <type> <T> <n> <value>` (n counting per file),
/// unsorted: operations `<workload>-<type>-<T>` in the order first seen.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let (_, _, samples) = read(dir, out)?;
    let mut rows: Vec<Row> = Vec::new();
    let mut n = 0;
    let mut last: Option<(String, String)> = None;
    for s in samples {
        let file = (s.workload.clone(), s.threads.clone());
        n = if last.as_ref() == Some(&file) { n + 1 } else { 1 };
        last = Some(file);
        rows.push(Row { metric: s.workload, a: s.kind.into(), b: s.threads, interval: n.to_string(), value: s.value });
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: the same samples added to `<workload>-<type>-<T>`, with `_Operations` every
/// type seen (sorted) × workload × T.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let (workloads, threads, samples) = read(dir, out)?;
    let mut kinds: Vec<&str> = samples.iter().map(|s| s.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for s in &samples {
        let op = format!("{}-{}-{}", s.workload, s.kind, s.threads);
        match s.number {
            Some(v) => out.add(&op, v),
            None => out.add_text(&op, &s.value),
        }
    }
    let mut ops = Vec::new();
    for k in kinds {
        for wl in &workloads {
            for t in &threads {
                ops.push(format!("{wl}-{k}-{t}"));
            }
        }
    }
    out.set_order(ops);
    Ok(())
}
