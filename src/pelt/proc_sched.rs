//! `/proc/PID/sched` as the kernel prints it (kernel/sched/debug.c
//! `proc_sched_show_task`), read into the PELT fields a live check compares and the
//! runtime accounting that places each reading on the task clock (docs/live.md §2).
//!
//! A reading may also sit in a trace, as a marker the task (or a sampler) wrote to
//! `trace_marker`: `proc_sched: pid=N se.exec_start=V se.sum_exec_runtime=V ...`, the
//! `se.*` fields of one dump as printed, `name=value` (docs/pelt.md §12;
//! [`parse_marker`]).
//!
//! A samples file is a sequence of such dumps, each preceded by a line
//! `# t_mono_ns=N` (CLOCK_MONOTONIC when it was read); blank lines and other `#` lines
//! are skipped. `PN()` fields (`se.exec_start`, `se.sum_exec_runtime`) are printed as
//! ms with six decimals, i.e. exact ns; the `se.avg.*` fields are integers.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::error::{Error, Result};

/// One reading of `/proc/PID/sched`: the task's PELT signal as last stored
/// (`se.avg`, at `last_update_time` on the PELT clock) and its runtime accounting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProcSample {
    /// CLOCK_MONOTONIC ns when the file was read (the `# t_mono_ns=` line).
    pub t_mono_ns: u64,
    /// Line of the samples file where this dump starts (for a marker in a trace: the
    /// trace's line or record).
    pub line: usize,
    /// The trace time of a reading written into the trace as a marker (ns); `None` for
    /// a samples file's dumps.
    pub trace_ns: Option<u64>,
    /// `se.exec_start`: the task clock (`rq_clock_task`) at its last `update_curr`, ns.
    pub exec_start: u64,
    /// `se.sum_exec_runtime`, ns.
    pub sum_exec_runtime: u64,
    /// `se.avg.last_update_time`, PELT clock ns.
    pub last_update_time: u64,
    /// `se.avg.load_sum`.
    pub load_sum: u64,
    /// `se.avg.runnable_sum`.
    pub runnable_sum: u64,
    /// `se.avg.util_sum`.
    pub util_sum: u64,
    /// `se.avg.load_avg`.
    pub load_avg: u64,
    /// `se.avg.runnable_avg`.
    pub runnable_avg: u64,
    /// `se.avg.util_avg`.
    pub util_avg: u64,
    /// `se.avg.util_est` (6.8+: the one word, `UTIL_AVG_UNCHANGED` in bit 31 included);
    /// `se.avg.util_est.ewma` on older kernels.
    pub util_est: u64,
}

impl ProcSample {
    /// The reading as the start state of a replay (docs/pelt.md §10): util, load and
    /// runnable averages, and util_est as the kernel stored it (6.8+: the one word with
    /// its `UTIL_AVG_UNCHANGED` bit; older: the EWMA).
    pub fn start_state(&self) -> crate::pelt::driver::StartState {
        crate::pelt::driver::StartState {
            util_avg: self.util_avg,
            load_avg: Some(self.load_avg),
            runnable_avg: Some(self.runnable_avg),
            util_est: u32::try_from(self.util_est).ok().map(|ue| (ue, 0)),
        }
    }
}

/// A `PN()` value `ms.nnnnnn` as ns.
fn ms6_to_ns(v: &str) -> Option<u64> {
    let (ms, frac) = v.split_once('.')?;
    if frac.len() != 6 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    ms.parse::<u64>().ok()?.checked_mul(1_000_000)?.checked_add(frac.parse().ok()?)
}

/// The fields of a reading, by name, into `s`; the bit of each field set (11 when all).
fn set_field(s: &mut ProcSample, key: &str, value: &str) -> std::result::Result<u16, String> {
    let bad = || format!("{key}: '{value}' is not a number");
    let int = || value.parse::<u64>().map_err(|_| bad());
    let (bit, slot): (u16, &mut u64) = match key {
        "se.exec_start" => {
            s.exec_start = ms6_to_ns(value).ok_or_else(bad)?;
            return Ok(1);
        }
        "se.sum_exec_runtime" => {
            s.sum_exec_runtime = ms6_to_ns(value).ok_or_else(bad)?;
            return Ok(2);
        }
        "se.avg.last_update_time" => (4, &mut s.last_update_time),
        "se.avg.load_sum" => (8, &mut s.load_sum),
        "se.avg.runnable_sum" => (16, &mut s.runnable_sum),
        "se.avg.util_sum" => (32, &mut s.util_sum),
        "se.avg.load_avg" => (64, &mut s.load_avg),
        "se.avg.runnable_avg" => (128, &mut s.runnable_avg),
        "se.avg.util_avg" => (256, &mut s.util_avg),
        "se.avg.util_est" | "se.avg.util_est.ewma" => (512, &mut s.util_est),
        "se.load.weight" => (1024, &mut 0),
        _ => return Ok(0),
    };
    *slot = int()?;
    Ok(bit)
}

/// All fields of [`ProcSample`] read.
const ALL_FIELDS: u16 = (1 << 11) - 1;

/// A reading written into a trace as a marker: the text after `proc_sched:`, `pid=N`
/// then the `se.*` fields as `name=value`. `Ok(None)` when it is another task's; an
/// error message when a field is unreadable or missing.
pub fn parse_marker(text: &str, pid: u32) -> std::result::Result<Option<ProcSample>, String> {
    let mut s = ProcSample::default();
    let mut seen = 0u16;
    let mut who: Option<u32> = None;
    for word in text.split_whitespace() {
        let Some((key, value)) = word.split_once('=') else { continue };
        if key == "pid" {
            match value.parse() {
                Ok(p) => who = Some(p),
                Err(_) => return Err(format!("proc_sched marker: pid '{value}' is not a number")),
            }
            continue;
        }
        match set_field(&mut s, key, value) {
            Ok(bit) => seen |= bit,
            Err(msg) => return Err(format!("proc_sched marker: {msg}")),
        }
    }
    let Some(who) = who else { return Err("proc_sched marker without pid=".into()) };
    if who != pid {
        return Ok(None);
    }
    if seen != ALL_FIELDS {
        return Err("proc_sched marker without all of se.exec_start, se.sum_exec_runtime and the se.avg sums, \
                         averages, last_update_time and util_est"
            .into());
    }
    Ok(Some(s))
}

/// The samples of a samples file (see the module documentation), in file order.
/// Every dump must carry the fields of [`ProcSample`]; a missing or unreadable one is
/// an error naming its line.
pub fn parse_samples(text: &str, path: Option<&str>) -> Result<Vec<ProcSample>> {
    let mut out: Vec<ProcSample> = Vec::new();
    let mut seen = 0u16;
    let mut cur: Option<ProcSample> = None;
    let finish = |cur: Option<ProcSample>, seen: u16, out: &mut Vec<ProcSample>| -> Result<()> {
        if let Some(s) = cur {
            if seen != ALL_FIELDS {
                return Err(Error::parse(
                    path,
                    Some(s.line),
                    "a /proc/PID/sched dump without all of se.exec_start, se.sum_exec_runtime and the se.avg \
                     sums, averages, last_update_time and util_est",
                ));
            }
            out.push(s);
        }
        Ok(())
    };
    for (i, line) in text.lines().enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let t = line.trim();
        if let Some(v) = t.strip_prefix("# t_mono_ns=") {
            finish(cur.take(), seen, &mut out)?;
            let t_mono_ns = v
                .trim()
                .parse()
                .map_err(|_| Error::parse(path, Some(line_no), format!("t_mono_ns '{v}' is not an integer")))?;
            cur = Some(ProcSample { t_mono_ns, line: line_no, ..ProcSample::default() });
            seen = 0;
            continue;
        }
        let Some((key, value)) = t.split_once(':') else { continue };
        let (key, value) = (key.trim(), value.trim());
        let Some(s) = cur.as_mut() else {
            if key.starts_with("se.") {
                return Err(Error::parse(
                    path,
                    Some(line_no),
                    "a /proc/PID/sched field before any '# t_mono_ns=' line",
                ));
            }
            continue;
        };
        seen |= set_field(s, key, value).map_err(|msg| Error::parse(path, Some(line_no), msg))?;
    }
    finish(cur, seen, &mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    // a dump as this machine's 6.18 kernel printed it (cat /proc/self/sched)
    const DUMP: &str = "# t_mono_ns=5
cat (7485, #threads: 1)
-------------------------------------------------------------------
se.exec_start                                :      11147002.486138
se.vruntime                                  :           314.668685
se.sum_exec_runtime                          :             0.107442
se.nr_migrations                             :                    1
se.load.weight                               :              1048576
se.avg.load_sum                              :                47717
se.avg.runnable_sum                          :             20518310
se.avg.util_sum                              :             18895932
se.avg.load_avg                              :                 1024
se.avg.runnable_avg                          :                  430
se.avg.util_avg                              :                  396
se.avg.last_update_time                      :       11147002485760
se.avg.util_est                              :                    0
policy                                       :                    0
";

    #[test]
    fn reads_a_dump() {
        let s = parse_samples(DUMP, None).unwrap();
        assert_eq!(s.len(), 1);
        let s = s[0];
        assert_eq!(s.exec_start, 11_147_002_486_138);
        assert_eq!(s.sum_exec_runtime, 107_442);
        assert_eq!(s.last_update_time, 11_147_002_485_760);
        assert_eq!((s.util_avg, s.runnable_avg, s.load_avg, s.util_sum), (396, 430, 1024, 18_895_932));
        assert_eq!(s.t_mono_ns, 5);
    }

    #[test]
    fn a_missing_field_names_the_dump() {
        let cut: String = DUMP.lines().filter(|l| !l.contains("util_est")).map(|l| format!("{l}\n")).collect();
        let e = parse_samples(&cut, Some("s.txt")).unwrap_err().to_string();
        assert!(e.starts_with("s.txt:1: a /proc/PID/sched dump without"), "{e}");
        let bad = DUMP.replace("0.107442", "0.1x7442");
        let e = parse_samples(&bad, Some("s.txt")).unwrap_err().to_string();
        assert!(e.starts_with("s.txt:6: se.sum_exec_runtime"), "{e}");
    }
}
