//! sockperf: `sockperf-{udp,tcp}-throughput` and `sockperf-{udp,tcp}-under-load`
//! (MMTests ExtractSockperfthroughput.pm / ExtractSockperfunderload.pm, E0–E2;
//! removed from MMTests in 2026, so not in `head`). Reference: docs/mmtests.md §8.2.

use super::{Ctx, Extractor, Meta, Samples};
use crate::error::Result;
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::summarise::SummaryKind;

/// The sockperf family.
pub struct Sockperf;

fn proto(benchmark: &str) -> Option<(&'static str, bool)> {
    match benchmark {
        "sockperf-udp-throughput" => Some(("udp", false)),
        "sockperf-tcp-throughput" => Some(("tcp", false)),
        "sockperf-udp-under-load" => Some(("udp", true)),
        "sockperf-tcp-under-load" => Some(("tcp", true)),
        _ => None,
    }
}

/// The Mbps figure of a `Summary: BandWidth is ... (X Mbps)` line, as the regex
/// `Summary: BandWidth is.*\(([0-9.]+) Mbps\)` captures it (the last match).
pub fn bandwidth_mbps(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("Summary: BandWidth is")?;
    let mut best = None;
    // what follows each '(' (up to the next one: " Mbps)" holds no '(')
    for after in rest.split('(').skip(1) {
        let (n, tail) = super::split_prefix(after, |c| c.is_ascii_digit() || c == '.');
        if !n.is_empty() && tail.starts_with(" Mbps)") {
            best = Some(n);
        }
    }
    best
}

impl Extractor for Sockperf {
    fn family(&self) -> &'static str {
        "sockperf"
    }
    fn handles(&self, era: Era, benchmark: &str) -> bool {
        era != Era::Head && proto(benchmark).is_some()
    }
    fn meta(&self, ctx: &Ctx) -> Meta {
        let under_load = proto(&ctx.benchmark).is_some_and(|p| p.1);
        Meta {
            preferred: if under_load { Preferred::Lower } else { Preferred::Higher },
            kind: if under_load { SummaryKind::Variabletime } else { SummaryKind::Multiops },
            field_length: None,
            precision: 2,
            value_label: "Ops".into(),
            ratio_preferred: None,
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let Some((p, under_load)) = proto(&ctx.benchmark) else { return Ok(()) };
        let names = dir.list()?;
        if under_load {
            return under_load_dir(p, dir, &names, out);
        }
        // sizes from <proto>-<size>-max-1.stdout, numerically sorted
        let mut sizes: Vec<String> =
            glob_middle(&names, &format!("{p}-"), "-max-1.stdout").into_iter().map(|(_, m)| m.to_string()).collect();
        sort_numeric(&mut sizes);
        for size in sizes {
            for (file, _) in glob_middle(&names, &format!("{p}-{size}-max-"), ".stdout") {
                let log = dir.read(file)?;
                out.files_read += 1;
                out.register(&size);
                let mut found = false;
                for (i, line) in log.lines().enumerate() {
                    crate::cancel::check_every(i)?;
                    if let Some(v) = bandwidth_mbps(line) {
                        out.add_text(&size, v);
                        found = true;
                    }
                }
                // sockperf stopped before its summary (a result file without a result)
                out.results_missing += usize::from(!found);
            }
        }
        Ok(())
    }
}

/// `sockperf-*-under-load`: full-log CSV lines `a, t_tx, t_rx` of
/// `<proto>-<size>-<rate>-1.log[.gz]`; RTT = (t_rx − t_tx)·10⁶/2 µs per line,
/// operation `size-<S>-rate-<R>`.
fn under_load_dir(p: &str, dir: &LogDir<'_>, names: &[String], out: &mut Samples) -> Result<()> {
    let mut runs: Vec<(String, String, String)> = Vec::new();
    for n in names {
        let stem = n.strip_suffix(".log.gz").or_else(|| n.strip_suffix(".log"));
        let Some(stem) = stem else { continue };
        let parts: Vec<&str> = stem.split('-').collect();
        if let [proto, size, rate, "1"] = parts[..] {
            if proto == p && rate != "max" {
                runs.push((size.to_string(), rate.to_string(), n.clone()));
            }
        }
    }
    runs.sort_by(|a, b| {
        let k = |s: &str| crate::mmtests::perlfmt::numify(s);
        crate::order::nan_last(k(&a.0), k(&b.0)).then(crate::order::nan_last(k(&a.1), k(&b.1)))
    });
    for (size, rate, file) in runs {
        let op = format!("size-{size}-rate-{rate}");
        let log = dir.read(&file)?;
        out.files_read += 1;
        out.register(&op);
        // an empty full log: sockperf stopped before the test (`_seqN > m_maxSequenceNo`)
        out.results_missing += usize::from(log.text.trim().is_empty());
        for (i, line) in log.lines().enumerate() {
            crate::cancel::check_every(i)?; // a full log holds a line per message
            let f: Vec<&str> = line.split(',').map(str::trim).collect();
            let [a, tx, rx] = f[..] else { continue };
            let (Ok(tx), Ok(rx)) = (tx.parse::<f64>(), rx.parse::<f64>()) else { continue };
            if a.parse::<f64>().is_err() {
                continue;
            }
            out.add(&op, (rx - tx) * 1e6 / 2.0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bandwidth_regex() {
        let l = "sockperf: Summary: BandWidth is 4.151 MBps (33.205 Mbps)";
        assert_eq!(bandwidth_mbps(l), Some("33.205"));
        assert_eq!(bandwidth_mbps("sockperf: Summary: Message Rate is 310871 [msg/sec]"), None);
        assert_eq!(bandwidth_mbps("Summary: BandWidth is (1 Mbps) (2.5 Mbps)"), Some("2.5"));
        assert_eq!(bandwidth_mbps("Summary: BandWidth is 4 MBps (33.2"), None);
    }
}
