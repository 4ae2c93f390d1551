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

use super::cpu_capacity::{CpuCaps, FreqSummary, Platform};
use super::driver::{Init, StartState};
use super::import_order::{Gaps, Imported, Importer};
use super::segment_builder::SegmentSink;
use super::task_events::{read_text, read_tracedat, tracedat_bits, Scan};
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
) -> Result<(Imported<S>, ImportNotes)> {
    let mut notes = ImportNotes::default();
    if let Input::Dat(trace) = input {
        notes.assume(trace.note());
    }
    let freqs =
        if platform.fixed_freq_cap.is_some() { FreqSummary::default() } else { input.frequencies(path, opts)? };
    let caps = CpuCaps::from_summary(platform, &freqs, path);
    let mut importer = Importer::new(pid, caps, sink, path);
    let mut done = false;
    let scan = input.read(pid, Detail::Segments, path, opts, &mut notes, &mut |e| {
        if !done {
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
    Ok((imported, notes))
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
fn task_of(imported: Imported<Vec<Segment>>, pid: u32, path: Option<&str>, notes: ImportNotes) -> FtraceTask {
    let facts = imported.start;
    let mut task = FtraceTask {
        segments: imported.sink,
        start_ns: imported.start_ns,
        events: imported.events,
        notes,
        start: Start::Unknown,
    };
    if facts.forked {
        task.start = Start::Forked;
        task.notes.assume(format!("pid {pid} was forked in the trace (sched_wakeup_new): the kernel's fork init"));
    } else if let Some((ts, line, p)) = facts.first_pelt {
        start_from_sample(&mut task, pid, ts, line, p, facts.util_est, path);
    }
    task
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
    let (imported, notes) = import(Input::Text(bytes), pid, platform, path, opts, Vec::new())?;
    Ok(task_of(imported, pid, path, notes))
}

/// [`task_trace_from_ftrace`] of an opened trace.dat.
pub fn task_trace_from_tracedat(
    trace: &Trace<'_>,
    pid: u32,
    platform: &Platform,
    path: Option<&str>,
    opts: ImportOptions,
) -> Result<FtraceTask> {
    let (imported, notes) = import(Input::Dat(trace), pid, platform, path, opts, Vec::new())?;
    Ok(task_of(imported, pid, path, notes))
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
    let mut events = Vec::new();
    let mut keep = |e: &Timed| {
        events.push(*e);
        Ok(())
    };
    match crate::tracedat::open_file(path)? {
        Some(file) => {
            let trace = Trace::open(&file, Some(&name))?;
            notes.assume(trace.note());
            let _ = tracedat_bits(&trace);
            read_tracedat(&trace, pid, detail, Some(&name), opts, &mut notes, &mut keep)?;
        }
        None => {
            let bytes = crate::archive::dir::read_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
            let bits = PrevStateBits::default();
            read_text(&bytes, pid, &bits, detail, Some(&name), opts, &mut notes, &mut keep)?;
        }
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
