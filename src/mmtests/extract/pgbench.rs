//! pgbench's per-second aggregate log (`-l --aggregate-interval=1`, gzipped as
//! `pgbench-transactions-<C>.log.gz`: `interval_start num_transactions sum_latency ...`)
//! and its summary `pgbench-<C>.log` (`tps = ...`), as 2024/2025's `ExtractPgbench.pm` and
//! head's `pgbench/extract-report.pl` read them: transactions per second in batches of 4
//! seconds after a warm-up of 8.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir, LogFile};
use crate::mmtests::monitors::perl_split_ws;
use crate::mmtests::perlfmt::{numify, perl_str};

/// Seconds per batch.
const BATCH: usize = 4;

/// The client counts: `pgbench-*.log` without prefix and suffix, numeric order (the
/// shellpack's other `.log` files, such as `pgbench-init.log`, give names that have no
/// transaction log and add nothing).
fn clients(dir: &LogDir<'_>) -> Result<Vec<String>> {
    let names = dir.list()?;
    let mut c: Vec<String> = glob_middle(&names, "pgbench-", ".log").into_iter().map(|(_, m)| m.to_string()).collect();
    sort_numeric(&mut c);
    Ok(c)
}

/// A transaction log (when there is one) and its `(interval_start, num_transactions)` rows.
type Seconds = (Option<LogFile>, Vec<(f64, f64)>);

/// `(interval_start, num_transactions)` of each line of the client's transaction log
/// (none when it is missing: the module's handle is then undefined).
fn seconds(dir: &LogDir<'_>, client: &str, out: &mut Samples) -> Result<Seconds> {
    let Some(log) = dir.open_log(&format!("pgbench-transactions-{client}.log"))? else { return Ok((None, Vec::new())) };
    out.files_read += 1;
    let rows = log
        .lines()
        .map(|l| {
            let f = perl_split_ws(l);
            (numify(f.first().copied().unwrap_or_default()), numify(f.get(1).copied().unwrap_or_default()))
        })
        .collect();
    Ok((Some(log), rows))
}

/// 2024/2025: after the first 9 seconds, the mean of each full batch of 4 (1 when it is 0)
/// is a sample of the client count; with no batch, the `tps = ... (including` lines of
/// `pgbench-<C>.log` are.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for c in clients(dir)? {
        crate::cancel::check()?;
        let (_, rows) = seconds(dir, &c, out)?;
        let (mut batch, mut sum, mut readings) = (0, 0.0, 0);
        for (_, (_, n)) in rows.iter().enumerate().filter(|(i, _)| *i + 1 > 1 + 2 * BATCH) {
            batch += 1;
            sum += n;
            if batch % BATCH == 0 {
                let trans = sum / BATCH as f64;
                out.add(&c, if trans == 0.0 { 1.0 } else { trans });
                (batch, sum, readings) = (0, 0.0, readings + 1);
            }
        }
        if readings == 0 {
            if let Some(log) = dir.open_log(&format!("pgbench-{c}.log"))? {
                for line in log.lines() {
                    let Some(rest) = line.strip_prefix("tps = ") else { continue };
                    let (num, tail) = super::split_prefix(rest, |ch| ch.is_ascii_digit() || ch == '.');
                    if !num.is_empty() && tail.starts_with(" (including") {
                        out.add_text(&c, num);
                    }
                }
            }
        }
    }
    Ok(())
}

/// head: from the 8th second on, per full batch of 4 the transactions over the seconds
/// since the previous batch's end, as `txn C _ <elapsed> <rate>` (the first batch, timed
/// from the log's start, is not printed); unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut found = Vec::new();
    for c in clients(dir)? {
        crate::cancel::check()?;
        let (log, rows) = seconds(dir, &c, out)?;
        let (mut start, mut batch_start) = (0.0, 0.0);
        let (mut batch, mut sum, mut batches) = (0, 0.0, 0);
        for (i, &(t, n)) in rows.iter().enumerate() {
            if start == 0.0 {
                start = t;
            }
            if batch_start == 0.0 {
                batch_start = t;
            }
            if i + 1 < 2 * BATCH {
                continue;
            }
            batch += 1;
            sum += n;
            if batch % BATCH == 0 {
                if t == batch_start {
                    return Err(Error::parse(
                        log.as_ref().map(LogFile::name).as_deref(),
                        Some(i + 1),
                        "a batch that ends where it starts: MMTests' parse-results dies with \"Illegal division by zero\"",
                    ));
                }
                if batches > 0 {
                    found.push(Row {
                        metric: "txn".into(),
                        a: c.clone(),
                        b: "_".into(),
                        interval: perl_str(t - start),
                        value: perl_str(sum / (t - batch_start)),
                    });
                }
                (batches, batch_start, batch, sum) = (batches + 1, t, 0, 0.0);
            }
        }
    }
    emit(ctx, &found, out);
    Ok(())
}
