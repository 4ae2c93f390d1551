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
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The fields recorded, in order.
const FIELDS: [&str; 8] = ["avgqusz", "await", "r_await", "w_await", "svctm", "avgrqsz", "rrqm", "wrqm"];

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

/// One device line's fields in [`FIELDS`] order (text as logged, or computed).
fn record<'a>(format: i32, e: &[&'a str]) -> [Cow<'a, str>; FIELDS.len()] {
    let s = |i: usize| Cow::Borrowed(e.get(i).copied().unwrap_or_default());
    let none = || Cow::Borrowed("");
    match format {
        // avgqusz await r_await w_await svctm avgrqsz rrqm wrqm
        0 => [s(13), s(14), Cow::Borrowed("-1"), Cow::Borrowed("-1"), s(15), s(12), s(6), s(7)],
        1 => [s(13), s(14), s(15), s(16), s(17), s(12), s(6), s(7)],
        2 => [
            s(16),
            Cow::Owned(perl_num_str((num(e.get(14)) + num(e.get(15))) / 2.0)),
            s(14),
            s(15),
            s(19),
            Cow::Owned(perl_num_str((num(e.get(17)) + num(e.get(18))) / 2.0)),
            s(10),
            s(11),
        ],
        _ => [none(), none(), none(), none(), none(), none(), none(), none()],
    }
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
        // the devices reported in this log, with their operation names
        let mut seen: HashMap<String, [String; FIELDS.len()]> = HashMap::new();
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
            let dev = at(5);
            if num(e.get(13)) > 1.0 && !self.devices.contains(dev) {
                self.devices.insert(dev.to_string());
            }
            if !self.devices.contains(dev) {
                continue;
            }
            let m = record(format, &e);
            let val = |i: usize| m.get(i).map_or(0.0, |t| crate::mmtests::perlfmt::numify(t));
            // avgqusz, await, r_await, w_await
            if val(0) > 1_000_000.0 || val(1) > 3_600_000.0 || val(2) > 3_600_000.0 || val(3) > 3_600_000.0 {
                continue;
            }
            if !seen.contains_key(dev) {
                // the device's first report is the since-boot one: skipped
                let ops = FIELDS.map(|f| format!("{dev}-{f}"));
                seen.insert(dev.to_string(), ops);
                continue;
            }
            if self.sub.is_empty() {
                let Some(ops) = seen.get(dev) else { continue };
                for (op, text) in ops.iter().zip(&m) {
                    out.add_text(op, text);
                }
            } else {
                let mut parts = self.sub.split('-');
                if parts.next() == Some(dev) {
                    let field = parts.next().unwrap_or("");
                    let text = FIELDS.iter().position(|f| *f == field).and_then(|i| m.get(i));
                    out.add_text(&self.sub, text.map_or("", |t| t.as_ref()));
                }
            }
        }
        Ok(())
    }
}
