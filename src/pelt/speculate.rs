//! The util-only replay ([`super::util_only`]) on several threads, still exact.
//!
//! A replay is sequential: each event starts from the state the previous one left. It
//! is split anyway, by speculation and verification:
//! 1. The trace is cut into parts at wakeups (a boundary after an `R` → `S` switch,
//!    where the CPU has just gone idle, so the rq clock and the PELT position there
//!    follow from the wall time alone when the capacities are 1024).
//! 2. Part 0 is replayed from the fork; every other part, at the same time on its own
//!    thread, from a *guessed* state at its first boundary (util_sum = util_avg = 0,
//!    clock and PELT position as they would be without lost idle time). Each guessed run
//!    records its full state after each of its first segments.
//! 3. In order, each part is replayed again from the true state (the end of the part
//!    before it), overwriting its rows, until the true state equals the guessed run's
//!    recorded state at the same boundary. From there the two runs are identical — same
//!    state, same inputs, deterministic code — so the guessed rows stand. The difference
//!    of the two util_sums decays by half every 32 periods and integer truncation closes
//!    the rest, so they meet within a few hundred segments of a typical trace. If they
//!    do not meet within the recorded window (or the guess was wrong in another way, e.g.
//!    lost idle time at lowered capacity), the part is replayed whole from the true
//!    state: slower, never wrong.

use super::driver::Config;
use super::full_capacity::{self, FullCapCpu};
use super::row::{Event, Sink};
use super::sequence::{check_ticks, Cursor, Emit};
use super::trace::{validate, Segment, Segments, State, TraceColumns};
use super::util_model::{UtilModel, UtilRow};
use crate::error::{Error, Result};

/// Where rows of the util-only replay go when it runs in parts: each part fills its own
/// store, verified rows are overwritten in place, and the parts are joined in order.
pub trait RowStore: Sink<UtilRow> + Send + Sized {
    /// An empty store with the same selection, with room for about `rows` rows.
    fn fresh(&self, rows: usize) -> Result<Self>;
    /// Overwrite row `index` (already stored) with `row`.
    fn set(&mut self, index: usize, row: &UtilRow);
    /// Append `other`'s rows after this store's.
    fn append(&mut self, other: Self);
    /// How many rows there is room for without growing.
    fn room(&self) -> usize;
}

/// Parts shorter than this are not worth a thread.
pub const MIN_PART_SEGMENTS: usize = 50_000;
/// How many boundaries of each guessed run are recorded for the meeting check.
pub const CHECKPOINTS: usize = 16_384;

/// The sizes [`simulate_util_parallel`] works with (tests shrink them).
#[derive(Debug, Clone, Copy)]
struct Sizes {
    min_part: usize,
    checkpoints: usize,
}

const SIZES: Sizes = Sizes { min_part: MIN_PART_SEGMENTS, checkpoints: CHECKPOINTS };

impl RowStore for Vec<UtilRow> {
    fn fresh(&self, rows: usize) -> Result<Self> {
        let mut v = Vec::new();
        v.try_reserve(rows).map_err(|_| Error::domain(format!("not enough memory for {rows} rows")))?;
        Ok(v)
    }
    fn set(&mut self, index: usize, row: &UtilRow) {
        if let Some(r) = self.get_mut(index) {
            *r = *row;
        }
    }
    fn append(&mut self, mut other: Self) {
        Vec::append(self, &mut other)
    }
    fn room(&self) -> usize {
        self.capacity()
    }
}

/// A part's guessed run: its recorded states and where it ended.
struct Guess<M> {
    /// State after each of the part's first segments (at most [`CHECKPOINTS`]).
    checkpoints: Vec<(M, Cursor)>,
    /// State after the part's last segment (before `end`).
    last: (M, Cursor),
    /// Events replayed (the same count whatever the state).
    events: u64,
}

/// Sink adapter that overwrites a store's rows from index 0 on.
struct Overwrite<'a, S> {
    store: &'a mut S,
    next: usize,
}

impl<S: RowStore> Sink<UtilRow> for Overwrite<'_, S> {
    #[inline]
    fn wants(&self, event: Event) -> bool {
        self.store.wants(event)
    }
    #[inline]
    fn row(&mut self, row: &UtilRow) -> Result<()> {
        self.store.set(self.next, row);
        self.next += 1;
        Ok(())
    }
}

/// The emitter of a part: counts the events, builds a row only for those the sink wants.
struct ToSink<'a, S> {
    sink: &'a mut S,
    events: u64,
}

impl<'a, S> ToSink<'a, S> {
    fn new(sink: &'a mut S) -> Self {
        ToSink { sink, events: 0 }
    }
}

impl<M: UtilModel, S: Sink<UtilRow>> Emit<M> for ToSink<'_, S> {
    #[inline(always)]
    fn emit(&mut self, cpu: &M, t: u64, ev: Event, seg: u64, st: State) -> Result<()> {
        self.events += 1;
        if self.sink.wants(ev) {
            self.sink.row(&cpu.row(t, ev, seg, st))
        } else {
            Ok(())
        }
    }
}

/// The first boundaries of the parts after the first: near `k·n/parts`, moved forward
/// to the first wakeup that follows a run (`…, R, S | x`); parts that find none merge
/// into the one before.
fn split_points<T: Segments + ?Sized>(trace: &T, parts: usize, min_part: usize) -> Vec<usize> {
    let n = trace.len();
    let mut cuts: Vec<usize> = Vec::new();
    for k in 1..parts {
        let nominal = (k * n / parts).max(2);
        let lo = cuts.last().map_or(nominal.max(min_part), |&c| nominal.max(c + min_part));
        let hi = ((k + 1) * n / parts).min(n);
        let found = (lo..hi)
            .find(|&j| j >= 2 && trace.get(j - 1).state == State::Sleep && trace.get(j - 2).state == State::Run);
        if let Some(j) = found {
            if n - j >= min_part {
                cuts.push(j);
            }
        }
    }
    cuts
}

/// [`super::util_only::simulate_util`] on up to `threads` threads (in the calling rayon
/// pool), with the same rows in the same order. Falls back to one thread for short
/// traces, traces with lowered capacities (their lost idle time makes the guess wrong:
/// correct but slower) and `threads <= 1`.
pub fn simulate_util_parallel<S: RowStore>(
    trace: &[Segment],
    cfg: &Config,
    sink: &mut S,
    threads: usize,
) -> Result<u64> {
    validate(trace)?;
    let full_capacity = super::util_only::at_full_capacity(trace);
    parallel_with(trace, full_capacity, cfg, sink, threads, SIZES).map(|r| r.events)
}

/// [`simulate_util_parallel`] of a trace read in place from its (checked) columns.
pub fn simulate_util_columns<S: RowStore>(
    trace: &TraceColumns<'_>,
    cfg: &Config,
    sink: &mut S,
    threads: usize,
) -> Result<u64> {
    match trace.at_full_capacity() {
        // the capacity columns are not read again
        Some(full) if full_capacity::fits(trace.total_ns()) => parallel_with(&full, true, cfg, sink, threads, SIZES),
        _ => parallel_with(trace, false, cfg, sink, threads, SIZES),
    }
    .map(|r| r.events)
}

/// What a parallel replay did.
#[derive(Debug, Clone, Copy, Default)]
struct Report {
    /// Events replayed (as [`super::util_only::simulate_util`] counts them).
    events: u64,
    /// Parts run at the same time (read by the tests).
    #[cfg_attr(not(test), allow(dead_code))]
    parts: usize,
    /// Segments replayed twice (from the true state, until each guess was met).
    redone: usize,
    /// Parts whose guess was never met (replayed whole).
    unmet: usize,
}

/// The parallel replay of a checked trace; `full_capacity`: every capacity is 1024 and
/// the trace fits [`FullCapCpu`].
fn parallel_with<T: Segments + ?Sized, S: RowStore>(
    trace: &T,
    full_capacity: bool,
    cfg: &Config,
    sink: &mut S,
    threads: usize,
    sizes: Sizes,
) -> Result<Report> {
    cfg.check()?;
    // (a trace with its own ticks is replayed whole: the parts assume the HZ grid)
    let parts =
        if full_capacity && !trace.has_ticks() { threads.min(trace.len() / sizes.min_part.max(1)).max(1) } else { 1 };
    let cuts = split_points(trace, parts, sizes.min_part);
    if cuts.is_empty() {
        // (the replay checks the ticks)
        let events = super::util_only::replay_util(trace, full_capacity, cfg, sink)?;
        return Ok(Report { events, parts: 1, ..Report::default() });
    }
    check_ticks(trace, cfg.tick_ns)?;
    // (only full-capacity traces are split)
    parts_with::<FullCapCpu, T, S>(trace, &cuts, cfg, sink, sizes)
}

/// Replay the parts that start at `cuts` (and the first) with model `M`.
fn parts_with<M: UtilModel, T: Segments + ?Sized, S: RowStore>(
    trace: &T,
    cuts: &[usize],
    cfg: &Config,
    sink: &mut S,
    sizes: Sizes,
) -> Result<Report> {
    // wall time at each cut
    let mut starts = Vec::with_capacity(cuts.len());
    let (mut t, mut from) = (cfg.start_ns, 0);
    for &c in cuts {
        t = t.saturating_add(trace.dur_sum(from..c));
        starts.push(t);
        from = c;
    }
    let bounds: Vec<(usize, usize)> = std::iter::once(0)
        .chain(cuts.iter().copied())
        .zip(cuts.iter().copied().chain(std::iter::once(trace.len())))
        .collect();
    let mut stores: Vec<S> = Vec::with_capacity(cuts.len());
    let (room, n) = (sink.room() as u128, trace.len().max(1) as u128);
    for &(a, b) in bounds.iter().skip(1) {
        // the part's share of the room the sink was given
        stores.push(sink.fresh((room * (b - a) as u128 / n) as usize + 16)?);
    }
    let n_parts = bounds.len();
    let mut first: Option<Result<(M, Cursor, u64)>> = None;
    let mut guesses: Vec<Option<Result<Guess<M>>>> = (1..n_parts).map(|_| None).collect();
    rayon::scope(|scope| {
        let (a0, b0) = bounds.first().copied().unwrap_or((0, 0));
        let sink0 = &mut *sink;
        let first = &mut first;
        scope.spawn(move |_| *first = Some(replay_first(trace, a0, b0, cfg, sink0)));
        for (((store, slot), &(a, b)), &t0) in
            stores.iter_mut().zip(guesses.iter_mut()).zip(bounds.iter().skip(1)).zip(&starts)
        {
            scope.spawn(move |_| *slot = Some(replay_guess(trace, a, b, t0, cfg, store, sizes.checkpoints)));
        }
    });
    let (mut cpu, mut cur, mut events) = first.ok_or_else(|| Error::domain("part 0 did not run"))??;
    let mut report = Report { parts: n_parts, ..Report::default() };
    for ((guess, store), &(a, b)) in guesses.into_iter().zip(stores.iter_mut()).zip(bounds.iter().skip(1)) {
        let guess = guess.ok_or_else(|| Error::domain("a part did not run"))??;
        let mut over = Overwrite { store, next: 0 };
        let mut met = false;
        let mut emit = ToSink::new(&mut over); // its count: the guessed run's already
        for k in 0..b - a {
            cur.segment((a + k) as u64, &trace.get(a + k), &mut cpu, &mut emit)?;
            report.redone += 1;
            if guess.checkpoints.get(k).is_some_and(|g| g.0 == cpu && g.1 == cur) {
                met = true;
                break;
            }
        }
        if met {
            (cpu, cur) = guess.last;
        } else {
            report.unmet += 1;
        }
        events += guess.events;
    }
    // the end of the trace, from the true state
    cpu.update_rq_clock(cur.t);
    let last_store = stores.last_mut();
    let end_row = cpu.row(cur.t, Event::End, trace.len() as u64, cur.prev.unwrap_or(State::Sleep));
    if let Some(s) = last_store {
        if s.wants(Event::End) {
            s.row(&end_row)?;
        }
    }
    for s in stores {
        sink.append(s);
    }
    report.events = events + 1;
    Ok(report)
}

/// Part 0, from the fork; returns its final state and its event count.
fn replay_first<M: UtilModel, T: Segments + ?Sized, S: Sink<UtilRow>>(
    trace: &T,
    a: usize,
    b: usize,
    cfg: &Config,
    sink: &mut S,
) -> Result<(M, Cursor, u64)> {
    let mut cpu = M::new(cfg);
    let mut cur = Cursor::at(cfg.start_ns, None, cfg.tick_ns);
    cpu.fork();
    let mut emit = ToSink::new(sink);
    emit.emit(&cpu, cfg.start_ns, Event::Fork, 0, State::Sleep)?;
    trace.each(a..b, |i, seg| cur.segment(i as u64, &seg, &mut cpu, &mut emit))?;
    Ok((cpu, cur, emit.events))
}

/// A later part `[a, b)` from the guessed state at its first boundary (wall time `t0`,
/// just after `trace[a-1]`, a sleep that followed a run).
fn replay_guess<M: UtilModel, T: Segments + ?Sized, S: Sink<UtilRow>>(
    trace: &T,
    a: usize,
    b: usize,
    t0: u64,
    cfg: &Config,
    store: &mut S,
    checkpoints_max: usize,
) -> Result<Guess<M>> {
    if a == 0 || a > b || b > trace.len() {
        return Err(Error::domain("bad split"));
    }
    let sleep = trace.get(a - 1);
    let slept_at = t0.saturating_sub(sleep.dur_ns);
    let mut cpu = M::guess_after_sleep(cfg, slept_at, u64::from(sleep.cpu_cap), u64::from(sleep.freq_cap));
    let mut cur = Cursor::at(t0, Some(State::Sleep), cfg.tick_ns);
    let mut checkpoints = Vec::with_capacity(checkpoints_max.min(b - a));
    let mut emit = ToSink::new(store);
    let recorded = (a + checkpoints_max).min(b);
    trace.each(a..recorded, |i, seg| {
        cur.segment(i as u64, &seg, &mut cpu, &mut emit)?;
        checkpoints.push((cpu, cur));
        Ok(())
    })?;
    trace.each(recorded..b, |i, seg| cur.segment(i as u64, &seg, &mut cpu, &mut emit))?;
    Ok(Guess { checkpoints, last: (cpu, cur), events: emit.events })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pelt::driver::Init;
    use crate::pelt::util_only::simulate_util;

    fn trace(seed: u64, n: usize, full_capacity: bool) -> Vec<Segment> {
        let mut x = seed | 1;
        let mut out: Vec<Segment> = Vec::with_capacity(n);
        for i in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let prev = out.last().map(|s| s.state);
            let mut st = match x % 5 {
                0 | 1 => State::Run,
                2 => State::Wait,
                _ => State::Sleep,
            };
            if st == State::Sleep && (i == 0 || prev == Some(State::Wait)) {
                st = State::Run;
            }
            let dur = 1 + (x >> 20) % if x & 0x100 != 0 { 3_000_000 } else { 40_000_000 };
            let cap = if full_capacity { 1024 } else { 1 + ((x >> 40) % 1024) as u32 };
            out.push(Segment {
                dur_ns: dur,
                state: st,
                cpu_cap: cap,
                freq_cap: 1024,
                cpu: 0,
                sync_lag_ns: None,
                tick: false,
            });
        }
        out
    }

    fn check(tr: &[Segment], cfg: &Config, threads: usize, sizes: Sizes) -> Report {
        let mut one: Vec<UtilRow> = Vec::new();
        let n1 = simulate_util(tr, cfg, &mut one).expect("valid");
        let mut many: Vec<UtilRow> = Vec::new();
        let full = tr.iter().all(|s| s.cpu_cap == 1024 && s.freq_cap == 1024);
        let report =
            crate::parallel::install(Some(threads), || parallel_with(tr, full, cfg, &mut many, threads, sizes))
                .expect("pool")
                .expect("valid");
        assert_eq!(n1, report.events);
        assert_eq!(one.len(), many.len());
        assert!(one == many, "rows differ with {threads} threads, {sizes:?}");
        report
    }

    #[test]
    fn same_rows_as_one_thread() {
        for seed in 1..12u64 {
            let tr = trace(seed * 7919, 3000, true);
            for init in [Init::Kernel, Init::Zero] {
                let cfg = Config { init, ..Config::default() };
                for threads in [2, 3, 5] {
                    let r = check(&tr, &cfg, threads, Sizes { min_part: 200, checkpoints: 4096 });
                    assert_eq!(r.parts, threads);
                    assert_eq!(r.unmet, 0, "{r:?}");
                }
            }
        }
    }

    #[test]
    fn parts_that_never_meet_are_replayed_whole() {
        // one checkpoint: the guessed runs cannot be confirmed, every part is redone
        let tr = trace(42, 3000, true);
        let r = check(&tr, &Config::default(), 3, Sizes { min_part: 200, checkpoints: 1 });
        assert_eq!((r.parts, r.unmet), (3, 2), "{r:?}");
        let r = check(&tr, &Config::default(), 3, Sizes { min_part: 200, checkpoints: 0 });
        assert_eq!((r.parts, r.unmet), (3, 2), "{r:?}");
    }

    #[test]
    fn lowered_capacity_stays_on_one_thread_and_exact() {
        let tr = trace(9, 3000, false);
        let r = check(&tr, &Config::default(), 3, Sizes { min_part: 200, checkpoints: 4096 });
        assert_eq!(r.parts, 1);
    }

    #[test]
    fn guesses_meet_the_true_run_quickly() {
        // how far into a part the true run meets the guess, on the benchmark's kind of trace
        let tr = trace(3, 20_000, true);
        let cfg = Config::default();
        let cuts = split_points(tr.as_slice(), 4, 1000);
        assert_eq!(cuts.len(), 3);
        let r = check(&tr, &cfg, 4, Sizes { min_part: 1000, checkpoints: 400 });
        assert_eq!((r.parts, r.unmet), (4, 0), "{r:?}");
        assert!(r.redone < 3 * 400, "{r:?}");
        eprintln!("{r:?}");
    }
}
