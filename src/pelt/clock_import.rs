//! The import that places a task's PELT updates on its PELT clock, as the live check
//! does (docs/pelt.md §12, docs/live.md §3), when the trace has what it takes: the
//! task's `sched_stat_runtime` events (its run lengths on the task clock), the late
//! hrtimers of its CPU (the steal time the task clock loses), and `/proc/PID/sched`
//! readings written into the trace (`proc_sched:` markers: they anchor runs exactly and
//! give the exact state to start from). The update points come from
//! [`super::task_clock`] (the live check's own code); this module turns them into the
//! segments of a replay that makes the same updates: a segment boundary at every
//! point, the ticks where the kernel's `entity_tick`s were ([`Segment::tick`]), a
//! wakeup on an idle CPU on its pick's clock, times on the task's PELT clock.
//!
//! It applies at full CPU and frequency capacity only (the PELT clock is then the task
//! clock) and to a task that stays on one CPU (each CPU has its own clock).

use super::driver::{Init, StartSnapshot};
use super::proc_sched::ProcSample;
use super::task_clock::{attach_readings, timeline, Placed, Point, PointKind};
use super::task_events::{TaskEvent, Timed};
use super::trace::{Segment, State};

/// The task's trace on its PELT clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClockTrace {
    /// The segments (durations on the task's PELT clock, the ticks marked).
    pub segments: Vec<Segment>,
    /// The PELT clock at the first segment's start (ns).
    pub start_ns: u64,
    /// The exact state there, when a reading gives it.
    pub start: Option<StartSnapshot>,
    /// The reading it comes from (trace line, trace ns).
    pub start_reading: Option<(usize, u64)>,
    /// What was used, one sentence each.
    pub notes: Vec<String>,
}

/// The task's running/runnable flags between points, as the state of a segment.
fn state_after(prev: State, kind: PointKind) -> State {
    match kind {
        PointKind::Wake if prev == State::Sleep => State::Wait,
        PointKind::Wake => prev,
        PointKind::Pick | PointKind::Tick => State::Run,
        PointKind::Preempt => State::Wait,
        PointKind::Sleep => State::Sleep,
        PointKind::Seen => prev,
    }
}

/// The segments from point `p0` on (the task in `state` there), ending `tail_ns` after
/// the last point: one boundary at each point, a tick segment at each tick.
fn segments_from(points: &[Point], state: State, tail_ns: u64) -> Vec<Segment> {
    let full = 1024;
    let seg =
        |dur_ns, state, tick| Segment { dur_ns, state, cpu_cap: full, freq_cap: full, cpu: 0, sync_lag_ns: None, tick };
    let mut out: Vec<Segment> = Vec::new();
    let Some(first) = points.first() else { return out };
    let (mut st, mut from, mut tick) = (state, first.clock, false);
    let push = |out: &mut Vec<Segment>, st: State, dur: u64, tick: bool| {
        if dur == 0 {
            return;
        }
        // a preempted task cannot sleep without running: a run the trace missed, 1 ns
        if let (Some(last), State::Sleep) = (out.last_mut(), st) {
            if last.state == State::Wait {
                if last.dur_ns > 1 {
                    last.dur_ns -= 1;
                    out.push(seg(1, State::Run, false));
                } else {
                    last.state = State::Run;
                }
            }
        }
        match out.last_mut() {
            Some(last) if last.state == st && !tick => last.dur_ns += dur,
            _ => out.push(seg(dur, st, tick && st == State::Run && out.last().is_some_and(|l| l.state == State::Run))),
        }
    };
    for p in points.iter().skip(1) {
        if p.kind == PointKind::Seen {
            continue;
        }
        let next = state_after(st, p.kind);
        let dur = p.clock.saturating_sub(from);
        if next == st && !(p.kind == PointKind::Tick && st == State::Run) {
            continue;
        }
        if dur == 0 {
            // at the same clock as the boundary before: only the state changes
            st = next;
            tick = tick && next == State::Run;
            continue;
        }
        push(&mut out, st, dur, tick);
        tick = p.kind == PointKind::Tick;
        st = next;
        from = p.clock;
    }
    push(&mut out, st, tail_ns.max(1), tick);
    out
}

/// The task's trace on its PELT clock from its `events` (in time order; the
/// [`super::task_events::Detail::Full`] ones) and the `/proc/PID/sched` `readings` in
/// the trace; `end` is the trace's last event time. `None` when the task has no
/// runtime event (nothing places it on its clock).
pub fn clock_trace(events: &[Timed], readings: &[ProcSample], end: u64) -> Option<ClockTrace> {
    let runtimes = events.iter().filter(|e| matches!(e.event, TaskEvent::Runtime(_))).count();
    if runtimes == 0 {
        return None;
    }
    let mut samples: Vec<ProcSample> = readings.to_vec();
    samples.dedup_by_key(|s| s.last_update_time);
    let mut tl = timeline(events, &samples);
    let mut points = std::mem::take(&mut tl.points);
    let at = attach_readings(&mut points, &samples);
    // the start: the first reading on a point where the task is runnable
    let mut flags = State::Sleep;
    let mut states = Vec::with_capacity(points.len());
    for p in &points {
        flags = state_after(flags, p.kind);
        states.push(flags);
    }
    let start = at.iter().zip(&samples).find_map(|(a, s)| {
        let j = (*a)?;
        (states.get(j).copied()? != State::Sleep).then_some((j, *s))
    });
    let (p0, snapshot) = match start {
        Some((j, s)) => (j, Some(s)),
        None => (states.iter().position(|&s| s != State::Sleep)?, None),
    };
    let state0 = states.get(p0).copied()?;
    let rest = points.get(p0..)?;
    let last = rest.last()?;
    // the time after the last point, on the trace clock
    let tail = end.saturating_sub(last.ts.max(rest.iter().map(|p| p.ts).max().unwrap_or(0)));
    let segments = segments_from(rest, state0, tail);
    let start_ns = rest.first()?.clock;
    let lateness: u64 =
        events.iter().filter_map(|e| if let TaskEvent::TimerLate(l) = e.event { Some(l) } else { None }).sum();
    let mut notes = vec![format!(
        "placed on its PELT clock as the live check places it (docs/pelt.md §12): run lengths from {runtimes} \
         sched_stat_runtime events ({} runs, {} anchored exactly by /proc/PID/sched readings in the trace), the \
         steal time at the {} late hrtimers of its CPU ({} µs late in all), a wakeup on an idle CPU on its pick's \
         clock, the ticks where its entity_tick updates were; times are the task's PELT clock",
        tl.runs,
        tl.anchored_runs,
        events.iter().filter(|e| matches!(e.event, TaskEvent::TimerLate(l) if l > 0)).count(),
        lateness / 1000,
    )];
    if tl.repaired_runs > 0 {
        notes.push(format!(
            "{} runs had no sched_switch into the task: each starts at its first sched_stat_runtime less that runtime",
            tl.repaired_runs
        ));
    }
    if let Some(line) = tl.migrated_at_line {
        notes.push(format!("the task migrated at line {line}: the trace ends there (one CPU's PELT clock only)"));
    }
    let interpolated = rest.iter().filter(|p| p.placed == Placed::Interpolated).count();
    if snapshot.is_none() {
        notes.push(
            "no /proc/PID/sched reading in the trace falls on an update: the PELT clock's origin is not known (its \
             period boundaries fall where the replay puts them) and the start state is the caller's"
                .into(),
        );
    } else if interpolated > 0 {
        notes.push(format!("{interpolated} update points placed between anchored runs (interpolated)"));
    }
    let start = snapshot.map(|s| StartSnapshot {
        last_update_time: s.last_update_time,
        load_sum: s.load_sum,
        runnable_sum: s.runnable_sum,
        util_sum: s.util_sum as u32,
        load_avg: s.load_avg,
        runnable_avg: s.runnable_avg,
        util_avg: s.util_avg,
        util_est: s.util_est as u32,
    });
    let start_reading = snapshot.map(|s| (s.line, s.trace_ns.unwrap_or(0)));
    Some(ClockTrace { segments, start_ns, start, start_reading, notes })
}

impl ClockTrace {
    /// The start for a replay: the reading's exact state, else none (the caller's).
    pub fn init(&self) -> Option<Init> {
        self.start.map(Init::Snapshot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(clock: u64, kind: PointKind) -> Point {
        Point { clock, kind, placed: Placed::Exact, line: 0, ts: clock }
    }

    #[test]
    fn a_boundary_at_each_point_and_the_ticks_marked() {
        // run from 100, tick at 4100, preempted at 5000, picked at 6000, asleep at 7000,
        // woken at 9000 and picked on the same clock, tick at 9500
        let pts = [
            p(100, PointKind::Pick),
            p(4100, PointKind::Tick),
            p(5000, PointKind::Preempt),
            p(6000, PointKind::Pick),
            p(7000, PointKind::Sleep),
            p(9000, PointKind::Wake),
            p(9000, PointKind::Pick),
            p(9500, PointKind::Tick),
        ];
        let got: Vec<(u64, char, bool)> =
            segments_from(&pts, State::Run, 300).iter().map(|s| (s.dur_ns, s.state.letter(), s.tick)).collect();
        assert_eq!(
            got,
            vec![
                (4000, 'R', false),
                (900, 'R', true),
                (1000, 'W', false),
                (1000, 'R', false),
                (2000, 'S', false),
                (500, 'R', false),
                (300, 'R', true)
            ]
        );
        crate::pelt::trace::validate(&segments_from(&pts, State::Run, 300)).unwrap();
    }
}
