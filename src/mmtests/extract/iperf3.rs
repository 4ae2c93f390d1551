//! iperf3's verbose client report (`-V -f m`), one file `<proto>-<size>-<rate>-<streams>.<I>`
//! per buffer size, bit rate, stream count and iteration, the protocol named in
//! `protocols`: after `Summary Results:` the first 2 × streams lines `[ <id>] ...` are
//! each stream's `sender` and `receiver` totals, whose fifth field (after the id) is the
//! bit rate in Mbits/sec. Read as 2024/2025's `ExtractIperf3.pm` and head's
//! `iperf3/extract-report.pl` read it: the streams' rates are summed per file.

use super::shellpack::{emit, Row};
use super::{Ctx, Samples};
use crate::error::Result;
use crate::mmtests::logfile::{sort_numeric, LogDir};
use crate::mmtests::monitors::perl_split_ws;
use crate::mmtests::perlfmt::{numify, perl_str};

/// One file's totals.
struct Run {
    size: String,
    rate: String,
    streams: String,
    send: f64,
    recv: f64,
}

/// `sort_unique`: distinct values, numeric order.
fn unique(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    sort_numeric(&mut v);
    v
}

/// The sender and receiver totals of one report.
fn totals(text: &crate::mmtests::logfile::LogFile, streams: &str) -> (f64, f64) {
    let (mut send, mut recv, mut vals) = (0.0, 0.0, 0.0);
    for line in text.lines() {
        if line.contains("Summary Results:") {
            vals = 2.0 * numify(streams);
        }
        if vals == 0.0 {
            continue;
        }
        // ^\[ *[0-9]+\] +
        let Some(rest) = line.strip_prefix('[') else { continue };
        let rest = rest.trim_start_matches(' ');
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let Some(after) = rest.get(digits..).and_then(|r| r.strip_prefix("] ")) else { continue };
        if digits == 0 {
            continue;
        }
        let body = after.trim_start_matches(' ');
        let rate = numify(perl_split_ws(body).get(4).copied().unwrap_or_default());
        if body.contains("sender") {
            send += rate;
            vals -= 1.0;
        } else if body.contains("receiver") {
            recv += rate;
            vals -= 1.0;
        }
        if vals == 0.0 {
            break;
        }
    }
    (send, recv)
}

/// Every report in the order the modules read them (per size, rate and stream count in
/// numeric order, the iterations in glob order).
fn runs(dir: &LogDir<'_>, out: &mut Samples) -> Result<(Vec<Run>, [Vec<String>; 3])> {
    // a plain open: without the file the protocol is empty
    let protocol = if dir.is_file("protocols") {
        dir.read("protocols")?.lines().next().unwrap_or_default().to_string()
    } else {
        String::new()
    };
    let names = dir.list()?;
    let firsts: Vec<Vec<&str>> = names
        .iter()
        .filter(|n| n.starts_with(&format!("{protocol}-")) && n.ends_with(".1"))
        .map(|n| n.split('-').collect())
        .collect();
    let field = |i: usize| -> Vec<String> {
        firsts
            .iter()
            .map(|e| {
                let f = e.get(i).copied().unwrap_or_default();
                if i == 3 { f.strip_suffix(".1").unwrap_or(f) } else { f }.to_string()
            })
            .collect()
    };
    let (sizes, rates, streams) = (unique(field(1)), unique(field(2)), unique(field(3)));
    let mut found = Vec::new();
    for size in &sizes {
        for rate in &rates {
            for s in &streams {
                let prefix = format!("{protocol}-{size}-{rate}-{s}.");
                for name in names.iter().filter(|n| n.starts_with(&prefix)) {
                    crate::cancel::check()?;
                    let log = dir.read(name)?;
                    out.files_read += 1;
                    let (send, recv) = totals(&log, s);
                    found.push(Run { size: size.clone(), rate: rate.clone(), streams: s.clone(), send, recv });
                }
            }
        }
    }
    Ok((found, [sizes, rates, streams]))
}

/// 2024/2025: samples of `send-<size>-<rate>-<streams>` and `recv-...`; the operations are
/// every send, then every receive.
pub fn legacy(_ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let (found, [sizes, rates, streams]) = runs(dir, out)?;
    for r in &found {
        out.add(&format!("send-{}-{}-{}", r.size, r.rate, r.streams), r.send);
        out.add(&format!("recv-{}-{}-{}", r.size, r.rate, r.streams), r.recv);
    }
    let mut ops = Vec::new();
    for direction in ["send", "recv"] {
        for size in &sizes {
            for rate in &rates {
                for s in &streams {
                    ops.push(format!("{direction}-{size}-{rate}-{s}"));
                }
            }
        }
    }
    out.set_order(ops);
    Ok(())
}

/// head: per report the rows `send <size> <rate>-<streams> k <Mbits>` and `recv ...`, k
/// counting per (size, rate, streams), unsorted.
pub fn head(ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
    let (found, _) = runs(dir, out)?;
    let mut rows = Vec::new();
    let mut k = 0;
    let mut last = String::new();
    for r in found {
        let b = format!("{}-{}", r.rate, r.streams);
        let key = format!("{}-{b}", r.size);
        k = if key == last { k + 1 } else { 1 };
        last = key;
        for (metric, v) in [("send", r.send), ("recv", r.recv)] {
            rows.push(Row {
                metric: metric.into(),
                a: r.size.clone(),
                b: b.clone(),
                interval: k.to_string(),
                value: perl_str(v),
            });
        }
    }
    emit(ctx, &rows, out);
    Ok(())
}
