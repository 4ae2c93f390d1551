//! The idle importer's model of a whole trace's event order (docs/tracing.md §2.1): the
//! events of every CPU, from ftrace text or a trace.dat ([`super::ftrace`] decodes them),
//! pass through one [`Importer`] in time order. It refuses (or, asked to, sorts) events
//! out of time order, hands each event to its CPU's state machine
//! ([`super::ftrace_cpu::CpuModel`]), and passes each CPU's idle periods on to a
//! [`RowSink`] as soon as they are complete, so that a trace of any length is replayed
//! or collected in memory that does not grow with it. At the end it says what was
//! assumed ([`Importer::finish`]).
//!
//! Sorting is the one case that needs the whole trace: with [`ImportOptions::sort`] the
//! events are held until the end, sorted when they were out of order, then replayed.

use super::ftrace::{FtraceStats, UNKNOWN_SLEEP_LENGTH_NS};
use super::ftrace_cpu::{CpuModel, Event, Kind, LossSeen, Row, Shared};
use super::trace::Tick;
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use std::collections::BTreeMap;

/// Where an import's rows go: `row(cpu, row)` for each idle period of CPU `cpu`, in the
/// CPU's order (the CPUs interleaved as the trace has them).
pub trait RowSink {
    /// One closed idle period of `cpu`.
    fn row(&mut self, cpu: u32, row: &Row) -> Result<()>;
}

impl<F: FnMut(u32, &Row) -> Result<()>> RowSink for F {
    fn row(&mut self, cpu: u32, row: &Row) -> Result<()> {
        self(cpu, row)
    }
}

/// One CPU of an import as it ended: its number, how many rows it gave and its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuEnd {
    /// The CPU.
    pub cpu: u32,
    /// Rows handed to the sink.
    pub rows: u64,
    /// How its values were obtained.
    pub stats: FtraceStats,
}

/// A CPU's state machine and the rows it gave.
#[derive(Debug, Default)]
struct PerCpu {
    model: CpuModel,
    rows: u64,
}

/// The streaming idle importer (see the module docs).
pub struct Importer<K: RowSink> {
    tick: Tick,
    opts: ImportOptions,
    shared: Shared,
    /// The CPUs seen, in the order they were first seen, their places by CPU number, and
    /// the place of the last one an event went to (a trace's events come in runs of one
    /// CPU: one comparison finds it again; a trace naming many CPUs costs a lookup, not
    /// a shift of every CPU after the new one).
    cpus: Vec<(u32, PerCpu)>,
    places: BTreeMap<u32, usize>,
    last: usize,
    /// Every event, when they are to be sorted at the end.
    held: Option<Vec<Event>>,
    last_ts: Option<i64>,
    /// The first event out of time order: (line, time, previous time).
    out_of_order: Option<(usize, i64, i64)>,
    any_enter: bool,
    any_expire: bool,
    any_ptrval: bool,
    sink: K,
}

impl<K: RowSink> Importer<K> {
    /// An importer at `tick` whose rows go to `sink`.
    pub fn new(tick: Tick, opts: ImportOptions, sink: K) -> Self {
        Importer {
            tick,
            opts,
            shared: Shared { offset: 0, tick },
            cpus: Vec::new(),
            places: BTreeMap::new(),
            last: 0,
            held: opts.sort.then(Vec::new),
            last_ts: None,
            out_of_order: None,
            any_enter: false,
            any_expire: false,
            any_ptrval: false,
            sink,
        }
    }

    /// The next event of the trace, read at `line` (text line or trace.dat record).
    #[inline]
    pub fn push(&mut self, e: Event, line: usize) -> Result<()> {
        if let Some(prev) = self.last_ts {
            if e.ts < prev && self.out_of_order.is_none() {
                self.out_of_order = Some((line, e.ts, prev));
            }
        }
        self.last_ts = Some(e.ts);
        match e.kind {
            Kind::IdleEnter(_) => self.any_enter = true,
            Kind::TimerExpire { id, .. } => {
                self.any_expire = true;
                self.any_ptrval |= id >> 63 == 1;
            }
            Kind::TimerStart { id, .. } | Kind::TimerCancel { id } => self.any_ptrval |= id >> 63 == 1,
            Kind::IdleExit | Kind::TickStop { .. } | Kind::Lost { .. } => {}
        }
        if let Some(held) = &mut self.held {
            held.push(e);
            return Ok(());
        }
        if self.out_of_order.is_some() {
            // refused at the end (the rest is read for the errors that come first)
            return Ok(());
        }
        self.apply(&e)
    }

    /// The rows handed to the sink so far, over every CPU.
    pub fn rows_so_far(&self) -> u64 {
        self.cpus.iter().map(|(_, c)| c.rows).sum()
    }

    /// Event `e` through its CPU's state machine, and the rows it completed to the sink.
    #[inline]
    fn apply(&mut self, e: &Event) -> Result<()> {
        let at = match self.cpus.get(self.last) {
            Some((n, _)) if *n == e.cpu => self.last,
            _ => match self.places.get(&e.cpu) {
                Some(&at) => at,
                None => {
                    self.cpus.push((e.cpu, PerCpu::default()));
                    self.places.insert(e.cpu, self.cpus.len() - 1);
                    self.cpus.len() - 1
                }
            },
        };
        self.last = at;
        let Some((_, c)) = self.cpus.get_mut(at) else { return Ok(()) };
        c.model.on(e, &mut self.shared);
        let sink = &mut self.sink;
        let rows = &mut c.rows;
        c.model.take_ready(false, |r| {
            *rows += 1;
            sink.row(e.cpu, r)
        })
    }

    /// The end of the trace: the last periods closed and handed on, the sink back with
    /// each CPU's counts (the CPUs with an idle period, or one dropped) and the notes
    /// (`notes`: what the reader noted, e.g. malformed lines). `path` names the input
    /// in errors.
    pub fn finish(mut self, path: Option<&str>, mut notes: ImportNotes) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
        if !self.any_enter {
            return Err(Error::parse(path, None, "no cpu_idle events found (record power:cpu_idle)"));
        }
        if let Some((line, ts, prev)) = self.out_of_order {
            if !self.opts.sort {
                return Err(Error::parse(
                    path,
                    Some(line),
                    format!("timestamp {ts} ns goes backwards (previous event at {prev} ns); sort the trace by time (or ask to sort)"),
                ));
            }
            notes.assume(format!("events out of time order (first at line {line}) were sorted by time"));
        }
        if let Some(mut held) = self.held.take() {
            if self.out_of_order.is_some() {
                held.sort_by_key(|e| e.ts);
            }
            for (i, e) in held.iter().enumerate() {
                crate::cancel::check_every(i)?;
                self.apply(e)?;
            }
        }
        if self.any_ptrval {
            notes.assume("hrtimer addresses printed as (ptrval): timers told apart by their function");
        }
        if !self.any_expire {
            notes.assume(
                "no hrtimer_expire_entry event: trace timestamps taken as CLOCK_MONOTONIC (exact with trace clock mono)",
            );
        }
        let tick = self.tick;
        let mut ends = Vec::with_capacity(self.cpus.len());
        for (&n, &at) in &self.places {
            let Some((_, c)) = self.cpus.get_mut(at) else { continue };
            c.model.finish(tick);
            let sink = &mut self.sink;
            let rows = &mut c.rows;
            c.model.take_ready(true, |r| {
                *rows += 1;
                sink.row(n, r)
            })?;
            for l in &c.model.losses {
                notes.assume(loss_note(n, l));
            }
            let s = c.model.stats;
            if c.rows > 0 || s.unterminated > 0 || s.lost_periods > 0 {
                ends.push(CpuEnd { cpu: n, rows: c.rows, stats: s });
            }
        }
        for c in &ends {
            let (cpu, n, s) = (c.cpu, c.rows, c.stats);
            if s.sleep_length_unknown > 0 {
                notes.assume(format!(
                    "CPU {cpu}: {} of {n} idle periods had no pending timer: sleep length taken as the next timer expiry after the wakeup, or {} s (record timer:hrtimer_start/cancel/expire_entry)",
                    s.sleep_length_unknown,
                    UNKNOWN_SLEEP_LENGTH_NS / 1_000_000_000
                ));
            }
            if s.next_tick_unknown > 0 {
                notes.assume(format!(
                    "CPU {cpu}: {} of {n} idle periods had no tick event: next tick taken as one tick period ({} ns) away",
                    s.next_tick_unknown, tick.nsec
                ));
            }
            if s.unterminated > 0 {
                notes.assume(format!("CPU {cpu}: {} idle period(s) without an exit event dropped", s.unterminated));
            }
            if s.lost_periods > 0 {
                notes
                    .assume(format!("CPU {cpu}: {} idle period(s) open when events were lost dropped", s.lost_periods));
            }
        }
        notes.assume("latency requests, iowait and CPU load are not in these events: taken as none, 0, 0");
        Ok((self.sink, ends, notes))
    }
}

/// The note naming a loss of CPU `cpu`'s events: where (the time and line of the event
/// after it), how many when known, and what the importer did.
fn loss_note(cpu: u32, l: &LossSeen) -> String {
    let count = l.count.map_or_else(|| "events".to_string(), |n| format!("{n} events"));
    let secs = l.ts.div_euclid(1_000_000_000);
    let ns = l.ts.rem_euclid(1_000_000_000);
    let what = if l.dropped_period { "the idle period open then dropped; " } else { "" };
    format!(
        "CPU {cpu}: {count} lost before {secs}.{ns:09} s (line {}): {what}its timers and tick taken as unknown until seen again",
        l.line
    )
}
