//! A single task's trace on one CPU: consecutive segments of running (R), runnable but
//! preempted (W) or sleeping (S), each with the CPU and frequency capacity in effect
//! (the input format of docs/pelt.md §8.1, as the goldens' `tests/data/pelt/inputs/pelt_*.csv`):
//!
//! ```text
//! dur_ns,state,cpu_cap,freq_cap
//! 3000000,R,1024,1024
//! 500000,S,1024,1024
//! ```
//!
//! `dur_ns` and `state` are required; `cpu_cap` and `freq_cap` default to 1024 when their
//! column is absent; other columns are ignored. Blank lines and lines starting with `#`
//! are skipped.

// Parsers of untrusted bytes: no unwrap, expect, indexing or string slicing that can panic on input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::string_slice)]

use crate::csv_table;
use crate::error::{Error, Result};
use crate::pelt::consts::SCHED_CAPACITY_SCALE;

/// What the task is doing during a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum State {
    /// `R`: running on the CPU.
    Run,
    /// `W`: runnable, waiting while another (non-CFS) task runs.
    Wait,
    /// `S`: sleeping (blocked), dequeued.
    Sleep,
}

impl State {
    /// The one-letter code (`R`, `W`, `S`).
    pub fn letter(self) -> char {
        match self {
            State::Run => 'R',
            State::Wait => 'W',
            State::Sleep => 'S',
        }
    }

    /// The state of an ASCII letter (`b'R'`, `b'W'`, `b'S'`).
    #[inline]
    pub fn from_byte(b: u8) -> Option<State> {
        match b {
            b'R' => Some(State::Run),
            b'W' => Some(State::Wait),
            b'S' => Some(State::Sleep),
            _ => None,
        }
    }

    /// Parse a one-letter code.
    pub fn from_letter(s: &str) -> Option<State> {
        match s {
            "R" => Some(State::Run),
            "W" => Some(State::Wait),
            "S" => Some(State::Sleep),
            _ => None,
        }
    }
}

/// One segment of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Duration in ns (> 0).
    pub dur_ns: u64,
    /// The task's state.
    pub state: State,
    /// `arch_scale_cpu_capacity` during the segment, 1..=1024.
    pub cpu_cap: u32,
    /// `arch_scale_freq_capacity` during the segment, 1..=1024.
    pub freq_cap: u32,
    /// The CPU the task is on (0 when not known); it may change only at a wakeup, where
    /// the task migrates (docs/pelt.md §11).
    pub cpu: u32,
    /// At a wakeup that migrates: how long before the wakeup (ns) the old CPU's cfs_rq
    /// was last updated, when the trace says (its PELT events); the task is synced there
    /// (`remove_entity_load_avg`). `None`: the replay's own last update of that cfs_rq
    /// (the old CPU idle since the task slept).
    pub sync_lag_ns: Option<u64>,
    /// The scheduler tick updates the running task at the segment's start
    /// (`entity_tick`): a trace that gives its ticks (an import that knows them,
    /// docs/pelt.md §12) has no others; only a running segment after a running one
    /// starts with a tick.
    pub tick: bool,
}

/// Whether the task can go from `from` to `to` at a segment boundary. Every change is
/// possible except W → S: a preempted task has to run before it can block.
pub fn transition_allowed(from: State, to: State) -> bool {
    !(from == State::Wait && to == State::Sleep)
}

/// Largest total trace time accepted (so that every timestamp fits an `i64` of ns).
pub const MAX_TRACE_NS: u64 = i64::MAX as u64 / 2;

/// Check a trace built in memory: durations > 0, capacities in 1..=1024, the first
/// segment R or W (a new task starts runnable), no W → S, the CPU changed only at a
/// wakeup, total time ≤ [`MAX_TRACE_NS`]. Errors name the 0-based segment and the column.
pub fn validate(segments: &[Segment]) -> Result<()> {
    let mut total: u64 = 0;
    let mut prev: Option<(State, u32)> = None;
    for (i, s) in segments.iter().enumerate() {
        if !segment_ok(s, prev, &mut total) {
            return Err(segment_error(i, s, prev, total));
        }
        prev = Some((s.state, s.cpu));
    }
    if segments.is_empty() {
        return Err(Error::parse(None, None, "the trace has no segments"));
    }
    Ok(())
}

/// Whether segment `s` after `prev` passes [`check_segment`] (adding its duration to
/// `total` when it does): the fast test, without building a message.
#[inline]
fn segment_ok(s: &Segment, prev: Option<(State, u32)>, total: &mut u64) -> bool {
    let caps_ok = (1..=SCHED_CAPACITY_SCALE as u32).contains(&s.cpu_cap)
        && (1..=SCHED_CAPACITY_SCALE as u32).contains(&s.freq_cap);
    let state_ok = match prev {
        None => s.state != State::Sleep && !s.tick,
        Some(p) => {
            transition_allowed(p.0, s.state)
                && (p.1 == s.cpu || migrates(p.0, s.state))
                && (!s.tick || (p.0 == State::Run && s.state == State::Run))
        }
    };
    let t = total.wrapping_add(s.dur_ns);
    let time_ok = s.dur_ns != 0 && s.dur_ns <= MAX_TRACE_NS && t <= MAX_TRACE_NS;
    *total = t;
    caps_ok & state_ok & time_ok
}

/// The error [`check_segment`] gives for segment `i` (its duration already added to
/// `total_after`).
#[cold]
#[inline(never)]
fn segment_error(i: usize, s: &Segment, prev: Option<(State, u32)>, total_after: u64) -> Error {
    let mut total = total_after.wrapping_sub(s.dur_ns);
    match check_segment(s, prev, &mut total) {
        Err((col, msg)) => Error::parse_col(None, None, col, format!("segment {i}: {msg}")),
        Ok(()) => Error::parse(None, None, format!("segment {i}: invalid")),
    }
}

/// Whether the task may change CPU between segments in states `from` and `to`: only at a
/// wakeup (the migration of a waking task, docs/pelt.md §11).
fn migrates(from: State, to: State) -> bool {
    from == State::Sleep && to != State::Sleep
}

fn check_segment(
    s: &Segment,
    prev: Option<(State, u32)>,
    total: &mut u64,
) -> std::result::Result<(), (&'static str, String)> {
    if s.dur_ns == 0 {
        return Err(("dur_ns", "duration must be > 0 ns".into()));
    }
    for (col, v) in [("cpu_cap", s.cpu_cap), ("freq_cap", s.freq_cap)] {
        if v == 0 || u64::from(v) > SCHED_CAPACITY_SCALE {
            return Err((col, format!("capacity {v} is outside 1..1024")));
        }
    }
    match prev {
        None if s.state == State::Sleep => {
            return Err(("state", "the first segment must be R or W: the task is forked runnable".into()))
        }
        Some((p, _)) if !transition_allowed(p, s.state) => {
            return Err((
                "state",
                format!(
                    "impossible transition {} -> {}: a preempted task must run before it can sleep",
                    p.letter(),
                    s.state.letter()
                ),
            ))
        }
        _ if s.tick && (!matches!(prev, Some((State::Run, _))) || s.state != State::Run) => {
            return Err((
                "tick",
                "a tick falls only at the start of a running segment that follows a running one".into(),
            ))
        }
        Some((p, cpu)) if cpu != s.cpu && !migrates(p, s.state) => {
            return Err((
                "cpu",
                format!(
                    "the task moves from CPU {cpu} to {} at {} -> {}: a migration is replayed only at a wakeup",
                    s.cpu,
                    p.letter(),
                    s.state.letter()
                ),
            ))
        }
        _ => {}
    }
    *total = match total.checked_add(s.dur_ns) {
        Some(t) if t <= MAX_TRACE_NS => t,
        _ => return Err(("dur_ns", format!("the trace is longer than {MAX_TRACE_NS} ns"))),
    };
    Ok(())
}

/// Random access to a trace's segments: a slice of [`Segment`]s, or columns read in
/// place ([`TraceColumns`]).
pub trait Segments: Sync {
    /// The number of segments.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Segment `i` (`i < len()`).
    fn get(&self, i: usize) -> Segment;
    /// The summed durations of segments `range` (ns, wrapping; a validated trace's
    /// total fits).
    fn dur_sum(&self, range: std::ops::Range<usize>) -> u64 {
        range.fold(0u64, |t, i| t.wrapping_add(self.get(i).dur_ns))
    }
    /// Call `f(i, segment i)` for each `i` in `range` (clamped to the trace), in order,
    /// stopping at the first error. The replay's loop: an implementation walks its
    /// storage directly, without a bounds check per segment.
    #[inline]
    fn each<F: FnMut(usize, Segment) -> crate::Result<()>>(
        &self,
        range: std::ops::Range<usize>,
        mut f: F,
    ) -> crate::Result<()> {
        for i in range.start..range.end.min(self.len()) {
            f(i, self.get(i))?;
        }
        Ok(())
    }
    /// Whether the trace gives its own ticks ([`Segment::tick`]): then no tick falls on
    /// the HZ grid.
    fn has_ticks(&self) -> bool {
        false
    }
    /// (total duration, count) of the running (`R`) segments.
    fn running(&self) -> (u128, u64) {
        (0..self.len()).fold((0u128, 0u64), |(ns, n), i| {
            let s = self.get(i);
            let run = u64::from(s.state == State::Run);
            (ns + u128::from(s.dur_ns * run), n + run)
        })
    }
}

impl Segments for [Segment] {
    #[inline]
    fn len(&self) -> usize {
        <[Segment]>::len(self)
    }
    fn has_ticks(&self) -> bool {
        self.iter().any(|s| s.tick)
    }
    #[inline]
    fn get(&self, i: usize) -> Segment {
        <[Segment]>::get(self, i).copied().unwrap_or(Segment {
            dur_ns: 1,
            state: State::Run,
            cpu_cap: 1024,
            freq_cap: 1024,
            cpu: 0,
            sync_lag_ns: None,
            tick: false,
        })
    }
    #[inline]
    fn each<F: FnMut(usize, Segment) -> crate::Result<()>>(
        &self,
        range: std::ops::Range<usize>,
        mut f: F,
    ) -> crate::Result<()> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        for (k, s) in self.get(start..end).unwrap_or(&[]).iter().enumerate() {
            f(start + k, *s)?;
        }
        Ok(())
    }
}

/// A trace given as columns (e.g. a DataFrame's numpy arrays), checked like
/// [`validate`] once and then read in place: `state` holds ASCII letters (`b'R'`,
/// `b'W'`, `b'S'`); `cpu_cap`/`freq_cap` may be empty for 1024.
#[derive(Debug, Clone, Copy)]
pub struct TraceColumns<'a> {
    dur_ns: &'a [i64],
    state: &'a [u8],
    cpu_cap: &'a [i64],
    freq_cap: &'a [i64],
    /// Every capacity is 1024 (found while checking).
    full: bool,
    /// The sum of the durations (found while checking).
    total_ns: u64,
    /// [`Segments::running`] (found while checking).
    running: (u128, u64),
}

impl<'a> TraceColumns<'a> {
    /// Check the columns; errors name the 0-based segment and the column.
    pub fn new(dur_ns: &'a [i64], state: &'a [u8], cpu_cap: &'a [i64], freq_cap: &'a [i64]) -> Result<Self> {
        let n = dur_ns.len();
        for (name, len) in [("state", state.len()), ("cpu_cap", cpu_cap.len()), ("freq_cap", freq_cap.len())] {
            if len != n && !(len == 0 && name != "state") {
                return Err(Error::parse_col(None, None, name, format!("{len} values for {n} durations")));
            }
        }
        if n == 0 {
            return Err(Error::parse(None, None, "the trace has no segments"));
        }
        let mut cols = TraceColumns { dur_ns, state, cpu_cap, freq_cap, full: false, total_ns: 0, running: (0, 0) };
        if let Some((full, total_ns, running)) = cols.quick_check() {
            cols.full = full;
            cols.total_ns = total_ns;
            cols.running = running;
            return Ok(cols);
        }
        // something is wrong: find the first bad row, as segment by segment
        let mut total: u64 = 0;
        let mut prev: Option<(State, u32)> = None;
        let full = SCHED_CAPACITY_SCALE as i64;
        for i in 0..n {
            let d = dur_ns.get(i).copied().unwrap_or(0);
            let st = state.get(i).copied().and_then(State::from_byte);
            let c = cpu_cap.get(i).copied().unwrap_or(full);
            let f = freq_cap.get(i).copied().unwrap_or(full);
            let seg = match st {
                Some(st) if d > 0 && (1..=full).contains(&c) && (1..=full).contains(&f) => Segment {
                    dur_ns: d as u64,
                    state: st,
                    cpu_cap: c as u32,
                    freq_cap: f as u32,
                    cpu: 0,
                    sync_lag_ns: None,
                    tick: false,
                },
                _ => return Err(column_error(i, d, state.get(i).copied(), c, f)),
            };
            if !segment_ok(&seg, prev, &mut total) {
                return Err(segment_error(i, &seg, prev, total));
            }
            prev = Some((seg.state, seg.cpu));
        }
        // (not reached: the quick check refuses only what the row checks refuse)
        cols.full = cols.cpu_cap.iter().chain(cols.freq_cap).all(|&c| c == full);
        cols.total_ns = total;
        cols.running = (0..n).fold((0u128, 0u64), |(ns, k), i| {
            let s = cols.get(i);
            let run = u64::from(s.state == State::Run);
            (ns + u128::from(s.dur_ns * run), k + run)
        });
        Ok(cols)
    }

    /// Whether every row is valid, column by column (loops the compiler vectorises):
    /// durations > 0 with a total within [`MAX_TRACE_NS`], capacities in 1..=1024,
    /// known states, the first not `S`, no `W` → `S`. Same verdict as the row checks.
    /// When valid: `Some((whether every capacity is 1024, total duration, running
    /// (duration, count)))`.
    fn quick_check(&self) -> Option<(bool, u64, (u128, u64))> {
        // Written as bit operations and sums that the compiler turns into SIMD even for
        // baseline x86-64 (SSE2 has no 64-bit compare): a value v is in 1..=2^k exactly
        // when (v - 1) has no bit at or above k.
        let full = SCHED_CAPACITY_SCALE;
        // (out-of-range bits, bits different from 1024) of a capacity column, in one pass
        let caps = |v: &[i64]| {
            v.iter().fold((0u64, 0u64), |(bad, not_full), &c| {
                (bad | ((c as u64).wrapping_sub(1) & !(full - 1)), not_full | (c as u64 ^ full))
            })
        };
        // Each duration in 1..=2^62 (checked by its bits), the total summed exactly as
        // 32-bit halves (no overflow below 2^32 segments) and compared once: with every
        // duration > 0 the running total only grows, so it stays within MAX_TRACE_NS at
        // every step exactly when it ends within it.
        if self.dur_ns.len() >= 1 << 32 {
            return None;
        }
        let (mut bad_dur, mut hi, mut lo) = (0u64, 0u64, 0u64);
        for &d in self.dur_ns {
            bad_dur |= (d as u64).wrapping_sub(1) >> 62;
            hi += d as u64 >> 32;
            lo += d as u64 & 0xffff_ffff;
        }
        let total = (u128::from(hi) << 32) + u128::from(lo);
        let durs_ok = bad_dur == 0 && total <= u128::from(MAX_TRACE_NS);
        // the running time (only used when everything is valid: then it fits)
        let (mut run_ns, mut runs) = (0u64, 0u64);
        for (&d, &b) in self.dur_ns.iter().zip(self.state) {
            let run = u64::from(b == b'R');
            run_ns = run_ns.wrapping_add(d as u64 & run.wrapping_neg());
            runs += run;
        }
        let not_letter = |b: u8| u8::from((b != b'R') & (b != b'W') & (b != b'S'));
        let states_ok = self.state.iter().fold(0u8, |bad, &b| bad | not_letter(b)) == 0;
        let w_to_s = |(&a, &b): (&u8, &u8)| u8::from((a == b'W') & (b == b'S'));
        let no_w_to_s = self.state.iter().zip(self.state.iter().skip(1)).fold(0u8, |bad, p| bad | w_to_s(p)) == 0;
        let first_ok = self.state.first().is_some_and(|&b| b != b'S');
        let ((cpu_bad, cpu_not_full), (freq_bad, freq_not_full)) = (caps(self.cpu_cap), caps(self.freq_cap));
        (durs_ok && cpu_bad == 0 && freq_bad == 0 && states_ok && no_w_to_s && first_ok).then_some((
            cpu_not_full == 0 && freq_not_full == 0,
            total as u64,
            (u128::from(run_ns), runs),
        ))
    }

    /// The same trace without its capacity columns, when every capacity is 1024.
    pub fn at_full_capacity(&self) -> Option<FullCapacityColumns<'a>> {
        self.full.then_some(FullCapacityColumns { dur_ns: self.dur_ns, state: self.state, running: self.running })
    }

    /// The sum of the durations (ns).
    pub fn total_ns(&self) -> u64 {
        self.total_ns
    }
}

impl Segments for TraceColumns<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.dur_ns.len()
    }
    fn dur_sum(&self, range: std::ops::Range<usize>) -> u64 {
        column_sum(self.dur_ns, range)
    }
    fn running(&self) -> (u128, u64) {
        self.running
    }
    #[inline]
    fn get(&self, i: usize) -> Segment {
        let full = SCHED_CAPACITY_SCALE as i64;
        Segment {
            dur_ns: self.dur_ns.get(i).copied().unwrap_or(1) as u64,
            state: self.state.get(i).copied().and_then(State::from_byte).unwrap_or(State::Run),
            cpu_cap: self.cpu_cap.get(i).copied().unwrap_or(full) as u32,
            freq_cap: self.freq_cap.get(i).copied().unwrap_or(full) as u32,
            cpu: 0,
            sync_lag_ns: None,
            tick: false,
        }
    }
}

/// [`Segments::dur_sum`] of a duration column read in place.
fn column_sum(dur_ns: &[i64], range: std::ops::Range<usize>) -> u64 {
    dur_ns.get(range).unwrap_or(&[]).iter().fold(0u64, |t, &d| t.wrapping_add(d as u64))
}

/// The durations and states of checked [`TraceColumns`] whose capacities are all 1024
/// ([`TraceColumns::at_full_capacity`]): every segment reads as 1024/1024 without
/// touching the capacity columns.
#[derive(Debug, Clone, Copy)]
pub struct FullCapacityColumns<'a> {
    dur_ns: &'a [i64],
    state: &'a [u8],
    running: (u128, u64),
}

impl Segments for FullCapacityColumns<'_> {
    #[inline]
    fn len(&self) -> usize {
        self.dur_ns.len()
    }
    fn dur_sum(&self, range: std::ops::Range<usize>) -> u64 {
        column_sum(self.dur_ns, range)
    }
    fn running(&self) -> (u128, u64) {
        self.running
    }
    #[inline]
    fn get(&self, i: usize) -> Segment {
        full_capacity_segment(self.dur_ns.get(i).copied().unwrap_or(1), self.state.get(i).copied().unwrap_or(b'R'))
    }
    #[inline]
    fn each<F: FnMut(usize, Segment) -> crate::Result<()>>(
        &self,
        range: std::ops::Range<usize>,
        mut f: F,
    ) -> crate::Result<()> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let dur = self.dur_ns.get(start..end).unwrap_or(&[]);
        let state = self.state.get(start..end).unwrap_or(&[]);
        for (k, (&d, &b)) in dur.iter().zip(state).enumerate() {
            f(start + k, full_capacity_segment(d, b))?;
        }
        Ok(())
    }
}

/// A segment of checked full-capacity columns: the letters were checked, so anything
/// but R or W is S (one table load, not a chain of compares).
#[inline(always)]
fn full_capacity_segment(dur_ns: i64, state: u8) -> Segment {
    let full = SCHED_CAPACITY_SCALE as u32;
    let state = CHECKED_STATE.get(usize::from(state)).copied().unwrap_or(State::Sleep); // (a u8 is always in 0..256)
    Segment { dur_ns: dur_ns as u64, state, cpu_cap: full, freq_cap: full, cpu: 0, sync_lag_ns: None, tick: false }
}

/// The state of each byte of a checked state column: R, W, and S for the rest.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range would not compile
static CHECKED_STATE: [State; 256] = {
    let mut t = [State::Sleep; 256];
    t[b'R' as usize] = State::Run;
    t[b'W' as usize] = State::Wait;
    t
};

/// Build a trace from columns (e.g. a DataFrame's): `state` holds ASCII letters
/// (`b'R'`, `b'W'`, `b'S'`); `cpu_cap`/`freq_cap` may be empty for 1024. The result is
/// checked like [`validate`]; errors name the 0-based segment and the column.
pub fn segments_from_columns(dur_ns: &[i64], state: &[u8], cpu_cap: &[i64], freq_cap: &[i64]) -> Result<Vec<Segment>> {
    let cols = TraceColumns::new(dur_ns, state, cpu_cap, freq_cap)?;
    Ok((0..cols.len()).map(|i| cols.get(i)).collect())
}

/// The error for row `i` of [`segments_from_columns`] whose values are out of range.
#[cold]
#[inline(never)]
fn column_error(i: usize, d: i64, code: Option<u8>, c: i64, f: i64) -> Error {
    let at = |col: &str, msg: String| Error::parse_col(None, None, col, format!("segment {i}: {msg}"));
    if d <= 0 {
        return at("dur_ns", format!("duration must be > 0 ns, got {d}"));
    }
    let code = code.unwrap_or(b'?');
    if State::from_byte(code).is_none() {
        return at(
            "state",
            format!("unknown state {:?}: expected R (running), W (runnable, preempted) or S (sleeping)", code as char),
        );
    }
    let (col, v) = if (1..=SCHED_CAPACITY_SCALE as i64).contains(&c) { ("freq_cap", f) } else { ("cpu_cap", c) };
    at(col, format!("capacity {v} is outside 1..1024"))
}

/// The task trace CSV's required columns, first in every file schedlab writes.
pub const CSV_COLUMNS: [&str; 2] = ["dur_ns", "state"];

/// Writes a trace CSV (see the module docs) a segment at a time: the directives, the
/// header (`dur_ns,state,cpu_cap,freq_cap`, and `tick` when the trace gives its ticks),
/// one row per segment. `path` names the output in errors.
pub struct TraceWriter<W: std::io::Write> {
    out: std::io::BufWriter<W>,
    ticks: bool,
    path: String,
    line: String,
}

impl<W: std::io::Write> TraceWriter<W> {
    /// Write `directives` and the header to `out`; `ticks`: the `tick` column.
    pub fn new(out: W, directives: &super::directives::Directives, ticks: bool, path: &str) -> Result<Self> {
        let mut w = TraceWriter {
            out: std::io::BufWriter::with_capacity(1 << 16, out),
            ticks,
            path: path.into(),
            line: String::new(),
        };
        let header = if ticks { "dur_ns,state,cpu_cap,freq_cap,tick\n" } else { "dur_ns,state,cpu_cap,freq_cap\n" };
        w.put(&(directives.render() + header))?;
        Ok(w)
    }

    fn put(&mut self, text: &str) -> Result<()> {
        use std::io::Write;
        self.out.write_all(text.as_bytes()).map_err(|e| Error::io(&self.path, &e))
    }

    /// One segment's row.
    pub fn segment(&mut self, s: &Segment) -> Result<()> {
        use std::fmt::Write;
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let _ = write!(line, "{},{},{},{}", s.dur_ns, s.state.letter(), s.cpu_cap, s.freq_cap);
        if self.ticks {
            line.push_str(if s.tick { ",1" } else { ",0" });
        }
        line.push('\n');
        let r = self.put(&line);
        self.line = line;
        r
    }

    /// Flush what is buffered and return the output.
    pub fn finish(self) -> Result<W> {
        let path = self.path;
        self.out.into_inner().map_err(|e| Error::io(&path, e.error()))
    }
}

/// The optional columns of a trace CSV, after [`CSV_COLUMNS`].
const OPTIONAL: [&str; 4] = ["cpu_cap", "freq_cap", "cpu", "tick"];

/// An input read through, keeping the `# pelt:` lines before the first line that is
/// neither a comment nor blank (the directives, docs/pelt.md §8.1); the CSV reader,
/// which skips comments, reads the same bytes.
struct Tap<R> {
    inner: R,
    /// The line being read while still before the header.
    line: Vec<u8>,
    line_no: usize,
    before_header: bool,
    /// (line, text after the prefix) of each directive line.
    lines: Vec<(usize, String)>,
}

/// The longest directive line kept (a longer one is not a directive).
const MAX_DIRECTIVE: usize = 4096;

impl<R: std::io::Read> std::io::Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if self.before_header {
            for &b in buf.get(..n).unwrap_or_default() {
                if b != b'\n' {
                    if self.line.len() < MAX_DIRECTIVE {
                        self.line.push(b);
                    }
                    continue;
                }
                self.line_no += 1;
                let text = String::from_utf8_lossy(&self.line);
                let t = text.trim();
                if let Some(d) = t.strip_prefix(super::directives::PREFIX) {
                    self.lines.push((self.line_no, d.to_string()));
                } else if !t.is_empty() && !t.starts_with('#') {
                    self.before_header = false;
                    break;
                }
                self.line.clear();
            }
        }
        Ok(n)
    }
}

/// A trace CSV read a row at a time (see the module docs): its directives, then each
/// segment checked against the one before as [`validate`] checks them. `path` names
/// the input in errors, which give the 1-based line and the column.
pub struct TraceReader<'p, R: std::io::Read> {
    table: csv_table::Table<'p, Tap<R>>,
    path: Option<&'p str>,
    total: u64,
    prev: Option<(State, u32)>,
    count: u64,
    /// What the file says of its replay.
    pub directives: super::directives::Directives,
}

impl<'p, R: std::io::Read> TraceReader<'p, R> {
    /// Read the directives and the header of `input`.
    pub fn open(input: R, path: Option<&'p str>) -> Result<Self> {
        let spec = csv_table::Spec { what: "trace", required: &CSV_COLUMNS, optional: &OPTIONAL };
        let tap = Tap { inner: input, line: Vec::new(), line_no: 0, before_header: true, lines: Vec::new() };
        let table = csv_table::Table::open(tap, path, &spec)?;
        let mut directives = super::directives::Directives::default();
        for (line, text) in &table.input().lines {
            directives.read_line(text, path, *line)?;
        }
        Ok(TraceReader { table, path, total: 0, prev: None, count: 0, directives })
    }

    /// Whether the file has a `tick` column: the trace gives its ticks (none falls on
    /// the HZ grid, docs/pelt.md §5.3).
    pub fn has_ticks(&self) -> bool {
        self.table.has(5)
    }

    /// The next segment, `None` after the last (an error if there was none).
    pub fn next_segment(&mut self) -> Result<Option<Segment>> {
        let path = self.path;
        let Some(row) = self.table.next_row()? else {
            if self.count == 0 {
                return Err(Error::parse(path, None, "the trace has a header but no segments"));
            }
            return Ok(None);
        };
        let get = |k: usize| row.get(k).unwrap_or("");
        let err = |col: &str, msg: String| Error::parse_col(path, Some(row.line), col, msg);
        let dur_ns = parse_duration(get(0)).map_err(|m| err("dur_ns", m))?;
        let state_s = get(1);
        let state = State::from_letter(state_s).ok_or_else(|| {
            err(
                "state",
                format!(
                    "unknown state '{}': expected R (running), W (runnable, preempted) or S (sleeping)",
                    csv_table::short(state_s)
                ),
            )
        })?;
        let cap = |k: usize, col: &str| match row.get(k) {
            Some(c) => parse_cap(c).map_err(|m| err(col, m)),
            None => Ok(SCHED_CAPACITY_SCALE as u32),
        };
        let cpu = match row.get(4) {
            Some(c) => c
                .parse::<u32>()
                .map_err(|_| err("cpu", format!("expected a CPU number (0, 1, ...), got '{}'", csv_table::short(c))))?,
            None => 0,
        };
        let tick = match row.get(5) {
            None | Some("0") => false,
            Some("1") => true,
            Some(t) => return Err(err("tick", format!("expected 0 or 1, got '{}'", csv_table::short(t)))),
        };
        let seg = Segment {
            dur_ns,
            state,
            cpu_cap: cap(2, "cpu_cap")?,
            freq_cap: cap(3, "freq_cap")?,
            cpu,
            sync_lag_ns: None,
            tick,
        };
        check_segment(&seg, self.prev, &mut self.total).map_err(|(col, msg)| err(col, msg))?;
        self.prev = Some((state, cpu));
        self.count += 1;
        Ok(Some(seg))
    }
}

/// Read a trace CSV (see the module docs) row by row from `input`. `path` names the
/// input in errors, which give the 1-based line and the column.
pub fn read_trace_csv_from<R: std::io::Read>(input: R, path: Option<&str>) -> Result<Vec<Segment>> {
    Ok(read_trace_file_from(input, path)?.0)
}

/// [`read_trace_csv_from`] with the file's directives.
pub fn read_trace_file_from<R: std::io::Read>(
    input: R,
    path: Option<&str>,
) -> Result<(Vec<Segment>, super::directives::Directives)> {
    let mut r = TraceReader::open(input, path)?;
    let mut out = Vec::new();
    while let Some(seg) = r.next_segment()? {
        out.push(seg);
    }
    Ok((out, r.directives))
}

/// Parse a trace CSV in memory (see [`read_trace_csv_from`]).
pub fn parse_trace_csv(bytes: &[u8], path: Option<&str>) -> Result<Vec<Segment>> {
    read_trace_csv_from(bytes, path)
}

/// A trace CSV given as bytes `data` (`path` naming it in errors,
/// [`parse_trace_csv`]) or, without data, the file at `path` ([`read_trace_csv`]).
pub fn trace_csv(data: Option<&[u8]>, path: &str) -> Result<Vec<Segment>> {
    match data {
        Some(d) => parse_trace_csv(d, Some(path)),
        None => read_trace_csv(std::path::Path::new(path)),
    }
}

/// Read a trace file as a stream (see [`read_trace_csv_from`]).
pub fn read_trace_csv(path: &std::path::Path) -> Result<Vec<Segment>> {
    Ok(read_trace_file(path)?.0)
}

/// The longest line of a trace CSV read as a stream: a file that is not lines of text
/// (`/dev/zero`, a binary) is refused once a line passes it, with memory bounded.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The trace CSV at `path` opened to be replayed as a stream ([`TraceReader`]): no size
/// limit (nothing of it is held), lines of at most [`MAX_LINE_BYTES`].
pub fn open_stream(path: &std::path::Path) -> Result<crate::line_cap::LineCap<crate::archive::dir::LimitedFile>> {
    let f = crate::archive::dir::open_file(path, u64::MAX)?;
    Ok(crate::line_cap::LineCap::new(f, MAX_LINE_BYTES))
}

/// [`read_trace_csv`] with the file's directives.
pub fn read_trace_file(path: &std::path::Path) -> Result<(Vec<Segment>, super::directives::Directives)> {
    let input = crate::archive::dir::open_file(path, crate::archive::tree::MAX_TRACE_FILE_BYTES)?;
    read_trace_file_from(input, Some(&path.display().to_string()))
}

fn parse_duration(s: &str) -> std::result::Result<u64, String> {
    if s.starts_with('-') {
        return Err(format!("duration must be > 0 ns, got '{}'", csv_table::short(s)));
    }
    let v: u64 = s.parse().map_err(|_| format!("expected a whole number of ns, got '{}'", csv_table::short(s)))?;
    if v == 0 {
        return Err("duration must be > 0 ns, got 0".into());
    }
    Ok(v)
}

fn parse_cap(s: &str) -> std::result::Result<u32, String> {
    let v: i64 =
        s.parse().map_err(|_| format!("expected an integer capacity 1..1024, got '{}'", csv_table::short(s)))?;
    if !(1..=SCHED_CAPACITY_SCALE as i64).contains(&v) {
        return Err(format!("capacity {v} is outside 1..1024"));
    }
    Ok(v as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_sum_as_the_segments_do() {
        // the sums found while checking the columns equal the segment-by-segment ones
        let dur: Vec<i64> = (0..1000).map(|i| 1 + (i * 7919 % 5_000_003)).collect();
        let state: Vec<u8> = (0..1000).map(|i| [b'R', b'W', b'R', b'S'][i % 4]).collect();
        let (cpu, freq): (Vec<i64>, Vec<i64>) = ((0..1000).map(|i| 1 + i % 1024).collect(), vec![1024; 1000]);
        let cols = TraceColumns::new(&dur, &state, &cpu, &freq).unwrap();
        let segs = segments_from_columns(&dur, &state, &cpu, &freq).unwrap();
        assert_eq!(cols.running(), Segments::running(segs.as_slice()));
        assert_eq!(cols.running().1, 500);
        let run_ns: i64 = dur.iter().zip(&state).filter(|(_, &s)| s == b'R').map(|(d, _)| d).sum();
        assert_eq!(cols.running().0, run_ns as u128);
        for r in [0..0, 0..1000, 17..400, 999..1000] {
            assert_eq!(cols.dur_sum(r.clone()), segs.as_slice().dur_sum(r.clone()));
            assert_eq!(cols.dur_sum(r.clone()), dur[r].iter().sum::<i64>() as u64);
        }
        assert_eq!(cols.total_ns(), dur.iter().sum::<i64>() as u64);
        assert!(cols.at_full_capacity().is_none());
    }

    #[test]
    fn parses_and_defaults() {
        let t = parse_trace_csv(b"# a trace\nstate,dur_ns,note\nR,100,x\r\n\nS,200,y", Some("t.csv")).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(
            t[1],
            Segment {
                dur_ns: 200,
                state: State::Sleep,
                cpu_cap: 1024,
                freq_cap: 1024,
                cpu: 0,
                sync_lag_ns: None,
                tick: false
            }
        );
        // a spreadsheet's export: byte-order mark, quoted header, CRLF
        let q = parse_trace_csv(b"\xef\xbb\xbf\"state\",\"dur_ns\",\"note\"\r\nR,100,x\r\nS,200,\"y, z\"\r\n", None)
            .unwrap();
        assert_eq!(q, t);
    }

    #[test]
    fn errors_say_where() {
        let e = |b: &[u8]| parse_trace_csv(b, Some("t.csv")).unwrap_err().to_string();
        let h = "dur_ns,state,cpu_cap,freq_cap\n";
        assert_eq!(
            e(format!("{h}10,R,1024,1024\n10,X,1024,1024\n").as_bytes()),
            "t.csv:3: column 'state': unknown state 'X': expected R (running), W (runnable, preempted) or S (sleeping)"
        );
        assert!(e(format!("{h}10,R,1024,1024\n10,W,1024,1024\n10,S,1024,1024\n").as_bytes())
            .starts_with("t.csv:4: column 'state': impossible transition W -> S"));
        assert!(
            e(format!("{h}0,R,1024,1024\n").as_bytes()).starts_with("t.csv:2: column 'dur_ns': duration must be > 0")
        );
        assert!(
            e(format!("{h}-5,R,1024,1024\n").as_bytes()).starts_with("t.csv:2: column 'dur_ns': duration must be > 0")
        );
        assert!(e(format!("{h}5,R,1025,1024\n").as_bytes()).starts_with("t.csv:2: column 'cpu_cap': capacity 1025"));
        assert!(e(format!("{h}5,R,1024,0\n").as_bytes()).starts_with("t.csv:2: column 'freq_cap': capacity 0"));
        assert!(e(format!("{h}5,R,1024\n").as_bytes()).starts_with("t.csv:2: column 'freq_cap': missing value"));
        assert!(e(b"dur_ns,cpu_cap\n5,1024\n").starts_with("t.csv:1: column 'state': missing column"));
        assert!(e(format!("{h}5,S,1024,1024\n").as_bytes()).contains("first segment must be R or W"));
        let mut bad = format!("{h}5,R,1024,1024\n").into_bytes();
        bad.push(0xff);
        assert!(e(&bad).starts_with("t.csv:3: not UTF-8"));
        assert!(e(b"").starts_with("t.csv: empty trace"));
        assert!(e(h.as_bytes()).starts_with("t.csv: the trace has a header but no segments"));
    }
}
