//! The order of kernel events a segment trace produces on one CPU (reference
//! docs/pelt.md §5.2): fork, then at each segment boundary the wakeup (`wake_pre`,
//! `wake`), pick (`run`), preemption or sleep, the ticks of each running segment, and the
//! end. The sequencing is written once here and shared by every model that replays a
//! trace: the full scheduler state of [`super::driver`] and the task-utilization-only
//! model of [`super::util_only`], so the two cannot disagree on when things happen.

use super::row::Event;
use super::trace::{Segment, Segments, State};
use crate::error::{Error, Result};

/// What a replayed CPU does at each kernel event; the sequencer ([`replay`]) calls these
/// in the kernel's order. `now` is wall time in ns.
pub trait Model {
    /// `wake_up_new_task` at the model's start time (the CPU is idle).
    fn fork(&mut self);
    /// `try_to_wake_up` → `enqueue_task_fair` of a sleeping task.
    fn wake(&mut self, now: u64);
    /// `pick_next_task_fair` → `set_next_entity`: the task runs.
    fn pick(&mut self, now: u64);
    /// `scheduler_tick` → `entity_tick` while the task runs.
    fn tick(&mut self, now: u64);
    /// A non-CFS task preempts the running task (`put_prev_entity`).
    fn preempt(&mut self, now: u64);
    /// The running task blocks (`dequeue_task_fair` with `DEQUEUE_SLEEP`), the CPU idles.
    fn sleep(&mut self, now: u64);
    /// Another (non-CFS) task owns the CPU while the task waits, without a switch.
    fn other_runs(&mut self);
    /// `update_rq_clock` alone.
    fn update_rq_clock(&mut self, now: u64);
    /// The (cpu, freq) capacities in effect.
    fn capacities(&self) -> (u64, u64);
    /// A segment's capacities take effect (after the events at its start).
    fn set_capacities(&mut self, cpu_cap: u64, freq_cap: u64);
    /// The waking task is on `cpu` (between the `wake_pre` row and the wakeup's
    /// enqueue): a model of several runqueues moves it there when that is another CPU
    /// (`migrate_task_rq_fair`, docs/pelt.md §11). Models of one runqueue (the util-only
    /// ones) are never given a trace that migrates.
    /// `now` is the wakeup; `sync_lag_ns` how long before it the old CPU's cfs_rq was
    /// last updated, when known ([`super::trace::Segment::sync_lag_ns`]).
    fn migrate(&mut self, _cpu: u32, _now: u64, _sync_lag_ns: Option<u64>) {}
}

/// The most ticks a replay steps through (2^32: 199 days of running at HZ=250). Every
/// tick is replayed whether its row is wanted or not, so a trace with an absurd running
/// time (durations in ps instead of ns, a garbage value) would otherwise run for hours
/// or write terabytes; it is refused up front instead.
pub const MAX_TICKS: u64 = 1 << 32;

/// Refuse a trace whose running segments hold more than [`MAX_TICKS`] ticks of
/// `tick_ns` (counted as an upper bound: the total running time over the tick period,
/// plus one per running segment; no branch or division per segment).
pub fn check_ticks<T: Segments + ?Sized>(trace: &T, tick_ns: u64) -> Result<()> {
    let tick_ns = tick_ns.max(1);
    let (running_ns, segments) = trace.running();
    let ticks = u64::try_from(running_ns / u128::from(tick_ns)).unwrap_or(u64::MAX).saturating_add(segments);
    if ticks > MAX_TICKS {
        return Err(Error::domain(format!(
            "the trace runs for up to {ticks} ticks of {tick_ns} ns, more than the {MAX_TICKS} a replay steps \
             through (are the durations in ns?)"
        )));
    }
    Ok(())
}

/// The tick period of a replay whose trace gives its own ticks: none falls on a grid.
pub const NO_GRID: u64 = u64::MAX;

/// The tick period a replay of `trace` steps on: `tick_ns`, or [`NO_GRID`] when the
/// trace gives its own ticks ([`super::trace::Segment::tick`], docs/pelt.md §5.3).
pub fn grid<T: Segments + ?Sized>(trace: &T, tick_ns: u64) -> u64 {
    if trace.has_ticks() {
        NO_GRID
    } else {
        tick_ns
    }
}

/// Receives each kernel-visible event of a replay, after the model handled it:
/// `emit(model, t_ns, event, segment, state)`. Closures of that shape are emitters.
pub trait Emit<M: ?Sized> {
    /// One event.
    fn emit(&mut self, model: &M, t_ns: u64, event: Event, seg: u64, state: State) -> Result<()>;
}

impl<M: ?Sized, F: FnMut(&M, u64, Event, u64, State) -> Result<()>> Emit<M> for F {
    #[inline(always)]
    fn emit(&mut self, model: &M, t_ns: u64, event: Event, seg: u64, state: State) -> Result<()> {
        self(model, t_ns, event, seg, state)
    }
}

/// The number of the transition from `prev` (None before the first segment) to `state`:
/// `prev * 3 + state` with None as 3.
#[inline(always)]
const fn transition(prev: Option<State>, state: State) -> u8 {
    let p = match prev {
        Some(p) => p as u8,
        None => 3,
    };
    p * 3 + state as u8
}

const NONE_R: u8 = transition(None, State::Run);
const NONE_W: u8 = transition(None, State::Wait);
const NONE_S: u8 = transition(None, State::Sleep);
const R_R: u8 = transition(Some(State::Run), State::Run);
const R_W: u8 = transition(Some(State::Run), State::Wait);
const R_S: u8 = transition(Some(State::Run), State::Sleep);
const W_R: u8 = transition(Some(State::Wait), State::Run);
const W_W: u8 = transition(Some(State::Wait), State::Wait);
const S_R: u8 = transition(Some(State::Sleep), State::Run);
const S_W: u8 = transition(Some(State::Sleep), State::Wait);
const S_S: u8 = transition(Some(State::Sleep), State::Sleep);

/// Where a replay stands between two segments: the time, the state of the last
/// segment and the next tick. Together with the model's state it decides everything that
/// follows, which is what lets a replay be split at a segment boundary and checked
/// (see [`super::speculate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// Wall time (ns) of the boundary.
    pub t: u64,
    /// The state of the segment before it (None before the first).
    pub prev: Option<State>,
    /// The first tick strictly after `t` (ticks fall on multiples of the tick period).
    pub next_tick: u64,
    /// `TICK_NSEC`.
    pub tick_ns: u64,
}

impl Cursor {
    /// The boundary at `t` after a segment in state `prev`, with ticks every `tick_ns`.
    pub fn at(t: u64, prev: Option<State>, tick_ns: u64) -> Cursor {
        let tick_ns = tick_ns.max(1);
        Cursor { t, prev, next_tick: (t / tick_ns + 1).saturating_mul(tick_ns), tick_ns }
    }

    /// Replay segment number `i` (`seg`) from this boundary: the events at its start,
    /// then its ticks; moves the cursor to its end. `emit(model, t_ns, event, segment,
    /// state)` is called after each event.
    #[inline(always)]
    pub fn segment<M, E>(&mut self, i: u64, seg: &Segment, model: &mut M, emit: &mut E) -> Result<()>
    where
        M: Model,
        E: Emit<M>,
    {
        crate::cancel::check_every(i as usize)?;
        let t = self.t;
        // one jump on the transition's number (matching on the pair tested it arm by arm)
        match transition(self.prev, seg.state) {
            NONE_R | W_R => {
                model.pick(t);
                emit.emit(model, t, Event::Run, i, State::Run)?;
            }
            NONE_W | NONE_S => model.other_runs(),
            R_R if seg.tick => {
                model.tick(t);
                emit.emit(model, t, Event::Tick, i, State::Run)?;
            }
            R_R | W_W | S_S => {
                if (u64::from(seg.cpu_cap), u64::from(seg.freq_cap)) != model.capacities() {
                    model.update_rq_clock(t);
                }
            }
            R_W => {
                model.preempt(t);
                emit.emit(model, t, Event::Preempt, i, State::Wait)?;
            }
            R_S => {
                model.sleep(t);
                emit.emit(model, t, Event::Sleep, i, State::Sleep)?;
            }
            S_R | S_W => {
                let s = seg.state;
                emit.emit(model, t, Event::WakePre, i, State::Sleep)?;
                model.migrate(seg.cpu, t, seg.sync_lag_ns);
                model.wake(t);
                if s == State::Wait {
                    model.other_runs();
                }
                emit.emit(model, t, Event::Wake, i, s)?;
                if s == State::Run {
                    model.pick(t);
                    emit.emit(model, t, Event::Run, i, State::Run)?;
                }
            }
            // W -> S is refused by validate().
            _ => {
                let p = self.prev.map_or('-', State::letter);
                return Err(Error::domain(format!("segment {i}: impossible transition {p} -> {}", seg.state.letter())));
            }
        }
        model.set_capacities(u64::from(seg.cpu_cap), u64::from(seg.freq_cap));
        let end = t.wrapping_add(seg.dur_ns); // < 2^63: start_ns and the total are each < 2^62 (validate(), Config::check)
        if seg.state == State::Run {
            let mut ticks = 0usize;
            while self.next_tick <= end {
                model.tick(self.next_tick);
                emit.emit(model, self.next_tick, Event::Tick, i, State::Run)?;
                self.next_tick = self.next_tick.saturating_add(self.tick_ns);
                ticks += 1;
                crate::cancel::check_every(ticks)?; // a segment may hold millions of ticks
            }
        } else {
            // the first tick after `end`: `next_tick` already is when no tick falls in
            // the segment (it is the first after `t <= end`), so one division, no branch
            self.next_tick = (end / self.tick_ns + 1).saturating_mul(self.tick_ns);
        }
        self.t = end;
        self.prev = Some(seg.state);
        Ok(())
    }
}

/// Replay a (validated) `trace` through `model`, starting at `start_ns` with ticks on
/// multiples of `tick_ns`, calling `emit(model, t_ns, event, segment, state)` after each
/// kernel-visible event. Returns the number of events.
///
/// Choices the reference leaves open (see [`super::driver`]): a segment's capacities
/// apply after the events at its start; a tick exactly at the end of a running segment
/// happens before the boundary's events; consecutive segments in the same state only
/// change the capacities (the rq clock is updated at the boundary when they differ, so
/// each part of the time is scaled by its own capacities); no tick while W or S.
#[inline]
pub fn replay<T, M, E>(trace: &T, start_ns: u64, tick_ns: u64, model: &mut M, emit: E) -> Result<u64>
where
    T: Segments + ?Sized,
    M: Model,
    E: Emit<M>,
{
    let tick_ns = grid(trace, tick_ns);
    check_ticks(trace, tick_ns)?;
    let mut ev = Counted { emit, n: 0 };
    let mut cur = Cursor::at(start_ns, None, tick_ns);
    model.fork();
    ev.emit(model, start_ns, Event::Fork, 0, State::Sleep)?;
    trace.each(0..trace.len(), |i, seg| cur.segment(i as u64, &seg, model, &mut ev))?;
    model.update_rq_clock(cur.t);
    ev.emit(model, cur.t, Event::End, trace.len() as u64, cur.prev.unwrap_or(State::Sleep))?;
    Ok(ev.n)
}

/// [`replay`] of a trace read a segment at a time: `next` gives each segment (checked
/// against the one before, as [`super::trace::validate`] does) and `Ok(None)` after the
/// last; `first` is the first, read ahead (the model is forked on its CPU). The same
/// events in the same order; the tick limit ([`MAX_TICKS`]) is checked as the running
/// time adds up, before a segment that would pass it is replayed. `tick_ns` is
/// [`NO_GRID`] when the trace gives its ticks.
pub fn replay_stream<M, E>(
    first: Segment,
    mut next: impl FnMut() -> Result<Option<Segment>>,
    start_ns: u64,
    tick_ns: u64,
    model: &mut M,
    emit: E,
) -> Result<u64>
where
    M: Model,
    E: Emit<M>,
{
    let mut ev = Counted { emit, n: 0 };
    let mut cur = Cursor::at(start_ns, None, tick_ns);
    let bound = tick_ns.max(1);
    let (mut running, mut runs) = (0u128, 0u64);
    model.fork();
    ev.emit(model, start_ns, Event::Fork, 0, State::Sleep)?;
    let mut i = 0u64;
    let mut seg = Some(first);
    while let Some(s) = seg {
        if s.state == State::Run {
            running += u128::from(s.dur_ns);
            runs += 1;
            let ticks = u64::try_from(running / u128::from(bound)).unwrap_or(u64::MAX).saturating_add(runs);
            if ticks > MAX_TICKS {
                return Err(Error::domain(format!(
                    "the trace runs for up to {ticks} ticks of {bound} ns, more than the {MAX_TICKS} a replay steps \
                     through (are the durations in ns?)"
                )));
            }
        }
        cur.segment(i, &s, model, &mut ev)?;
        i += 1;
        seg = next()?;
    }
    model.update_rq_clock(cur.t);
    ev.emit(model, cur.t, Event::End, i, cur.prev.unwrap_or(State::Sleep))?;
    Ok(ev.n)
}

/// An emitter that counts the events it passes on.
struct Counted<E> {
    emit: E,
    n: u64,
}

impl<M: ?Sized, E: Emit<M>> Emit<M> for Counted<E> {
    #[inline(always)]
    fn emit(&mut self, model: &M, t_ns: u64, event: Event, seg: u64, state: State) -> Result<()> {
        self.n += 1;
        self.emit.emit(model, t_ns, event, seg, state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ns: u64) -> Segment {
        Segment { dur_ns: ns, state: State::Run, cpu_cap: 1024, freq_cap: 1024, cpu: 0, sync_lag_ns: None, tick: false }
    }

    #[test]
    fn ticks_are_bounded() {
        let tick = 4_000_000;
        // (2^32 - 1) * 4 ms of running plus one segment: 2^32 ticks, the most allowed
        let ok = [run((MAX_TICKS - 1) * tick)];
        assert!(check_ticks(ok.as_slice(), tick).is_ok());
        let too_many = [run(MAX_TICKS * tick)];
        let e = check_ticks(too_many.as_slice(), tick).expect_err("refused");
        assert!(e.to_string().contains("4294967297 ticks"), "{e}");
        // sleeping time does not count
        let asleep = [
            run(1),
            Segment {
                dur_ns: u64::MAX / 4,
                state: State::Sleep,
                cpu_cap: 1024,
                freq_cap: 1024,
                cpu: 0,
                sync_lag_ns: None,
                tick: false,
            },
        ];
        assert!(check_ticks(asleep.as_slice(), tick).is_ok());
    }
}
