//! SPECjbb2005's reports (specjbb: the results directory moved to `<pages>/` of the log
//! directory, `<pages>` being `base`, `transhuge` or `default`; one JVM writes
//! `SPECjbbSingleJVM/SPECjbb.001.txt`, whose `SPEC scores` table lists each warehouse count's
//! throughput, `*` marking those in the score), as head's `specjbb/extract-report.pl` (through
//! its `parse-results`) and 2024/2025's `ExtractSpecjbb.pm` read them
//! (docs/mmtests-extract.md).

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::LogDir;
use crate::mmtests::perlfmt::numify;
use std::collections::HashMap;

/// The (warehouses, n, throughput) samples in report order, n counting each warehouse count's
/// appearances: after the line holding `SPEC scores`, the lines after the one holding
/// `Warehouses` up to a line of blanks; of each, the fields of `split(/\s+/)` after the first,
/// `*` (in the score) skipped.
fn samples(dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, usize, String)>> {
    let exists = |rel: &str| dir.tree.is_dir(&dir.join(rel)) || dir.is_file(rel);
    let pages = ["base", "transhuge"].into_iter().find(|p| exists(p)).unwrap_or("default");
    if exists(&format!("{pages}/SPECjbbMultiJVM.001")) {
        return Err(Error::domain(format!(
            "{}: {pages}/SPECjbbMultiJVM.001 holds a multi-JVM SPECjbb run, which schedlab does not read yet \
             (only one JVM: {pages}/SPECjbbSingleJVM/SPECjbb.001.txt)",
            dir.display()
        )));
    }
    let file = format!("{pages}/SPECjbbSingleJVM/SPECjbb.001.txt");
    if !dir.is_file(&file) {
        return Err(Error::parse(
            Some(&dir.display()),
            None,
            format!("no {file} (the SPECjbb report; compare-mmtests.pl dies \"Failed to open\")"),
        ));
    }
    let log = dir.read(&file)?;
    out.files_read += 1;
    let (mut instance, mut reading) = (false, false);
    let mut count: HashMap<String, usize> = HashMap::new();
    let mut rows = Vec::new();
    for line in log.lines() {
        if line.contains("SPEC scores") {
            instance = true;
            continue;
        }
        if instance && line.contains("Warehouses") {
            reading = true;
            continue;
        }
        // /^\s+$/ with the line's newline: an empty line too
        if reading && line.chars().all(|c| c.is_ascii_whitespace()) {
            reading = false;
            continue;
        }
        if reading {
            let f = super::perl_split_ws(line);
            let f: Vec<&str> = f.into_iter().skip(1).collect();
            let (w, tp) = if f.first() == Some(&"*") { (f.get(1), f.get(2)) } else { (f.first(), f.get(1)) };
            let w = w.copied().unwrap_or_default().to_string();
            let n = count.entry(w.clone()).or_insert(0);
            *n += 1;
            rows.push((w, *n, tp.copied().unwrap_or_default().to_string()));
        }
    }
    Ok(rows)
}

/// head: each sample the row `tput <W> _ <n> <throughput>`, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let rows: Vec<Row> = samples(dir, out)?
        .into_iter()
        .map(|(w, n, tp)| Row { metric: "tput".into(), a: w, b: "_".into(), interval: n.to_string(), value: tp })
        .collect();
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: each sample added to `tput-<W>`, `_Operations` the warehouse counts in numeric
/// order.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let s = samples(dir, out)?;
    let mut ws: Vec<String> = Vec::new();
    for (w, _, tp) in &s {
        out.add_text(&format!("tput-{w}"), tp);
        if !ws.contains(w) {
            ws.push(w.clone());
        }
    }
    ws.sort_by(|a, b| crate::order::nan_last(numify(a), numify(b)));
    out.set_order(ws.into_iter().map(|w| format!("tput-{w}")).collect());
    Ok(())
}
