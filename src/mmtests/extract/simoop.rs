//! simoop's report (`simoop.log`: every interval `Run time: <s> seconds` and a line `<Op> latency
//! usec: (p50: n) (p95: n) (p99: n) (max: n)` per operation, numbers with thousands commas;
//! `Warmup complete` ends the warm-up, `Final stats` starts the summary), as head's
//! `simoop/extract-report.pl` (through its `parse-results`) and 2024/2025's `ExtractSimoop.pm`
//! read it (docs/mmtests-extract.md).

use super::pattern::compiled;
use super::shellpack::{emit, mark_ratio, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{LogDir, LogFile};
use crate::mmtests::perlfmt::looks_like_number;

fn log(dir: &LogDir<'_>, out: &mut Samples) -> Result<LogFile> {
    if !dir.is_file("simoop.log") {
        return Err(Error::parse(
            Some(&dir.join("simoop.log")),
            None,
            "no simoop.log (compare-mmtests.pl dies: `Failed to open simoop.log`)",
        ));
    }
    out.files_read += 1;
    dir.read("simoop.log")
}

/// head: from `Warmup complete` to `Final stats`, `Run time: <s>` sets the interval and each
/// latency line of `Read`, `Write` or `Allocation` gives the rows `p50-<Op>`, `p95-<Op>` (a
/// ratio row), `p99-<Op>`, `max-<Op>` (commas removed). The script prints a line's rows when
/// the next such line comes: the last line's rows are never printed.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let log = log(dir, out)?;
    let time = compiled(r"Run time: ([0-9]*) seconds")?;
    let lat = compiled(
        r"([a-zA-Z]*) latency usec: \(p50: ([0-9,]*)\) \(p95: ([0-9,]*)\) \(p99: ([0-9,]*)\) \(max: ([0-9,]*)\)",
    )?;
    let (mut reading, mut stamp) = (false, String::new());
    let (mut rows, mut last) = (Vec::new(), Vec::new());
    for line in log.lines() {
        if line.starts_with("Warmup complete") {
            reading = true;
        }
        if line.starts_with("Final stats") {
            reading = false;
        }
        if !reading {
            continue;
        }
        if let Some(c) = time.captures(line) {
            stamp = c.get(1).map_or("", |m| m.as_str()).to_string();
            continue;
        }
        let Some(c) = lat.captures(line) else { continue };
        let op = c.get(1).map_or("", |m| m.as_str());
        if !matches!(op, "Read" | "Write" | "Allocation") {
            continue;
        }
        rows.append(&mut last);
        for (k, p) in ["p50", "p95", "p99", "max"].into_iter().enumerate() {
            let v = c.get(k + 2).map_or("", |m| m.as_str()).replace(',', "");
            last.push(Row {
                metric: format!("{p}-{op}"),
                a: "_".into(),
                b: "_".into(),
                interval: stamp.clone(),
                value: v,
            });
        }
    }
    emit(ctx, &rows, out);
    mark_ratio(out, rows.iter().filter(|r| r.metric.starts_with("p95-")));
    Ok(())
}

/// 2024/2025: from `Warmup complete` on (the summary too), `Run time: <s>` sets the sample
/// number and each latency line `<Op> latency usec: (p50: n) (p95: n) (p99: n)` adds `p50-<Op>`,
/// `p95-<Op>`, `p99-<Op>` (any word as Op, commas removed); at the end `final-p50-<Op>`,
/// `final-p95-<Op>`, `final-p99-<Op>` for Read, Write, Allocation get the last line's values
/// (none: no sample). `addData` keeps no sample while the sample number is not a number (no
/// `Run time:` yet).
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let log = log(dir, out)?;
    let time = compiled(r"Run time: ([0-9]*) seconds")?;
    let lat = compiled(r"([a-zA-Z]*) latency usec: \(p50: ([0-9,]*)\) \(p95: ([0-9,]*)\) \(p99: ([0-9,]*)\)")?;
    let (mut reading, mut stamp) = (false, String::new());
    let mut last: std::collections::HashMap<String, [String; 3]> = Default::default();
    let add = |out: &mut Samples, stamp: &str, label: &str, v: Option<&String>| match v {
        Some(v) if looks_like_number(stamp) => out.add_text(label, v),
        _ => out.register(label),
    };
    for line in log.lines() {
        if line.starts_with("Warmup complete") {
            reading = true;
        }
        if !reading {
            continue;
        }
        if let Some(c) = time.captures(line) {
            stamp = c.get(1).map_or("", |m| m.as_str()).to_string();
            continue;
        }
        let Some(c) = lat.captures(line) else { continue };
        let op = c.get(1).map_or("", |m| m.as_str());
        let v = |k: usize| c.get(k).map_or("", |m| m.as_str()).replace(',', "");
        let values = [v(2), v(3), v(4)];
        for (p, x) in ["p50", "p95", "p99"].iter().zip(&values) {
            add(out, &stamp, &format!("{p}-{op}"), Some(x));
        }
        last.insert(op.to_string(), values);
    }
    for op in ["Read", "Write", "Allocation"] {
        for (k, p) in ["p50", "p95", "p99"].into_iter().enumerate() {
            add(out, &stamp, &format!("final-{p}-{op}"), last.get(op).and_then(|v| v.get(k)));
        }
    }
    Ok(())
}
