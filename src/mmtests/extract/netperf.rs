//! netperf (`netperf-{udp,tcp}[-rr]`, with or without `-ipv4`/`-ipv6`): one
//! netperf stdout per run, `<PROTO>-<size>.<n>` (MMTests ExtractNetperf.pm for
//! E0–E2, shellpack `netperf/parse-results` for head). Reference: docs/mmtests.md §8.1.

use super::{fields, Ctx, Extractor, Meta, Samples};
use crate::error::{Error, Result};
use crate::mmtests::era::{Era, Preferred};
use crate::mmtests::logfile::{glob_middle, sort_numeric, LogDir};
use crate::mmtests::summarise::SummaryKind;

/// The netperf family.
pub struct Netperf;

fn is_netperf(b: &str) -> bool {
    let rest = b.strip_prefix("netperf-").unwrap_or("");
    let rest = rest.strip_prefix("ipv4-").or_else(|| rest.strip_prefix("ipv6-")).unwrap_or(rest);
    // netperf-unix: STREAM_STREAM over a unix socket (driver-netperf-unix.sh)
    matches!(rest, "udp" | "tcp" | "udp-rr" | "tcp-rr") || b == "netperf-unix"
}

/// send and recv throughput of one netperf stdout, as ExtractNetperf reads it:
/// lines with a letter, empty lines and the confidence-interval line skipped;
/// UDP_STREAM: a 6-field line gives send, a 4-field line recv; other protocols: a
/// line of at least 5 fields gives send. Later lines win; None = never seen.
pub fn parse_run<'a>(lines: impl IntoIterator<Item = &'a str>, protocol: &str) -> (Option<&'a str>, Option<&'a str>) {
    let (mut send, mut recv) = (None, None);
    for line in lines {
        if line.contains("Confidence intervals: Throughput") || line.bytes().any(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let f = fields(line);
        if f.is_empty() {
            continue;
        }
        let last = f.last().copied();
        if protocol == "UDP_STREAM" {
            match f.len() {
                6 => send = last,
                4 => recv = last,
                _ => {}
            }
        } else if f.len() >= 5 {
            send = last;
        }
    }
    (send, recv)
}

impl Extractor for Netperf {
    fn family(&self) -> &'static str {
        "netperf"
    }
    fn handles(&self, _era: Era, benchmark: &str) -> bool {
        is_netperf(benchmark)
    }
    fn meta(&self, _ctx: &Ctx) -> Meta {
        Meta {
            preferred: Preferred::Higher,
            kind: SummaryKind::Multiops,
            field_length: None,
            precision: 2,
            value_label: "Ops".into(),
            ratio_preferred: None,
        }
    }
    fn extract_dir(&self, ctx: &Ctx, dir: &LogDir<'_>, out: &mut Samples) -> Result<()> {
        let names = dir.list()?;
        let plog = dir.read("protocols")?;
        let protocol = plog.lines().next().map(|l| l.trim().to_string()).unwrap_or_default();
        if protocol.is_empty() {
            return Err(Error::parse(
                Some(&plog.name()),
                Some(1),
                "expected a netperf protocol name (UDP_STREAM, UDP_RR, ...)",
            ));
        }
        let mut sizes: Vec<String> = glob_middle(&names, &format!("{protocol}-"), ".1")
            .into_iter()
            .map(|(f, _)| {
                let last = f.rsplit('-').next().unwrap_or(f);
                last.strip_suffix(".1").unwrap_or(last).to_string()
            })
            .collect();
        sort_numeric(&mut sizes);
        sizes.dedup();
        let udp = protocol == "UDP_STREAM";
        // head's metric: the protocol in lower case without `_` (udpstream, streamstream, ...)
        let head_prefix = protocol.to_lowercase().replace('_', "");
        let mut loss_seen = false;
        let mut loss_sizes = Vec::new();
        for size in &sizes {
            for (file, _) in glob_middle(&names, &format!("{protocol}-{size}."), "") {
                crate::cancel::check()?;
                let log = dir.read(file)?;
                out.files_read += 1;
                let (send, recv) = parse_run(log.lines(), &protocol);
                if send.is_none() {
                    out.results_missing += 1;
                    out.warnings.push(format!("{}: no netperf result line; MMTests counts this run as 0", log.name()));
                }
                let send = send.unwrap_or("0");
                let recv = recv.unwrap_or("0");
                let (sv, rv) = (crate::mmtests::perlfmt::numify(send), crate::mmtests::perlfmt::numify(recv));
                if ctx.era == Era::Head {
                    if udp {
                        if sv - rv > sv / 10.0 {
                            return Err(Error::parse(
                                Some(&log.name()),
                                None,
                                format!(
                                    "UDP loss above 10% (send {send}, recv {recv}): MMTests head's netperf parser dies here (it calls an undefined addData)"
                                ),
                            ));
                        }
                        out.add_text(&format!("{head_prefix}-send-{size}"), send);
                        // head's parse-results prints the send figure on the recv row
                        out.add_text(&format!("{head_prefix}-recv-{size}"), send);
                    } else {
                        out.add_text(&format!("{head_prefix}-send-{size}"), send);
                    }
                    continue;
                }
                if udp {
                    out.add_text(&format!("send-{size}"), send);
                    out.add_text(&format!("recv-{size}"), recv);
                    if sv - rv > sv / 10.0 {
                        loss_seen = true;
                    }
                    if loss_seen {
                        let op = format!("loss-{size}");
                        if !loss_sizes.contains(&op) {
                            loss_sizes.push(op.clone());
                        }
                        out.add(&op, sv - rv);
                    }
                } else {
                    out.add_text(size, send);
                }
            }
        }
        if udp && ctx.era != Era::Head {
            let mut order: Vec<String> = sizes.iter().map(|s| format!("send-{s}")).collect();
            order.extend(sizes.iter().map(|s| format!("recv-{s}")));
            order.extend(loss_sizes);
            out.set_order(order);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn udp_stream_lines() {
        let text = "MIGRATED UDP STREAM TEST\nSocket  Message  Elapsed      Messages\n\n212992      64   60.00     50547656      0     431.34\n212992           60.00     50253515            428.83\n";
        assert_eq!(parse_run(text.lines(), "UDP_STREAM"), (Some("431.34"), Some("428.83")));
        assert_eq!(parse_run(text.lines(), "UDP_RR"), (Some("431.34"), None));
        assert!(is_netperf("netperf-ipv4-udp-rr") && !is_netperf("netperf-foo"));
        assert!(is_netperf("netperf-unix") && !is_netperf("netperf-ipv4-unix"));
    }
}
