//! Idle traces from ftrace text (the output of `trace-cmd report`, `perf script` or the tracefs
//! `trace` / `trace_pipe` files) or a trace.dat (its records decoded directly,
//! [`crate::tracedat`]), recorded with the events `power:cpu_idle`,
//! `timer:hrtimer_start`, `timer:hrtimer_cancel`, `timer:hrtimer_expire_entry` and
//! `timer:tick_stop`, e.g.
//! `trace-cmd record -e power:cpu_idle -e timer:hrtimer_start -e timer:hrtimer_cancel
//! -e timer:hrtimer_expire_entry -e timer:tick_stop`.
//!
//! What each event gives (per CPU):
//! - `cpu_idle state=N` opens an idle period (N is the state the real governor chose,
//!   kept as `actual_state`); `state=4294967295` (PWR_EVENT_EXIT) closes it.
//! - `hrtimer_start`/`hrtimer_cancel`/`hrtimer_expire_entry` keep the set of pending
//!   hrtimers and their expiry times (CLOCK_MONOTONIC ns). The tick is the timer whose
//!   function is `tick_sched_timer`, `tick_nohz_highres_handler` or `tick_nohz_handler`.
//! - `tick_stop success=1` marks the tick stopped; a later `hrtimer_start` of the tick
//!   timer due within one tick period marks it running again.
//!
//! How a trace row is built from a period `[t0, t1)`:
//! - `next_tick_ns`: the tick timer's expiry − t0; when the tick timer was re-armed by the
//!   hrtimer core itself (no event), its last known expiry advanced by whole tick periods.
//! - `sleep_length_ns`: the earliest pending non-tick hrtimer − t0, or, with the tick
//!   stopped, the tick timer's expiry (the kernel arms it to the next timer event).
//! - The wakeup: if an `hrtimer_expire_entry` on the CPU falls within 50 µs of t1, a
//!   timer ended the period (`wake_ns = -1`, and a non-tick timer's expiry bounds the
//!   sleep length); otherwise a non-timer wakeup at `wake_ns = t1 − t0`.
//! - `tick_stopped`: the tick was stopped before this period's own `tick_stop` event.
//! - `latency_req_ns = -1`, `nr_iowait = 0`, `cpu_load = 0`: not in these events.
//!
//! Approximations, each counted in [`FtraceStats`]:
//! - timers of the timer wheel (`timer_start`) are not used, so a sleep length is only
//!   as good as the hrtimers seen; when no timer is known it is the time to the next
//!   non-tick hrtimer expiry after the wakeup, or 1 s when there is none
//!   (`sleep_length_unknown`), looked for in a bounded look-ahead (docs/tracing.md §2.1);
//!   for a non-timer wakeup it is raised to the idle duration when shorter (the timer
//!   must have been cancelled);
//! - without any tick event the next tick is one tick period away (`next_tick_unknown`);
//! - trace timestamps are converted to CLOCK_MONOTONIC with the offset seen in the latest
//!   `hrtimer_expire_entry` (`now=`); before the first one they are taken as monotonic
//!   (exact with `trace-cmd record -C mono`);
//! - hrtimers due more than 100 s away (e.g. CLOCK_REALTIME ones) are ignored;
//! - periods without an exit event (cut by the trace end) are dropped (`unterminated`);
//! - a period open when its CPU's ring buffer lost events is dropped (`lost_periods`),
//!   and the CPU's pending timers and tick are forgotten until seen again
//!   ([`super::ftrace_cpu`], the per-CPU model of the event order). The losses are read
//!   as the trace engine reads them (trace.dat's missed-events flags, text
//!   `[LOST N EVENTS]`, trace-cmd's `[N EVENTS DROPPED]`) and each is named in the notes
//!   (CPU, time, count when known).
//!
//! Each approximation that happened is also one sentence of the import's
//! [`ImportNotes::assumptions`], and lines that cannot be read are skipped and counted
//! there (an error under [`ImportOptions::strict`]). Events out of time order are refused
//! at their line, or sorted under [`ImportOptions::sort`] (with a note). Hashed pointers
//! printed as `hrtimer=(ptrval)` cannot tell timers apart: such timers are told apart by
//! their function (noted).
//!
//! The trace is read once, as a stream: the events pass through one model of the
//! trace's order ([`super::ftrace_import`]) and each CPU's periods go to a
//! [`RowSink`] as they are complete ([`parse_into`], [`read_into`]): collected
//! ([`parse`], [`read`], [`read_columns`]) or replayed as they come
//! ([`super::ftrace_replay`]).

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use super::ftrace_cpu::{Event, Kind, Row};
use super::ftrace_import::{CpuEnd, Importer, RowSink};
use super::trace::{IdlePeriod, Tick, TraceTable};
use crate::error::{Error, Result};
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::int_map::IntMap;
use crate::tracedat::decode::{Decoder, Event as DatEvent};
use crate::tracedat::Trace;
use std::collections::{BTreeMap, HashMap};

pub use super::ftrace_cpu::TIMER_WAKEUP_WINDOW_NS;

/// `PWR_EVENT_EXIT` as printed by `cpu_idle`.
const PWR_EVENT_EXIT: u64 = 4_294_967_295;
/// Sleep length used when no timer is known at all.
pub const UNKNOWN_SLEEP_LENGTH_NS: i64 = 1_000_000_000;

/// The idle trace of one CPU built from ftrace events.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CpuTrace {
    /// CPU number.
    pub cpu: u32,
    /// One row per idle period.
    pub periods: Vec<IdlePeriod>,
    /// Trace timestamp of each idle entry, ns.
    pub timestamp_ns: Vec<i64>,
    /// The state the running kernel's governor chose (`cpu_idle state=`).
    pub actual_state: Vec<u32>,
    /// The kernel stopped the tick on this entry (a `tick_stop success=1` between the
    /// previous exit and this entry): its governor said `stop_tick` and
    /// `tick_nohz_next_event` found no event within a tick.
    pub actual_stop_tick: Vec<bool>,
    /// A pending timer gave the period's sleep length (false: assumed, see
    /// [`FtraceStats::sleep_length_unknown`]).
    pub sleep_length_known: Vec<bool>,
    /// How each value was obtained.
    pub stats: FtraceStats,
}

/// The idle traces of every CPU of one input, with what the import skipped and assumed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FtraceImport {
    /// One trace per CPU with idle periods, by CPU number.
    pub cpus: Vec<CpuTrace>,
    /// Malformed lines and assumptions (see the module docs).
    pub notes: ImportNotes,
}

/// Counts of the approximations made (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FtraceStats {
    /// Periods ended by a timer (tick included).
    pub timer_wakeups: u64,
    /// Periods ended by the tick.
    pub tick_wakeups: u64,
    /// Periods whose sleep length came from no pending timer (look-ahead or 1 s).
    pub sleep_length_unknown: u64,
    /// Periods whose next tick was assumed one tick period away.
    pub next_tick_unknown: u64,
    /// Periods dropped for lack of an exit event.
    pub unterminated: u64,
    /// Periods dropped because the CPU's ring buffer lost events while they were open.
    pub lost_periods: u64,
}

/// True for the tick's hrtimer callback (`function=` of the hrtimer events) across kernel
/// versions: `tick_sched_timer`, `tick_nohz_highres_handler`, `tick_nohz_handler`.
pub fn is_tick_function(f: &str) -> bool {
    ["tick_sched_timer", "tick_nohz_highres_handler", "tick_nohz_handler"].iter().any(|t| f.starts_with(t))
}

/// `SECONDS.FRACTION` → ns (exact; up to 9 fraction digits).
fn parse_timestamp(tok: &str) -> Option<i64> {
    let (s, f) = tok.split_once('.')?;
    if s.is_empty()
        || f.is_empty()
        || f.len() > 9
        || !s.bytes().all(|b| b.is_ascii_digit())
        || !f.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let secs: i64 = s.parse().ok()?;
    let frac: i64 = f.parse().ok()?;
    let scale = 10i64.pow(9 - f.len() as u32);
    secs.checked_mul(1_000_000_000)?.checked_add(frac * scale)
}

fn hex_or_dec(v: &str) -> Option<u64> {
    let v = v.trim_start_matches("0x");
    u64::from_str_radix(v, 16).ok()
}

/// A timer id for a hashed `(ptrval)` pointer: its function's name (FNV-1a), with the
/// top bit set so that it never equals a printed address below 2^63.
fn id_of_function(f: &str) -> u64 {
    let h = f.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    h | 1 << 63
}

/// What one text line is to the idle importer.
enum Line {
    /// One of the events used.
    Event(Event),
    /// Another event, at this time (it places a loss marked before it).
    Other(i64),
    /// A ring-buffer overflow marker (read by the trace engine,
    /// [`crate::trace::text::loss_marker`]): events of `cpu` were lost before the next event.
    Lost {
        /// The CPU.
        cpu: u32,
        /// How many, when printed.
        count: Option<u64>,
    },
    /// Not an event line.
    Blank,
}

/// Parse one line.
fn parse_line(text: &str, path: Option<&str>, line: usize) -> Result<Line> {
    let t = text.trim_start();
    if t.is_empty() || t.starts_with('#') {
        return Ok(Line::Blank);
    }
    if let Some((cpu, count)) = crate::trace::text::loss_marker(t.trim_end()) {
        return Ok(Line::Lost { cpu, count });
    }
    // The CPU is the last "[digits]" token before the timestamp ("SECONDS.FRACTION:");
    // task names (which may hold spaces or brackets) and the flags column come before.
    let mut toks = text.split_whitespace();
    let mut cpu: Option<u32> = None;
    let mut ts = None;
    for tok in toks.by_ref() {
        if let Some(v) = tok.strip_suffix(':').and_then(parse_timestamp) {
            ts = Some(v);
            break;
        }
        if let Some(inner) = tok.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            if !inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()) {
                cpu = inner.parse::<u32>().ok();
            }
        }
    }
    let (Some(cpu), Some(ts)) = (cpu, ts) else { return Ok(Line::Blank) };
    // `perf script` names the event with its system (`power:cpu_idle:`)
    let Some(event) = toks.next().and_then(|e| e.strip_suffix(':')).map(|e| e.rsplit(':').next().unwrap_or(e)) else {
        return Ok(Line::Other(ts));
    };
    if !matches!(event, "cpu_idle" | "hrtimer_start" | "hrtimer_cancel" | "hrtimer_expire_entry" | "tick_stop") {
        return Ok(Line::Other(ts));
    }
    let fields: HashMap<&str, &str> = toks.filter_map(|kv| kv.split_once('=')).collect();
    let get = |k: &str| -> Result<&str> {
        fields
            .get(k)
            .copied()
            .ok_or_else(|| Error::parse_col(path, Some(line), k, format!("{event} event without '{k}='")))
    };
    let num = |k: &str| -> Result<i64> {
        let v = get(k)?;
        v.parse::<i64>().map_err(|_| Error::parse_col(path, Some(line), k, format!("expected an integer, got '{v}'")))
    };
    let id = |k: &str| -> Result<u64> {
        let v = get(k)?;
        if v == "(ptrval)" {
            // hashed pointer not yet printable: tell timers apart by their function
            let f = fields.get("function").copied().unwrap_or("");
            return Ok(id_of_function(f.split('/').next().unwrap_or(f)));
        }
        hex_or_dec(v).ok_or_else(|| Error::parse_col(path, Some(line), k, format!("expected a hex address, got '{v}'")))
    };
    let kind = match event {
        "cpu_idle" => {
            let state = get("state")?;
            let s: u64 =
                state.parse().or_else(|_| state.parse::<i64>().map(|v| v as u64 & 0xffff_ffff)).map_err(|_| {
                    Error::parse_col(path, Some(line), "state", format!("expected an integer, got '{state}'"))
                })?;
            let cpu_id = num("cpu_id")?;
            if cpu_id < 0 || cpu_id > i64::from(u32::MAX) {
                return Err(Error::parse_col(path, Some(line), "cpu_id", format!("bad CPU number {cpu_id}")));
            }
            let kind = if s == PWR_EVENT_EXIT { Kind::IdleExit } else { Kind::IdleEnter(s as u32) };
            return Ok(Line::Event(Event { cpu: cpu_id as u32, ts, kind }));
        }
        "hrtimer_start" => {
            Kind::TimerStart { id: id("hrtimer")?, expires: num("expires")?, tick: is_tick_function(get("function")?) }
        }
        "hrtimer_cancel" => Kind::TimerCancel { id: id("hrtimer")? },
        "hrtimer_expire_entry" => {
            Kind::TimerExpire { id: id("hrtimer")?, now: num("now")?, tick: is_tick_function(get("function")?) }
        }
        _ => Kind::TickStop { success: get("success")? == "1" },
    };
    Ok(Line::Event(Event { cpu, ts, kind }))
}

/// Build one idle trace per CPU from ftrace text or a trace.dat (its records decoded
/// directly, [`crate::tracedat`]; see the module docs); `hz` is the traced kernel's
/// CONFIG_HZ (for the tick period).
pub fn parse(bytes: &[u8], path: Option<&str>, hz: u32, opts: ImportOptions) -> Result<FtraceImport> {
    let (collect, ends, notes) = parse_into(bytes, path, hz, opts, Collect::default())?;
    Ok(collect.import(ends, notes))
}

/// [`parse`] with each CPU's rows handed to `sink` as they are complete
/// ([`super::ftrace_import`]): the sink, each CPU's counts and the notes.
pub fn parse_into<K: RowSink>(
    bytes: &[u8],
    path: Option<&str>,
    hz: u32,
    opts: ImportOptions,
    sink: K,
) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
    let tick = Tick::new(hz)?;
    if crate::tracedat::is_tracedat(bytes) {
        return from_tracedat_into(&Trace::open(&bytes, path)?, path, tick, opts, sink);
    }
    refuse_binary(bytes.get(..4096).unwrap_or(bytes), path)?;
    let mut text = TextEvents::new(path, opts, Importer::new(tick, opts, sink));
    for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        crate::cancel::check_every(i)?;
        text.line(i + 1, raw)?;
    }
    text.finish()
}

/// The events of ftrace text lines, to an [`Importer`]: each line parsed, malformed ones
/// noted, and a ring-buffer loss marker placed at the next event of any CPU, as the
/// trace engine places it.
struct TextEvents<'p, K: RowSink> {
    path: Option<&'p str>,
    opts: ImportOptions,
    notes: ImportNotes,
    importer: Importer<K>,
    /// Losses marked and not yet placed: (CPU, count, line).
    lost: Vec<(u32, Option<u64>, usize)>,
    last_ts: Option<i64>,
}

impl<'p, K: RowSink> TextEvents<'p, K> {
    fn new(path: Option<&'p str>, opts: ImportOptions, importer: Importer<K>) -> Self {
        TextEvents { path, opts, notes: ImportNotes::default(), importer, lost: Vec::new(), last_ts: None }
    }

    /// Line `line` (1-based), without its newline.
    fn line(&mut self, line: usize, raw: &[u8]) -> Result<()> {
        let path = self.path;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let parsed = std::str::from_utf8(raw)
            .map_err(|e| {
                Error::parse(
                    path,
                    Some(line),
                    format!("not UTF-8 text (invalid byte at column {})", e.valid_up_to() + 1),
                )
            })
            .and_then(|text| parse_line(text, path, line));
        let (ts, ev) = match parsed {
            Ok(Line::Event(ev)) => (ev.ts, Some(ev)),
            Ok(Line::Other(ts)) => (ts, None),
            Ok(Line::Lost { cpu, count }) => {
                self.lost.push((cpu, count, line));
                return Ok(());
            }
            Ok(Line::Blank) => return Ok(()),
            Err(e) => return self.notes.malformed(self.opts, e),
        };
        self.last_ts = Some(ts);
        self.place_losses(ts)?;
        match ev {
            Some(ev) => self.importer.push(ev, line),
            None => Ok(()),
        }
    }

    /// The losses marked so far, placed at `ts`.
    fn place_losses(&mut self, ts: i64) -> Result<()> {
        for (cpu, count, at) in std::mem::take(&mut self.lost) {
            self.importer.push(Event { cpu, ts, kind: Kind::Lost { count, line: at } }, at)?;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
        if let Some(ts) = self.last_ts {
            self.place_losses(ts)?;
        }
        self.importer.finish(self.path, self.notes)
    }
}

/// An error when `first` (the first bytes of an input that is not a trace.dat) is
/// binary: a compressed file or archive ([`crate::text_input::binary_kind`]), or any
/// NUL byte (ftrace text has none; a trace.dat with a damaged magic, `/dev/zero` do).
fn refuse_binary(first: &[u8], path: Option<&str>) -> Result<()> {
    const NEITHER: &str = "neither a trace.dat (magic \\x17\\x08Dtracing) nor ftrace text";
    if let Some(kind) = crate::text_input::binary_kind(first) {
        return Err(Error::parse(path, None, format!("{kind}: {NEITHER}")));
    }
    if let Some(i) = first.iter().position(|&b| b == 0) {
        return Err(Error::parse(path, None, format!("binary data (a NUL byte at offset {i}): {NEITHER}")));
    }
    Ok(())
}

/// [`parse`] of an opened trace.dat: its records decoded, line numbers record numbers.
pub fn from_tracedat(trace: &Trace<'_>, path: Option<&str>, tick: Tick, opts: ImportOptions) -> Result<FtraceImport> {
    let (collect, ends, notes) = from_tracedat_into(trace, path, tick, opts, Collect::default())?;
    Ok(collect.import(ends, notes))
}

/// [`from_tracedat`] with each CPU's rows handed to `sink` (see [`parse_into`]).
pub fn from_tracedat_into<K: RowSink>(
    trace: &Trace<'_>,
    path: Option<&str>,
    tick: Tick,
    opts: ImportOptions,
    sink: K,
) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
    let mut notes = ImportNotes::default();
    notes.assume(trace.note());
    let decoder = Decoder::new(
        &trace.header.formats,
        &["cpu_idle", "hrtimer_start", "hrtimer_cancel", "hrtimer_expire_entry", "tick_stop"],
    );
    let mut tick_fn: IntMap<u64, bool> = IntMap::default();
    let mut is_tick = |addr: u64| {
        *tick_fn.entry(addr).or_insert_with(|| trace.header.symbol(addr).is_some_and(|f| is_tick_function(&f)))
    };
    let mut importer = Importer::new(tick, opts, sink);
    trace.each(|item| {
        let r = match &item {
            // by reference: a copy of the record loads 8 bytes over its 4-byte CPU,
            // written just before by a 4-byte store, and waits for that store
            crate::tracedat::Item::Record(r) => r,
            crate::tracedat::Item::Lost(l) => {
                // the page after the gap, flagged by the ring buffer (docs/tracing.md §3.1)
                let Ok(ts) = i64::try_from(l.ts) else { return Ok(()) };
                let kind = Kind::Lost { count: l.count, line: l.before_record };
                return importer.push(Event { cpu: l.cpu, ts, kind }, l.before_record);
            }
        };
        let bad = |msg: String| Error::parse(path, Some(r.number), msg);
        let ev = match decoder.decode(r.data) {
            Ok(Some(ev)) => ev,
            Ok(None) => return Ok(()),
            Err(e) => return notes.malformed(opts, bad(decoder.why(e))),
        };
        let Ok(ts) = i64::try_from(r.ts) else {
            return notes.malformed(opts, bad(format!("timestamp {} ns beyond the i64 range", r.ts)));
        };
        let (cpu, kind) = match ev {
            DatEvent::CpuIdle { state, cpu_id } => {
                let Ok(cpu) = u32::try_from(cpu_id) else {
                    return notes.malformed(opts, bad(format!("cpu_idle: bad CPU number {cpu_id}")));
                };
                let state = state & 0xffff_ffff;
                (cpu, if state == PWR_EVENT_EXIT { Kind::IdleExit } else { Kind::IdleEnter(state as u32) })
            }
            DatEvent::HrtimerStart { hrtimer, function, expires } => {
                (r.cpu, Kind::TimerStart { id: hrtimer, expires, tick: is_tick(function) })
            }
            DatEvent::HrtimerCancel { hrtimer } => (r.cpu, Kind::TimerCancel { id: hrtimer }),
            DatEvent::HrtimerExpireEntry { hrtimer, now, function } => {
                (r.cpu, Kind::TimerExpire { id: hrtimer, now, tick: is_tick(function) })
            }
            DatEvent::TickStop { success } => (r.cpu, Kind::TickStop { success }),
            DatEvent::Switch { .. }
            | DatEvent::Wakeup { .. }
            | DatEvent::Runtime { .. }
            | DatEvent::Migrate { .. }
            | DatEvent::CpuFrequency { .. }
            | DatEvent::PeltSe { .. }
            | DatEvent::CfsRqUpdate { .. } => return Ok(()),
        };
        importer.push(Event { cpu, ts, kind }, r.number)
    })?;
    importer.finish(path, notes)
}

/// The rows of an import collected into one [`CpuTrace`] per CPU (the whole-trace
/// result of [`parse`] and [`read`]).
#[derive(Debug, Default)]
pub struct Collect {
    cpus: BTreeMap<u32, CpuTrace>,
}

impl RowSink for Collect {
    fn row(&mut self, cpu: u32, r: &Row) -> Result<()> {
        let c = self.cpus.entry(cpu).or_insert_with(|| CpuTrace { cpu, ..Default::default() });
        c.periods.push(r.period);
        c.timestamp_ns.push(r.timestamp_ns);
        c.actual_state.push(r.actual_state);
        c.actual_stop_tick.push(r.actual_stop_tick);
        c.sleep_length_known.push(r.sleep_length_known);
        Ok(())
    }
}

impl Collect {
    /// The import of the CPUs `ends` (with their counts) and `notes`.
    pub fn import(mut self, ends: Vec<CpuEnd>, notes: ImportNotes) -> FtraceImport {
        let cpus = ends
            .into_iter()
            .map(|e| {
                let mut c = self.cpus.remove(&e.cpu).unwrap_or_else(|| CpuTrace { cpu: e.cpu, ..Default::default() });
                c.stats = e.stats;
                c
            })
            .collect();
        FtraceImport { cpus, notes }
    }
}

/// One CPU's trace of an import held as columns (what the Python binding hands to numpy
/// without a copy): the seven trace columns, the entry times and the kernel's states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuColumns {
    /// CPU number.
    pub cpu: u32,
    /// The trace's columns.
    pub table: TraceTable,
    /// Trace timestamp of each idle entry, ns.
    pub timestamp_ns: Vec<i64>,
    /// The state the running kernel's governor chose.
    pub actual_state: Vec<u32>,
    /// How each value was obtained.
    pub stats: FtraceStats,
}

/// The rows of an import collected straight into one [`CpuColumns`] per CPU.
#[derive(Debug, Default)]
pub struct CollectColumns {
    cpus: BTreeMap<u32, CpuColumns>,
}

impl RowSink for CollectColumns {
    fn row(&mut self, cpu: u32, r: &Row) -> Result<()> {
        let c = self.cpus.entry(cpu).or_insert_with(|| CpuColumns { cpu, ..Default::default() });
        c.table.extend(std::iter::once(r.period));
        c.timestamp_ns.push(r.timestamp_ns);
        c.actual_state.push(r.actual_state);
        Ok(())
    }
}

impl CollectColumns {
    /// The CPUs `ends` (with their counts), as [`Collect::import`] gives them.
    pub fn cpus(mut self, ends: Vec<CpuEnd>) -> Vec<CpuColumns> {
        ends.into_iter()
            .map(|e| {
                let mut c = self.cpus.remove(&e.cpu).unwrap_or_else(|| CpuColumns { cpu: e.cpu, ..Default::default() });
                c.stats = e.stats;
                c
            })
            .collect()
    }
}

/// [`read`] into columns (one [`CpuColumns`] per CPU) and the notes: no row is held
/// twice.
pub fn read_columns(path: &std::path::Path, hz: u32, opts: ImportOptions) -> Result<(Vec<CpuColumns>, ImportNotes)> {
    let (collect, ends, notes) = read_into(path, hz, opts, CollectColumns::default())?;
    Ok((collect.cpus(ends), notes))
}

/// [`parse`] into columns (see [`read_columns`]).
pub fn parse_columns(
    bytes: &[u8],
    path: Option<&str>,
    hz: u32,
    opts: ImportOptions,
) -> Result<(Vec<CpuColumns>, ImportNotes)> {
    let (collect, ends, notes) = parse_into(bytes, path, hz, opts, CollectColumns::default())?;
    Ok((collect.cpus(ends), notes))
}

/// Read an ftrace text file or a trace.dat (see [`parse`]).
pub fn read(path: &std::path::Path, hz: u32, opts: ImportOptions) -> Result<FtraceImport> {
    let (collect, ends, notes) = read_into(path, hz, opts, Collect::default())?;
    Ok(collect.import(ends, notes))
}

/// [`read`] with each CPU's rows handed to `sink` as they are complete (see
/// [`parse_into`]): a trace.dat is read a few pages at a time, ftrace text a line at a
/// time (a FIFO or a pipe to its end), so memory does not grow with the trace.
pub fn read_into<K: RowSink>(
    path: &std::path::Path,
    hz: u32,
    opts: ImportOptions,
    sink: K,
) -> Result<(K, Vec<CpuEnd>, ImportNotes)> {
    let name = path.display().to_string();
    let tick = Tick::new(hz)?;
    if let Some(file) = crate::tracedat::open_file(path)? {
        // read a piece at a time: a trace.dat is not bounded by the text limit
        return from_tracedat_into(&Trace::open(&file, Some(&name))?, Some(&name), tick, opts, sink);
    }
    // a binary input is refused from its first bytes; the file is opened once (a FIFO's
    // bytes would be lost to a second open)
    let (_, mut input) = super::trace::sniff(path)?;
    let mut first = Vec::with_capacity(4096);
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut input, 4096), &mut first)
        .map_err(|e| Error::io(path, &e))?;
    refuse_binary(&first, Some(&name))?;
    let input = std::io::Read::chain(std::io::Cursor::new(first), input);
    let mut reader = std::io::BufReader::with_capacity(1 << 16, crate::text_input::TextInput::new(input));
    let mut text = TextEvents::new(Some(&name), opts, Importer::new(tick, opts, sink));
    let mut buf = Vec::with_capacity(256);
    let mut i = 0usize;
    loop {
        crate::cancel::check_every(i)?;
        buf.clear();
        let n = std::io::BufRead::read_until(&mut reader, b'\n', &mut buf).map_err(|e| text_error(&name, &e))?;
        if n == 0 {
            break;
        }
        i += 1;
        text.line(i, buf.strip_suffix(b"\n").unwrap_or(&buf))?;
    }
    text.finish()
}

/// A read error of a text input (a NUL byte or an over-long line named by
/// [`crate::text_input::TextInput`], or the system's error).
fn text_error(name: &str, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::InvalidData {
        Error::parse(Some(name), None, e.to_string())
    } else {
        Error::io(std::path::Path::new(name), e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRACE: &str = "\
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
          <idle>-0       [001] d..2.   100.000000: hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_highres_handler expires=100004000000 softexpires=100004000000 mode=ABS|PINNED|HARD
          <idle>-0       [001] d..2.   100.000010: hrtimer_start: hrtimer=00000000bbbb0002 function=hrtimer_wakeup expires=100010000000 softexpires=100010000000 mode=REL
          <idle>-0       [001] d..1.   100.001000: cpu_idle: state=2 cpu_id=1
          <idle>-0       [001] d..1.   100.001300: cpu_idle: state=4294967295 cpu_id=1
          <idle>-0       [001] d..1.   100.002000: cpu_idle: state=3 cpu_id=1
          <idle>-0       [001] d..1.   100.004005: cpu_idle: state=4294967295 cpu_id=1
          <idle>-0       [001] d.h1.   100.004008: hrtimer_expire_entry: hrtimer=00000000aaaa0001 now=100004008000 function=tick_nohz_highres_handler/0x0
          <idle>-0       [001] d..2.   100.004100: tick_stop: success=1 dependency=NONE
          <idle>-0       [001] d..2.   100.004101: hrtimer_start: hrtimer=00000000aaaa0001 function=tick_nohz_highres_handler expires=100010000000 softexpires=100010000000 mode=ABS|PINNED|HARD
          <idle>-0       [001] d..1.   100.004200: cpu_idle: state=3 cpu_id=1
          <idle>-0       [001] d..1.   100.010030: cpu_idle: state=4294967295 cpu_id=1
          <idle>-0       [001] d.h1.   100.010035: hrtimer_expire_entry: hrtimer=00000000bbbb0002 now=100010035000 function=hrtimer_wakeup/0x0
          <idle>-0       [001] d..1.   100.011000: cpu_idle: state=3 cpu_id=1
";

    #[test]
    fn cpus_come_out_in_cpu_order_whatever_order_they_appear_in() {
        // CPUs 7, 2, 5, 0 enter idle in that order and their periods interleave: each
        // CPU's periods stay its own, and the CPUs come out by number
        let cpus = [7u32, 2, 5, 0];
        let mut text = String::new();
        for round in 0..3u32 {
            for (i, &c) in cpus.iter().enumerate() {
                let t = 100_000_000 + round * 1000 + i as u32 * 10;
                text += &format!(
                    "<idle>-0 [{c:03}] d..1. {}.{:06}: cpu_idle: state={} cpu_id={c}\n",
                    t / 1_000_000,
                    t % 1_000_000,
                    c % 3 + 1
                );
                let t = t + 5;
                text += &format!(
                    "<idle>-0 [{c:03}] d..1. {}.{:06}: cpu_idle: state=4294967295 cpu_id={c}\n",
                    t / 1_000_000,
                    t % 1_000_000
                );
            }
        }
        let got = parse(text.as_bytes(), None, 250, ImportOptions::default()).unwrap().cpus;
        let order: Vec<u32> = got.iter().map(|c| c.cpu).collect();
        assert_eq!(order, [0, 2, 5, 7]);
        for c in &got {
            // three entries each; the last has no next entry to close it after its exit
            // and is closed at the end of the trace
            assert_eq!(c.actual_state, vec![c.cpu % 3 + 1; 3], "CPU {}", c.cpu);
            assert!(c.periods.iter().all(|p| p.wake_ns == 5_000), "CPU {}", c.cpu);
        }
    }

    #[test]
    fn periods_from_idle_and_timer_events() {
        let t = parse(TRACE.as_bytes(), Some("t.txt"), 250, ImportOptions::default()).unwrap().cpus;
        assert_eq!(t.len(), 1);
        let c = &t[0];
        assert_eq!(c.cpu, 1);
        assert_eq!(c.actual_state, vec![2, 3, 3]);
        // the tick_stop at 100.004100 came between the 2nd exit and the 3rd entry
        assert_eq!(c.actual_stop_tick, vec![false, false, true]);
        let p = &c.periods;
        // 1st: an interrupt after 300 µs; timer at 10 ms → sleep 9 ms, tick at 4 ms → 3 ms
        assert_eq!(
            p[0],
            IdlePeriod {
                sleep_length_ns: 9_000_000,
                next_tick_ns: 3_000_000,
                wake_ns: 300_000,
                latency_req_ns: -1,
                ..Default::default()
            }
        );
        // 2nd: the tick ended it (expire 8 µs after the exit, within the window)
        assert_eq!((p[1].wake_ns, p[1].next_tick_ns, p[1].sleep_length_ns), (-1, 2_000_000, 8_000_000));
        // 3rd: the tick stopped on this entry (not before it), the 10 ms timer woke it;
        // offset from the tick's expire_entry: trace = mono.
        assert!(!p[2].tick_stopped);
        assert_eq!((p[2].wake_ns, p[2].sleep_length_ns), (-1, 5_800_000));
        assert_eq!(c.stats.timer_wakeups, 2);
        assert_eq!(c.stats.tick_wakeups, 1);
        assert_eq!(c.stats.unterminated, 1);
    }

    #[test]
    fn trace_cmd_report_layout_and_errors() {
        let report = "cpus=2\n  <idle>-0     [000]  5.000000: cpu_idle:             state=1 cpu_id=0\n  my task[3]-77 [000]  5.000050: sched_switch: prev_comm=x\n  <idle>-0     [000]  5.000100: cpu_idle:             state=4294967295 cpu_id=0\n";
        let t = parse(report.as_bytes(), None, 1000, ImportOptions::default()).unwrap().cpus;
        assert_eq!(t[0].periods[0].wake_ns, 100_000);
        // `perf script` names the event with its system: the same period (100 µs)
        let perf = "         swapper     0 [000]     5.000000000:     power:cpu_idle: state=1 cpu_id=0\n         swapper     0 [000]     5.000100000:     power:cpu_idle: state=4294967295 cpu_id=0\n";
        assert_eq!(parse(perf.as_bytes(), None, 1000, ImportOptions::default()).unwrap().cpus, t);
        assert_eq!(t[0].stats.sleep_length_unknown, 1);
        assert_eq!(t[0].periods[0].sleep_length_ns, UNKNOWN_SLEEP_LENGTH_NS);
        let bad = "  <idle>-0 [000] 5.000000: cpu_idle: state=x cpu_id=0\n";
        let strict = ImportOptions { strict: true, sort: false };
        let e = parse(bad.as_bytes(), Some("r.txt"), 250, strict).unwrap_err().to_string();
        assert_eq!(e, "r.txt:1: column 'state': expected an integer, got 'x'");
        let e = parse(b"nothing here\n", Some("r.txt"), 250, strict).unwrap_err().to_string();
        assert!(e.starts_with("r.txt: no cpu_idle events"), "{e}");
        assert_eq!(parse_timestamp("12.5"), Some(12_500_000_000));
        assert_eq!(parse_timestamp("1.000000001"), Some(1_000_000_001));
    }

    #[test]
    fn malformed_lines_are_counted_unsorted_refused_ptrval_accepted() {
        let text = "\
  <idle>-0 [000] 4.999950: hrtimer_start: hrtimer=(ptrval) function=hrtimer_wakeup expires=5000900000 softexpires=5000900000
  <idle>-0 [000] 5.000000: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 5.000010: bprint: cpu_idle: state=
  <idle>-0 [000] 5.000100: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 5.000200: cpu_idle: state=x cpu_id=0
";
        let t = parse(text.as_bytes(), Some("g.txt"), 250, ImportOptions::default()).unwrap();
        assert_eq!(t.notes.malformed, 1);
        assert_eq!(t.notes.malformed_lines, vec!["g.txt:5: column 'state': expected an integer, got 'x'"]);
        assert!(t.notes.assumptions.iter().any(|a| a.contains("(ptrval)")), "{:?}", t.notes);
        // the (ptrval) timer is due at 5.000900 s, 900 µs after the entry at 5.000000 s
        assert_eq!(t.cpus[0].periods[0].sleep_length_ns, 900_000);
        assert_eq!(t.cpus[0].stats.sleep_length_unknown, 0);
        let unsorted = "\
  <idle>-0 [000] 5.000000: cpu_idle: state=1 cpu_id=0
  <idle>-0 [001] 4.000100: cpu_idle: state=4294967295 cpu_id=0
";
        let e = parse(unsorted.as_bytes(), Some("u.txt"), 250, ImportOptions::default()).unwrap_err().to_string();
        assert!(e.starts_with("u.txt:2: timestamp 4000100000 ns goes backwards"), "{e}");
        let t = parse(unsorted.as_bytes(), Some("u.txt"), 250, ImportOptions { strict: false, sort: true }).unwrap();
        assert!(t.notes.assumptions.iter().any(|a| a.contains("sorted")), "{:?}", t.notes);
        // sorted: the exit comes first, the entry is cut by the end
        assert_eq!(t.cpus[0].stats.unterminated, 1);
    }

    #[test]
    fn a_loss_drops_the_period_it_may_cut_and_nothing_else() {
        // CPU 0: a period [1.000000, 1.000100] whose exit is followed 200 µs later by
        // another event (past the 50 µs timer window): whole before the loss, kept. CPU 1:
        // a period whose exit is the CPU's last event before its loss: a timer expiry in
        // the window may be among the lost events, dropped. CPU 0 again: an entry, then a
        // loss before its exit: dropped; the exit after the loss is ignored and the next
        // entry resynchronises (a period of 50 µs).
        let text = "\
  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000100: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [001] 1.000150: cpu_idle: state=1 cpu_id=1
  <idle>-0 [001] 1.000250: cpu_idle: state=4294967295 cpu_id=1
  x-5 [000] 1.000300: hrtimer_cancel: hrtimer=0x10
CPU:0 [LOST 7 EVENTS]
CPU:1 [LOST EVENTS]
  <idle>-0 [000] 1.000400: cpu_idle: state=1 cpu_id=0
CPU:0 [LOST 3 EVENTS]
  <idle>-0 [000] 1.000600: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000700: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000750: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000900: cpu_idle: state=1 cpu_id=0
";
        let t = parse(text.as_bytes(), Some("l.txt"), 250, ImportOptions::default()).unwrap();
        let c0 = &t.cpus[0];
        assert_eq!(c0.timestamp_ns, vec![1_000_000_000, 1_000_700_000]);
        assert_eq!(c0.periods.iter().map(|p| p.wake_ns).collect::<Vec<_>>(), vec![100_000, 50_000]);
        assert_eq!((c0.stats.lost_periods, c0.stats.unterminated), (1, 1));
        let c1 = &t.cpus[1];
        assert!(c1.periods.is_empty());
        assert_eq!(c1.stats.lost_periods, 1);
        let lost: Vec<&String> = t.notes.assumptions.iter().filter(|n| n.contains(" lost before ")).collect();
        assert_eq!(
            lost,
            [
                "CPU 0: 7 events lost before 1.000400000 s (line 6): its timers and tick taken as unknown until seen again",
                "CPU 0: 3 events lost before 1.000600000 s (line 9): the idle period open then dropped; its timers and tick taken as unknown until seen again",
                "CPU 1: events lost before 1.000400000 s (line 7): the idle period open then dropped; its timers and tick taken as unknown until seen again",
            ]
        );
    }

    #[test]
    fn a_period_without_a_timer_waits_for_the_next_expiry_within_the_look_ahead() {
        // three periods no timer bounds, then a non-tick expiry at 1.002 s: each takes it
        // (docs/tracing.md §2.1): 1.002 − 1.0000, 1.002 − 1.0002, 1.002 − 1.0004 s
        let text = "\
  <idle>-0 [000] 1.000000: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000100: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000200: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000300: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000400: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000500: cpu_idle: state=4294967295 cpu_id=0
  x-1 [000] 1.002000: hrtimer_expire_entry: hrtimer=0x10 now=1002000000 function=hrtimer_wakeup/0x0
";
        let t = parse(text.as_bytes(), None, 250, ImportOptions::default()).unwrap();
        let sleeps: Vec<i64> = t.cpus[0].periods.iter().map(|p| p.sleep_length_ns).collect();
        assert_eq!(sleeps, [2_000_000, 1_800_000, 1_600_000]);
        assert_eq!(t.cpus[0].stats.sleep_length_unknown, 3);

        // the look-ahead is bounded: with MAX_LOOKAHEAD_PERIODS + 2 periods of 100 µs (one
        // every 200 µs from 1 s) before the expiry at 3 s, the first has waited behind
        // too many and takes the 1 s fallback; the others the expiry, 3 s − their entry
        let n = super::super::ftrace_cpu::MAX_LOOKAHEAD_PERIODS + 2;
        let mut text = String::new();
        for k in 0..n {
            let t0 = 1_000_000 + 200 * k; // µs
            text += &format!("  <idle>-0 [000] {}.{:06}: cpu_idle: state=1 cpu_id=0\n", t0 / 1_000_000, t0 % 1_000_000);
            let t1 = t0 + 100;
            text += &format!(
                "  <idle>-0 [000] {}.{:06}: cpu_idle: state=4294967295 cpu_id=0\n",
                t1 / 1_000_000,
                t1 % 1_000_000
            );
        }
        text += "  x-1 [000] 3.000000: hrtimer_expire_entry: hrtimer=0x10 now=3000000000 function=hrtimer_wakeup/0x0\n";
        let t = parse(text.as_bytes(), None, 250, ImportOptions::default()).unwrap();
        let p = &t.cpus[0].periods;
        assert_eq!(p.len(), n);
        assert_eq!(p[0].sleep_length_ns, UNKNOWN_SLEEP_LENGTH_NS);
        for (k, p) in p.iter().enumerate().skip(1) {
            assert_eq!(p.sleep_length_ns, 3_000_000_000 - (1_000_000_000 + 200_000 * k as i64), "period {k}");
        }
    }

    #[test]
    fn periods_are_handed_on_as_they_are_complete() {
        // a pending timer bounds every period: each is handed on at the next entry, so
        // the sink has k − 1 rows when the k-th entry has been read
        let mut text = String::from(
            "  <idle>-0 [000] 0.500000: hrtimer_start: hrtimer=0x20 function=hrtimer_wakeup expires=90000000000 softexpires=90000000000 mode=ABS\n",
        );
        for k in 0..1000 {
            let t0 = 1_000_000 + 200 * k;
            text += &format!("  <idle>-0 [000] {}.{:06}: cpu_idle: state=1 cpu_id=0\n", t0 / 1_000_000, t0 % 1_000_000);
            text += &format!(
                "  <idle>-0 [000] {}.{:06}: cpu_idle: state=4294967295 cpu_id=0\n",
                (t0 + 100) / 1_000_000,
                (t0 + 100) % 1_000_000
            );
        }
        let mut seen = Vec::new();
        let mut entries = 0usize;
        let tick = Tick::new(250).unwrap();
        let sink = |_: u32, _: &Row| Ok(());
        let mut text_events =
            TextEvents::new(None, ImportOptions::default(), Importer::new(tick, ImportOptions::default(), sink));
        let mut counter = 0u64;
        for (i, line) in text.lines().enumerate() {
            text_events.line(i + 1, line.as_bytes()).unwrap();
            if line.contains("state=1 ") {
                entries += 1;
                seen.push((entries, text_events.importer.rows_so_far()));
            }
            counter += 1;
        }
        assert_eq!(counter, 2001);
        assert!(seen.iter().all(|&(k, rows)| rows == k as u64 - 1), "{:?}", &seen[..5]);
        let (_, ends, _) = text_events.finish().unwrap();
        assert_eq!(ends[0].rows, 1000);
    }
}
