//! NetPIPE as lkp-tests' programs/netpipe/parse reads it: the mean time in µs of the
//! messages under 8 KiB and the mean rate (as printed, Mbps or Gbps) of those over
//! 5 MiB; nothing unless both exist.

use super::ruby::{self, group, re, Lines};
use crate::lkp::num::{average, Num};
use crate::lkp::rubyfmt::float_to_s;
use regex::Regex;
use std::sync::OnceLock;

/// Parse NetPIPE output.
pub fn parse(text: &str, _path: &str) -> Lines {
    static P: OnceLock<[Regex; 3]> = OnceLock::new();
    let [color, erase, row] = P.get_or_init(|| {
        [
            re(r"\x1b\[(\d+)?(;\d+)?(;\d+)?m"),
            re(r"\x1b\[K"),
            re(r"[0-9]+:\s+([0-9.]+)\s+(bytes|B|KB|MB).*times -->\s+([0-9.]+) (Mbps|Gbps)\s+in\s+([0-9.]+) (nsec|usec|msec)"),
        ]
    });
    let (mut small_usec, mut big_mbps): (Vec<Num>, Vec<Num>) = (Vec::new(), Vec::new());
    for line in ruby::lines(text) {
        // lkp's String#uncolorize
        let plain = color.replace_all(line, "");
        let plain = erase.replace_all(&plain, "");
        let Some(c) = row.captures(&plain) else { continue };
        let size = ruby::to_i(group(&c, 1));
        let unit = group(&c, 2);
        let bytes = unit == "B" || unit == "bytes";
        if (size < 8 * 1024 && bytes) || (size < 8 && unit == "KB") {
            let t = ruby::to_f(group(&c, 5));
            small_usec.push(Num::Float(match group(&c, 6) {
                "nsec" => t / 1000.0,
                "msec" => t * 1000.0,
                _ => t,
            }));
        } else if (size > 5 * 1024 * 1024 && bytes) || (size > 5 * 1024 && unit == "KB") || (size > 5 && unit == "MB") {
            big_mbps.push(Num::Float(ruby::to_f(group(&c, 3))));
        }
    }
    // lkp logs an error and prints nothing without both
    let (Some(small), Some(big)) = (average(&small_usec), average(&big_mbps)) else { return Ok(String::new()) };
    Ok(format!("less_8K_usec.avg: {}\nbigger_5M_Mbps.avg: {}\n", float_to_s(small), float_to_s(big)))
}
