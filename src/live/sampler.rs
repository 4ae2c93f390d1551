//! The `/proc/PID/sched` sampler's readings and the rule that keeps them
//! (docs/live.md §1, §4 "Torn readings").
//!
//! The kernel prints the file field by field while the task runs on another CPU, so an
//! update during the read mixes old and new fields. A reading is kept only when the
//! next read has the same `se.*` lines (no update tore it; other lines, e.g.
//! schedstats' clock deltas, change at every read), and only when its
//! `se.avg.last_update_time` differs from the last reading kept (one reading per
//! kernel update). It is stamped with the CLOCK_MONOTONIC time taken just after it
//! was read.

use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;

/// The readings kept so far, in `sched.txt`'s format.
#[derive(Debug, Default)]
pub struct Sampler {
    /// The `se.*` lines of the previous read.
    prev: Vec<String>,
    /// When the previous read was taken, CLOCK_MONOTONIC ns.
    prev_t: u64,
    /// The `se.avg.last_update_time` line of the last reading kept.
    last: Option<String>,
    /// `sched.txt` so far.
    text: String,
    /// Readings kept.
    readings: usize,
}

impl Sampler {
    /// A sampler with no reading.
    pub fn new() -> Sampler {
        Sampler::default()
    }

    /// Take one read of the file, `text`, read by time `t_ns`: the previous read is kept
    /// when this one confirms it (same `se.*` lines) and its `se.avg.last_update_time`
    /// is new.
    pub fn push(&mut self, text: &str, t_ns: u64) {
        let se: Vec<String> = text.lines().filter(|l| l.starts_with("se.")).map(str::to_string).collect();
        if se == self.prev {
            let key = se.iter().find(|l| l.starts_with("se.avg.last_update_time")).cloned();
            if key != self.last {
                self.last = key;
                self.readings += 1;
                // the header, the task's line and its se.* lines (the rest is not compared)
                self.text.push_str(&format!("# t_mono_ns={}\n", self.prev_t));
                for ln in text.lines().filter(|l| l.starts_with("se.") || l.contains(" #threads: ")) {
                    self.text.push_str(ln);
                    self.text.push('\n');
                }
            }
        }
        self.prev = se;
        self.prev_t = t_ns;
    }

    /// The number of readings kept.
    pub fn readings(&self) -> usize {
        self.readings
    }

    /// `sched.txt`: each kept reading as `# t_mono_ns=T`, the task's line and its `se.*`
    /// lines as printed.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// One read of `path` (opened, read whole, closed), into `buf`; None when the file is
/// gone (the task exited) or unreadable.
pub fn read_once(path: &Path, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    let mut f = std::fs::File::open(path).ok()?;
    f.read_to_end(buf).ok()?;
    Some(String::from_utf8_lossy(buf).into_owned())
}

/// CLOCK_MONOTONIC now, ns (Python's `time.monotonic_ns()`, the clock of
/// `# t_mono_ns=`).
pub fn monotonic_ns() -> Result<u64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid timespec written by the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) } != 0 {
        return Err(Error::io("clock_gettime", &std::io::Error::last_os_error()));
    }
    Ok(u64::try_from(ts.tv_sec).unwrap_or(0) * 1_000_000_000 + u64::try_from(ts.tv_nsec).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(exec: u64, util: u64, lut: u64, clock_delta: u64) -> String {
        format!(
            "python (7, #threads: 1)\n-------------------\nse.exec_start : {exec}\nse.avg.util_avg : {util}\n\
             se.avg.last_update_time : {lut}\nclock-delta : {clock_delta}\nmm->numa_scan_seq : 0\n"
        )
    }

    #[test]
    fn keeps_a_reading_the_next_read_confirms_once_per_update() {
        let mut s = Sampler::new();
        s.push(&reading(1, 10, 1024, 5), 100); // first read: nothing to confirm it yet
        s.push(&reading(1, 10, 1024, 9), 200); // confirms the first (only clock-delta moved)
        s.push(&reading(1, 10, 1024, 7), 300); // same update again: not kept twice
        s.push(&reading(2, 11, 1024, 7), 400); // torn: exec_start moved, last_update_time not
        s.push(&reading(3, 12, 2048, 7), 500); // differs from the torn one: not kept
        s.push(&reading(3, 12, 2048, 8), 600); // confirms the update at 2048, read at 500
        assert_eq!(s.readings(), 2);
        assert_eq!(
            s.text(),
            "# t_mono_ns=100\npython (7, #threads: 1)\nse.exec_start : 1\nse.avg.util_avg : 10\n\
             se.avg.last_update_time : 1024\n\
             # t_mono_ns=500\npython (7, #threads: 1)\nse.exec_start : 3\nse.avg.util_avg : 12\n\
             se.avg.last_update_time : 2048\n"
        );
    }

    #[test]
    fn a_reading_without_last_update_time_is_never_kept() {
        let mut s = Sampler::new();
        s.push("se.exec_start : 1\n", 1);
        s.push("se.exec_start : 1\n", 2);
        assert_eq!(s.readings(), 0);
        assert!(monotonic_ns().unwrap() > 0);
    }
}
