//! uperf as lkp-tests' programs/uperf/parse reads it: `Netstat_<nic>_out_<unit>` and
//! `Netstat_<nic>_in_<unit>` from the netstat table, `Runstat_<host>_<unit>` from the
//! run statistics (units like `Mbps`, `KBps`).

use super::ruby::{self, group, re};
use regex::Regex;
use std::sync::OnceLock;

/// Parse uperf output.
pub fn parse(text: &str) -> String {
    static P: OnceLock<(Regex, Regex)> = OnceLock::new();
    let (netstat, runstat) = P.get_or_init(|| {
        (
            re(r"(\S+)\s+\d+\s+\d+\s+(.+)([KM][Bb]/s)\s+(.+)([KM][Bb]/s)"),
            re(r"(\S+)\s+\S+\s+\S+\s+(.+)([KM][Bb]/s)\s+\d+\s+\d+"),
        )
    });
    let unit = |u: &str| u.trim().replace('/', "p");
    let mut section = "";
    let mut out = String::new();
    for line in ruby::lines(text) {
        if line.contains("Netstat statistics for this run") {
            section = "Netstat";
        } else if line.contains("Run Statistics") {
            section = "Runstat";
        } else if let Some(c) = netstat.captures(line) {
            if section == "Netstat" {
                let nic = group(&c, 1);
                out.push_str(&format!("Netstat_{nic}_out_{}: {}\n", unit(group(&c, 3)), group(&c, 2)));
                out.push_str(&format!("Netstat_{nic}_in_{}: {}\n", unit(group(&c, 5)), group(&c, 4)));
            }
        } else if let Some(c) = runstat.captures(line) {
            if section == "Runstat" {
                out.push_str(&format!("Runstat_{}_{}: {}\n", group(&c, 1), unit(group(&c, 3)), group(&c, 2)));
            }
        }
    }
    out
}
