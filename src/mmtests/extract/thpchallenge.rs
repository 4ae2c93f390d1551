//! thpchallenge's output (`threads-<T>.log.gz` per thread count: a line `fault <thread>
//! <huge|base> <latency µs> <sec>.<usec> <local>` per huge page's worth of memory faulted), as
//! head's `thpchallenge/extract-report.pl` (through its `parse-results`) and 2024/2025's
//! `ExtractThpchallenge.pm` (`ExtractThpcompact`) read it (docs/mmtests-extract.md).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};

/// A thread count and its faults, each (kind, latency).
type Faults = (String, Vec<(String, String)>);

/// Per thread count T of `discover_scaling_parameters("threads-", ".log.gz")`, the faults of
/// `threads-T.log` (`open_log`): per line starting `fault`, the third and fourth fields of
/// `split(/\s+/)` (the page kind and the latency).
fn faults(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<Faults>> {
    let names = dir.list()?;
    let mut threads: Vec<String> =
        glob_middle(&names, "threads-", ".log.gz").into_iter().map(|(_, m)| m.into()).collect();
    sort_numeric(&mut threads);
    let mut all = Vec::new();
    for t in threads {
        crate::cancel::check()?;
        let Some(log) = dir.open_log(&format!("threads-{t}.log"))? else { continue };
        out.files_read += 1;
        let faults = log
            .lines()
            .filter(|l| l.starts_with("fault"))
            .map(|l| {
                let e = super::perl_split_ws(l);
                let get = |k: usize| e.get(k).copied().unwrap_or_default().to_string();
                (get(2), get(3))
            })
            .collect();
        all.push((t, faults));
    }
    Ok(all)
}

/// Whether `faults` has one of `kind` (else both scripts add a fault of 0 for it).
fn seen(faults: &[(String, String)], kind: &str) -> bool {
    faults.iter().any(|(k, _)| k == kind)
}

/// head: per T, per fault k (from 1) the rows `fault-<kind> T _ k <µs>` and `fault-both T _ k
/// <µs>`, then `fault-base T _ 1 0` / `fault-huge T _ 1 0` for a kind never seen; unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    let row = |metric: String, t: &str, k: usize, v: &str| Row {
        metric,
        a: t.to_string(),
        b: "_".into(),
        interval: k.to_string(),
        value: v.to_string(),
    };
    for (t, faults) in faults(dir, out)? {
        for (k, (kind, v)) in faults.iter().enumerate() {
            rows.push(row(format!("fault-{kind}"), &t, k + 1, v));
            rows.push(row("fault-both".into(), &t, k + 1, v));
        }
        for kind in ["base", "huge"] {
            if !seen(&faults, kind) {
                rows.push(row(format!("fault-{kind}"), &t, 1, "0"));
            }
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: the same samples added to `fault-<kind>-T` and `fault-both-T`; `_Operations`
/// `fault-base-T` for every T, then `fault-huge-T`, then `fault-both-T`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let all = faults(dir, out)?;
    for (t, faults) in &all {
        for (kind, v) in faults {
            out.add_text(&format!("fault-{kind}-{t}"), v);
            out.add_text(&format!("fault-both-{t}"), v);
        }
        for kind in ["base", "huge"] {
            if !seen(faults, kind) {
                out.add(&format!("fault-{kind}-{t}"), 0.0);
            }
        }
    }
    out.set_order(
        ["base", "huge", "both"].iter().flat_map(|k| all.iter().map(move |(t, _)| format!("fault-{k}-{t}"))).collect(),
    );
    Ok(())
}
