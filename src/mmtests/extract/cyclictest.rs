//! rt-tests' cyclictest as MMTests reads it: with `--histogram`, `cyclictest-histogram.log`
//! ends with `# Min Latencies: 00020 00021 ...` (one zero-padded value per thread, also `Avg`,
//! `Max` and `# Histogram Overflows:`); without, `cyclictest.log` (xz-compressed) holds the
//! `--quiet` summary `T: <n> (<tid>) P:99 I:1000 C: <c> Min: <n> Act: <n> Avg: <n> Max: <n>`.
//! 2025's `ExtractCyclictest.pm` reads the summary if there is one, else the histogram,
//! 2024's the summary only (head's `parse-results` calls a subroutine its
//! `extract-report.pl` does not define, so head reads neither).

use super::{Ctx, Samples};
use crate::error::{Error, Result};
use crate::mmtests::era::Era;
use crate::mmtests::logfile::LogDir;
use regex::Regex;
use std::sync::OnceLock;

/// The histogram's summary lines as `(op, [value per thread])`: `Min`/`Avg`/`Max` from `#
/// <op> Latencies: <values>` (any three characters), `Overflow` from `# Histogram
/// Overflows:`. The values are the line split on single spaces with leading zeros removed
/// (`00000` becomes empty: no number), and the last one is left out (the module's loop
/// stops before `$#values`).
fn histogram(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<Vec<(String, Vec<String>)>> {
    let Some(log) = dir.open_log("cyclictest-histogram.log")? else {
        return Err(Error::insufficient(format!(
            "benchmark '{}': no cyclictest-histogram.log under {} (MMTests dies with \"Failed to open\")",
            ctx.benchmark,
            dir.display()
        )));
    };
    out.files_read += 1;
    let mut found = Vec::new();
    for line in log.lines() {
        crate::cancel::check()?;
        let (op, values) = if let Some(rest) = line.strip_prefix("# Histogram Overflows: ") {
            ("Overflow".to_string(), rest)
        } else {
            let Some(rest) = line.strip_prefix("# ") else { continue };
            let Some(op) = rest.get(..3) else { continue };
            let Some(values) = rest.get(3..).and_then(|r| r.strip_prefix(" Latencies: ")) else { continue };
            (op.to_string(), values)
        };
        let mut v: Vec<&str> = values.split(' ').collect();
        // split drops trailing empty fields
        while v.last().is_some_and(|s| s.is_empty()) {
            v.pop();
        }
        v.pop();
        found.push((op, v.into_iter().map(|s| s.trim_start_matches('0').to_string()).collect()));
    }
    Ok(found)
}

/// 2024/2025: the summary `cyclictest.log` (through `open_log`) when 2024, or when it
/// exists (2025): per line `^T: <one character> ...Avg: <n>...Max: <n>`, samples of
/// `Avg-<c>` and `Max-<c>` (2025 orders the operations all `Avg` then all `Max`, threads
/// as text); otherwise (2025) the histogram: samples of `<op>-<c>`.
pub fn legacy(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    if ctx.era == Era::E2025 && !dir.is_file("cyclictest.log") {
        for (op, values) in histogram(ctx, dir, out)? {
            for (cpu, value) in values.into_iter().enumerate() {
                out.add_text(&format!("{op}-{cpu}"), &value);
            }
        }
        return Ok(());
    }
    static SUMMARY: OnceLock<Option<Regex>> = OnceLock::new();
    let re = SUMMARY
        .get_or_init(|| Regex::new(r"^T: ([0-9+]) .*Avg:\s+([0-9]+).*Max:\s+([0-9]+)").ok())
        .as_ref()
        .ok_or_else(|| Error::domain("schedlab bug: the cyclictest pattern does not compile"))?;
    // open_log of a missing file gives an undefined handle: no line, no sample
    let Some(log) = dir.open_log("cyclictest.log")? else { return Ok(()) };
    out.files_read += 1;
    let mut cpus: Vec<String> = Vec::new();
    for line in log.lines() {
        crate::cancel::check()?;
        let Some(c) = re.captures(line) else { continue };
        let g = |i: usize| c.get(i).map_or("", |m| m.as_str());
        out.add_text(&format!("Avg-{}", g(1)), g(2));
        out.add_text(&format!("Max-{}", g(1)), g(3));
        if !cpus.iter().any(|x| x == g(1)) {
            cpus.push(g(1).to_string());
        }
    }
    if ctx.era == Era::E2025 {
        cpus.sort();
        let ops = ["Avg", "Max"].iter().flat_map(|m| cpus.iter().map(move |c| format!("{m}-{c}"))).collect();
        out.set_order(ops);
    }
    Ok(())
}
