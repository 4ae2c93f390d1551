//! fio's `t/io_uring` output (io_uring: `t-io_uring.log`, a line `IOPS=<x><K|M>, ...` per
//! second, then `Maximum IOPS=<x><K|M>`), as head's `io_uring/parse-results.awk` and
//! 2024/2025's `ExtractIo_uring.pm` read it (docs/mmtests-extract.md).

use super::awk_bench::awk_number;
use super::pattern::compiled;
use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;

/// The thousands a unit letter stands for (`K` 1, `M` 1000; gawk's unset array entry: 0).
fn mult(unit: &str) -> f64 {
    match unit {
        "K" => 1.0,
        "M" => 1000.0,
        _ => 0.0,
    }
}

/// head: each line holding `IOPS=` (the `Maximum IOPS=` line too), gawk's `match($0,
/// /=([0-9.]+)([A-Z])/, arr)`: `arr[1] * mult[arr[2]]` (0 when nothing matches) is the row
/// `IOops 1 _ <n> <value>`, n counting the lines; unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    if !dir.is_file("t-io_uring.log") {
        return Ok(()); // the shell cannot redirect from a missing file: no rows
    }
    let log = dir.read("t-io_uring.log")?;
    out.files_read += 1;
    let re = compiled(r"=([0-9.]+)([A-Z])")?;
    let mut rows = Vec::new();
    for line in log.lines().filter(|l| l.contains("IOPS=")) {
        let v = re
            .captures(line)
            .map_or(0.0, |c| numify(c.get(1).map_or("", |m| m.as_str())) * mult(c.get(2).map_or("", |m| m.as_str())));
        let n = rows.len() + 1;
        rows.push(Row {
            metric: "IOops".into(),
            a: "1".into(),
            b: "_".into(),
            interval: n.to_string(),
            value: awk_number(v),
        });
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: each line starting `IOPS=<x><M|K>` adds x times 1000 (M) or 1 (K) to `kIOPS`.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let Some(log) = dir.open_log("t-io_uring.log")? else { return Ok(()) };
    out.files_read += 1;
    let re = compiled(r"^IOPS=([0-9.]+)([MK])")?;
    for line in log.lines() {
        if let Some(c) = re.captures(line) {
            out.add("kIOPS", numify(c.get(1).map_or("", |m| m.as_str())) * mult(c.get(2).map_or("", |m| m.as_str())));
        }
    }
    Ok(())
}
