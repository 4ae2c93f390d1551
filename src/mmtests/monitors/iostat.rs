//! `--print-monitor iostat [--sub-heading DEV-FIELD]`: per-device `iostat -xz` fields
//! run through latency-output (MMTests' MonitorIostat; docs/mmtests-monitors.md §6).
//!
//! The column positions are those of the layout MMTests recognises from the header
//! (sysstat's three generations); sysstat 12.6's reordered columns are read at the
//! same positions, as MMTests does. A device counts once its queue size exceeded 1 in
//! some report of any run (MMTests keeps that set for the whole process), each
//! iteration's first report of a device is skipped (the since-boot one).

use super::{num, perl_split_ws, IterDir, Reader};
use crate::error::Result;
use crate::mmtests::extract::Samples;
use std::collections::{HashMap, HashSet};

/// The fields recorded, in order.
const FIELDS: &[&str] = &["avgqusz", "await", "r_await", "w_await", "svctm", "avgrqsz", "rrqm", "wrqm"];

/// The iostat reader.
pub struct Iostat {
    sub: String,
    devices: HashSet<String>,
}

impl Iostat {
    /// A reader of sub-heading `sub` ("" = every device and field).
    pub fn new(sub: &str) -> Iostat {
        Iostat { sub: sub.to_string(), devices: HashSet::new() }
    }
}

/// One device line's fields by MMTests' names (text as logged, or computed).
fn record(format: i32, e: &[&str]) -> HashMap<&'static str, String> {
    let s = |i: usize| e.get(i).map(|x| x.to_string()).unwrap_or_default();
    let mut m: HashMap<&'static str, String> = HashMap::new();
    match format {
        0 | 1 => {
            m.insert("rrqm", s(6));
            m.insert("wrqm", s(7));
            m.insert("avgrqsz", s(12));
            m.insert("avgqusz", s(13));
            m.insert("await", s(14));
            if format == 0 {
                m.insert("r_await", "-1".into());
                m.insert("w_await", "-1".into());
                m.insert("svctm", s(15));
            } else {
                m.insert("r_await", s(15));
                m.insert("w_await", s(16));
                m.insert("svctm", s(17));
            }
        }
        2 => {
            m.insert("rrqm", s(10));
            m.insert("wrqm", s(11));
            m.insert("avgqusz", s(16));
            m.insert("r_await", s(14));
            m.insert("w_await", s(15));
            m.insert("svctm", s(19));
            m.insert("await", perl_num_str((num(e.get(14)) + num(e.get(15))) / 2.0));
            m.insert("avgrqsz", perl_num_str((num(e.get(17)) + num(e.get(18))) / 2.0));
        }
        _ => {}
    }
    m
}

/// A computed number carried as text that reads back as the same double.
fn perl_num_str(v: f64) -> String {
    format!("{v:e}")
}

impl Reader for Iostat {
    fn begin_run(&mut self) {}

    fn read(&mut self, it: &IterDir<'_>, out: &mut Samples) -> Result<()> {
        let Some(log) = it.monitor_log("iostat")? else { return Ok(()) };
        let mut reading = false;
        let mut format = -1;
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (n, line) in log.lines().enumerate() {
            crate::cancel::check_every(n)?;
            let e = perl_split_ws(line);
            let at = |i: usize| e.get(i).copied().unwrap_or("");
            if at(5).contains("Device") {
                if format == -1 {
                    if at(6) == "r/s" && !at(10).is_empty() && at(10) != "0" {
                        format = 2;
                    } else if at(6) == "rrqm/s" {
                        match at(10) {
                            "rsec/s" => format = 0,
                            "rkB/s" => format = 1,
                            _ => {}
                        }
                    }
                }
                reading = true;
                continue;
            }
            if !reading {
                continue;
            }
            if at(5).is_empty() {
                reading = false;
                continue;
            }
            if num(e.get(13)) == 0.0 && num(e.get(14)) == 0.0 && num(e.get(15)) == 0.0 {
                continue;
            }
            let dev = at(5).to_string();
            if num(e.get(13)) > 1.0 {
                self.devices.insert(dev.clone());
            }
            if !self.devices.contains(&dev) {
                continue;
            }
            let m = record(format, &e);
            let val = |k: &str| m.get(k).map_or(0.0, |t| crate::mmtests::perlfmt::numify(t));
            if val("avgqusz") > 1_000_000.0
                || val("await") > 3_600_000.0
                || val("r_await") > 3_600_000.0
                || val("w_await") > 3_600_000.0
            {
                continue;
            }
            let n = seen.entry(dev.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                continue;
            }
            if self.sub.is_empty() {
                for f in FIELDS {
                    out.add_text(&format!("{dev}-{f}"), m.get(f).map_or("", String::as_str));
                }
            } else {
                let mut parts = self.sub.split('-');
                if parts.next() == Some(dev.as_str()) {
                    let field = parts.next().unwrap_or("");
                    out.add_text(&self.sub, m.get(field).map_or("", String::as_str));
                }
            }
        }
        Ok(())
    }
}
