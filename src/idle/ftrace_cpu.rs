//! The idle importer's model of one CPU's event order in a trace (docs/tracing.md §2):
//! one state machine that every event of the CPU passes through, as
//! `pelt::import_order` is the PELT importer's.
//!
//! The CPU is in one [`Phase`]: busy (no idle period open), idle (a period opened by its
//! `cpu_idle` entry, closed by the next entry or the end of the trace once its exit is
//! seen), or not known since its ring buffer lost events. [`CpuModel::on`] has one arm per
//! event kind: the `cpu_idle` entry and exit, the hrtimer events that give the pending
//! timers and the tick, `tick_stop`, and a loss. A new event kind is one arm here and
//! one decoding in `ftrace.rs`.
//!
//! A loss (the trace's own mark: trace.dat's missed-events flags, text `[LOST N EVENTS]`
//! or trace-cmd's `[N EVENTS DROPPED]`, read by the trace engine) drops the period open
//! on that CPU rather than inventing its end or its wakeup, forgets the pending timers
//! and the tick (the lost events may have started, cancelled or fired any of them), and
//! is named in the notes. The next `cpu_idle` entry resynchronises: the CPU is entering
//! idle then, whatever was lost.
//!
//! A closed period is handed on as soon as it is complete ([`CpuModel::take_ready`]), in
//! the CPU's order, so that the trace streams (docs/tracing.md §2.1). The one value that
//! needs a later event is the sleep length of a period no pending timer bounds: the next
//! non-tick hrtimer expiry after its wakeup. Such a period waits in a bounded look-ahead
//! queue ([`MAX_LOOKAHEAD_PERIODS`], the periods after it waiting behind it) until that
//! expiry is seen, the trace ends, or the queue is full.

use super::ftrace::{FtraceStats, UNKNOWN_SLEEP_LENGTH_NS};
use super::trace::{IdlePeriod, Tick};
use crate::int_map::IntMap;
use std::collections::VecDeque;

/// An `hrtimer_expire_entry` within this distance of the idle exit means a timer wakeup.
pub const TIMER_WAKEUP_WINDOW_NS: i64 = 50_000;
/// hrtimers due further away than this are ignored.
const MAX_TIMER_HORIZON_NS: i64 = 100_000_000_000;
/// The most periods of one CPU held back while the first of them waits for the next
/// non-tick timer expiry (docs/tracing.md §2.1); when the queue is full, the first is
/// given the sleep length of the expiries seen so far (or the 1 s fallback).
pub const MAX_LOOKAHEAD_PERIODS: usize = 4096;
/// How many of a CPU's latest non-tick timer expiries are kept for the periods that
/// end after them but are closed later (by the next entry).
const RECENT_EXPIRIES: usize = 64;

/// One closed idle period of a CPU with what the import adds to its trace row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// The trace row.
    pub period: IdlePeriod,
    /// Trace timestamp of the idle entry, ns.
    pub timestamp_ns: i64,
    /// The state the traced kernel's governor chose.
    pub actual_state: u32,
    /// The tick was stopped on this entry (see [`super::ftrace::CpuTrace::actual_stop_tick`]).
    pub actual_stop_tick: bool,
    /// A pending timer gave the sleep length.
    pub sleep_length_known: bool,
}

/// A closed period in the look-ahead queue; `wait` while it needs the next non-tick
/// expiry after its wakeup.
#[derive(Debug, Clone, Copy)]
struct Queued {
    row: Row,
    wait: Option<LookAhead>,
}

/// What a period without a known timer needs from later events.
#[derive(Debug, Clone, Copy)]
struct LookAhead {
    t0_mono: i64,
    t1_mono: i64,
    /// The idle duration (the sleep length's floor).
    d: i64,
    /// The earliest non-tick expiry after `t1_mono` seen so far.
    best: Option<i64>,
}

impl LookAhead {
    fn offer(&mut self, x: i64) {
        if x > self.t1_mono {
            self.best = Some(self.best.map_or(x, |b| b.min(x)));
        }
    }

    fn sleep(&self) -> i64 {
        self.best.map_or(UNKNOWN_SLEEP_LENGTH_NS, |x| x - self.t0_mono).max(self.d)
    }
}

/// What one event says (the idle importer's events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `cpu_idle state=N`: the CPU enters state N.
    IdleEnter(u32),
    /// `cpu_idle state=4294967295`: the CPU leaves idle.
    IdleExit,
    /// `hrtimer_start`: `id` due at `expires` (CLOCK_MONOTONIC ns); `tick`: the tick's timer.
    TimerStart {
        /// The timer's address (or its function's hash, `(ptrval)`).
        id: u64,
        /// When it is due, ns.
        expires: i64,
        /// It is the tick's timer.
        tick: bool,
    },
    /// `hrtimer_cancel`.
    TimerCancel {
        /// The timer.
        id: u64,
    },
    /// `hrtimer_expire_entry` at CLOCK_MONOTONIC `now`.
    TimerExpire {
        /// The timer.
        id: u64,
        /// CLOCK_MONOTONIC when it ran, ns.
        now: i64,
        /// It is the tick's timer.
        tick: bool,
    },
    /// `tick_stop`.
    TickStop {
        /// `success=1`.
        success: bool,
    },
    /// The CPU's ring buffer lost events before the event at this time.
    Lost {
        /// How many, when the trace says.
        count: Option<u64>,
        /// The line (text) or record (trace.dat) of the event after the loss.
        line: usize,
    },
}

/// One event of a CPU, in time order.
#[derive(Debug, Clone, Copy)]
pub struct Event {
    /// The CPU it concerns (`cpu_id` for `cpu_idle`, the recording CPU otherwise).
    pub cpu: u32,
    /// Trace clock, ns.
    pub ts: i64,
    /// What it says.
    pub kind: Kind,
}

/// A loss as the importer met it, for the notes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LossSeen {
    /// The time of the first event after it (trace clock, ns).
    pub ts: i64,
    /// Its line or record.
    pub line: usize,
    /// How many events, when known.
    pub count: Option<u64>,
    /// An idle period was open then, and was dropped.
    pub dropped_period: bool,
}

/// Where the CPU stands.
#[derive(Debug, Clone, Copy, Default)]
enum Phase {
    /// No idle period open.
    #[default]
    Busy,
    /// An idle period is open (its exit may have been seen).
    Idle(Open),
    /// Events were lost: not known until the next `cpu_idle` entry.
    Lost,
}

/// An open idle period.
#[derive(Debug, Clone, Copy)]
struct Open {
    t0: i64,
    t0_mono: i64,
    state: u32,
    tick_stopped: bool,
    stopped_here: bool,
    next_tick: Option<i64>,
    sleep: Option<i64>,
    t1_mono: Option<i64>,
    /// (expire time mono, tick, the timer's known expiry)
    woke_by: Option<(i64, bool, Option<i64>)>,
}

/// What every CPU shares while the events are replayed: the trace clock's offset from
/// CLOCK_MONOTONIC (seen in the latest `hrtimer_expire_entry`) and the tick period.
#[derive(Debug, Clone, Copy)]
pub struct Shared {
    /// Trace clock − CLOCK_MONOTONIC, ns.
    pub offset: i64,
    /// The traced kernel's tick.
    pub tick: Tick,
}

/// One CPU's state machine and the rows it closes.
#[derive(Debug, Default)]
pub struct CpuModel {
    pending: IntMap<u64, (i64, bool)>,
    tick_expiry: Option<i64>,
    tick_stopped: bool,
    stop_since_exit: bool,
    phase: Phase,
    /// The CLOCK_MONOTONIC time of the CPU's last event seen.
    last_mono: Option<i64>,
    /// Closed periods not yet handed on (the look-ahead queue).
    queue: VecDeque<Queued>,
    /// The latest non-tick timer expiries (CLOCK_MONOTONIC), oldest first.
    recent: VecDeque<i64>,
    /// How each value was obtained.
    pub stats: FtraceStats,
    /// The losses met, in order.
    pub losses: Vec<LossSeen>,
}

/// The first of `x`, `x + period`, `x + 2·period`, ... after `t`: a periodic tick's
/// next expiry, computed (a loop of `x += period` ran for hours when a trace put an
/// expiry far behind its clock; found by fuzzing). Saturates at the i64 range.
pub fn first_after(x: i64, t: i64, period: i64) -> i64 {
    if x > t || period <= 0 {
        return x;
    }
    // in 64 bits when nothing overflows (a tick a few periods behind: every idle entry
    // with the tick stopped), else in 128
    if let Some(next) =
        t.checked_sub(x).and_then(|gap| (gap / period + 1).checked_mul(period)).and_then(|s| x.checked_add(s))
    {
        return next;
    }
    let k = (i128::from(t) - i128::from(x)) / i128::from(period) + 1;
    let next = i128::from(x) + k * i128::from(period);
    i64::try_from(next).unwrap_or(i64::MAX)
}

impl CpuModel {
    /// A CPU's model with no event seen.
    pub fn new() -> Self {
        CpuModel::default()
    }

    /// The closed periods whose every value is known, in order (the look-ahead queue's
    /// front); `end`: the trace has ended, every queued period is decided.
    #[inline]
    pub fn take_ready(&mut self, end: bool, mut f: impl FnMut(&Row) -> crate::Result<()>) -> crate::Result<()> {
        while let Some(q) = self.queue.front() {
            let full = self.queue.len() > MAX_LOOKAHEAD_PERIODS;
            match q.wait {
                None => f(&q.row)?,
                Some(w) if end || full || w.best.is_some_and(|b| self.last_mono.is_some_and(|t| b <= t)) => {
                    f(&Row { period: IdlePeriod { sleep_length_ns: w.sleep(), ..q.row.period }, ..q.row })?;
                }
                Some(_) => return Ok(()),
            }
            self.queue.pop_front();
        }
        Ok(())
    }

    /// Apply event `e` of this CPU.
    pub fn on(&mut self, e: &Event, shared: &mut Shared) {
        let tick = shared.tick;
        match e.kind {
            Kind::TimerExpire { id, now, tick: is_tick } => {
                shared.offset = e.ts - now;
                if !is_tick {
                    // the next non-tick expiry after the wakeup of the periods waiting for one
                    for w in self.queue.iter_mut().filter_map(|q| q.wait.as_mut()) {
                        w.offer(now);
                    }
                    if self.recent.len() == RECENT_EXPIRIES {
                        self.recent.pop_front();
                    }
                    self.recent.push_back(now);
                }
                let known = self.pending.remove(&id).map(|(exp, _)| exp);
                if is_tick {
                    // The tick re-arms itself one period later without an event.
                    self.tick_expiry = Some(first_after(known.or(self.tick_expiry).unwrap_or(now), now, tick.nsec));
                }
                if let Phase::Idle(o) = &mut self.phase {
                    let near = |t1: i64| (now - t1).abs() <= TIMER_WAKEUP_WINDOW_NS;
                    let inside = now >= o.t0_mono && o.t1_mono.is_none_or(near);
                    if inside && o.woke_by.is_none() && o.t1_mono.is_some_and(near) {
                        o.woke_by = Some((now, is_tick, known));
                    } else if inside && o.t1_mono.is_none() {
                        // an IRQ-enabled state: the timer runs before the exit event
                        o.woke_by = Some((now, is_tick, known));
                    }
                }
            }
            Kind::TimerStart { id, expires, tick: is_tick } => {
                let now = e.ts - shared.offset;
                if is_tick {
                    self.tick_expiry = Some(expires);
                    if self.tick_stopped && !self.stop_since_exit && expires - now <= tick.nsec {
                        self.tick_stopped = false;
                    }
                    self.pending.insert(id, (expires, true));
                } else if expires - now <= MAX_TIMER_HORIZON_NS {
                    self.pending.insert(id, (expires, false));
                } else {
                    self.pending.remove(&id);
                }
            }
            Kind::TimerCancel { id } => {
                if let Some((_, true)) = self.pending.remove(&id) {
                    self.tick_expiry = None;
                }
            }
            Kind::TickStop { success } => {
                if success {
                    self.tick_stopped = true;
                    self.stop_since_exit = true;
                }
            }
            Kind::IdleEnter(state) => {
                self.finish(tick);
                self.enter(e.ts, e.ts - shared.offset, state, tick);
            }
            Kind::IdleExit => {
                self.stop_since_exit = false;
                match &mut self.phase {
                    Phase::Idle(o) => {
                        if o.t1_mono.is_none() {
                            let t1 = e.ts - shared.offset;
                            o.t1_mono = Some(t1);
                            // a timer that fired too early to be this wakeup
                            if let Some((w, _, _)) = o.woke_by {
                                if (w - t1).abs() > TIMER_WAKEUP_WINDOW_NS {
                                    o.woke_by = None;
                                }
                            }
                        }
                    }
                    // the exit of a period whose entry was lost: busy from now on
                    Phase::Lost => self.phase = Phase::Busy,
                    Phase::Busy => {}
                }
            }
            Kind::Lost { count, line } => {
                // The lost events came after this CPU's last event seen: they fall inside
                // the open period unless its exit was seen and its wakeup is decided (a
                // timer expired with it, or the last event seen is past the window in
                // which a timer's expiry would have made it a timer wakeup).
                let spans = match &self.phase {
                    Phase::Idle(o) => match o.t1_mono {
                        None => true,
                        Some(t1) => {
                            o.woke_by.is_none() && self.last_mono.is_none_or(|t| t <= t1 + TIMER_WAKEUP_WINDOW_NS)
                        }
                    },
                    Phase::Busy | Phase::Lost => false,
                };
                if spans {
                    self.stats.lost_periods += 1;
                    self.phase = Phase::Lost;
                } else {
                    self.finish(tick);
                }
                let dropped_period = spans;
                self.losses.push(LossSeen { ts: e.ts, line, count, dropped_period });
                // the lost events may have started, cancelled or fired any timer, and
                // stopped or restarted the tick: known again when seen again
                self.pending.clear();
                self.tick_expiry = None;
                self.tick_stopped = false;
                self.stop_since_exit = false;
                self.phase = Phase::Lost;
                return;
            }
        }
        self.last_mono = Some(e.ts - shared.offset);
    }

    /// The CPU enters idle state `state` at `t0` (trace clock; `t0_mono` on
    /// CLOCK_MONOTONIC): a period opens with what is known of the timers and the tick.
    fn enter(&mut self, t0: i64, t0_mono: i64, state: u32, tick: Tick) {
        let next_tick = self.tick_expiry.map(|x| first_after(x, t0_mono, tick.nsec).saturating_sub(t0_mono));
        let tick_stopped_now = self.tick_stopped;
        let mut sleep = self.pending.values().filter(|(_, t)| !t).map(|(x, _)| x - t0_mono).filter(|&d| d > 0).min();
        if tick_stopped_now {
            if let Some((x, _)) = self.pending.values().find(|(_, t)| *t) {
                let d = x - t0_mono;
                if d > 0 {
                    sleep = Some(sleep.map_or(d, |s| s.min(d)));
                }
            }
        }
        self.phase = Phase::Idle(Open {
            t0,
            t0_mono,
            state,
            tick_stopped: tick_stopped_now && !self.stop_since_exit,
            stopped_here: self.stop_since_exit,
            next_tick,
            sleep,
            t1_mono: None,
            woke_by: None,
        });
    }

    /// Close the open period into a trace row (dropped, and counted, without its exit);
    /// the row is queued until its values are known ([`CpuModel::take_ready`]).
    pub fn finish(&mut self, tick: Tick) {
        let Phase::Idle(o) = std::mem::take(&mut self.phase) else { return };
        let Some(t1) = o.t1_mono else {
            self.stats.unterminated += 1;
            return;
        };
        let d = (t1 - o.t0_mono).max(0);
        let stats = &mut self.stats;
        let next_tick = o.next_tick.unwrap_or_else(|| {
            stats.next_tick_unknown += 1;
            tick.nsec
        });
        let mut sleep = o.sleep;
        let wake;
        match o.woke_by {
            Some((now, is_tick, known)) => {
                stats.timer_wakeups += 1;
                if is_tick {
                    stats.tick_wakeups += 1;
                } else {
                    let due = known.unwrap_or(now) - o.t0_mono;
                    sleep = Some(sleep.map_or(due, |s| s.min(due)));
                }
                wake = -1;
            }
            None => wake = d,
        }
        let known = sleep.is_some();
        let mut wait = None;
        let sleep = match sleep {
            // A timer wakeup ends at the timer (the exit is traced after the exit latency);
            // a non-timer wakeup cannot come after a timer that did not fire.
            Some(s) if wake < 0 => s.max(0),
            Some(s) => s.max(d),
            None => {
                // the next non-tick expiry after the wakeup: among those already seen
                // (the period is closed at the next entry), then those to come
                stats.sleep_length_unknown += 1;
                let mut w = LookAhead { t0_mono: o.t0_mono, t1_mono: t1, d, best: None };
                for &x in &self.recent {
                    w.offer(x);
                }
                wait = Some(w);
                UNKNOWN_SLEEP_LENGTH_NS
            }
        };
        let period = IdlePeriod {
            sleep_length_ns: sleep,
            next_tick_ns: next_tick,
            wake_ns: wake,
            tick_stopped: o.tick_stopped,
            latency_req_ns: -1,
            nr_iowait: 0,
            cpu_load: 0,
        };
        let row = Row {
            period,
            timestamp_ns: o.t0,
            actual_state: o.state,
            actual_stop_tick: o.stopped_here,
            sleep_length_known: known,
        };
        self.queue.push_back(Queued { row, wait });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_after_by_hand() {
        // 4 ms ticks from 10: 10, 14, 18, 22 -> the first after 18 is 22
        assert_eq!(first_after(10, 18, 4), 22);
        assert_eq!(first_after(10, 17, 4), 18);
        assert_eq!(first_after(25, 18, 4), 25);
        // an expiry 10^18 ns behind the clock: one division, not 2.5·10^14 steps
        assert_eq!(first_after(-1_000_000_000_000_000_000, 0, 4_000_000), 4_000_000);
        assert_eq!(first_after(i64::MIN, i64::MAX, 3), i64::MAX);
    }
}
