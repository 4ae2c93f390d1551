//! The kernel's PELT updates of one task placed on its PELT clock (docs/live.md §3).
//!
//! With full CPU and frequency capacity (the only case handled) the PELT clock is the
//! task clock `rq_clock_task` (steal and IRQ time removed), which no trace clock shows.
//! It is recovered from the kernel's own accounting:
//! - within a run (switch-in to switch-out) `sched_stat_runtime` gives the task clock's
//!   advance at every `update_curr` exactly, the run's start being the switch-in's
//!   `set_next_entity`;
//! - a `/proc/PID/sched` reading gives `se.exec_start` (the task clock at the last
//!   `update_curr`) and `se.sum_exec_runtime`, which names *which* `sched_stat_runtime`
//!   that was (the running sum of runtimes, less the sum before the trace): every run
//!   holding such an event is placed exactly ("anchored");
//! - everything else (wakeups, runs no reading fell in) is placed from the offset task
//!   clock − trace clock between the nearest anchored events, its fall (the steal time
//!   `update_rq_clock_task` removes) put first where the CPU's hrtimers expired late
//!   (`offset_along`), and then moved onto a reading's `last_update_time` when one lies
//!   within [`SNAP_WINDOW_NS`]; a wakeup's enqueue is never after its run's
//!   `set_next_entity` (the same clock after a wakeup on an idle CPU:
//!   `wakeup_preempt`'s `rq_clock_skip_update`).
//!
//! The update points are the kernel's calls of `update_load_avg` for the task: the
//! wakeup's enqueue, `set_next_entity` at the switch-in, `entity_tick` (the
//! `sched_stat_runtime` that follows a tick on the task's CPU), `put_prev_entity` at a
//! preemption, `dequeue_entity` at a sleep. A reading whose `last_update_time` is none of
//! them (the completion of a delayed dequeue, `DELAY_DEQUEUE`, leaves no event of the
//! task) becomes a point of its own.

use super::proc_sched::ProcSample;
use crate::pelt::ftrace::{TaskEvent, Timed};
use crate::pelt::trace::State;
use std::collections::HashMap;

/// A reading's `last_update_time` within this distance of an interpolated point is that
/// point's time.
pub const SNAP_WINDOW_NS: u64 = 200_000;

/// What the kernel did at an update point (the task's state changes after the update).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    /// `enqueue_entity` of a wakeup: runnable from now on.
    Wake,
    /// `set_next_entity`: running from now on.
    Pick,
    /// `entity_tick`.
    Tick,
    /// `put_prev_entity` of a preempted task: runnable, not running.
    Preempt,
    /// `dequeue_entity` of a sleep (after `util_est_update`): not runnable.
    Sleep,
    /// An update seen only in `/proc/PID/sched`: no change of state.
    Seen,
}

/// How a point's PELT-clock time is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placed {
    /// From the runtimes of a run anchored by a reading.
    Exact,
    /// A reading's `last_update_time`.
    Reading,
    /// Interpolated between anchors.
    Interpolated,
}

/// One `update_load_avg` of the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// PELT clock, ns.
    pub clock: u64,
    /// What happened.
    pub kind: PointKind,
    /// How `clock` is known.
    pub placed: Placed,
    /// The trace line it comes from (0 for [`PointKind::Seen`]).
    pub line: usize,
    /// The trace time of that event (ns; a [`PointKind::Seen`] point's reading time in
    /// the trace when it has one, else 0).
    pub ts: u64,
}

/// The update points, with how many readings anchored runs and how many runs there were.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// Points in PELT-clock order.
    pub points: Vec<Point>,
    /// Runs (switch-in to switch-out) seen.
    pub runs: u64,
    /// Runs placed exactly.
    pub anchored_runs: u64,
    /// Readings whose `se.sum_exec_runtime` named a `sched_stat_runtime` of the trace.
    pub anchored_readings: u64,
    /// `sum_exec_runtime` before the first `sched_stat_runtime` of the trace, ns
    /// (None when no reading matched).
    pub runtime_base: Option<u64>,
    /// Readings that disagreed with an earlier one on the same event's task clock.
    pub anchor_conflicts: u64,
    /// Events that did not fit the task's state (a switch-out while not running, a
    /// runtime while not running): skipped.
    pub unexpected: u64,
    /// Runs without a `sched_switch` into the task (started at their first
    /// `sched_stat_runtime` less its runtime).
    pub repaired_runs: u64,
    /// The task migrated: points stop at the first `sched_migrate_task`.
    pub migrated_at_line: Option<usize>,
}

/// The `sum_exec_runtime` of the task before the trace's first runtime: the value that
/// makes the most of the first readings land on a running sum of runtimes.
fn runtime_base(cum: &[u64], samples: &[ProcSample]) -> Option<u64> {
    let mut votes: HashMap<u64, u32> = HashMap::new();
    for s in samples.iter().take(32) {
        for &c in std::iter::once(&0).chain(cum) {
            if let Some(b) = s.sum_exec_runtime.checked_sub(c) {
                *votes.entry(b).or_default() += 1;
            }
        }
    }
    votes.into_iter().max_by_key(|&(b, n)| (n, std::cmp::Reverse(b))).map(|(b, _)| b)
}

/// A run of the task: the index of its switch-in event and of its runtime events.
struct Run {
    /// The switch-in event, or the first runtime event of a run whose switch-in is
    /// missing from the trace.
    switch_in: usize,
    /// The sum of runtimes before the run.
    c0: u64,
    runtimes: Vec<usize>,
    /// The runtime events that follow a tick on the run's CPU.
    ticks: Vec<usize>,
    switch_out: Option<(usize, State)>,
}

/// The offset `y - x` at `x`, linear between the nearest known offsets (constant beyond).
fn offset_at(known: &[(u64, i128)], x: u64) -> Option<i128> {
    offset_along(known, x, |_| 0)
}

/// The task clock's offset from the trace clock at `x` between the nearest known
/// offsets (constant beyond): of the drop between two of them, each late hrtimer
/// expiry (`late(t)`, the lateness summed up to trace time `t`) takes its own lateness,
/// the rest is spread evenly in time; when the lateness exceeds the drop, the drop is
/// spread in proportion to it; a rise is linear in time.
fn offset_along(known: &[(u64, i128)], x: u64, late: impl Fn(u64) -> u64) -> Option<i128> {
    let k = known.partition_point(|&(t, _)| t <= x);
    match (k.checked_sub(1).and_then(|j| known.get(j)), known.get(k)) {
        (Some(&(t0, o0)), Some(&(t1, o1))) if t1 > t0 => {
            let (span, into) = (i128::from(t1 - t0), i128::from(x - t0));
            let drop = o0 - o1;
            let total = i128::from(late(t1).saturating_sub(late(t0)));
            let upto = i128::from(late(x).saturating_sub(late(t0)));
            Some(if drop <= 0 {
                o0 + (o1 - o0) * into / span
            } else if total >= drop {
                o0 - drop * upto / total
            } else {
                o0 - ((drop - total) * into / span + upto)
            })
        }
        (Some(&(_, o)), _) | (None, Some(&(_, o))) => Some(o),
        (None, None) => None,
    }
}

fn shift(x: u64, o: i128) -> u64 {
    u64::try_from((i128::from(x) + o).max(0)).unwrap_or(u64::MAX)
}

/// The runs of the task (switch-in to switch-out), how many events did not fit, and how
/// many runs had no switch-in (started at their first runtime event). `cum` is the sum
/// of runtimes after each event.
fn runs_of(events: &[Timed], cum: &[u64]) -> (Vec<Run>, u64, u64) {
    let mut runs: Vec<Run> = Vec::new();
    let mut unexpected = 0;
    let mut repaired = 0;
    let cum_at = |i: usize| cum.get(i).copied().unwrap_or(0);
    let mut running = false;
    let mut tick_pending = false;
    let mut run_cpu = u32::MAX;
    for (i, e) in events.iter().enumerate() {
        match e.event {
            TaskEvent::SwitchIn => {
                if running {
                    unexpected += 1;
                }
                runs.push(Run {
                    switch_in: i,
                    c0: cum_at(i),
                    runtimes: Vec::new(),
                    ticks: Vec::new(),
                    switch_out: None,
                });
                running = true;
                run_cpu = e.cpu;
                tick_pending = false;
            }
            TaskEvent::Runtime(r) => {
                if !running {
                    // update_curr runs only for the current task: it was switched in
                    // without an event (exec_start = its clock less this runtime)
                    repaired += 1;
                    let c0 = cum_at(i).wrapping_sub(r);
                    runs.push(Run { switch_in: i, c0, runtimes: Vec::new(), ticks: Vec::new(), switch_out: None });
                    running = true;
                    run_cpu = e.cpu;
                }
                if let Some(run) = runs.last_mut() {
                    run.runtimes.push(i);
                    if std::mem::take(&mut tick_pending) {
                        run.ticks.push(i);
                    }
                }
            }
            TaskEvent::Tick(_) => tick_pending = running && e.cpu == run_cpu,
            TaskEvent::SwitchOut { state, .. } => {
                tick_pending = false;
                match runs.last_mut() {
                    Some(r) if running => r.switch_out = Some((i, state)),
                    _ => unexpected += 1,
                }
                running = false;
            }
            // a loss may have hidden the tick's runtime: the next runtime is not a tick's
            TaskEvent::Wakeup { .. } | TaskEvent::Migrate { .. } | TaskEvent::Lost { .. } => tick_pending = false,
            TaskEvent::TimerLate(_) | TaskEvent::Frequency(_) | TaskEvent::Pelt(_) | TaskEvent::CfsUpdate(_) => {}
        }
    }
    (runs, unexpected, repaired)
}

/// The update points of the task from its `events` and the `samples` read while it ran.
pub fn timeline(events: &[Timed], samples: &[ProcSample]) -> Timeline {
    let mut tl = Timeline::default();
    let end = events.iter().position(|e| matches!(e.event, TaskEvent::Migrate { .. })).unwrap_or(events.len());
    tl.migrated_at_line = events.get(end).map(|e| e.line);
    let events = events.get(..end).unwrap_or(events);
    // running sum of runtimes after each event; the sum before each event
    let mut cum = Vec::with_capacity(events.len());
    let mut sums = Vec::new();
    let mut total = 0u64;
    for e in events {
        if let TaskEvent::Runtime(r) = e.event {
            total = total.wrapping_add(r);
            sums.push(total);
        }
        cum.push(total);
    }
    let cum_at = |i: usize| cum.get(i).copied().unwrap_or(0);
    let (runs, unexpected, repaired) = runs_of(events, &cum);
    tl.unexpected = unexpected;
    tl.repaired_runs = repaired;
    tl.runs = runs.len() as u64;
    // trace time of each reading, from the ticks' CLOCK_MONOTONIC `now=`
    let mono: Vec<(u64, i128)> = events
        .iter()
        .filter_map(|e| match e.event {
            TaskEvent::Tick(now) if now > 0 => Some((e.ts, i128::from(now) - i128::from(e.ts))),
            _ => None,
        })
        .collect();
    let mono_to_trace = |t: u64| -> Option<u64> {
        let o = offset_at(&mono, t)?;
        // the offset is a function of trace time; one refinement from t itself suffices
        let guess = shift(t, -o);
        offset_at(&mono, guess).map(|o| shift(t, -o))
    };
    // which run each runtime event belongs to
    let mut run_of: HashMap<usize, usize> = HashMap::new();
    for (n, r) in runs.iter().enumerate() {
        for &i in &r.runtimes {
            run_of.insert(i, n);
        }
    }
    let base = runtime_base(&sums, samples);
    tl.runtime_base = base;
    let mut by_cum: HashMap<u64, usize> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        if matches!(e.event, TaskEvent::Runtime(_)) {
            by_cum.insert(cum_at(i), i);
        }
    }
    // the task clock at the start of a run, from a reading: either at one of its
    // runtime events (exec_start = that update_curr) or, read after the next switch-in
    // and before any update_curr there, at that run's start (set_next_entity). The
    // two readings after a run's last update_curr have the same sum: the smaller
    // exec_start is the run's end, the larger the next run's start. A lone such reading
    // is the next run's when it contradicts the run's start known from a reading
    // within the run, else it is told by its time (mapped from CLOCK_MONOTONIC).
    let mut start_of: HashMap<usize, u64> = HashMap::new();
    let put = |start_of: &mut HashMap<usize, u64>, n: usize, start: u64, conflicts: &mut u64| {
        if start_of.get(&n).is_some_and(|&old| old != start) {
            *conflicts += 1;
        } else {
            start_of.insert(n, start);
        }
    };
    // (run, its start if the reading is its end, exec_start, read after the next switch-in)
    let mut after_last: Vec<(usize, u64, u64, bool)> = Vec::new();
    let mut exec_starts: HashMap<usize, Vec<u64>> = HashMap::new();
    if let Some(base) = base {
        for s in samples {
            let Some(c) = s.sum_exec_runtime.checked_sub(base) else { continue };
            let Some(&i) = by_cum.get(&c) else { continue };
            let Some(&n) = run_of.get(&i) else { continue };
            let Some(r) = runs.get(n) else { continue };
            tl.anchored_readings += 1;
            let start = s.exec_start.wrapping_sub(c.wrapping_sub(r.c0));
            match runs.get(n + 1).filter(|_| r.runtimes.last() == Some(&i)) {
                None => put(&mut start_of, n, start, &mut tl.anchor_conflicts),
                Some(nr) => {
                    // read after the run's switch-out: the next run's (a reading in the
                    // trace is where it was taken; a samples file's is mapped from
                    // CLOCK_MONOTONIC, and then compared with the next switch-in)
                    let later = match s.trace_ns {
                        Some(t) => r.switch_out.and_then(|(j, _)| events.get(j)).is_some_and(|e| e.ts <= t),
                        None => mono_to_trace(s.t_mono_ns)
                            .is_some_and(|t| events.get(nr.switch_in).is_some_and(|e| e.ts <= t)),
                    };
                    after_last.push((n, start, s.exec_start, later));
                    let v = exec_starts.entry(n).or_default();
                    if !v.contains(&s.exec_start) {
                        v.push(s.exec_start);
                    }
                }
            }
        }
    }
    for (n, start, exec_start, later) in after_last {
        let seen = exec_starts.get(&n).map_or(&[][..], Vec::as_slice);
        let next = if seen.len() >= 2 {
            seen.iter().any(|&x| x < exec_start)
        } else if let Some(&known) = start_of.get(&n) {
            known != start
        } else {
            later
        };
        if next {
            put(&mut start_of, n + 1, exec_start, &mut tl.anchor_conflicts);
        } else {
            put(&mut start_of, n, start, &mut tl.anchor_conflicts);
        }
    }
    tl.anchored_runs = start_of.len() as u64;
    // task clock - trace clock at the runtime events of anchored runs
    let mut offsets: Vec<(u64, i128)> = Vec::new();
    for (n, r) in runs.iter().enumerate() {
        let Some(&s) = start_of.get(&n) else { continue };
        let c0 = r.c0;
        for &i in &r.runtimes {
            if let Some(e) = events.get(i) {
                offsets.push((e.ts, i128::from(s.wrapping_add(cum_at(i).wrapping_sub(c0))) - i128::from(e.ts)));
            }
        }
    }
    // the task clock falls behind the trace clock by the steal time, which
    // update_rq_clock_task subtracts at the CPU's next clock update: between anchors it
    // is spread in proportion to how late the CPU's hrtimers expired (a vCPU the host
    // did not run is late for its timers and is charged that time as steal)
    let task_cpu =
        events.iter().find(|e| matches!(e.event, TaskEvent::SwitchIn | TaskEvent::Runtime(_))).map(|e| e.cpu);
    let mut late_sum = 0u64;
    let late: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|e| match e.event {
            TaskEvent::TimerLate(l) if Some(e.cpu) == task_cpu => {
                late_sum = late_sum.saturating_add(l);
                Some((e.ts, late_sum))
            }
            _ => None,
        })
        .collect();
    let late_until = |t: u64| {
        let k = late.partition_point(|&(ts, _)| ts <= t);
        k.checked_sub(1).and_then(|j| late.get(j)).map_or(0, |&(_, c)| c)
    };
    // without an anchor the task clock is only known to fall behind the trace clock by
    // the steal time (from an unknown origin): each point at its time less the lateness
    // so far
    let place = |ts: u64| {
        if offsets.is_empty() {
            Some(ts.saturating_sub(late_until(ts)))
        } else {
            offset_along(&offsets, ts, late_until).map(|o| shift(ts, o))
        }
    };
    let mut points: Vec<Point> = Vec::new();
    let mut next_run = 0usize;
    let mut asleep = true;
    for (i, e) in events.iter().enumerate() {
        match e.event {
            TaskEvent::Wakeup { .. } if asleep => {
                asleep = false;
                if let Some(clock) = place(e.ts) {
                    points.push(Point {
                        clock,
                        kind: PointKind::Wake,
                        placed: Placed::Interpolated,
                        line: e.line,
                        ts: e.ts,
                    });
                }
            }
            TaskEvent::SwitchIn | TaskEvent::Runtime(_) => {
                let n = next_run;
                let Some(r) = runs.get(n).filter(|r| r.switch_in == i) else { continue };
                next_run += 1;
                let c0 = r.c0;
                let (start, placed) = match start_of.get(&n) {
                    Some(&s) => (Some(s), Placed::Exact),
                    None => {
                        let s = match r.runtimes.last().and_then(|&j| events.get(j).map(|ev| (j, ev.ts))) {
                            Some((j, ts)) => place(ts).map(|c| c.wrapping_sub(cum_at(j).wrapping_sub(c0))),
                            None => place(e.ts),
                        };
                        (s, Placed::Interpolated)
                    }
                };
                let Some(start) = start else { continue };
                let at = |j: usize| start.wrapping_add(cum_at(j).wrapping_sub(c0));
                // the wakeup's enqueue comes before this set_next_entity, on the same
                // clock when the task was woken on an idle CPU (wakeup_preempt's
                // rq_clock_skip_update: __schedule does not update the clock)
                if let Some(w) = points.last_mut().filter(|w| w.kind == PointKind::Wake && w.placed != Placed::Exact) {
                    w.clock = w.clock.min(start);
                }
                points.push(Point { clock: start, kind: PointKind::Pick, placed, line: e.line, ts: e.ts });
                for &j in &r.ticks {
                    let (line, ts) = events.get(j).map_or((0, 0), |ev| (ev.line, ev.ts));
                    points.push(Point { clock: at(j), kind: PointKind::Tick, placed, line, ts });
                }
                if let Some((j, s)) = r.switch_out {
                    let last = r.runtimes.last().map_or(start, |&k| at(k));
                    let kind = if s == State::Sleep { PointKind::Sleep } else { PointKind::Preempt };
                    asleep = s == State::Sleep;
                    let (line, ts) = events.get(j).map_or((0, 0), |ev| (ev.line, ev.ts));
                    points.push(Point { clock: last, kind, placed, line, ts });
                }
            }
            _ => {}
        }
    }
    // interpolated points keep the events' order: never before the point before them,
    // never after the next point placed exactly
    let mut floor = 0u64;
    let mut ceil_after = vec![u64::MAX; points.len() + 1];
    for j in (0..points.len()).rev() {
        let c = ceil_after.get(j + 1).copied().unwrap_or(u64::MAX);
        let here = points.get(j).map_or(c, |p| if p.placed == Placed::Exact { p.clock.min(c) } else { c });
        if let Some(slot) = ceil_after.get_mut(j) {
            *slot = here;
        }
    }
    for (j, p) in points.iter_mut().enumerate() {
        if p.placed != Placed::Exact {
            let c = ceil_after.get(j + 1).copied().unwrap_or(u64::MAX);
            p.clock = p.clock.clamp(floor, c.max(floor));
        }
        floor = floor.max(p.clock);
    }
    tl.points = points;
    tl
}

/// Put the readings onto the points: a reading whose `last_update_time` is an exact
/// point's (same 1024 ns unit) is that point; else the nearest interpolated point within
/// [`SNAP_WINDOW_NS`] moves onto it; else the reading is a point of its own
/// ([`PointKind::Seen`]). Returns, per reading, the index of its point (None before the
/// first point of the trace). `points` stay in clock order.
pub fn attach_readings(points: &mut Vec<Point>, samples: &[ProcSample]) -> Vec<Option<usize>> {
    let unit = |c: u64| c & !1023;
    for s in samples {
        let l = s.last_update_time;
        let k = points.partition_point(|p| p.clock < l);
        let near = |j: usize| points.get(j).map(|p| (j, p.clock.abs_diff(l), *p));
        let exact_hit = [k.checked_sub(1), Some(k), Some(k + 1)]
            .into_iter()
            .flatten()
            .filter_map(near)
            .any(|(_, _, p)| p.placed != Placed::Interpolated && unit(p.clock) == l);
        if exact_hit {
            continue;
        }
        let best = [k.checked_sub(1), Some(k)]
            .into_iter()
            .flatten()
            .filter_map(near)
            .filter(|&(_, d, p)| p.placed == Placed::Interpolated && d <= SNAP_WINDOW_NS)
            .min_by_key(|&(_, d, _)| d);
        let fits = |j: usize| {
            let lo = j.checked_sub(1).and_then(|i| points.get(i)).map_or(0, |p| p.clock);
            let hi = points.get(j + 1).map_or(u64::MAX, |p| p.clock);
            lo <= l && l <= hi
        };
        match best.filter(|&(j, _, _)| fits(j)) {
            Some((j, _, _)) => {
                if let Some(p) = points.get_mut(j) {
                    p.clock = l;
                    p.placed = Placed::Reading;
                }
            }
            None => {
                if points.first().is_some_and(|p| p.clock <= l) {
                    let ts = s.trace_ns.unwrap_or(0);
                    points.insert(k, Point { clock: l, kind: PointKind::Seen, placed: Placed::Reading, line: 0, ts });
                }
            }
        }
    }
    samples
        .iter()
        .map(|s| {
            let l = s.last_update_time;
            let k = points.partition_point(|p| unit(p.clock) < l);
            // the last point in that unit (several updates may share one 1024 ns unit)
            let mut j = None;
            let mut m = k;
            while let Some(p) = points.get(m) {
                if unit(p.clock) != l {
                    break;
                }
                j = Some(m);
                m += 1;
            }
            j
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drop_between_anchors_goes_first_to_late_timers() {
        // by hand: 100 ns lost between t=0 and t=1000; a timer 40 ns late at t=300 takes
        // 40, the other 60 are spread evenly: at t=200, -60*200/1000 = -12; at t=500,
        // -(60*500/1000 + 40) = -70
        let known = [(0, 0), (1000, -100)];
        let late = |t: u64| if t >= 300 { 40 } else { 0 };
        assert_eq!(offset_along(&known, 200, late), Some(-12));
        assert_eq!(offset_along(&known, 500, late), Some(-70));
        assert_eq!(offset_along(&known, 1000, late), Some(-100));
        // lateness above the drop: the drop follows the lateness alone (150 at t=300)
        let late = |t: u64| if t >= 300 { 150 } else { 0 };
        assert_eq!(offset_along(&known, 200, late), Some(0));
        assert_eq!(offset_along(&known, 500, late), Some(-100));
        // no lateness, or a rise: linear in time; beyond the anchors: constant
        assert_eq!(offset_at(&known, 250), Some(-25));
        assert_eq!(offset_along(&[(0, 0), (1000, 100)], 500, late), Some(50));
        assert_eq!(offset_at(&known, 2000), Some(-100));
    }
}
