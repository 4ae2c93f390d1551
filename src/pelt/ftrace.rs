//! Task traces from ftrace text or a trace.dat: the `sched_switch` and `sched_wakeup`
//! events of one pid turned into [`Segment`]s for the driver. A trace.dat's records are
//! decoded directly ([`crate::tracedat`]), `prev_state` by its format's own table.
//!
//! Both renderings are understood: the kernel's own (`/sys/kernel/tracing/trace`,
//! `prev_comm=… prev_pid=… prev_state=… ==> next_comm=… next_pid=…`, `comm=… pid=…`) and
//! `trace-cmd report`'s (`foo:42 [120] S ==> bar:43 [120]`, `foo:42 [120] CPU:001`),
//! also as `perf script` prints them (`... 12.345678: sched:sched_switch: prev_comm=...`).
//! Timestamps are `seconds.fraction` (µs or ns digits) or plain integer ns.
//!
//! States: switched in → R; switched out with `prev_state` R/R+ → W (preempted), any
//! other state → S; `sched_wakeup`/`sched_wakeup_new` while S → W. `X`/`Z` (exit) end the
//! trace. Time before the task is first runnable is dropped (the driver forks it
//! runnable); the last segment ends at the last timestamp of the file. Each segment
//! carries the capacities of the CPU the task is on ([`super::cpu_capacity`],
//! docs/pelt.md §5.6): the task is replayed on one runqueue whose capacities follow it.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::consts::SCHED_CAPACITY_SCALE;
use super::cpu_capacity::{CpuCaps, FreqEvent, Platform, NO_CPU};
use super::driver::{Init, StartState};
use super::trace::{Segment, State};
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::tracedat::decode::{Decoder, Event};
use crate::tracedat::Trace;
use std::collections::HashMap;

/// A task's trace extracted from ftrace text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FtraceTask {
    /// The segments, ready for [`super::driver::simulate`].
    pub segments: Vec<Segment>,
    /// Trace time (ns) at which the first segment starts.
    pub start_ns: u64,
    /// Number of events of the pid that were used.
    pub events: u64,
    /// Lines skipped and values assumed.
    pub notes: ImportNotes,
    /// What the trace says of the task's PELT state at `start_ns` (docs/pelt.md §10).
    pub start: Start,
}

/// The task's state when its replay starts (docs/pelt.md §10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// Nothing in the trace says: the caller's choice of [`Init`] stands.
    Unknown,
    /// Forked inside the trace (`sched_wakeup_new`): the kernel's fork init.
    Forked,
    /// Alive before: its first traced PELT state, and the trace from there (the
    /// segments from the sample, or from the first runnable moment after it).
    Known {
        /// The averages at `start_ns`.
        state: StartState,
        /// Where the replay from that state starts (trace ns).
        start_ns: u64,
        /// The segments from `start_ns`.
        segments: Vec<Segment>,
    },
}

impl FtraceTask {
    /// What to replay: the segments, their start and the [`Init`] — from the traced
    /// state when known, the kernel's fork init for a task forked in the trace, else the
    /// whole trace with `otherwise`.
    pub fn replay(&self, otherwise: Init) -> (&[Segment], u64, Init) {
        match &self.start {
            Start::Unknown => (&self.segments, self.start_ns, otherwise),
            Start::Forked => (&self.segments, self.start_ns, Init::Kernel),
            Start::Known { state, start_ns, segments } => (segments, *start_ns, Init::Given(*state)),
        }
    }

    /// The trace a front end hands back (docs/pelt.md §10): with `traced_start` and a
    /// known traced state, the segments from that state and `Init::Given` of it; for a
    /// task forked in the trace, the whole trace and `Init::Kernel`; else the whole trace
    /// and no init (the caller's choice stands).
    pub fn into_start(self, traced_start: bool) -> (Vec<Segment>, u64, Option<Init>) {
        match self.start {
            Start::Known { state, start_ns, segments } if traced_start => {
                (segments, start_ns, Some(Init::Given(state)))
            }
            Start::Forked => (self.segments, self.start_ns, Some(Init::Kernel)),
            _ => (self.segments, self.start_ns, None),
        }
    }
}

/// A task's trace from ftrace text or trace.dat bytes `data` ([`task_trace_from_ftrace`],
/// `path` naming it) or, without data, the file at `path` ([`read_ftrace`]), with the
/// CPUs' capacities from `sources` ([`Platform::from_sources`]).
pub fn task_trace(
    data: Option<&[u8]>,
    path: Option<&std::path::Path>,
    pid: u32,
    sources: &super::cpu_capacity::Sources<'_>,
    opts: ImportOptions,
) -> Result<FtraceTask> {
    let platform = Platform::from_sources(sources)?;
    match (data, path) {
        (Some(d), p) => task_trace_from_ftrace(d, pid, &platform, p.and_then(|p| p.to_str()), opts),
        (None, Some(p)) => read_ftrace(p, pid, &platform, opts),
        (None, None) => Err(Error::domain("give ftrace text or a path")),
    }
}

/// A traced PELT state of one task entity: LISA's / the Arm EAS trees' `sched_load_se`
/// (`load`, `util`), `sched_pelt_se` (also `runnable`) or `sched_util_est_se`
/// (`enqueued`, `ewma`, `util`) — the fields the line has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PeltSample {
    /// `util=`: `se.avg.util_avg`.
    pub util: Option<u64>,
    /// `load=`: `se.avg.load_avg`.
    pub load: Option<u64>,
    /// `runnable=`: `se.avg.runnable_avg` (`runnable_load_avg` before 5.7).
    pub runnable: Option<u64>,
    /// `ewma=` and `enqueued=` of `sched_util_est_se`.
    pub util_est: Option<(u32, u32)>,
}

/// What one event does to the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskEvent {
    /// `sched_switch` away from the task, into `state` (W preempted, S asleep); `exit`
    /// when the task is dead (`X`/`Z`).
    SwitchOut {
        /// W (still runnable) or S.
        state: State,
        /// The task exited: nothing after this counts.
        exit: bool,
    },
    /// `sched_switch` to the task.
    SwitchIn,
    /// `sched_wakeup` / `sched_wakeup_new` of the task, queued on `target` (its
    /// `target_cpu`, when the line has one).
    Wakeup {
        /// `target_cpu`.
        target: Option<u32>,
        /// `sched_wakeup_new`: the task was just forked.
        new: bool,
    },
    /// A traced PELT state of the task ([`Detail::Segments`] only).
    Pelt(PeltSample),
    /// A PELT update of this CPU's root cfs_rq, whatever task ([`Detail::Segments`] only):
    /// `sched_load_cfs_rq` / `sched_pelt_cfs` with `path=/`.
    CfsUpdate(u32),
    /// `sched_stat_runtime` of the task: it ran this many ns of task clock since its
    /// last `update_curr` ([`Detail::Clock`] only).
    Runtime(u64),
    /// `sched_migrate_task` of the task, to `dest` (its `dest_cpu`, when the line has one).
    Migrate {
        /// `dest_cpu`.
        dest: Option<u32>,
    },
    /// A CPU's frequency, whatever task runs: `cpu_frequency` (a change) or LISA's
    /// `cpu_frequency_devlib` marker (a snapshot) ([`Detail::Segments`] only).
    Frequency(FreqEvent),
    /// The tick's hrtimer expired on the event's CPU, whatever task ran; the value is the
    /// hrtimer base's CLOCK_MONOTONIC time it printed (`now=`), 0 when absent
    /// ([`Detail::Clock`] only).
    Tick(u64),
    /// An hrtimer expired on the event's CPU this many ns after the `expires=` its
    /// `hrtimer_start` set: the CPU ran late, whatever task ran ([`Detail::Clock`] only;
    /// docs/live.md §3, the steal time it measures).
    TimerLate(u64),
}

/// Which events of a task are read: its run/wait/sleep changes (the PELT importer), or
/// also what places them on the task clock (the live check, docs/live.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// `sched_switch`, `sched_wakeup`, `sched_wakeup_new`, `sched_migrate_task`,
    /// `cpu_frequency` and the `cpu_frequency_devlib` markers (`print` /
    /// `tracing_mark_write`).
    Segments,
    /// Also `sched_stat_runtime`, `sched_migrate_task`, every tick and how late each
    /// hrtimer expired.
    Clock,
}

impl Detail {
    /// The event names read, a name that is a prefix of another after it.
    fn names(self) -> &'static [&'static str] {
        match self {
            Detail::Segments => &[
                "sched_switch",
                "sched_wakeup_new",
                "sched_wakeup",
                "sched_migrate_task",
                "cpu_frequency",
                // trace-cmd prints a marker as `print: tracing_mark_write: ...`
                "print",
                "tracing_mark_write",
                "sched_load_se",
                "sched_pelt_se",
                "sched_util_est_se",
                "sched_load_cfs_rq",
                "sched_pelt_cfs",
            ],
            Detail::Clock => &[
                "sched_switch",
                "sched_wakeup_new",
                "sched_wakeup",
                "sched_stat_runtime",
                "sched_migrate_task",
                "hrtimer_expire_entry",
                "hrtimer_start",
            ],
        }
    }
}

/// An event of the task at trace time `ts` (ns), read at `line` (1-based) of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timed {
    /// Trace time, ns.
    pub ts: u64,
    /// Where it was read (a line of text, or a record number of a binary trace).
    pub line: usize,
    /// The CPU that recorded it.
    pub cpu: u32,
    /// What it does.
    pub event: TaskEvent,
}

/// How a numeric `sched_switch` `prev_state` (`trace-cmd report -R`, or a kernel format
/// without its print table) maps to task states: the `__print_flags` table of the
/// event's format (bit → letter) and the bit the kernel adds for a preemption, printed
/// `+` (`TASK_REPORT_MAX` since Linux 4.14, `TASK_STATE_MAX` before). A value without any
/// state bit below the preemption bit is `R`: the task was still runnable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrevStateBits {
    /// (bit, letter) as in the format's `__print_flags(prev_state …)`.
    pub flags: Vec<(u64, char)>,
    /// The preemption bit (`+`).
    pub preempt: u64,
    /// True when the table came from the trace's own format, not the default.
    pub from_format: bool,
}

impl Default for PrevStateBits {
    /// The layout of Linux 4.14 and later (`include/trace/events/sched.h`): S D T t X Z P I
    /// on bits 0–7, the preemption bit 0x100. Older kernels put more states below a higher
    /// preemption bit (0x400, 0x800, 0x1000): their preemptions still read as `R` here.
    fn default() -> Self {
        let letters = ['S', 'D', 'T', 't', 'X', 'Z', 'P', 'I'];
        PrevStateBits {
            flags: letters.iter().enumerate().map(|(i, &c)| (1u64 << i, c)).collect(),
            preempt: 0x100,
            from_format: false,
        }
    }
}

impl PrevStateBits {
    /// The layout from a `sched_switch` format's `print fmt`: the `{ 0x01, "S" }` pairs of
    /// its `__print_flags`, the preemption bit one above the highest; `None` if the format
    /// has no such table.
    pub fn from_print_fmt(fmt: &str) -> Option<Self> {
        let table = fmt.split_once("__print_flags(")?.1;
        let table = table.split_once(": \"R\"").map_or(table, |(t, _)| t);
        let mut flags = Vec::new();
        let mut rest = table;
        while let Some((_, after)) = rest.split_once("{ ") {
            let (pair, tail) = after.split_once('}')?;
            rest = tail;
            let (bit, name) = pair.split_once(',')?;
            let bit = bit.trim();
            let bit = match bit.strip_prefix("0x") {
                Some(h) => u64::from_str_radix(h, 16).ok()?,
                None => bit.parse().ok()?,
            };
            let letter = name.trim().trim_matches('"').chars().next()?;
            flags.push((bit, letter));
        }
        let top = flags.iter().map(|&(b, _)| b).max()?;
        Some(PrevStateBits { flags, preempt: top.checked_mul(2)?, from_format: true })
    }

    /// `prev_state` printed as the kernel's `sched_switch` print fmt does: `R` when no
    /// state bit is set, else the letters joined by `|`; `+` after a preemption.
    pub fn letters(&self, v: u64) -> String {
        let states = v & self.preempt.saturating_sub(1);
        let mut s = if states == 0 {
            "R".to_string()
        } else {
            let l: Vec<String> =
                self.flags.iter().filter(|&&(b, _)| states & b != 0).map(|&(_, c)| c.to_string()).collect();
            l.join("|")
        };
        if v & self.preempt != 0 {
            s.push('+');
        }
        s
    }

    /// The state a switched-out task is left in and whether it exited, from `prev_state`
    /// as printed (letters: `R`, `R+`, `S`, `D|K`, `X`, ... or the kernel's number);
    /// `None` when it is neither.
    pub fn classify(&self, prev_state: &str) -> Option<(State, bool)> {
        if let Some(v) = parse_number(prev_state) {
            return Some(self.classify_number(v));
        }
        let first = prev_state.chars().next()?;
        if !first.is_ascii_alphabetic() {
            return None;
        }
        if first == 'R' {
            return Some((State::Wait, false));
        }
        let exit = prev_state.chars().any(|c| matches!(c, 'X' | 'Z' | 'x'));
        Some((State::Sleep, exit))
    }

    /// The state and exit of the kernel's number `v` (see [`Self::classify`]).
    pub fn classify_number(&self, v: u64) -> (State, bool) {
        let v = v & (self.preempt.saturating_sub(1));
        if v == 0 {
            return (State::Wait, false);
        }
        let exit = self.flags.iter().any(|&(b, c)| v & b != 0 && matches!(c, 'X' | 'Z' | 'x'));
        (State::Sleep, exit)
    }
}

pub(crate) fn parse_number(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
        None => None,
    }
}

/// A run of no length between two events at the same timestamp, followed by a sleep:
/// after a wait it is kept as 1 ns taken from that wait (a preempted task runs before
/// it sleeps, and 1 ns is below anything PELT resolves); as the task's first segment
/// the trace has not started yet (it starts at the next wakeup).
fn run_below_resolution(segments: &mut Vec<Segment>, start_ns: &mut Option<u64>, (cpu_cap, freq_cap): (u32, u32)) {
    match segments.last_mut() {
        Some(w) if w.state == State::Wait && w.dur_ns > 1 => {
            w.dur_ns -= 1;
            let cpu = w.cpu;
            segments.push(Segment { dur_ns: 1, state: State::Run, cpu_cap, freq_cap, cpu, sync_lag_ns: None });
        }
        Some(w) if w.state == State::Wait => {
            // a wait of 1 ns becomes the run, merged with a run before it
            let cpu = w.cpu;
            segments.pop();
            match segments.last_mut() {
                Some(r) if r.state == State::Run && r.cpu == cpu => r.dur_ns += 1,
                _ => segments.push(Segment { dur_ns: 1, state: State::Run, cpu_cap, freq_cap, cpu, sync_lag_ns: None }),
            }
        }
        Some(_) => {}
        None => *start_ns = None,
    }
}

/// The events of `pid` read from ftrace text (or a trace.dat), in file order, the latest
/// event time of the file with its line (the end of the trace), the first event out of
/// time order, and whether a `prev_state` was a number.
struct TextEvents {
    events: Vec<Timed>,
    end: Option<(u64, usize)>,
    out_of_order: Option<(usize, u64, u64)>,
    numeric_state: bool,
}

impl TextEvents {
    /// Events out of time order refused at the first one's line, or sorted under
    /// `opts.sort` (noted); a numeric `prev_state` noted with the `bits` that read it.
    fn settle(
        &mut self,
        bits: &PrevStateBits,
        path: Option<&str>,
        opts: ImportOptions,
        notes: &mut ImportNotes,
    ) -> Result<()> {
        if let Some((line, ts, prev)) = self.out_of_order {
            if !opts.sort {
                return Err(Error::parse(
                    path,
                    Some(line),
                    format!(
                        "timestamp {ts} ns goes backwards (previous {prev} ns); sort the trace by time (or ask to sort)"
                    ),
                ));
            }
            notes.assume(format!("events out of time order (first at line {line}) were sorted by time"));
            self.events.sort_by_key(|e| e.ts);
        }
        if self.numeric_state {
            notes.assume(numeric_state_note(bits));
        }
        Ok(())
    }
}

fn read_text_events(
    bytes: &[u8],
    pid: u32,
    bits: &PrevStateBits,
    detail: Detail,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
) -> Result<TextEvents> {
    let mut out = TextEvents { events: Vec::new(), end: None, out_of_order: None, numeric_state: false };
    let mut expires: HashMap<String, u64> = HashMap::new();
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        crate::cancel::check_every(i)?;
        let line_no = i + 1;
        let err = |msg: String| Error::parse(path, Some(line_no), msg);
        let line = match std::str::from_utf8(raw) {
            Ok(l) => l,
            Err(e) => {
                let e = err(format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1));
                notes.malformed(opts, e)?;
                continue;
            }
        };
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') || t.starts_with("CPU ") || t.starts_with("cpus=") {
            continue;
        }
        let Some((ts_text, name, body)) = split_event_of(line, detail.names()) else { continue };
        let Some(ts) = parse_timestamp(ts_text) else {
            notes.malformed(opts, err(format!("bad timestamp '{ts_text}' before '{name}:'")))?;
            continue;
        };
        let cpu = match line.split(ts_text).next().and_then(cpu_of) {
            Some(c) => c,
            None if detail == Detail::Clock => {
                notes.malformed(opts, err(format!("no [CPU] field before the timestamp of '{name}:'")))?;
                continue;
            }
            None => NO_CPU,
        };
        match out.end {
            Some((prev, _)) if ts < prev => {
                out.out_of_order.get_or_insert((line_no, ts, prev));
            }
            _ => out.end = Some((ts, line_no)),
        }
        let ev = match name {
            "sched_switch" => {
                let Some((prev_pid, prev_state, next_pid)) = parse_switch(body) else {
                    let msg = "sched_switch without prev_pid/prev_state/next_pid (expected the kernel's or trace-cmd's format)";
                    notes.malformed(opts, err(msg.into()))?;
                    continue;
                };
                if prev_pid == pid {
                    let Some((state, exit)) = bits.classify(&prev_state) else {
                        notes.malformed(
                            opts,
                            err(format!("prev_state '{prev_state}' is neither letters nor a number")),
                        )?;
                        continue;
                    };
                    out.numeric_state |= parse_number(&prev_state).is_some();
                    Some(TaskEvent::SwitchOut { state, exit })
                } else if next_pid == pid {
                    Some(TaskEvent::SwitchIn)
                } else {
                    None
                }
            }
            "sched_wakeup" | "sched_wakeup_new" => match parse_wakeup(body) {
                Some(wpid) => (wpid == pid)
                    .then(|| TaskEvent::Wakeup { target: wakeup_target(body), new: name == "sched_wakeup_new" }),
                None => {
                    notes.malformed(opts, err(format!("{name} without a pid")))?;
                    continue;
                }
            },
            "sched_migrate_task" => match value_after(body, "pid=").and_then(|p| p.parse::<u32>().ok()) {
                Some(p) => (p == pid).then(|| TaskEvent::Migrate { dest: number_after(body, "dest_cpu=") }),
                None => {
                    notes.malformed(opts, err("sched_migrate_task without a pid".into()))?;
                    continue;
                }
            },
            "cpu_frequency" => match frequency_of(body, ts, line_no, false) {
                Some(f) => Some(TaskEvent::Frequency(f)),
                None => {
                    notes.malformed(opts, err("cpu_frequency without state= and cpu_id=".into()))?;
                    continue;
                }
            },
            "tracing_mark_write" | "print" => {
                let body = body.trim_start();
                let body = body.strip_prefix("tracing_mark_write:").map_or(body, str::trim_start);
                match body.strip_prefix("cpu_frequency_devlib:") {
                    Some(b) => match frequency_of(b, ts, line_no, true) {
                        Some(f) => Some(TaskEvent::Frequency(f)),
                        None => {
                            notes.malformed(opts, err("cpu_frequency_devlib without state= and cpu_id=".into()))?;
                            continue;
                        }
                    },
                    None => None,
                }
            }
            "sched_load_cfs_rq" | "sched_pelt_cfs" => match number_after(body, "cpu=") {
                Some(c) => (value_after(body, "path=") == Some("/")).then_some(TaskEvent::CfsUpdate(c)),
                None => {
                    notes.malformed(opts, err(format!("{name} without a cpu")))?;
                    continue;
                }
            },
            "sched_load_se" | "sched_pelt_se" | "sched_util_est_se" => {
                // group entities have pid=-1
                match value_after(body, "pid=").and_then(|p| p.parse::<i64>().ok()) {
                    Some(p) if p == i64::from(pid) => Some(TaskEvent::Pelt(pelt_sample_of(body))),
                    Some(_) => None,
                    None => {
                        notes.malformed(opts, err(format!("{name} without a pid")))?;
                        continue;
                    }
                }
            }
            "sched_stat_runtime" => {
                let p = value_after(body, "pid=").and_then(|p| p.parse::<u32>().ok());
                let r = value_after(body, "runtime=").and_then(|r| r.parse::<u64>().ok());
                match (p, r) {
                    (Some(p), Some(r)) => (p == pid).then_some(TaskEvent::Runtime(r)),
                    _ => {
                        notes.malformed(opts, err("sched_stat_runtime without pid= and runtime=".into()))?;
                        continue;
                    }
                }
            }
            "hrtimer_start" => {
                let t = value_after(body, "hrtimer=");
                let e = value_after(body, "expires=").and_then(|e| e.parse::<u64>().ok());
                if let (Some(t), Some(e)) = (t, e) {
                    expires.insert(t.to_string(), e);
                }
                None
            }
            "hrtimer_expire_entry" => {
                let now = value_after(body, "now=").and_then(|n| n.parse::<u64>().ok());
                let due = value_after(body, "hrtimer=").and_then(|t| expires.remove(t));
                if let Some(late) = now.zip(due).map(|(n, d)| n.saturating_sub(d)) {
                    out.events.push(Timed { ts, line: line_no, cpu, event: TaskEvent::TimerLate(late) });
                }
                value_after(body, "function=")
                    .is_some_and(crate::idle::ftrace::is_tick_function)
                    .then(|| TaskEvent::Tick(now.unwrap_or(0)))
            }
            _ => None,
        };
        if let Some(event) = ev {
            out.events.push(Timed { ts, line: line_no, cpu, event });
        }
    }
    Ok(out)
}

/// The events of `pid` decoded from the records of a trace.dat, with its `prev_state`
/// bits (the `sched_switch` format's own table); line numbers are record numbers.
fn read_tracedat_events(
    trace: &Trace<'_>,
    pid: u32,
    detail: Detail,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
) -> Result<(TextEvents, PrevStateBits)> {
    let bits = trace
        .header
        .formats
        .values()
        .find(|f| f.name == "sched_switch")
        .and_then(|f| PrevStateBits::from_print_fmt(&f.print_fmt))
        .unwrap_or_default();
    let decoder = Decoder::new(&trace.header.formats, detail.names());
    let mut tick_fn: HashMap<u64, bool> = HashMap::new();
    let mut is_tick = |addr: u64| {
        *tick_fn
            .entry(addr)
            .or_insert_with(|| trace.header.symbol(addr).is_some_and(|f| crate::idle::ftrace::is_tick_function(&f)))
    };
    let mut out = TextEvents { events: Vec::new(), end: None, out_of_order: None, numeric_state: !bits.from_format };
    let mut expires: HashMap<u64, i64> = HashMap::new();
    let pid = i64::from(pid);
    trace.records(|r| {
        let ev = match decoder.decode(r.data) {
            Ok(Some(ev)) => ev,
            Ok(None) => return Ok(()),
            Err(msg) => return notes.malformed(opts, Error::parse(path, Some(r.number), msg)),
        };
        match out.end {
            Some((prev, _)) if r.ts < prev => {
                out.out_of_order.get_or_insert((r.number, r.ts, prev));
            }
            _ => out.end = Some((r.ts, r.number)),
        }
        let event = match ev {
            Event::Switch { prev_pid, prev_state, .. } if prev_pid == pid => {
                let (state, exit) = bits.classify_number(prev_state);
                TaskEvent::SwitchOut { state, exit }
            }
            Event::Switch { next_pid, .. } if next_pid == pid => TaskEvent::SwitchIn,
            Event::Wakeup { pid: w, target_cpu, new } if w == pid => {
                TaskEvent::Wakeup { target: target_cpu.and_then(|c| u32::try_from(c).ok()), new }
            }
            Event::CfsRqUpdate { cpu, root: true } => match u32::try_from(cpu) {
                Ok(c) => TaskEvent::CfsUpdate(c),
                Err(_) => return Ok(()),
            },
            Event::PeltSe { pid: p, util, load, runnable, util_est } if p == pid => {
                let util_est = util_est.and_then(|(e, q)| Some((u32::try_from(e).ok()?, u32::try_from(q).ok()?)));
                TaskEvent::Pelt(PeltSample { util, load, runnable, util_est })
            }
            Event::Runtime { pid: p, runtime } if p == pid => TaskEvent::Runtime(runtime),
            Event::Migrate { pid: p, dest_cpu } if p == pid => {
                TaskEvent::Migrate { dest: dest_cpu.and_then(|c| u32::try_from(c).ok()) }
            }
            Event::CpuFrequency { state, cpu_id, snapshot } => match u32::try_from(cpu_id) {
                Ok(cpu) => TaskEvent::Frequency(FreqEvent { ts: r.ts, line: r.number, cpu, khz: state, snapshot }),
                Err(_) => return Ok(()),
            },
            Event::HrtimerStart { hrtimer, expires: e, .. } => {
                expires.insert(hrtimer, e);
                return Ok(());
            }
            Event::HrtimerExpireEntry { hrtimer, now, function } => {
                if let Some(due) = expires.remove(&hrtimer) {
                    let late = u64::try_from(now.saturating_sub(due)).unwrap_or(0);
                    out.events.push(Timed { ts: r.ts, line: r.number, cpu: r.cpu, event: TaskEvent::TimerLate(late) });
                }
                if !is_tick(function) {
                    return Ok(());
                }
                TaskEvent::Tick(u64::try_from(now).unwrap_or(0))
            }
            _ => return Ok(()),
        };
        out.events.push(Timed { ts: r.ts, line: r.number, cpu: r.cpu, event });
        Ok(())
    })?;
    Ok((out, bits))
}

/// Build the trace of `pid` from ftrace text or a trace.dat (its records decoded
/// directly, [`crate::tracedat`]); each segment gets the capacities of the CPU the task is
/// on, from `platform` and the trace's frequency events ([`CpuCaps`]). `path` names the
/// input in errors. Malformed lines (records) are skipped and counted (fatal under
/// `opts.strict`); events out of time order are an error unless `opts.sort`.
pub fn task_trace_from_ftrace(
    bytes: &[u8],
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
) -> Result<FtraceTask> {
    if crate::tracedat::is_tracedat(bytes) {
        return task_trace_from_tracedat(&Trace::open(&bytes, path)?, pid, platform, path, opts);
    }
    let mut notes = ImportNotes::default();
    let bits = PrevStateBits::default();
    let text = read_text_events(bytes, pid, &bits, Detail::Segments, path, opts, &mut notes)?;
    task_trace_from(text, &bits, pid, platform, path, opts, notes)
}

/// [`task_trace_from_ftrace`] of an opened trace.dat.
pub fn task_trace_from_tracedat(
    trace: &Trace<'_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
) -> Result<FtraceTask> {
    let mut notes = ImportNotes::default();
    notes.assume(trace.note());
    let (events, bits) = read_tracedat_events(trace, pid, Detail::Segments, path, opts, &mut notes)?;
    task_trace_from(events, &bits, pid, platform, path, opts, notes)
}

/// The task trace from its events as read (sorted on request, refused out of order).
fn task_trace_from(
    mut text: TextEvents,
    bits: &PrevStateBits,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
    mut notes: ImportNotes,
) -> Result<FtraceTask> {
    text.settle(bits, path, opts, &mut notes)?;
    task_trace_from_events(&text.events, text.end, pid, platform, path, notes)
}

/// The note for a numeric `prev_state` read with `bits`.
pub fn numeric_state_note(bits: &PrevStateBits) -> String {
    let table: Vec<String> = bits.flags.iter().map(|(b, c)| format!("{c}={b:#x}")).collect();
    format!(
        "numeric prev_state read with {} bit layout ({}, preempted={:#x}; 0 or the preemption bit alone = runnable)",
        if bits.from_format { "the trace's own" } else { "Linux 4.14+'s (no format in the input)" },
        table.join(" "),
        bits.preempt
    )
}

/// The segments of `pid` from its events in time order; `end` is the trace's last event
/// time and where it was read. States: switched in → R; switched out runnable → W,
/// otherwise S; woken while S → W; an exit ends the trace. The task's CPU is the one it
/// is switched in on, woken onto (`target_cpu`) or migrated to (`dest_cpu`); a R or W
/// segment is split where that CPU's capacities change (a migration, a frequency event
/// of its domain). A sleep keeps the capacities it started with (the idle CPU's PELT
/// clock does not scale).
pub fn task_trace_from_events(
    events: &[Timed],
    end: Option<(u64, usize)>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    mut notes: ImportNotes,
) -> Result<FtraceTask> {
    let freqs: Vec<FreqEvent> = events
        .iter()
        .filter_map(|e| match e.event {
            TaskEvent::Frequency(f) => Some(f),
            _ => None,
        })
        .collect();
    let mut caps = CpuCaps::new(platform, &freqs, path);
    let mut state: Option<State> = None;
    let mut seg_start: u64 = 0;
    let mut start_ns: Option<u64> = None;
    let mut segments: Vec<Segment> = Vec::new();
    let mut used = 0u64;
    let mut last = end;
    let mut cpu = NO_CPU;
    let mut cur = (SCHED_CAPACITY_SCALE as u32, SCHED_CAPACITY_SCALE as u32);
    // the first traced PELT state (with the latest util_est at or before it), and
    // whether the task was forked before the trace starts
    let mut first_pelt: Option<(u64, usize, PeltSample)> = None;
    let mut util_est: Option<(u32, u32)> = None;
    let mut forked = false;
    // the CPU of the runqueue the replay keeps the task on: it changes only at a wakeup
    // (a migration of a waking task, docs/pelt.md §11); the load balancer's moves of a
    // runnable task change only the capacities
    let mut seg_cpu: u32 = 0;
    let mut queued_moves = 0u64;
    // each CPU's last root cfs_rq update (its PELT events), and the lag of the old CPU's
    // at a migrating wakeup, carried by the segment it starts
    let mut cfs_update: HashMap<u32, u64> = HashMap::new();
    let mut seg_lag: Option<u64> = None;
    let push = |segments: &mut Vec<Segment>,
                st: State,
                from: u64,
                to: u64,
                (cpu_cap, freq_cap): (u32, u32),
                cpu,
                sync_lag_ns: Option<u64>| {
        if to <= from {
            return;
        }
        // a segment of no length is never pushed: where one was the wakeup a move
        // follows (woken and asleep again at one timestamp), the move waits for the next
        // wakeup, so that the CPU changes only where the driver replays a migration
        let woken = |last: &Segment| last.state == State::Sleep && st != State::Sleep;
        let (cpu, sync_lag_ns) = match segments.last() {
            Some(last) if last.cpu != cpu && !woken(last) => (last.cpu, None),
            _ => (cpu, sync_lag_ns),
        };
        let dur = to - from;
        match segments.last_mut() {
            Some(last) if last.state == st && (last.cpu_cap, last.freq_cap, last.cpu) == (cpu_cap, freq_cap, cpu) => {
                last.dur_ns += dur
            }
            _ => segments.push(Segment { dur_ns: dur, state: st, cpu_cap, freq_cap, cpu, sync_lag_ns }),
        }
    };
    let too_long = |ts: u64, line: usize, start: u64| {
        Error::parse(
            path,
            Some(line),
            format!(
                "timestamp {ts} ns is more than {} ns after the trace's start ({start} ns)",
                crate::pelt::trace::MAX_TRACE_NS
            ),
        )
    };
    for (i, e) in events.iter().enumerate() {
        crate::cancel::check_every(i)?;
        let (ts, line_no) = (e.ts, e.line);
        if let Some(start) = start_ns {
            if ts - start > crate::pelt::trace::MAX_TRACE_NS {
                return Err(too_long(ts, line_no, start));
            }
        }
        let err = |msg: String| Error::parse(path, Some(line_no), msg);
        // what the event does to the task's CPU and its capacities
        let placed = match e.event {
            TaskEvent::Frequency(f) => {
                caps.apply(&f);
                None
            }
            TaskEvent::Migrate { dest } => dest,
            TaskEvent::SwitchIn => Some(e.cpu),
            TaskEvent::Wakeup { target, .. } => Some(target.unwrap_or(e.cpu)),
            _ => None,
        };
        if let TaskEvent::CfsUpdate(c) = e.event {
            cfs_update.insert(c, ts);
            continue;
        }
        if let TaskEvent::Pelt(p) = e.event {
            if p.util_est.is_some() && first_pelt.is_none() {
                util_est = p.util_est;
            }
            if p.util.is_some() && p.util_est.is_none() && first_pelt.is_none() {
                first_pelt = Some((ts, line_no, p));
            }
            continue;
        }
        if let (TaskEvent::Wakeup { new: true, .. }, None) = (e.event, start_ns) {
            forked = true;
        }
        if matches!(e.event, TaskEvent::Frequency(_) | TaskEvent::Migrate { .. }) {
            cpu = placed.unwrap_or(cpu);
            if let (Some(st @ (State::Run | State::Wait)), Some(_)) = (state, start_ns) {
                if matches!(e.event, TaskEvent::Migrate { .. }) {
                    queued_moves += 1;
                }
                let now = caps.caps(cpu, line_no)?;
                if now != cur {
                    push(&mut segments, st, seg_start, ts, cur, seg_cpu, seg_lag.take());
                    seg_start = ts;
                    cur = now;
                }
            }
            continue;
        }
        used += 1;
        let mut exited = false;
        let new = match (state, e.event) {
            (_, TaskEvent::SwitchIn) => State::Run,
            (Some(State::Run), TaskEvent::SwitchOut { state: s, exit }) => {
                exited = exit;
                s
            }
            (Some(s), TaskEvent::SwitchOut { .. }) => {
                return Err(err(format!(
                    "pid {pid} switched out while {} (not running): missing events?",
                    if s == State::Wait { "runnable" } else { "sleeping" }
                )))
            }
            (None, TaskEvent::SwitchOut { state: s, exit }) => {
                exited = exit;
                s
            }
            (Some(State::Sleep) | None, TaskEvent::Wakeup { .. }) => State::Wait,
            (Some(s), TaskEvent::Wakeup { .. }) => s,
            (_, TaskEvent::Runtime(_) | TaskEvent::Tick(_) | TaskEvent::TimerLate(_)) => continue,
            (_, TaskEvent::Migrate { .. } | TaskEvent::Frequency(_) | TaskEvent::Pelt(_) | TaskEvent::CfsUpdate(_)) => {
                continue
            }
        };
        cpu = placed.unwrap_or(cpu);
        match state {
            Some(old) if start_ns.is_some() => {
                let now = caps.caps(cpu, line_no)?;
                if old != new {
                    if old == State::Run && ts == seg_start && new == State::Sleep {
                        // switched in and out within one tick of the trace clock (µs
                        // timestamps): the run has no length, yet W -> S is no trace
                        run_below_resolution(&mut segments, &mut start_ns, cur);
                    } else {
                        push(&mut segments, old, seg_start, ts, cur, seg_cpu, seg_lag.take());
                    }
                    seg_start = ts;
                    cur = now;
                    // woken here: moved when that is another CPU; a sleep of no length
                    // (switched out and in at one timestamp) leaves no S segment for the
                    // move to follow, so the task stays on its runqueue and only the
                    // capacities change, as for the load balancer's moves
                    let slept = segments.last().is_some_and(|g| g.state == State::Sleep);
                    if old == State::Sleep && slept {
                        let to = if cpu == NO_CPU { 0 } else { cpu };
                        if to != seg_cpu {
                            seg_lag = cfs_update.get(&seg_cpu).map(|&t| ts.saturating_sub(t));
                        }
                        seg_cpu = to;
                    }
                } else if new != State::Sleep && now != cur {
                    push(&mut segments, old, seg_start, ts, cur, seg_cpu, seg_lag.take());
                    seg_start = ts;
                    cur = now;
                }
            }
            _ => {
                // Not started yet: start at the first runnable state.
                if new != State::Sleep {
                    start_ns = Some(ts);
                    seg_start = ts;
                    cur = caps.caps(cpu, line_no)?;
                    seg_cpu = if cpu == NO_CPU { 0 } else { cpu };
                }
            }
        }
        state = Some(new);
        if exited {
            last = Some((ts, line_no));
            break;
        }
    }
    let (Some(st), Some(start)) = (state, start_ns) else {
        return Err(Error::parse(path, None, format!("no sched_switch/sched_wakeup event makes pid {pid} runnable")));
    };
    if let Some((end, line)) = last {
        if end.saturating_sub(start) > crate::pelt::trace::MAX_TRACE_NS {
            return Err(too_long(end, line, start));
        }
        push(&mut segments, st, seg_start, end, cur, seg_cpu, seg_lag.take());
    }
    if queued_moves > 0 {
        notes.assume(format!(
            "pid {pid}: {queued_moves} migration(s) of the task while runnable (load balancing) are replayed as a \
             change of capacities only; its signal stays on the runqueue it woke on"
        ));
    }
    if segments.is_empty() {
        return Err(Error::parse(path, None, format!("pid {pid} has no segment longer than 0 ns")));
    }
    caps.notes(&mut notes);
    let mut task = FtraceTask { segments, start_ns: start, events: used, notes, start: Start::Unknown };
    if forked {
        task.start = Start::Forked;
        task.notes.assume(format!("pid {pid} was forked in the trace (sched_wakeup_new): the kernel's fork init"));
    } else if let Some((ts, line, p)) = first_pelt {
        start_from_sample(&mut task, pid, ts, line, p, util_est, path);
    }
    Ok(task)
}

/// Start `task`'s replay from its first traced PELT state (docs/pelt.md §10).
fn start_from_sample(
    task: &mut FtraceTask,
    pid: u32,
    ts: u64,
    line: usize,
    p: PeltSample,
    util_est: Option<(u32, u32)>,
    path: Option<&str>,
) {
    let Some(util) = p.util else { return };
    let src = path.map_or(String::new(), |p| format!("{p}:"));
    let state = StartState { util_avg: util, load_avg: p.load, runnable_avg: p.runnable, util_est };
    let mut what = format!("util_avg {util}");
    if let Some(l) = p.load {
        what += &format!(", load_avg {l}");
    }
    if let Some(r) = p.runnable {
        what += &format!(", runnable {r}");
    }
    if let Some((e, q)) = util_est {
        what += &format!(", util_est ewma {e} enqueued {q}");
    }
    task.start_at(pid, state, ts, &format!("its traced PELT state ({what}; {src}{line}"));
}

fn at(t: u64) -> String {
    format!("{}.{:06} s", t / 1_000_000_000, t % 1_000_000_000 / 1000)
}

impl FtraceTask {
    /// Start the replay from `state`, the task's averages at trace time `ts` (docs/pelt.md
    /// §10): the segments before it are not replayed (they would start from an unknown
    /// state); a task asleep at `ts` starts at its next wakeup, its averages decayed over
    /// the whole periods asleep (`decay_load`). `source` says where the state came from
    /// (a `/proc/PID/sched` reading, ...); the notes say what was done.
    pub fn start_at(&mut self, pid: u32, state: StartState, ts: u64, source: &str) {
        let mut t = self.start_ns;
        let mut cut = 0;
        let mut start = self.start_ns.max(ts);
        for (i, seg) in self.segments.iter().enumerate() {
            let end = t + seg.dur_ns;
            if end > start {
                if seg.state == State::Sleep {
                    start = end; // asleep at the sample: from the next wakeup
                } else {
                    cut = i;
                    break;
                }
            }
            t = end;
            cut = i + 1;
        }
        if cut >= self.segments.len() {
            self.notes
                .assume(format!("pid {pid}: {source}, {}) comes after its last runnable moment: not used", at(ts)));
            return;
        }
        let first = start - t; // into segment `cut`
        let mut segments = self.segments.get(cut..).unwrap_or_default().to_vec();
        if let Some(s) = segments.first_mut() {
            s.dur_ns -= first;
        }
        let dropped = start - self.start_ns;
        let periods = start.saturating_sub(ts) >> 20;
        // (decay_load(v, 0) would take 1 off: y^0 is 0xffffffff / 2^32)
        let decay = |v: u64| if periods == 0 { v } else { super::signal::decay_load(v, periods) };
        let state = StartState {
            util_avg: decay(state.util_avg),
            load_avg: state.load_avg.map(decay),
            runnable_avg: state.runnable_avg.map(decay),
            util_est: state.util_est,
        };
        let mut note = format!("pid {pid}: start state from {source}, {})", at(ts));
        if periods > 0 {
            note += &format!(", decayed over {periods} periods asleep to util_avg {}", state.util_avg);
        }
        note += &format!("; a replay from it starts at {}", at(start));
        if dropped > 0 {
            note += &format!(" (the first {dropped} ns of the trace are not replayed)");
        }
        self.notes.assume(note);
        self.start = Start::Known { state, start_ns: start, segments };
    }
}

/// Read a trace file and extract `pid` (see [`task_trace_from_ftrace`]).
pub fn read_ftrace(path: &std::path::Path, pid: u32, platform: &Platform, opts: ImportOptions) -> Result<FtraceTask> {
    let name = path.display().to_string();
    if let Some(file) = crate::tracedat::open_file(path)? {
        // read a piece at a time: a trace.dat is not bounded by the text limit
        return task_trace_from_tracedat(&Trace::open(&file, Some(&name))?, pid, platform, Some(&name), opts);
    }
    let bytes = crate::archive::dir::read_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
    task_trace_from_ftrace(&bytes, pid, platform, Some(&name), opts)
}

/// The events of `pid` with [`Detail`] `detail` from the trace file at `path` (a
/// trace.dat read a piece at a time, or ftrace text), in time order, with the import's
/// notes: malformed lines skipped and counted (fatal under `opts.strict`), events out
/// of time order an error at their line unless `opts.sort`.
pub fn read_task_events(
    path: &std::path::Path,
    pid: u32,
    detail: Detail,
    opts: ImportOptions,
) -> Result<(Vec<Timed>, ImportNotes)> {
    let name = path.display().to_string();
    let mut notes = ImportNotes::default();
    let (mut read, bits) = match crate::tracedat::open_file(path)? {
        Some(file) => {
            let trace = Trace::open(&file, Some(&name))?;
            notes.assume(trace.note());
            read_tracedat_events(&trace, pid, detail, Some(&name), opts, &mut notes)?
        }
        None => {
            let bytes = crate::archive::dir::read_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
            let bits = PrevStateBits::default();
            (read_text_events(&bytes, pid, &bits, detail, Some(&name), opts, &mut notes)?, bits)
        }
    };
    read.settle(&bits, Some(&name), opts, &mut notes)?;
    Ok((read.events, notes))
}

/// The `[NNN]` CPU field before the timestamp of an ftrace line.
fn cpu_of(head: &str) -> Option<u32> {
    let (_, after) = head.rsplit_once('[')?;
    let (num, _) = after.split_once(']')?;
    num.trim().parse().ok()
}

/// Split `… TIMESTAMP: NAME: body` into (timestamp, NAME, body) for the first of `names`
/// found as an event name (a name that is a prefix of another must come after it).
pub(crate) fn split_event_of<'a>(line: &'a str, names: &[&'static str]) -> Option<(&'a str, &'static str, &'a str)> {
    for &name in names {
        let pat_len = name.len() + 2;
        let mut from = 0;
        while let Some(pos) = line.get(from..).and_then(|s| s.find(name)).map(|p| p + from) {
            let after = line.get(pos + name.len()..)?;
            // `perf script` names the event with its system (`sched:sched_switch:`)
            let before = line.get(..pos)?;
            let before = before.strip_suffix("sched:").or_else(|| before.strip_suffix("power:")).unwrap_or(before);
            let head = before.trim_end();
            if after.starts_with(": ") && head.len() < before.len() && head.ends_with(':') {
                let head = head.get(..head.len() - 1)?;
                let ts = head.rsplit(|c: char| c.is_whitespace()).next()?;
                return Some((ts, name, line.get(pos + pat_len..)?));
            }
            from = pos + name.len();
        }
    }
    None
}

pub(crate) fn parse_timestamp(s: &str) -> Option<u64> {
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

pub(crate) fn value_after<'a>(body: &'a str, key: &str) -> Option<&'a str> {
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

pub(crate) fn parse_switch(body: &str) -> Option<(u32, String, u32)> {
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

pub(crate) fn parse_wakeup(body: &str) -> Option<u32> {
    if let Some(p) = value_after(body, "pid=") {
        return p.parse().ok();
    }
    // trace-cmd: "comm:pid [prio] ..."
    let (head, _) = body.split_once(" [")?;
    head.rsplit_once(':')?.1.trim().parse().ok()
}

/// The number after `key` in an event body (`dest_cpu=3`, `target_cpu=001`).
fn number_after(body: &str, key: &str) -> Option<u32> {
    value_after(body, key)?.parse().ok()
}

/// The fields of a PELT event's text that it has.
fn pelt_sample_of(body: &str) -> PeltSample {
    let n = |key: &str| value_after(body, key).and_then(|v| v.parse::<u64>().ok());
    let ue = n("ewma=").zip(n("enqueued=")).and_then(|(e, q)| Some((u32::try_from(e).ok()?, u32::try_from(q).ok()?)));
    PeltSample { util: n("util="), load: n("load="), runnable: n("runnable="), util_est: ue }
}

/// A wakeup's `target_cpu`: the kernel's `target_cpu=001` or trace-cmd's `CPU:001`.
fn wakeup_target(body: &str) -> Option<u32> {
    number_after(body, "target_cpu=").or_else(|| number_after(body, "CPU:"))
}

/// `state=KHZ cpu_id=N` of a `cpu_frequency` event (or a `cpu_frequency_devlib` marker).
fn frequency_of(body: &str, ts: u64, line: usize, snapshot: bool) -> Option<FreqEvent> {
    let khz = value_after(body, "state=")?.parse().ok()?;
    Some(FreqEvent { ts, line, cpu: number_after(body, "cpu_id=")?, khz, snapshot })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Capacity and frequency capacity 1024 on every CPU.
    fn full() -> Platform {
        Platform::every_cpu(Some(1024), Some(1024)).unwrap()
    }

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
        let t = task_trace_from_ftrace(RAW.as_bytes(), 42, &full(), None, ImportOptions::default()).unwrap();
        let got: Vec<(u64, char)> = t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect();
        assert_eq!(got, vec![(100_000, 'W'), (3_000_000, 'R'), (1_000_000, 'W'), (1_000_000, 'R'), (5_000_000, 'S')]);
        assert_eq!(t.start_ns, 100_000_000_000);
        assert_eq!(t.events, 5);
    }

    #[test]
    fn capacities_follow_the_cpu_and_its_frequency() {
        // cpu 1 (capacity 446, max 1000000 kHz) halves its frequency 2 ms into the run:
        // (500000 << 10) / 1000000 = 512; the task sleeps, is migrated to and woken on
        // cpu 0 (1024, no frequency event: 1024), runs there
        let txt = "\
  <idle>-0 [001] 100.000000: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
 sugov-9   [000] 100.002000: cpu_frequency: state=500000 cpu_id=1
  foo-42   [001] 100.004000: sched_switch: foo:42 [120] S ==> swapper/1:0 [120]
  bar-7    [000] 100.005000: sched_migrate_task: comm=foo pid=42 prio=120 orig_cpu=1 dest_cpu=0
  bar-7    [000] 100.005000: sched_wakeup: foo:42 [120] CPU:000
  <idle>-0 [000] 100.006000: sched_switch: swapper/0:0 [120] R ==> foo:42 [120]
  foo-42   [000] 100.007000: sched_switch: foo:42 [120] S ==> swapper/0:0 [120]
";
        let p = Platform::given_capacities("1024,446").unwrap().or(Platform::given_max_freqs("1=1000000").unwrap());
        let t = task_trace_from_ftrace(txt.as_bytes(), 42, &p, None, ImportOptions::default()).unwrap();
        let got: Vec<(u64, char, u32, u32)> =
            t.segments.iter().map(|s| (s.dur_ns, s.state.letter(), s.cpu_cap, s.freq_cap)).collect();
        assert_eq!(
            got,
            vec![
                (2_000_000, 'R', 446, 1024),
                (2_000_000, 'R', 446, 512),
                (1_000_000, 'S', 446, 512),
                (1_000_000, 'W', 1024, 1024),
                (1_000_000, 'R', 1024, 1024),
            ]
        );
        assert_eq!(t.events, 5, "the frequency and migration events are not the task's own");
        let notes = t.notes.assumptions.join("\n");
        assert!(notes.contains("CPU capacity cpu0=1024 cpu1=446 (given)"), "{notes}");
        assert!(notes.contains("cpu0: no cpu_frequency event: frequency capacity 1024 assumed"), "{notes}");
        assert!(notes.contains("cpu1: frequency before its first cpu_frequency event (100.002000 s"), "{notes}");
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
        let t = task_trace_from_ftrace(
            txt.as_bytes(),
            42,
            &Platform::every_cpu(Some(512), Some(1024)).unwrap(),
            Some("t.txt"),
            ImportOptions::default(),
        )
        .unwrap();
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
        let t = task_trace_from_ftrace(txt.as_bytes(), 42, &full(), None, ImportOptions::default()).unwrap();
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
        let t = task_trace_from_ftrace(first.as_bytes(), 42, &full(), None, ImportOptions::default()).unwrap();
        assert_eq!(t.start_ns, 100_000_500_000);
        assert_eq!(t.segments.iter().map(|s| (s.dur_ns, s.state.letter())).collect::<Vec<_>>(), vec![(200_000, 'W')]);
    }

    #[test]
    fn a_trace_longer_than_the_driver_takes_is_an_error_at_its_line() {
        let txt = "\
  foo-42 [001] 100.000100: sched_wakeup: foo:42 [120] CPU:001
  foo-42 [001] 11111121110.000200: sched_switch: swapper/1:0 [120] R ==> foo:42 [120]
";
        let e = task_trace_from_ftrace(txt.as_bytes(), 42, &full(), Some("t.txt"), ImportOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.txt:2: timestamp 11111121110000200000 ns is more than 4611686018427387903 ns after"),
            "{e}"
        );
    }

    #[test]
    fn errors() {
        let e =
            task_trace_from_ftrace(RAW.as_bytes(), 99, &full(), Some("t.txt"), ImportOptions::default()).unwrap_err();
        assert!(e.to_string().contains("pid 99"));
        let bad = "  foo-42 [001] d..2. 1.0x: sched_switch: prev_pid=42 prev_state=S next_pid=0\n";
        let strict = ImportOptions { strict: true, sort: false };
        let e = task_trace_from_ftrace(bad.as_bytes(), 42, &full(), Some("t.txt"), strict).unwrap_err();
        assert!(e.to_string().starts_with("t.txt:1: bad timestamp"), "{e}");
        assert_eq!(parse_timestamp("12.5"), Some(12_500_000_000));
        assert_eq!(parse_timestamp("1.000000001:"), Some(1_000_000_001));
    }

    #[test]
    fn the_live_check_reads_runtimes_every_tick_and_timer_lateness() {
        // lines of a `trace-cmd report -t` of this machine (Linux 6.18, pid 12554)
        let txt = "\
cpus=2
schedlab-live:        lto cgu.3-12486 [001] 11280.677233742: sched_switch:         lto cgu.3:12486 [120] R ==> python3:12554 [120]
schedlab-live:          python3-12554 [001] 11280.679508389: hrtimer_expire_entry: hrtimer=0xffff888627d1c6f8 now=11280652017713 function=tick_nohz_handler/0x0
schedlab-live:          python3-12554 [001] 11280.679511384: sched_stat_runtime:   comm=python3 pid=12554 runtime=2301118 [ns]
schedlab-live:          python3-12554 [001] 11280.683638237: hrtimer_start:        hrtimer=0xffffc90008f87ad8 function=hrtimer_wakeup/0x0 expires=11280661191479 softexpires=11280661141479
schedlab-live:          python3-12554 [001] 11280.683641118: sched_switch:         python3:12554 [120] S ==> lto cgu.3:12486 [120]
schedlab-live:               sh-12561 [001] 11280.688696078: hrtimer_expire_entry: hrtimer=0xffffc90008f87ad8 now=11280661205836 function=hrtimer_wakeup/0x0
schedlab-live:               sh-12561 [000] 11280.688697940: sched_wakeup:         python3:12554 [120] CPU:001
";
        let mut notes = ImportNotes::default();
        let bits = PrevStateBits::default();
        let opts = ImportOptions::default();
        let r = read_text_events(txt.as_bytes(), 12554, &bits, Detail::Clock, None, opts, &mut notes).unwrap();
        let got: Vec<(u64, u32, usize, TaskEvent)> = r.events.iter().map(|e| (e.ts, e.cpu, e.line, e.event)).collect();
        assert_eq!(
            got,
            vec![
                (11_280_677_233_742, 1, 2, TaskEvent::SwitchIn),
                (11_280_679_508_389, 1, 3, TaskEvent::Tick(11_280_652_017_713)),
                (11_280_679_511_384, 1, 4, TaskEvent::Runtime(2_301_118)),
                (11_280_683_641_118, 1, 6, TaskEvent::SwitchOut { state: State::Sleep, exit: false }),
                // the nanosleep timer started at line 5: 11280661205836 - 11280661191479 late
                (11_280_688_696_078, 1, 7, TaskEvent::TimerLate(14_357)),
                (11_280_688_697_940, 0, 8, TaskEvent::Wakeup { target: Some(1), new: false }),
            ]
        );
        assert_eq!(notes.malformed, 0);
        // the PELT importer reads the same lines without the clock events
        let r = read_text_events(txt.as_bytes(), 12554, &bits, Detail::Segments, None, opts, &mut notes).unwrap();
        assert_eq!(r.events.len(), 3);
    }

    #[test]
    fn prev_state_of_a_3_10_format() {
        // Linux 3.10 include/trace/events/sched.h: TASK_STATE_MAX 1024, states S D T t Z X
        // x K W P on bits 0-9 (its print fmt as the format file shows it)
        let fmt = r#""prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state & (1024-1) ? __print_flags(REC->prev_state & (1024-1), "|", { 1, "S"} , { 2, "D" }, { 4, "T" }, { 8, "t" }, { 16, "Z" }, { 32, "X" }, { 64, "x" }, { 128, "K" }, { 256, "W" }, { 512, "P" }) : "R", REC->prev_state & 1024 ? "+" : "", REC->next_comm, REC->next_pid, REC->next_prio"#;
        let bits = PrevStateBits::from_print_fmt(fmt).unwrap();
        assert_eq!(bits.preempt, 1024);
        assert_eq!(bits.flags.len(), 10);
        assert_eq!(bits.classify("1024"), Some((State::Wait, false)));
        assert_eq!(bits.classify("512"), Some((State::Sleep, false)), "P (parked) is a sleep here");
        assert_eq!(bits.classify("64"), Some((State::Sleep, true)), "x (dead) is an exit");
        assert_eq!(bits.letters(1024), "R+");
        assert_eq!(bits.letters(1 | 128), "S|K");
        // the default (4.14+) layout reads 3.10's preemption (1024) as runnable too
        assert_eq!(PrevStateBits::default().classify("1024"), Some((State::Wait, false)));
        assert_eq!(PrevStateBits::default().letters(256), "R+");
    }

    #[test]
    fn into_start_by_traced_state() {
        let state = StartState { util_avg: 300, load_avg: None, runnable_avg: None, util_est: None };
        let task =
            |start| FtraceTask { segments: Vec::new(), start_ns: 5, events: 0, notes: ImportNotes::default(), start };
        let known = || Start::Known { state, start_ns: 9, segments: Vec::new() };
        assert_eq!(task(known()).into_start(true), (Vec::new(), 9, Some(Init::Given(state))));
        assert_eq!(task(known()).into_start(false), (Vec::new(), 5, None));
        assert_eq!(task(Start::Forked).into_start(false), (Vec::new(), 5, Some(Init::Kernel)));
        assert_eq!(task(Start::Unknown).into_start(true), (Vec::new(), 5, None));
        let none = crate::pelt::cpu_capacity::Sources::default();
        let err = task_trace(None, None, 1, &none, ImportOptions::default()).unwrap_err();
        assert_eq!(err.to_string(), "give ftrace text or a path");
    }
}
