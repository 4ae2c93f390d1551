//! rt-tests' pmqtest (`pmqtest.log`, its `--quiet` summary: one `#<a> -> #<b>, Min <n>, Cur
//! <n>, Avg <n>, Max <n>` line per sender/receiver pair, in microseconds), as head's
//! `pmqtest/extract-report.pl` and 2024/2025's `ExtractPmqtest.pm` read it.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::logfile::LogDir;
use regex::Regex;
use std::sync::OnceLock;

/// Each pair line of `pmqtest.log` as `(pair, [min, avg, max])`, the pair written `a->b`;
/// the module dies without the file.
fn pairs(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, [String; 3])>> {
    static PAIR: OnceLock<Option<Regex>> = OnceLock::new();
    let re = PAIR
        .get_or_init(|| {
            Regex::new(r"#+([0-9]+) -> #+([0-9]+), Min\s+([0-9]+), Cur\s+([0-9]+), Avg\s+([0-9]+), Max\s+([0-9]+)").ok()
        })
        .as_ref()
        .ok_or_else(|| Error::domain("schedlab bug: the pmqtest pattern does not compile"))?;
    if !dir.is_file("pmqtest.log") {
        return Err(Error::insufficient(format!(
            "benchmark '{}': no pmqtest.log under {} (MMTests' module dies with \"Failed to open data file\")",
            ctx.benchmark,
            dir.display()
        )));
    }
    let log = dir.read("pmqtest.log")?;
    out.files_read += 1;
    let mut found = Vec::new();
    for line in log.lines() {
        crate::cancel::check()?;
        let Some(c) = re.captures(line) else { continue };
        let g = |i: usize| c.get(i).map_or(String::new(), |m| m.as_str().to_string());
        found.push((format!("{}->{}", g(1), g(2)), [g(3), g(5), g(6)]));
    }
    Ok(found)
}

/// head: per pair, the rows `Min-<pair> _ _ 1 <min>`, then `Avg-`, `Max-`, unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let mut rows = Vec::new();
    for (pair, values) in pairs(ctx, dir, out)? {
        for (metric, value) in ["Min", "Avg", "Max"].into_iter().zip(values) {
            rows.push(Row {
                metric: format!("{metric}-{pair}"),
                a: "_".into(),
                b: "_".into(),
                interval: "1".into(),
                value,
            });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}

/// 2024/2025: per pair, samples of `Min-<pair>`, `Avg-<pair>`, `Max-<pair>`.
pub fn legacy(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    for (pair, values) in pairs(ctx, dir, out)? {
        for (metric, value) in ["Min", "Avg", "Max"].into_iter().zip(values) {
            out.add_text(&format!("{metric}-{pair}"), &value);
        }
    }
    Ok(())
}
