//! netperf as lkp-tests' programs/netperf/parse reads it: the mean throughput of the
//! result rows (send and, for `*_STREAM` receive rows, recv), their totals per
//! iteration, and `workload` (transactions, or packets for a `10^6bits` table).

use super::ruby::{self, re};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    mbps: Regex,
    tps: Regex,
    socket: Regex,
    send_recv: Regex,
    size_size: Regex,
    row: Regex,
    recv_row: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        mbps: re(r"^bytes.*secs.*10\^6bits"),
        tps: re(r"^bytes.*secs.\s+per sec"),
        socket: re(r"^Socket.*Elapsed.*"),
        send_recv: re(r"^Send\s+Recv\s+"),
        size_size: re(r"^Size\s+Size\s+"),
        row: re(r"\d+\s+\d+\s+\d+\s+\d.*$"),
        recv_row: re(r"^\d+\s+\d+\.\d+\s+\d+\s+"),
    })
}

/// Parse netperf output; no output without a result row.
pub fn parse(text: &str) -> String {
    let p = patterns();
    let (mut throughput, mut recv_throughput) = (0.0f64, 0.0f64);
    let (mut num, mut recv_num, mut iterations) = (0u64, 0u64, 0u64);
    let (mut thp_index, mut recv_thp_index, mut time_index, mut pkt_index) = (0isize, 0isize, 0isize, 0isize);
    let mut unit = "";
    let (mut time, mut pkt_size) = (None::<f64>, None::<f64>);
    // Ruby's `data[i]`: a negative index counts from the end; beyond it, nil.to_f = 0.0
    let field = |data: &[&str], i: isize| {
        let i = if i < 0 { data.len() as isize + i } else { i };
        usize::try_from(i).ok().and_then(|i| data.get(i)).map_or(0.0, |s| ruby::to_f(s))
    };
    for raw in ruby::lines(text) {
        // `case line.chomp!`: a last line without its newline matches nothing
        let Some(line) = raw.strip_suffix('\n') else { continue };
        let line = line.strip_suffix('\r').unwrap_or(line);
        let words = ruby::split(line);
        let index_of = |w: &str| words.iter().rposition(|x| *x == w).map(|i| i as isize);
        if line.starts_with("Iterations") {
            iterations += 1;
        } else if p.mbps.is_match(line) {
            unit = "Mbps";
        } else if p.tps.is_match(line) {
            unit = "tps";
        } else if p.socket.is_match(line) {
            pkt_index = index_of("Message").unwrap_or(pkt_index);
            time_index = index_of("Elapsed").unwrap_or(time_index);
        } else if p.send_recv.is_match(line) {
            if let Some(i) = index_of("Rate") {
                thp_index = i;
                recv_thp_index = i - 2;
            }
        } else if p.size_size.is_match(line) {
            if let Some(i) = index_of("Throughput") {
                thp_index = i;
                recv_thp_index = i - 2;
            }
        } else if p.row.is_match(line) {
            throughput += field(&words, thp_index);
            time = Some(field(&words, time_index));
            if unit == "Mbps" {
                pkt_size = Some(field(&words, pkt_index));
            }
            num += 1;
        } else if p.recv_row.is_match(line) {
            recv_throughput += field(&words, recv_thp_index);
            recv_num += 1;
        }
    }
    if num == 0 {
        return String::new();
    }
    let avg = throughput / num as f64;
    let avg_recv = (recv_num > 0).then(|| recv_throughput / recv_num as f64);
    let avg_both = avg + avg_recv.unwrap_or(0.0);
    if iterations > 0 {
        throughput /= iterations as f64;
        recv_throughput /= iterations as f64;
    }
    let both = throughput + recv_throughput;
    let mut workload = both * time.unwrap_or(0.0);
    if unit == "Mbps" {
        workload = workload * 1e6 / 8.0 / pkt_size.unwrap_or(0.0);
    }
    // lkp's recv sums stay the Integer 0 without a receive row
    let recv = |x: f64| if recv_num > 0 { float_to_s(x) } else { "0".into() };
    let mut out = String::new();
    out.push_str(&format!("Throughput_{unit}: {}\n", float_to_s(avg)));
    out.push_str(&format!("ThroughputRecv_{unit}: {}\n", avg_recv.map_or("0".into(), float_to_s)));
    out.push_str(&format!("ThroughputBoth_{unit}: {}\n", float_to_s(avg_both)));
    out.push_str(&format!("Throughput_total_{unit}: {}\n", float_to_s(throughput)));
    out.push_str(&format!("ThroughputRecv_total_{unit}: {}\n", recv(recv_throughput)));
    out.push_str(&format!("ThroughputBoth_total_{unit}: {}\n", float_to_s(both)));
    out.push_str(&format!("workload: {}\n", float_to_s(workload)));
    out
}
