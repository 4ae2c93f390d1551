//! schbench: wakeup/request latency and RPS percentiles of `schbench-<W>.log`.
//! 2018 (and 2024): old schbench, one value per `<q>th-qrtle-<W>` (Singleops);
//! 2025: every interval block but the final one, `<Metric>-<q>th-<W>` and
//! `<Metric>-max-<W>`; head: the parse-results.awk labels `<Metric>-<q.q>th-<W>`.
//! Reference: docs/mmtests.md §8.5.

use super::{fields, split_prefix, Ctx, Extractor, Meta, Samples};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{sort_numeric, LogDir};
use crate::mmtests::summarise::SummaryKind;

/// The schbench family.
pub struct Schbench;

/// A percentile line `[ \t*]+(\d+\.\d+)th: (\d+)`: (q, value, rest after value).
fn pct_line(line: &str) -> Option<(&str, &str, &str)> {
    let digit = |c: char| c.is_ascii_digit();
    let (lead, rest) = split_prefix(line, |c| matches!(c, ' ' | '\t' | '*'));
    let (int, after_int) = split_prefix(rest, digit);
    let (frac, after_frac) = split_prefix(after_int.strip_prefix('.')?, digit);
    if lead.is_empty() || int.is_empty() || frac.is_empty() {
        return None;
    }
    let q = rest.get(..int.len() + 1 + frac.len())?;
    let (v, tail) = split_prefix(after_frac.strip_prefix("th: ")?, digit);
    if v.is_empty() {
        return None;
    }
    Some((q, v, tail))
}

/// `(N samples` → N.
fn samples_count(rest: &str) -> Option<f64> {
    let (_, t) = rest.rsplit_once('(')?;
    let (n, tail) = split_prefix(t, |c| c.is_ascii_digit());
    if n.is_empty() || !tail.starts_with(" samples") {
        return None;
    }
    n.parse().ok()
}

/// `... (N total samples` → N.
fn total_samples(line: &str) -> Option<f64> {
    let (head, _) = line.rsplit_once(" total samples")?;
    let (_, n) = head.rsplit_once('(')?;
    n.parse().ok()
}

impl Extractor for Schbench {
    fn family(&self) -> &'static str {
        "schbench"
    }
    fn handles(&self, _era: Era, benchmark: &str) -> bool {
        benchmark == "schbench"
    }
    fn meta(&self, ctx: &Ctx) -> Meta {
        let higher = ctx.subheading == "RPS" && matches!(ctx.era, Era::E2025 | Era::Head);
        let kind = match ctx.era {
            Era::E2018 | Era::E2024 => SummaryKind::Singleops,
            Era::E2025 => SummaryKind::Multiops,
            Era::Head => SummaryKind::Normalisedops,
        };
        Meta {
            preferred: if higher { Preferred::Higher } else { Preferred::Lower },
            kind,
            field_length: None,
            precision: 2,
            value_label: "Lat".into(),
            ratio_preferred: None,
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let names = dir.list()?;
        let mut workers: Vec<String> = names
            .iter()
            .filter_map(|n| n.strip_prefix("schbench-")?.strip_suffix(".log"))
            .map(str::to_string)
            .collect();
        sort_numeric(&mut workers);
        for w in workers {
            crate::cancel::check()?;
            let log = dir.read(&format!("schbench-{w}.log"))?;
            out.files_read += 1;
            match ctx.era {
                Era::E2018 | Era::E2024 => old_format(log.lines(), &w, out),
                Era::E2025 => blocks_2025(log.lines(), &w, out),
                Era::Head => blocks_head(ctx, log.lines(), &w, out),
            }
        }
        Ok(())
    }
}

/// 2018: every percentile line; q loses one trailing "00" (99.0000 → 99.00);
/// operation `<q>th-qrtle-<W>`; the 99th percentiles are the ratio operations.
fn old_format<'a>(lines: impl Iterator<Item = &'a str>, w: &str, out: &mut Samples) {
    for line in lines {
        if let Some((q, v, _)) = pct_line(line) {
            let q = q.strip_suffix("00").unwrap_or(q);
            let op = format!("{q}th-qrtle-{w}");
            if q.starts_with("99.0") && !out.ratio_operations().is_some_and(|r| r.contains(&op)) {
                out.push_ratio_op(&op);
            }
            out.add_text(&op, v);
        }
    }
}

/// 2025's ExtractSchbench: the final (whole-run) block is dropped, a sample is
/// kept only when its sample count is positive, and the ratio operations
/// (Wakeup/Request 99th, RPS 50th) are pushed once per interval read.
fn blocks_2025<'a>(lines: impl Iterator<Item = &'a str> + Clone, w: &str, out: &mut Samples) {
    let nint =
        lines.clone().filter(|l| l.starts_with("Wakeup Latencies percentiles") && total_samples(l).is_some()).count();
    let mut interval = 0usize;
    let mut reading = false;
    let mut metric = String::new();
    for line in lines {
        if let Some((m, _)) = line.split_once(" Latencies percentiles") {
            if !m.is_empty() && m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                if let Some(total) = total_samples(line) {
                    metric = m.to_string();
                    if metric == "Wakeup" {
                        interval += 1;
                    }
                    reading = interval != nint && total > 0.0;
                    if reading && metric == "Wakeup" {
                        for op in [format!("Wakeup-99th-{w}"), format!("Request-99th-{w}"), format!("RPS-50th-{w}")] {
                            out.push_ratio_op(&op);
                        }
                    }
                    continue;
                }
            }
        }
        if line.starts_with("RPS percentiles") {
            metric = "RPS".into();
            continue;
        }
        if !reading {
            continue;
        }
        if let Some((q, v, rest)) = pct_line(line) {
            let q = q.strip_suffix(".0").unwrap_or(q);
            if samples_count(rest).is_some_and(|c| c > 0.0) {
                out.add_text(&format!("{metric}-{q}th-{w}"), v);
            }
        } else if let Some((_, t)) = line.split_once("max=") {
            let (n, _) = split_prefix(t, |c| c.is_ascii_digit());
            if !n.is_empty() {
                out.add_text(&format!("{metric}-max-{w}"), n);
            }
        }
    }
}

/// head's parse-results.awk: the 20/50/90/99/99.9th lines of a block are emitted
/// when a `current rps` line follows (so the final block is dropped); label
/// `<Metric>-<q>th-<W>` with q as printed (e.g. 99.0).
fn blocks_head<'a>(ctx: &Ctx, lines: impl Iterator<Item = &'a str>, w: &str, out: &mut Samples) {
    let mut metric = String::new();
    let mut pending: Vec<(String, String)> = Vec::new();
    for line in lines {
        if let Some((m, _)) = line.split_once(" Latencies percentiles") {
            metric = m.to_string();
            continue;
        }
        if line.starts_with("RPS percentiles") {
            metric = "RPS".into();
            continue;
        }
        if line.starts_with("current rps") {
            for (label, v) in pending.drain(..) {
                if ctx.subheading.is_empty()
                    || crate::mmtests::summarise::subheading_matches(&ctx.subheading, &label, false)
                {
                    out.add_text(&label, &v);
                }
            }
            continue;
        }
        if line.starts_with("average rps") {
            pending.clear();
            continue;
        }
        if let Some((q, v, _)) = pct_line(line) {
            if matches!(q, "20.0" | "50.0" | "90.0" | "99.0" | "99.9") && !metric.is_empty() {
                pending.push((format!("{metric}-{q}th-{w}"), v.to_string()));
            }
        }
        let _ = fields(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_lines() {
        assert_eq!(
            pct_line("\t* 99.0th: 26         (23233 samples)"),
            Some(("99.0", "26", "         (23233 samples)"))
        );
        assert_eq!(pct_line("\t*99.0000th: 26"), Some(("99.0000", "26", "")));
        assert_eq!(pct_line("99.0th: 26"), None);
        assert_eq!(samples_count("         (23233 samples)"), Some(23233.0));
        assert_eq!(
            total_samples("Wakeup Latencies percentiles (usec) runtime 10 (s) (123456 total samples)"),
            Some(123456.0)
        );
    }
}
