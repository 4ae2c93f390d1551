//! stutterp's mmap latencies (`mmap-latency-<W>.log.gz` per worker count W: `mmap-latency`
//! prints `<count> <mean ns>` each time one map-fault-unmap cycle exceeds its threshold, the
//! mean over the `count` cycles since the last line), as head's `stutterp/parse-results` and
//! 2024/2025's `ExtractStutterp.pm` read them: each line stands for `count` samples of its
//! mean (docs/mmtests-extract.md).

use super::shellpack::{emit, sort_rows, Key, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::perlfmt::numify;

/// A line's count, bounded: a log is refused rather than expanded past this many samples.
const MAX_SAMPLES: u64 = 10_000_000;

/// The worker counts of `mmap-latency-*.log.gz`.
fn workers(names: &[String]) -> Vec<String> {
    let mut v: Vec<String> =
        glob_middle(names, "mmap-latency-", ".log.gz").into_iter().map(|(_, m)| m.to_string()).collect();
    sort_numeric(&mut v);
    v
}

/// The (count, mean ns) lines of one log.
fn lines(dir: &LogDir<'_>, w: &str, out: &mut Samples) -> Result<Vec<(u64, String)>> {
    let Some(log) = dir.open_log(&format!("mmap-latency-{w}.log"))? else { return Ok(Vec::new()) };
    out.files_read += 1;
    let mut total = 0u64;
    let mut v = Vec::new();
    for (n, line) in log.lines().enumerate() {
        let mut f = line.splitn(2, ' ');
        let count = numify(f.next().unwrap_or_default());
        let count = if count.is_finite() && count > 0.0 { count.ceil() as u64 } else { 0 };
        total = total.saturating_add(count);
        if total > MAX_SAMPLES {
            return Err(Error::parse(
                Some(&log.name()),
                Some(n + 1),
                format!("more than {MAX_SAMPLES} latency samples (each line stands for <count> of them)"),
            ));
        }
        v.push((count, f.next().unwrap_or_default().to_string()));
    }
    Ok(v)
}

/// head: per W (`ls mmap-latency-*.log.gz`, awk's third `-` field without `.log.gz`), each line
/// `read NR LATENCY` gives NR rows `mmap W _ <n> <LATENCY/1000>` (bash's integer division, in
/// µs), n counting per W; sorted `sort -k1,1 -k2,2n -k4,4n`.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    let mut rows = Vec::new();
    for w in workers(&names) {
        crate::cancel::check()?;
        let mut n = 0u64;
        for (count, latency) in lines(dir, &w, out)? {
            let us = latency.trim().parse::<i64>().map(|v| v / 1000).map_err(|_| {
                Error::parse(
                    Some(&dir.display()),
                    None,
                    format!("mmap-latency-{w}.log.gz: latency '{latency}' is not an integer (bash's $((LATENCY/1000)) fails)"),
                )
            })?;
            for _ in 0..count {
                n += 1;
                rows.push(Row {
                    metric: "mmap".into(),
                    a: w.clone(),
                    b: "_".into(),
                    interval: n.to_string(),
                    value: us.to_string(),
                });
            }
        }
    }
    sort_rows(&mut rows, &[Key::Metric, Key::A, Key::Interval]);
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: per W of `discover_scaling_parameters("mmap-latency-", ".log.gz")`, each line's
/// mean / 10^6 (ms) added `count` times to `mmap-W`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let names = dir.list()?;
    for w in workers(&names) {
        crate::cancel::check()?;
        for (count, latency) in lines(dir, &w, out)? {
            let ms = numify(&latency) / 1_000_000.0;
            for _ in 0..count {
                out.add(&format!("mmap-{w}"), ms);
            }
        }
    }
    Ok(())
}
