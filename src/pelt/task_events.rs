//! The events of one task as the PELT importer and the live check read them from a trace
//! (docs/pelt.md §5.5, docs/tracing.md §2): what each event does to the task
//! ([`TaskEvent`]), and the two readers, of ftrace text (the kernel's rendering,
//! `trace-cmd report`'s, `perf script`'s) and of a trace.dat's records
//! ([`crate::tracedat`]), which hand each event to their caller as they read it.
//!
//! Besides the events, a reader says where the trace ends, losses of events (a ring
//! buffer that overflowed: [`TaskEvent::Lost`]) and the task's `/proc/PID/sched`
//! readings that the trace carries as markers (docs/pelt.md §12).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::cpu_capacity::{FreqEvent, NO_CPU};
use super::proc_sched::ProcSample;
use super::trace::State;
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::int_map::IntMap;
use crate::tracedat::decode::{Decoder, Event};
use crate::tracedat::{Item, Trace};
use std::collections::HashMap;

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
    /// The event's CPU lost events just before this point (its ring buffer overflowed:
    /// a trace.dat page's missed-events flag, `CPU:N [LOST M EVENTS]` in text;
    /// docs/tracing.md §3.1): how many, when the trace says.
    Lost {
        /// The number lost.
        count: Option<u64>,
    },
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
    /// Everything the PELT importer can use: [`Detail::Segments`]' events, the clock
    /// events of [`Detail::Clock`] and the task's `/proc/PID/sched` readings written
    /// into the trace as `proc_sched:` markers (docs/pelt.md §12).
    Full,
}

impl Detail {
    /// The event names read, a name that is a prefix of another after it.
    pub fn names(self) -> &'static [&'static str] {
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
            Detail::Full => &[
                "sched_switch",
                "sched_wakeup_new",
                "sched_wakeup",
                "sched_migrate_task",
                "sched_stat_runtime",
                "hrtimer_expire_entry",
                "hrtimer_start",
                "cpu_frequency",
                "print",
                "tracing_mark_write",
                "sched_load_se",
                "sched_pelt_se",
                "sched_util_est_se",
                "sched_load_cfs_rq",
                "sched_pelt_cfs",
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

/// What a reader found besides the task's events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// The latest event time of the file (ns) and where it was read: the trace's end.
    pub end: Option<(u64, usize)>,
    /// The task's `/proc/PID/sched` readings carried by `proc_sched:` markers, in trace
    /// order (each with its trace time, [`ProcSample::trace_ns`]).
    pub readings: Vec<ProcSample>,
    /// Losses of events: (CPU, trace time, record or line after the loss, how many).
    pub losses: Vec<(u32, u64, usize, Option<u64>)>,
}

/// Hands the task's events to the caller in time order: each event at once, or, when
/// asked to sort (`opts.sort`), all of them sorted at the end. Events out of time order
/// are refused at the first one's line unless sorting (the check covers every event
/// read, whichever task it names).
struct Deliver<'f> {
    f: &'f mut dyn FnMut(&Timed) -> Result<()>,
    sort: bool,
    held: Vec<Timed>,
    out_of_order: Option<(usize, u64, u64)>,
    end: Option<(u64, usize)>,
}

impl<'f> Deliver<'f> {
    fn new(f: &'f mut dyn FnMut(&Timed) -> Result<()>, opts: ImportOptions) -> Self {
        Deliver { f, sort: opts.sort, held: Vec::new(), out_of_order: None, end: None }
    }

    /// An event of the file was read at `ts`, line `line`: refused when out of order
    /// (unless sorting).
    fn seen(&mut self, ts: u64, line: usize, path: Option<&str>) -> Result<()> {
        match self.end {
            Some((prev, _)) if ts < prev => {
                if !self.sort {
                    return Err(Error::parse(
                        path,
                        Some(line),
                        format!(
                            "timestamp {ts} ns goes backwards (previous {prev} ns); sort the trace by time (or ask to sort)"
                        ),
                    ));
                }
                self.out_of_order.get_or_insert((line, ts, prev));
            }
            _ => self.end = Some((ts, line)),
        }
        Ok(())
    }

    fn push(&mut self, e: Timed) -> Result<()> {
        if self.sort {
            self.held.push(e);
            Ok(())
        } else {
            (self.f)(&e)
        }
    }

    /// The held events, sorted (noted) when some were out of order; a numeric
    /// `prev_state` noted with the `bits` that read it.
    fn finish(mut self, bits: &PrevStateBits, numeric: bool, notes: &mut ImportNotes) -> Result<Option<(u64, usize)>> {
        if let Some((line, _, _)) = self.out_of_order {
            notes.assume(format!("events out of time order (first at line {line}) were sorted by time"));
            self.held.sort_by_key(|e| e.ts);
        }
        for (i, e) in self.held.iter().enumerate() {
            crate::cancel::check_every(i)?;
            (self.f)(e)?;
        }
        if numeric {
            notes.assume(numeric_state_note(bits));
        }
        Ok(self.end)
    }
}

/// A loss line of text: `CPU:N [LOST M EVENTS]` (the kernel's `trace`) or
/// `CPU:N [M EVENTS DROPPED]` / `CPU:N [EVENTS DROPPED]` (`trace-cmd report`), maybe
/// after an instance name (`NAME: CPU:1 [...]`): (CPU, count).
pub fn lost_line(line: &str) -> Option<(u32, Option<u64>)> {
    let at = line.find("CPU:")?;
    let rest = line.get(at + 4..)?;
    let (cpu, rest) = rest.split_once(' ')?;
    let cpu = cpu.trim().parse().ok()?;
    let inner = rest.trim().strip_prefix('[')?.strip_suffix(']')?;
    if let Some(n) = inner.strip_prefix("LOST ").and_then(|r| r.strip_suffix(" EVENTS")) {
        return Some((cpu, Some(n.trim().parse().ok()?)));
    }
    if inner == "EVENTS DROPPED" {
        return Some((cpu, None));
    }
    let n = inner.strip_suffix(" EVENTS DROPPED")?;
    Some((cpu, Some(n.trim().parse().ok()?)))
}

/// The task's `/proc/PID/sched` reading in a marker's text, if it is one of `pid`'s.
fn reading_of(body: &str, pid: u32, ts: u64, line: usize) -> Option<std::result::Result<ProcSample, String>> {
    let at = body.find("proc_sched:")?;
    let text = body.get(at + "proc_sched:".len()..)?;
    match super::proc_sched::parse_marker(text, pid) {
        Ok(Some(s)) => Some(Ok(ProcSample { trace_ns: Some(ts), line, ..s })),
        Ok(None) => None,
        Err(msg) => Some(Err(msg)),
    }
}

/// Read the events of `pid` with [`Detail`] `detail` from ftrace text, handing each to
/// `f` in time order ([`Deliver`]); `bits` read a numeric `prev_state`. Malformed lines
/// are skipped and counted in `notes` (the error under `opts.strict`).
#[allow(clippy::too_many_arguments)]
pub fn read_text(
    bytes: &[u8],
    pid: u32,
    bits: &PrevStateBits,
    detail: Detail,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    f: &mut dyn FnMut(&Timed) -> Result<()>,
) -> Result<Scan> {
    let mut out = Deliver::new(f, opts);
    let mut scan = Scan::default();
    let mut numeric_state = false;
    let mut expires: HashMap<String, u64> = HashMap::new();
    // a loss line is placed at the next event's time
    let mut lost: Option<(u32, Option<u64>, usize)> = None;
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
        let Some((ts_text, name, body)) = split_event_of(line, detail.names()) else {
            if let Some((cpu, count)) = lost_line(t) {
                lost = Some((cpu, count, line_no));
            }
            continue;
        };
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
        out.seen(ts, line_no, path)?;
        if let Some((cpu, count, at)) = lost.take() {
            scan.losses.push((cpu, ts, at, count));
            out.push(Timed { ts, line: at, cpu, event: TaskEvent::Lost { count } })?;
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
                    numeric_state |= parse_number(&prev_state).is_some();
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
                if detail == Detail::Full {
                    match reading_of(body, pid, ts, line_no) {
                        Some(Ok(r)) => {
                            scan.readings.push(r);
                            continue;
                        }
                        Some(Err(msg)) => {
                            notes.malformed(opts, err(msg))?;
                            continue;
                        }
                        None => {}
                    }
                }
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
                    out.push(Timed { ts, line: line_no, cpu, event: TaskEvent::TimerLate(late) })?;
                }
                value_after(body, "function=")
                    .is_some_and(crate::idle::ftrace::is_tick_function)
                    .then(|| TaskEvent::Tick(now.unwrap_or(0)))
            }
            _ => None,
        };
        if let Some(event) = ev {
            out.push(Timed { ts, line: line_no, cpu, event })?;
        }
    }
    scan.end = out.finish(bits, numeric_state, notes)?;
    Ok(scan)
}

/// The `prev_state` bits of a trace.dat: its `sched_switch` format's own table, else
/// the default.
pub fn tracedat_bits(trace: &Trace<'_>) -> PrevStateBits {
    trace
        .header
        .formats
        .values()
        .find(|f| f.name == "sched_switch")
        .and_then(|f| PrevStateBits::from_print_fmt(&f.print_fmt))
        .unwrap_or_default()
}

/// Read the events of `pid` decoded from the records of a trace.dat, handing each to
/// `f` in time order, with its `prev_state` bits ([`tracedat_bits`]); line numbers are
/// record numbers. The pages' missed-events flags become [`TaskEvent::Lost`].
pub fn read_tracedat(
    trace: &Trace<'_>,
    pid: u32,
    detail: Detail,
    path: Option<&str>,
    opts: ImportOptions,
    notes: &mut ImportNotes,
    f: &mut dyn FnMut(&Timed) -> Result<()>,
) -> Result<Scan> {
    let bits = tracedat_bits(trace);
    let decoder = Decoder::new(&trace.header.formats, detail.names());
    // integer keys hashed by a multiply (SipHash was a tenth of the import's time)
    let mut tick_fn: IntMap<u64, bool> = IntMap::default();
    let mut is_tick = |addr: u64| {
        *tick_fn
            .entry(addr)
            .or_insert_with(|| trace.header.symbol(addr).is_some_and(|f| crate::idle::ftrace::is_tick_function(&f)))
    };
    let mut out = Deliver::new(f, opts);
    let mut scan = Scan::default();
    let mut expires: IntMap<u64, i64> = IntMap::default();
    let task = pid;
    let pid = i64::from(pid);
    trace.each(|item| {
        let r = match &item {
            // by reference: a copy of the record loads 8 bytes over its 4-byte CPU,
            // written just before by a 4-byte store, and waits for that store
            Item::Record(r) => r,
            Item::Lost(l) => {
                scan.losses.push((l.cpu, l.ts, l.before_record, l.count));
                let e =
                    Timed { ts: l.ts, line: l.before_record, cpu: l.cpu, event: TaskEvent::Lost { count: l.count } };
                out.seen(l.ts, l.before_record, path)?;
                return out.push(e);
            }
        };
        let ev = match decoder.decode(r.data) {
            Ok(Some(ev)) => ev,
            Ok(None) => {
                if detail == Detail::Full {
                    if let Some(text) = decoder.marker(r.data) {
                        let text = String::from_utf8_lossy(text);
                        match reading_of(&text, task, r.ts, r.number) {
                            Some(Ok(s)) => scan.readings.push(s),
                            Some(Err(msg)) => notes.malformed(opts, Error::parse(path, Some(r.number), msg))?,
                            None => {}
                        }
                    }
                }
                return Ok(());
            }
            Err(e) => return notes.malformed(opts, Error::parse(path, Some(r.number), decoder.why(e))),
        };
        out.seen(r.ts, r.number, path)?;
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
                    out.push(Timed { ts: r.ts, line: r.number, cpu: r.cpu, event: TaskEvent::TimerLate(late) })?;
                }
                if !is_tick(function) {
                    return Ok(());
                }
                TaskEvent::Tick(u64::try_from(now).unwrap_or(0))
            }
            _ => return Ok(()),
        };
        out.push(Timed { ts: r.ts, line: r.number, cpu: r.cpu, event })
    })?;
    scan.end = out.finish(&bits, !bits.from_format, notes)?;
    Ok(scan)
}

/// Build the trace of `pid` from ftrace text or a trace.dat (its records decoded
/// The `[NNN]` CPU field before the timestamp of an ftrace line.
pub(crate) fn cpu_of(head: &str) -> Option<u32> {
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
        let bits = PrevStateBits::default();
        let opts = ImportOptions::default();
        let events = |detail| {
            let mut notes = ImportNotes::default();
            let mut got = Vec::new();
            read_text(txt.as_bytes(), 12554, &bits, detail, None, opts, &mut notes, &mut |e| {
                got.push(*e);
                Ok(())
            })
            .unwrap();
            assert_eq!(notes.malformed, 0);
            got
        };
        let got: Vec<(u64, u32, usize, TaskEvent)> =
            events(Detail::Clock).iter().map(|e| (e.ts, e.cpu, e.line, e.event)).collect();
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
        // the plain import reads the same lines without the clock events
        assert_eq!(events(Detail::Segments).len(), 3);
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
    fn loss_lines_of_the_kernel_and_of_trace_cmd() {
        assert_eq!(lost_line("CPU:3 [LOST 120 EVENTS]"), Some((3, Some(120))));
        // trace-cmd 3.1.6 (tests/data/traces/lost-6.18/report.txt), after the instance name
        assert_eq!(lost_line("schedlab-lost-27825: CPU:1 [10799 EVENTS DROPPED]"), Some((1, Some(10799))));
        assert_eq!(lost_line("CPU:0 [EVENTS DROPPED]"), Some((0, None)));
        assert_eq!(lost_line("CPU:0 [SOMETHING]"), None);
        assert_eq!(parse_timestamp("1.000000001:"), Some(1_000_000_001));
    }
}
