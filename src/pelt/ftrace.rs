//! Task traces from ftrace text: the `sched_switch` and `sched_wakeup` events of one pid
//! turned into [`Segment`]s for the driver.
//!
//! Both renderings are understood: the kernel's own (`/sys/kernel/tracing/trace`,
//! `prev_comm=… prev_pid=… prev_state=… ==> next_comm=… next_pid=…`, `comm=… pid=…`) and
//! `trace-cmd report`'s (`foo:42 [120] S ==> bar:43 [120]`, `foo:42 [120] CPU:001`).
//! Timestamps are `seconds.fraction` (µs or ns digits) or plain integer ns.
//!
//! States: switched in → R; switched out with `prev_state` R/R+ → W (preempted), any
//! other state → S; `sched_wakeup`/`sched_wakeup_new` while S → W. `X`/`Z` (exit) end the
//! trace. Time before the task is first runnable is dropped (the driver forks it
//! runnable); the last segment ends at the last timestamp of the file. CPU numbers are
//! ignored: the task is replayed on one CPU with the given capacities.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::trace::{Segment, State};
use crate::error::{Error, Result};

/// A task's trace extracted from ftrace text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FtraceTask {
    /// The segments, ready for [`super::driver::simulate`].
    pub segments: Vec<Segment>,
    /// Trace time (ns) at which the first segment starts.
    pub start_ns: u64,
    /// Number of events of the pid that were used.
    pub events: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ev {
    SwitchOut(State, bool), // new state, exited
    SwitchIn,
    Wakeup,
}

/// A run of no length between two events at the same timestamp, followed by a sleep:
/// after a wait it is kept as 1 ns taken from that wait (a preempted task runs before
/// it sleeps, and 1 ns is below anything PELT resolves); as the task's first segment
/// the trace has not started yet (it starts at the next wakeup).
fn run_below_resolution(segments: &mut Vec<Segment>, start_ns: &mut Option<u64>, cpu_cap: u32, freq_cap: u32) {
    match segments.last_mut() {
        Some(w) if w.state == State::Wait && w.dur_ns > 1 => {
            w.dur_ns -= 1;
            segments.push(Segment { dur_ns: 1, state: State::Run, cpu_cap, freq_cap });
        }
        Some(w) if w.state == State::Wait => {
            // a wait of 1 ns becomes the run, merged with a run before it
            segments.pop();
            match segments.last_mut() {
                Some(r) if r.state == State::Run => r.dur_ns += 1,
                _ => segments.push(Segment { dur_ns: 1, state: State::Run, cpu_cap, freq_cap }),
            }
        }
        Some(_) => {}
        None => *start_ns = None,
    }
}

/// Build the trace of `pid` from ftrace text; every segment gets `cpu_cap`/`freq_cap`.
/// `path` names the input in errors.
pub fn task_trace_from_ftrace(
    bytes: &[u8],
    pid: u32,
    cpu_cap: u32,
    freq_cap: u32,
    path: Option<&str>,
) -> Result<FtraceTask> {
    let mut state: Option<State> = None;
    let mut seg_start: u64 = 0;
    let mut start_ns: Option<u64> = None;
    let mut last_ts: Option<u64> = None;
    let mut segments: Vec<Segment> = Vec::new();
    let mut events = 0u64;
    let mut exited = false;
    let push = |segments: &mut Vec<Segment>, st: State, from: u64, to: u64| {
        if to <= from {
            return;
        }
        let dur = to - from;
        match segments.last_mut() {
            Some(last) if last.state == st => last.dur_ns += dur,
            _ => segments.push(Segment { dur_ns: dur, state: st, cpu_cap, freq_cap }),
        }
    };
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        if exited {
            break;
        }
        let line_no = i + 1;
        let line = std::str::from_utf8(raw).map_err(|e| {
            Error::parse(
                path,
                Some(line_no),
                format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1),
            )
        })?;
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') || t.starts_with("CPU ") || t.starts_with("cpus=") {
            continue;
        }
        let Some((ts, name, body)) = split_event(line) else { continue };
        let err = |msg: String| Error::parse(path, Some(line_no), msg);
        let ts = parse_timestamp(ts).ok_or_else(|| err(format!("bad timestamp '{ts}' before '{name}:'")))?;
        if let Some(prev) = last_ts {
            if ts < prev {
                return Err(err(format!(
                    "timestamp {ts} ns goes backwards (previous {prev} ns); sort the trace by time"
                )));
            }
        }
        if let Some(start) = start_ns {
            if ts - start > crate::pelt::trace::MAX_TRACE_NS {
                return Err(err(format!(
                    "timestamp {ts} ns is more than {} ns after the trace's start ({start} ns)",
                    crate::pelt::trace::MAX_TRACE_NS
                )));
            }
        }
        last_ts = Some(ts);
        let ev = match name {
            "sched_switch" => {
                let (prev_pid, prev_state, next_pid) = parse_switch(body).ok_or_else(|| {
                    err("sched_switch without prev_pid/prev_state/next_pid (expected the kernel's or trace-cmd's format)".into())
                })?;
                if prev_pid == pid {
                    let first = prev_state.chars().next().unwrap_or('S');
                    let exit = matches!(first, 'X' | 'Z');
                    Some(Ev::SwitchOut(if first == 'R' { State::Wait } else { State::Sleep }, exit))
                } else if next_pid == pid {
                    Some(Ev::SwitchIn)
                } else {
                    None
                }
            }
            "sched_wakeup" | "sched_wakeup_new" => {
                let wpid = parse_wakeup(body).ok_or_else(|| err(format!("{name} without a pid")))?;
                (wpid == pid).then_some(Ev::Wakeup)
            }
            _ => None,
        };
        let Some(ev) = ev else { continue };
        events += 1;
        let new = match (state, ev) {
            (_, Ev::SwitchIn) => State::Run,
            (Some(State::Run), Ev::SwitchOut(s, exit)) => {
                exited = exit;
                s
            }
            (Some(s), Ev::SwitchOut(..)) => {
                return Err(err(format!(
                    "pid {pid} switched out while {} (not running): missing events?",
                    if s == State::Wait { "runnable" } else { "sleeping" }
                )))
            }
            (None, Ev::SwitchOut(s, exit)) => {
                exited = exit;
                s
            }
            (Some(State::Sleep) | None, Ev::Wakeup) => State::Wait,
            (Some(s), Ev::Wakeup) => s,
        };
        match state {
            Some(old) if start_ns.is_some() => {
                if old != new {
                    if old == State::Run && ts == seg_start && new == State::Sleep {
                        // switched in and out within one tick of the trace clock (µs
                        // timestamps): the run has no length, yet W -> S is no trace
                        run_below_resolution(&mut segments, &mut start_ns, cpu_cap, freq_cap);
                    } else {
                        push(&mut segments, old, seg_start, ts);
                    }
                    seg_start = ts;
                }
            }
            _ => {
                // Not started yet: start at the first runnable state.
                if new != State::Sleep {
                    start_ns = Some(ts);
                    seg_start = ts;
                }
            }
        }
        state = Some(new);
    }
    let (Some(st), Some(start)) = (state, start_ns) else {
        return Err(Error::parse(path, None, format!("no sched_switch/sched_wakeup event makes pid {pid} runnable")));
    };
    if let Some(end) = last_ts {
        push(&mut segments, st, seg_start, end);
    }
    if segments.is_empty() {
        return Err(Error::parse(path, None, format!("pid {pid} has no segment longer than 0 ns")));
    }
    Ok(FtraceTask { segments, start_ns: start, events })
}

/// Read a trace file and extract `pid` (see [`task_trace_from_ftrace`]).
pub fn read_ftrace(path: &std::path::Path, pid: u32, cpu_cap: u32, freq_cap: u32) -> Result<FtraceTask> {
    let bytes = crate::archive::dir::read_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
    task_trace_from_ftrace(&bytes, pid, cpu_cap, freq_cap, Some(&path.display().to_string()))
}

/// Split `… TIMESTAMP: event_name: body` into (timestamp, event name, body).
fn split_event(line: &str) -> Option<(&str, &str, &str)> {
    for name in ["sched_switch", "sched_wakeup_new", "sched_wakeup"] {
        let pat_len = name.len() + 2;
        let mut from = 0;
        while let Some(pos) = line.get(from..).and_then(|s| s.find(name)).map(|p| p + from) {
            let after = line.get(pos + name.len()..)?;
            let before = line.get(..pos)?;
            if after.starts_with(": ") && before.ends_with(": ") {
                let head = before.get(..before.len() - 2)?;
                let ts = head.rsplit(|c: char| c.is_whitespace()).next()?;
                return Some((ts, name, line.get(pos + pat_len..)?));
            }
            from = pos + name.len();
        }
    }
    None
}

fn parse_timestamp(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(':');
    match s.split_once('.') {
        None => s.parse().ok(),
        Some((sec, frac)) => {
            if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let sec: u64 = sec.parse().ok()?;
            let mut f: u64 = frac.parse().ok()?;
            for _ in frac.len()..9 {
                f *= 10;
            }
            sec.checked_mul(1_000_000_000)?.checked_add(f)
        }
    }
}

fn value_after<'a>(body: &'a str, key: &str) -> Option<&'a str> {
    let mut from = 0;
    while let Some(p) = body.get(from..)?.find(key) {
        let pos = from + p;
        let at_word = pos == 0 || body.as_bytes().get(pos - 1).is_some_and(|b| b.is_ascii_whitespace());
        if at_word {
            let rest = body.get(pos + key.len()..)?;
            return rest.split_whitespace().next();
        }
        from = pos + key.len();
    }
    None
}

fn parse_switch(body: &str) -> Option<(u32, String, u32)> {
    if let (Some(pp), Some(ps), Some(np)) =
        (value_after(body, "prev_pid="), value_after(body, "prev_state="), value_after(body, "next_pid="))
    {
        return Some((pp.parse().ok()?, ps.to_string(), np.parse().ok()?));
    }
    // trace-cmd: "prev_comm:prev_pid [prio] STATE ==> next_comm:next_pid [prio]"
    let (left, right) = body.split_once(" ==> ")?;
    let (lhead, ltail) = left.rsplit_once(" [")?;
    let prev_pid = lhead.rsplit_once(':')?.1.trim().parse().ok()?;
    let state = ltail.split_once(']')?.1.trim().to_string();
    let (rhead, _) = right.rsplit_once(" [").unwrap_or((right, ""));
    let next_pid = rhead.rsplit_once(':')?.1.trim().parse().ok()?;
    Some((prev_pid, if state.is_empty() { "R".into() } else { state }, next_pid))
}

fn parse_wakeup(body: &str) -> Option<u32> {
    if let Some(p) = value_after(body, "pid=") {
        return p.parse().ok();
    }
    // trace-cmd: "comm:pid [prio] ..."
    let (head, _) = body.split_once(" [")?;
    head.rsplit_once(':')?.1.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RAW: &str = "\
# tracer: nop
            bash-10    [001] d..2.   100.000000: sched_wakeup: comm=foo pid=42 prio=120 target_cpu=001
          <idle>-0     [001] d..2.   100.000100: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=foo next_pid=42 next_prio=120
             foo-42    [001] d..2.   100.003100: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=R+ ==> next_comm=rt next_pid=7 next_prio=0
              rt-7     [001] d..2.   100.004100: sched_switch: prev_comm=rt prev_pid=7 prev_prio=0 prev_state=S ==> next_comm=foo next_pid=42 next_prio=120
             foo-42    [001] d..2.   100.005100: sched_switch: prev_comm=foo prev_pid=42 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
          <idle>-0     [001] d.h2.   100.010100: sched_wakeup: comm=bar pid=43 prio=120 target_cpu=001
";

    #[test]
    fn kernel_format() {
        let t = task_trace_from_ftrace(RAW.as_bytes(), 42, 1024, 1024, None).unwrap();
        let got: Vec<(u64, char)> = t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect();
        assert_eq!(got, vec![(100_000, 'W'), (3_000_000, 'R'), (1_000_000, 'W'), (1_000_000, 'R'), (5_000_000, 'S')]);
        assert_eq!(t.start_ns, 100_000_000_000);
        assert_eq!(t.events, 5);
    }

    #[test]
    fn trace_cmd_format() {
        let txt = "\
cpus=2
             foo-42    [001]   100.000100: sched_switch:         swapper/1:0 [120] R ==> foo:42 [120]
             foo-42    [001]   100.002100: sched_switch:         foo:42 [120] S ==> swapper/1:0 [120]
          <idle>-0     [001]   100.004100: sched_wakeup:         foo:42 [120] CPU:001
             foo-42    [001]   100.004600: sched_switch:         swapper/1:0 [120] R ==> foo:42 [120]
";
        let t = task_trace_from_ftrace(txt.as_bytes(), 42, 512, 1024, Some("t.txt")).unwrap();
        let got: Vec<(u64, char)> = t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect();
        assert_eq!(got, vec![(2_000_000, 'R'), (2_000_000, 'S'), (500_000, 'W')]);
        assert_eq!(t.segments[0].cpu_cap, 512);
    }

    #[test]
    fn a_run_within_one_clock_tick_is_kept_as_one_ns() {
        // µs timestamps: woken at 100.000100, in and out again at 100.000300
        let txt = "\
  <idle>-0 [001] 100.000100: sched_wakeup: foo:42 [120] CPU:001
  foo-42   [001] 100.000300: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
  foo-42   [001] 100.000300: sched_switch: foo:42 [120] S ==> swapper/1:0 [120]
  <idle>-0 [001] 100.000500: sched_wakeup: foo:42 [120] CPU:001
";
        let t = task_trace_from_ftrace(txt.as_bytes(), 42, 1024, 1024, None).unwrap();
        let got: Vec<(u64, char)> = t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect();
        // W 200 µs less 1 ns, R 1 ns, S 200 µs (the last W has no length)
        assert_eq!(got, vec![(199_999, 'W'), (1, 'R'), (200_000, 'S')]);
        crate::pelt::trace::validate(&t.segments).unwrap();
        // first thing in the trace: not started until the next wakeup
        let first = "\
  foo-42   [001] 100.000300: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
  foo-42   [001] 100.000300: sched_switch: foo:42 [120] S ==> swapper/1:0 [120]
  <idle>-0 [001] 100.000500: sched_wakeup: foo:42 [120] CPU:001
  foo-42   [001] 100.000700: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
";
        let t = task_trace_from_ftrace(first.as_bytes(), 42, 1024, 1024, None).unwrap();
        assert_eq!(t.start_ns, 100_000_500_000);
        assert_eq!(t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect::<Vec<_>>(), vec![(200_000, 'W')]);
    }

    #[test]
    fn a_trace_longer_than_the_driver_takes_is_an_error_at_its_line() {
        let txt = "\
  foo-42 [001] 100.000100: sched_wakeup: foo:42 [120] CPU:001
  foo-42 [001] 11111121110.000200: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
";
        let e = task_trace_from_ftrace(txt.as_bytes(), 42, 1024, 1024, Some("t.txt")).unwrap_err().to_string();
        assert!(
            e.starts_with("t.txt:2: timestamp 11111121110000200000 ns is more than 4611686018427387903 ns after"),
            "{e}"
        );
    }

    #[test]
    fn errors() {
        let e = task_trace_from_ftrace(RAW.as_bytes(), 99, 1024, 1024, Some("t.txt")).unwrap_err();
        assert!(e.to_string().contains("pid 99"));
        let bad = "  foo-42 [001] d..2. 1.0x: sched_switch: prev_pid=42 prev_state=S next_pid=0\n";
        let e = task_trace_from_ftrace(bad.as_bytes(), 42, 1024, 1024, Some("t.txt")).unwrap_err();
        assert!(e.to_string().starts_with("t.txt:1: bad timestamp"), "{e}");
        assert_eq!(parse_timestamp("12.5"), Some(12_500_000_000));
        assert_eq!(parse_timestamp("1.000000001:"), Some(1_000_000_001));
    }
}
