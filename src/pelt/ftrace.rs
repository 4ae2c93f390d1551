//! Task traces from ftrace text or a trace.dat: the events of one pid turned into
//! [`Segment`]s for the driver (docs/pelt.md §5.5). The events are read
//! ([`super::task_events`]: the kernel's rendering, `trace-cmd report`'s, `perf
//! script`'s, or a trace.dat's records decoded directly) and passed one at a time
//! through the importer's model of the event order ([`super::import_order`]), which
//! builds the segments as it goes ([`super::segment_builder`]).
//!
//! States: switched in → R; switched out with `prev_state` R/R+ → W (preempted), any
//! other state → S; `sched_wakeup`/`sched_wakeup_new` while S → W. `X`/`Z` (exit) end the
//! trace. Time before the task is first runnable is dropped (the driver forks it
//! runnable); the last segment ends at the last timestamp of the file. Each segment
//! carries the capacities of the CPU the task is on ([`super::cpu_capacity`],
//! docs/pelt.md §5.6): the task is replayed on one runqueue whose capacities follow it.
//! Events a full ring buffer lost are named in the notes with where and how many, and
//! the task's state is taken again from its next switch (docs/tracing.md §3.1).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::clock_import;
use super::cpu_capacity::{CpuCaps, FreqSummary, Platform};
use super::driver::{Init, StartSnapshot, StartState};
use super::import_order::{Gaps, Imported, Importer};
use super::segment_builder::SegmentSink;
use super::task_events::{read_text, read_tracedat, Scan};
use super::trace::{Segment, State};
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::tracedat::Trace;

pub use super::task_events::{numeric_state_note, Detail, PeltSample, PrevStateBits, TaskEvent, Timed};

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
    /// The kernel version ([`super::kernel::KERNELS`]) whose rules the trace's own
    /// kernel follows, when its header says which it was (a trace.dat).
    pub kernel: Option<&'static str>,
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
    /// Placed on its PELT clock from a `/proc/PID/sched` reading in the trace
    /// (docs/pelt.md §12): the exact state at `start_ns`, where the segments start.
    Snapshot(StartSnapshot),
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
            Start::Snapshot(s) => (&self.segments, self.start_ns, Init::Snapshot(*s)),
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
            Start::Snapshot(s) => (self.segments, self.start_ns, Some(Init::Snapshot(s))),
            _ => (self.segments, self.start_ns, None),
        }
    }

    /// What a trace CSV of this task says of its replay (docs/pelt.md §8.1): what the
    /// replay's defaults would get wrong — the kernel its trace.dat header names, and a
    /// start state placed on the task's PELT clock (the exact state of a reading, with
    /// where it is). The trace time of a plain import is no PELT clock, and a fork's
    /// start is the default: neither is said, so such a CSV replays as before.
    pub fn directives(&self) -> super::directives::Directives {
        let init = match self.start {
            Start::Snapshot(s) => Some(Init::Snapshot(s)),
            Start::Unknown | Start::Forked | Start::Known { .. } => None,
        };
        super::directives::Directives {
            start_ns: init.map(|_| self.start_ns),
            kernel: self.kernel.map(str::to_string),
            init,
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

/// Where a trace comes from.
#[derive(Debug, Clone, Copy)]
pub enum TraceSource<'a> {
    /// Its bytes (a trace.dat or text).
    Bytes(&'a [u8]),
    /// A file, a pipe or a device.
    Path(&'a std::path::Path),
}

/// The most a trace that is not a regular file (a pipe, a device) may hold: it is read
/// whole into memory once (it cannot be read twice or at offsets).
pub const MAX_STREAMED_TRACE_BYTES: u64 = 32 << 20;

/// A trace opened for import: a trace.dat read at offsets, or bytes in memory.
pub enum Opened {
    /// A regular trace.dat file.
    Dat(crate::tracedat::bytes::FileSource),
    /// The bytes of a text trace, or of a trace.dat that was not a regular file.
    Bytes(Vec<u8>),
}

/// Open the trace at `path` once: a regular trace.dat to be read at offsets, any other
/// regular file whole (as text, up to the text limit); a pipe or device whole up to
/// [`MAX_STREAMED_TRACE_BYTES`] (refused at once when it starts as binary data, as
/// `/dev/zero` does, and when it holds more). A FIFO is opened once, so a writer that
/// has closed it ends the read.
pub fn open_trace(path: &std::path::Path) -> Result<Opened> {
    use std::io::Read;
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    if meta.is_file() {
        if let Some(file) = crate::tracedat::open_file(path)? {
            return Ok(Opened::Dat(file));
        }
        let bytes = crate::archive::dir::read_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
        not_text(&bytes, Some(&name))?;
        return Ok(Opened::Bytes(bytes));
    }
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
    let mut r = f.take(MAX_STREAMED_TRACE_BYTES + 1);
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        crate::cancel::check()?;
        let n = r.read(&mut chunk).map_err(|e| Error::io(path, &e))?;
        if n == 0 {
            break;
        }
        bytes.extend_from_slice(chunk.get(..n).unwrap_or_default());
        if bytes.len() as u64 > MAX_STREAMED_TRACE_BYTES {
            return Err(Error::parse(
                Some(&name),
                None,
                format!(
                    "not a regular file and longer than {MAX_STREAMED_TRACE_BYTES} bytes: save the trace to a file \
                     first (a file is read a piece at a time)"
                ),
            ));
        }
        if !crate::tracedat::is_tracedat(&bytes) && bytes.len() <= crate::tracedat::sniff::SNIFF_BYTES {
            not_text(&bytes, Some(&name))?;
        }
    }
    if !crate::tracedat::is_tracedat(&bytes) {
        not_text(&bytes, Some(&name))?;
    }
    Ok(Opened::Bytes(bytes))
}

/// An error when `bytes` (not a trace.dat) are not text either.
fn not_text(bytes: &[u8], path: Option<&str>) -> Result<()> {
    match crate::tracedat::sniff::not_text(bytes) {
        Some(why) => Err(Error::parse(path, None, format!("neither a trace.dat nor ftrace text: {why}"))),
        None => Ok(()),
    }
}

/// [`write_task_csv`] of a trace given as bytes or a path, the capacities from
/// `sources` ([`Platform::from_sources`]).
pub fn write_task_csv_from<W: std::io::Write>(
    source: &TraceSource<'_>,
    pid: u32,
    sources: &super::cpu_capacity::Sources<'_>,
    opts: ImportOptions,
    out: W,
    name: &str,
) -> Result<Written> {
    let platform = Platform::from_sources(sources)?;
    let (opened, path) = match *source {
        TraceSource::Bytes(_) => (None, None),
        TraceSource::Path(p) => (Some(open_trace(p)?), Some(p.display().to_string())),
    };
    let path = path.as_deref();
    let bytes: &[u8] = match (source, &opened) {
        (TraceSource::Bytes(b), _) => b,
        (_, Some(Opened::Bytes(b))) => b,
        (_, Some(Opened::Dat(f))) => {
            let trace = Trace::open(f, path)?;
            return write_task_csv(Input::Dat(&trace), pid, &platform, path, opts, out, name);
        }
        (_, None) => &[],
    };
    if crate::tracedat::is_tracedat(bytes) {
        let trace = Trace::open(&bytes, path)?;
        return write_task_csv(Input::Dat(&trace), pid, &platform, path, opts, out, name);
    }
    not_text(bytes, path)?;
    write_task_csv(Input::Text(bytes), pid, &platform, path, opts, out, name)
}

/// A trace to import: ftrace text, or an opened trace.dat.
#[derive(Clone, Copy)]
pub enum Input<'a, 'b> {
    /// Ftrace text (the kernel's, `trace-cmd report`'s or `perf script`'s rendering).
    Text(&'a [u8]),
    /// A trace.dat, its records read a few pages at a time.
    Dat(&'a Trace<'b>),
}

impl Input<'_, '_> {
    /// Read the events of `pid` with `detail`, each handed to `f` in time order; the
    /// notes get the malformed lines and what was assumed in reading.
    fn read(
        self,
        pid: u32,
        detail: Detail,
        path: Option<&str>,
        opts: ImportOptions,
        notes: &mut ImportNotes,
        f: &mut dyn FnMut(&Timed) -> Result<()>,
    ) -> Result<Scan> {
        match self {
            Input::Text(bytes) => read_text(bytes, pid, &PrevStateBits::default(), detail, path, opts, notes, f),
            Input::Dat(trace) => read_tracedat(trace, pid, detail, path, opts, notes, f),
        }
    }

    /// The frequency events a replay needs to know before it starts (each CPU's first
    /// one and its highest frequency, [`FreqSummary`]): one pass over them alone, when
    /// the trace may have any (text naming `cpu_frequency`, a trace.dat with its format).
    fn frequencies(self, path: Option<&str>, opts: ImportOptions) -> Result<FreqSummary> {
        let mut summary = FreqSummary::default();
        let any = match self {
            Input::Text(bytes) => bytes.windows(13).any(|w| w == b"cpu_frequency"),
            Input::Dat(trace) => trace.header.formats.values().any(|f| f.name == "cpu_frequency"),
        };
        if !any {
            return Ok(summary);
        }
        if let Input::Dat(trace) = self {
            // each buffer's pages scanned once, not merged and decoded (docs/pelt.md §5.6)
            if let Some(s) = super::freq_pass::tracedat_frequencies(trace)? {
                return Ok(s);
            }
        }
        // malformed lines are counted by the main pass; this one only collects
        let mut quiet = ImportNotes::default();
        let lenient = ImportOptions { strict: false, ..opts };
        self.read(0, Detail::Segments, path, lenient, &mut quiet, &mut |e| {
            if let TaskEvent::Frequency(f) = e.event {
                summary.add(&f);
            }
            Ok(())
        })?;
        Ok(summary)
    }
}

/// Import `pid` from `input` into `sink`: the segments as the trace is read, the notes
/// of the reading and of the import (losses, capacities, the start). The frequency
/// events are read first when the trace has any (the capacities before a CPU's first
/// one and the highest frequency depend on the whole trace).
pub fn import<S: SegmentSink>(
    input: Input<'_, '_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
    sink: S,
) -> Result<(Imported<S>, ImportNotes, Found)> {
    import_with(input, pid, platform, path, opts, sink, &std::cell::Cell::new(Head::default()))
}

/// [`import`], keeping `head` up to date with what a CSV's first lines need.
fn import_with<S: SegmentSink>(
    input: Input<'_, '_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
    sink: S,
    head: &std::cell::Cell<Head>,
) -> Result<(Imported<S>, ImportNotes, Found)> {
    let mut notes = ImportNotes::default();
    if let Input::Dat(trace) = input {
        notes.assume(trace.note());
    }
    let freqs =
        if platform.fixed_freq_cap.is_some() { FreqSummary::default() } else { input.frequencies(path, opts)? };
    let caps = CpuCaps::from_summary(platform, &freqs, path);
    let mut importer = Importer::new(pid, caps, sink, path);
    let mut done = false;
    let mut clock = ClockEvents::default();
    let scan = input.read(pid, Detail::Full, path, opts, &mut notes, &mut |e| {
        if !done {
            clock.keep(e);
            // before the event: the segment it may finish is written with what was known
            head.set(Head {
                start_ns: importer.start_ns().unwrap_or(0),
                forked: importer.start.forked,
                runtimes: clock.runtimes > 0,
            });
            done = !importer.on(e)?;
        }
        Ok(())
    })?;
    let mut imported = importer.finish(scan.end, &mut notes)?;
    if imported.queued_moves > 0 {
        notes.assume(format!(
            "pid {pid}: {} migration(s) of the task while runnable (load balancing) are replayed as a \
             change of capacities only; its signal stays on the runqueue it woke on",
            imported.queued_moves
        ));
    }
    gap_notes(pid, &std::mem::take(&mut imported.gaps), &mut notes);
    Ok((imported, notes, Found { clock, readings: scan.readings, end: scan.end.map_or(0, |(t, _)| t) }))
}

/// What an import found besides its segments: what places the task on its clock.
pub struct Found {
    /// The task's events that the clock-aware import reads.
    pub clock: ClockEvents,
    /// The task's `/proc/PID/sched` readings in the trace.
    pub readings: Vec<crate::pelt::proc_sched::ProcSample>,
    /// The trace's last event time.
    pub end: u64,
}

/// The events of a task the clock-aware import reads ([`super::clock_import`]): its
/// own, and the timer events (ticks, late hrtimers) of the CPUs it was on.
#[derive(Debug, Default)]
pub struct ClockEvents {
    /// In time order.
    pub events: Vec<Timed>,
    /// The CPUs the task ran on, so far.
    cpus: Vec<u32>,
    /// Whether a runtime of the task was seen.
    pub runtimes: u64,
}

impl ClockEvents {
    fn keep(&mut self, e: &Timed) {
        match e.event {
            TaskEvent::SwitchIn | TaskEvent::Runtime(_) => {
                if !self.cpus.contains(&e.cpu) {
                    self.cpus.push(e.cpu);
                }
                if matches!(e.event, TaskEvent::Runtime(_)) {
                    self.runtimes += 1;
                }
            }
            TaskEvent::Tick(_) | TaskEvent::TimerLate(_) if !self.cpus.contains(&e.cpu) => return,
            TaskEvent::Frequency(_) | TaskEvent::CfsUpdate(_) | TaskEvent::Pelt(_) => return,
            _ => {}
        }
        self.events.push(*e);
    }
}

/// How many losses or spans a note lists before it only counts.
const LISTED: usize = 8;

/// `n events` or `events (how many not stored)`.
fn how_many(count: Option<u64>) -> String {
    count.map_or_else(|| "events (the number not stored)".to_string(), |n| format!("{n} events"))
}

/// The notes of the losses and contradictions of an import (docs/tracing.md §3.1).
fn gap_notes(pid: u32, gaps: &Gaps, notes: &mut ImportNotes) {
    for &(cpu, ts, line, count) in gaps.before_start.iter().take(LISTED) {
        notes.assume(format!(
            "CPU {cpu} lost {} before line {line} ({}), before pid {pid} was first runnable: not replayed",
            how_many(count),
            at(ts)
        ));
    }
    for &(cpu, ts, line, count, state) in gaps.during.iter().take(LISTED) {
        notes.assume(format!(
            "CPU {cpu} lost {} before line {line} ({}) while pid {pid} was {}",
            how_many(count),
            at(ts),
            state.letter()
        ));
    }
    let listed = gaps.before_start.len().min(LISTED) + gaps.during.len().min(LISTED);
    let losses = gaps.before_start.len() + gaps.during.len();
    if losses > listed {
        notes.assume(format!("{} more losses of events not listed", losses - listed));
    }
    for &(from, from_line, to, to_line, kept, then) in gaps.unknown.iter().take(LISTED) {
        notes.assume(format!(
            "pid {pid}: its state from {} (line {from_line}) to {} (line {to_line}, its next sched_switch) is not in \
             the trace: replayed as {} (its state before), then {}; the replay's values there are not backed by the trace",
            at(from),
            at(to),
            kept.letter(),
            then.letter()
        ));
    }
    if gaps.unknown.len() > LISTED {
        notes.assume(format!("pid {pid}: {} more such spans not listed", gaps.unknown.len() - LISTED));
    }
    if gaps.unflagged > 0 {
        let (line, what) = gaps.first_unflagged.clone().unwrap_or_default();
        notes.assume(format!(
            "pid {pid}: {} event(s) did not fit its state without a loss flagged before them (first at line {line}: \
             {what}): events are missing from the trace; its state was taken from each",
            gaps.unflagged
        ));
    }
}

/// The task's trace from an import: its start from what the trace says (docs/pelt.md §10).
fn task_of(
    imported: Imported<Vec<Segment>>,
    pid: u32,
    path: Option<&str>,
    notes: ImportNotes,
    found: Found,
    kernel: Option<&str>,
) -> FtraceTask {
    let facts = imported.start;
    let mut task = FtraceTask {
        segments: imported.sink,
        start_ns: imported.start_ns,
        events: imported.events,
        notes,
        start: Start::Unknown,
        kernel: None,
    };
    task.kernel = kernel_of(kernel, &mut task.notes);
    if let Some(t) = clock_mode(&mut task, &found, pid, imported.queued_moves) {
        for n in t.notes {
            task.notes.assume(format!("pid {pid}: {n}"));
        }
        task.segments = t.segments;
        task.start_ns = t.start_ns;
        if let (Some(s), Some((line, ts))) = (t.start, t.start_reading) {
            task.start = Start::Snapshot(s);
            task.notes.assume(format!(
                "pid {pid}: the replay starts from the /proc/PID/sched reading at line {line} ({}): util_avg {}, \
                 util_sum {}, last_update_time {}, util_est {}",
                at(ts),
                s.util_avg,
                s.util_sum,
                s.last_update_time,
                s.util_est
            ));
            return task;
        }
    }
    if facts.forked {
        task.start = Start::Forked;
        task.notes.assume(format!("pid {pid} was forked in the trace (sched_wakeup_new): the kernel's fork init"));
    } else if let Some((ts, line, p)) = facts.first_pelt {
        start_from_sample(&mut task, pid, ts, line, p, facts.util_est, path);
    }
    task
}

/// The kernel ([`super::kernel::KERNELS`]) whose rules a trace of Linux `release` (its
/// header's) follows, noted.
fn kernel_of(release: Option<&str>, notes: &mut ImportNotes) -> Option<&'static str> {
    let release = release?;
    match super::kernel::kernel_for_release(release) {
        Some((k, exact)) => {
            notes.assume(format!(
                "the trace's kernel is Linux {release} (trace.dat header): the rules of {}{}",
                k.name,
                if exact { "" } else { " (the nearest version replayed; docs/pelt.md §9)" }
            ));
            Some(k.name)
        }
        None => {
            notes.assume(format!(
                "the trace's kernel is Linux {release} (trace.dat header): no rules of that version are replayed; \
                 the default's stand"
            ));
            None
        }
    }
}

/// The trace on the task's PELT clock when the trace has its runtimes and the task
/// stays on one CPU at full capacity (docs/pelt.md §12); else `None` (noted why).
fn clock_mode(task: &mut FtraceTask, found: &Found, pid: u32, queued_moves: u64) -> Option<clock_import::ClockTrace> {
    if found.clock.runtimes == 0 {
        return None;
    }
    let full = task.segments.iter().all(|s| s.cpu_cap == 1024 && s.freq_cap == 1024);
    let one_cpu = task.segments.first().is_some_and(|f| task.segments.iter().all(|s| s.cpu == f.cpu));
    let why_not = if !full {
        Some("a capacity below 1024 (the PELT clock is not the task clock then)")
    } else if !one_cpu || queued_moves > 0 {
        Some("the task changes CPU (each CPU has its own PELT clock)")
    } else {
        None
    };
    if let Some(why) = why_not {
        task.notes.assume(format!("pid {pid}: its sched_stat_runtime events are not used: {why}"));
        return None;
    }
    if let Some((n, line)) = runs_without_runtime(&found.clock.events) {
        task.notes.assume(format!(
            "pid {pid}: its sched_stat_runtime events are not used: {n} run(s) have none (the first \
             switched out at line {line}): their length on the task clock is not in the trace"
        ));
        return None;
    }
    clock_import::clock_trace(&found.clock.events, &found.readings, found.end)
}

/// How many of the task's runs (a switch-in to its switch-out) have no `sched_stat_runtime`
/// event, and the line of the first one's switch-out; `None` when every run has one.
/// The kernel's `update_curr` at each switch-out traces the run's time (docs/pelt.md
/// §12), so a run without one lost its events: the PELT clock cannot be placed across it.
fn runs_without_runtime(events: &[Timed]) -> Option<(u64, usize)> {
    let (mut running, mut timed) = (false, false);
    let mut first = None;
    let mut n = 0u64;
    for e in events {
        match e.event {
            TaskEvent::SwitchIn => (running, timed) = (true, false),
            TaskEvent::Runtime(_) => timed = true,
            TaskEvent::SwitchOut { .. } => {
                if running && !timed {
                    n += 1;
                    first.get_or_insert(e.line);
                }
                running = false;
            }
            _ => {}
        }
    }
    first.map(|line| (n, line))
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
    not_text(bytes, path)?;
    let (imported, notes, found) = import(Input::Text(bytes), pid, platform, path, opts, Vec::new())?;
    Ok(task_of(imported, pid, path, notes, found, None))
}

/// [`task_trace_from_ftrace`] of an opened trace.dat.
pub fn task_trace_from_tracedat(
    trace: &Trace<'_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
) -> Result<FtraceTask> {
    let (imported, notes, found) = import(Input::Dat(trace), pid, platform, path, opts, Vec::new())?;
    Ok(task_of(imported, pid, path, notes, found, trace.header.kernel_release()))
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

/// What writing a task's trace CSV ([`write_task_csv`]) found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Segments written.
    pub segments: u64,
    /// The task's own events used.
    pub events: u64,
    /// Where the first segment starts (trace ns; the PELT clock when placed on it).
    pub start_ns: u64,
    /// What the CSV's directives say (where it starts, the kernel, the start state).
    pub directives: super::directives::Directives,
    /// What was skipped and assumed.
    pub notes: ImportNotes,
}

/// What the CSV's first lines need, known by the time the first segment is final.
#[derive(Debug, Clone, Copy, Default)]
struct Head {
    start_ns: u64,
    forked: bool,
    runtimes: bool,
}

/// Where [`write_task_csv`] puts the segments: held until the first one is final; then
/// written as they come (the plain import), or held to the end when the task's runtimes
/// may place it on its clock ([`clock_mode`]).
enum CsvSink<'h, W: std::io::Write> {
    Waiting { out: W, head: &'h std::cell::Cell<Head>, kernel: Option<&'static str>, name: String },
    Streaming(super::trace::TraceWriter<W>, Head),
    Holding(W, Vec<Segment>),
    Gone,
}

impl<W: std::io::Write> SegmentSink for CsvSink<'_, W> {
    fn segment(&mut self, s: Segment) -> Result<()> {
        match std::mem::replace(self, CsvSink::Gone) {
            CsvSink::Waiting { out, head, kernel, name } => {
                let h = head.get();
                if h.runtimes {
                    *self = CsvSink::Holding(out, vec![s]);
                } else {
                    // the plain import: only the kernel is said (FtraceTask::directives)
                    let d = super::directives::Directives { kernel: kernel.map(str::to_string), ..Default::default() };
                    let mut w = super::trace::TraceWriter::new(out, &d, false, &name)?;
                    w.segment(&s)?;
                    *self = CsvSink::Streaming(w, h);
                }
            }
            CsvSink::Streaming(mut w, h) => {
                w.segment(&s)?;
                *self = CsvSink::Streaming(w, h);
            }
            CsvSink::Holding(out, mut v) => {
                v.push(s);
                *self = CsvSink::Holding(out, v);
            }
            CsvSink::Gone => {}
        }
        Ok(())
    }
}

/// Write the trace CSV of `pid` in `input` to `out` (named `name` in errors), with the
/// directives that make a plain `pelt simulate` of it replay it as imported
/// (docs/pelt.md §8.1): the segments are written as they are read (memory does not grow
/// with the trace), except when the task's runtimes may place it on its PELT clock
/// (docs/pelt.md §12), which takes its events whole.
pub fn write_task_csv<W: std::io::Write>(
    input: Input<'_, '_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
    out: W,
    name: &str,
) -> Result<Written> {
    let release = match input {
        Input::Dat(t) => t.header.kernel_release(),
        Input::Text(_) => None,
    };
    let mut kernel_notes = ImportNotes::default();
    let kernel = kernel_of(release, &mut kernel_notes);
    let head = std::cell::Cell::new(Head::default());
    let sink = CsvSink::Waiting { out, head: &head, kernel, name: name.to_string() };
    let (imported, mut notes, found) = import_with(input, pid, platform, path, opts, sink, &head)?;
    let events = imported.events;
    match imported.sink {
        CsvSink::Streaming(w, h) => {
            w.finish()?;
            for n in kernel_notes.assumptions {
                notes.assume(n);
            }
            if found.clock.runtimes > 0 {
                notes.assume(format!(
                    "pid {pid}: its sched_stat_runtime events begin after its first segments: not used (the plain \
                     import's segments are written as read)"
                ));
            }
            if imported.start.first_pelt.is_some() {
                notes.assume(format!(
                    "pid {pid}: a traced PELT state comes later in the trace: the CSV holds the whole trace without it \
                     (ftrace_task(traced_start=True) starts from it)"
                ));
            }
            let directives = super::directives::Directives { kernel: kernel.map(str::to_string), ..Default::default() };
            if h.forked {
                notes.assume(format!("pid {pid} was forked in the trace (sched_wakeup_new): the kernel's fork init"));
            }
            Ok(Written { segments: imported.segments, events, start_ns: h.start_ns, directives, notes })
        }
        CsvSink::Holding(out, segments) => {
            let held = Imported {
                sink: segments,
                segments: imported.segments,
                start_ns: imported.start_ns,
                events,
                start: imported.start,
                gaps: imported.gaps,
                queued_moves: imported.queued_moves,
            };
            let task = task_of(held, pid, path, notes, found, release);
            let directives = task.directives();
            let ticks = task.segments.iter().any(|s| s.tick);
            let mut w = super::trace::TraceWriter::new(out, &directives, ticks, name)?;
            for (i, s) in task.segments.iter().enumerate() {
                crate::cancel::check_every(i)?;
                w.segment(s)?;
            }
            w.finish()?;
            let start_ns = task.start_ns;
            Ok(Written { segments: task.segments.len() as u64, events, start_ns, directives, notes: task.notes })
        }
        CsvSink::Waiting { .. } | CsvSink::Gone => {
            Err(Error::parse(path, None, format!("pid {pid} has no segment longer than 0 ns")))
        }
    }
}

/// Read a trace file and extract `pid` (see [`task_trace_from_ftrace`]).
pub fn read_ftrace(path: &std::path::Path, pid: u32, platform: &Platform, opts: ImportOptions) -> Result<FtraceTask> {
    let name = path.display().to_string();
    match open_trace(path)? {
        // read a piece at a time: a trace.dat is not bounded by the text limit
        Opened::Dat(file) => {
            task_trace_from_tracedat(&Trace::open(&file, Some(&name))?, pid, platform, Some(&name), opts)
        }
        Opened::Bytes(bytes) => task_trace_from_ftrace(&bytes, pid, platform, Some(&name), opts),
    }
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
    let mut events = Vec::new();
    let mut keep = |e: &Timed| {
        events.push(*e);
        Ok(())
    };
    let bytes = match open_trace(path)? {
        Opened::Dat(file) => {
            let trace = Trace::open(&file, Some(&name))?;
            notes.assume(trace.note());
            read_tracedat(&trace, pid, detail, Some(&name), opts, &mut notes, &mut keep)?;
            return Ok((events, notes));
        }
        Opened::Bytes(bytes) => bytes,
    };
    if crate::tracedat::is_tracedat(&bytes) {
        let slice = bytes.as_slice();
        let trace = Trace::open(&slice, Some(&name))?;
        notes.assume(trace.note());
        read_tracedat(&trace, pid, detail, Some(&name), opts, &mut notes, &mut keep)?;
    } else {
        read_text(&bytes, pid, &PrevStateBits::default(), detail, Some(&name), opts, &mut notes, &mut keep)?;
    }
    Ok((events, notes))
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
        assert_eq!(super::super::task_events::parse_timestamp("12.5"), Some(12_500_000_000));
    }

    #[test]
    fn into_start_by_traced_state() {
        let state = StartState { util_avg: 300, load_avg: None, runnable_avg: None, util_est: None };
        let task = |start| FtraceTask {
            segments: Vec::new(),
            start_ns: 5,
            events: 0,
            notes: ImportNotes::default(),
            start,
            kernel: None,
        };
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
