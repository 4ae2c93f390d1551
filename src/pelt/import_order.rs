//! The importer's model of a task's event order in a trace (docs/pelt.md §5.5): one
//! state machine that every event of the trace passes through, as
//! [`super::sequence`] is the one model of the replay's order.
//!
//! The task is in one [`Phase`]: before its first runnable moment, replayed in a state
//! (R running, W runnable, S asleep), not known since events were lost, or exited.
//! [`next`] is the whole table of what the task's own events (`sched_switch`,
//! `sched_wakeup`) do in each phase; [`Importer::on`] applies it and what the other
//! events say (the CPU's capacities, a migration, a loss, a traced PELT state), and
//! hands the segments to a [`SegmentBuilder`] as the trace is read.
//!
//! An event that does not fit the task's state (a switch-out while it was not running)
//! means events are missing: the state is taken from the event, and the time between
//! is counted in the notes with the loss that explains it, if the trace flagged one
//! (docs/tracing.md §3.1).

use super::cpu_capacity::{CpuCaps, NO_CPU};
use super::segment_builder::{Caps, SegmentBuilder, SegmentSink};
use super::task_events::{PeltSample, TaskEvent, Timed};
use super::trace::State;
use crate::error::{Error, Result};
use crate::pelt::consts::SCHED_CAPACITY_SCALE;
use std::collections::HashMap;

/// Where the task stands in the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Before its first runnable moment (nothing is replayed before it); `asleep` once
    /// a switch-out put it to sleep.
    Before {
        /// Switched out asleep.
        asleep: bool,
    },
    /// Replayed: in this state since the current segment started.
    In(State),
    /// Events were lost while it was in `state` (kept in the segments) at trace time
    /// `since`, line `line`: not known until a switch says where it is.
    Unsure {
        /// The state before the loss, kept meanwhile.
        state: State,
        /// When the loss was seen (trace ns).
        since: u64,
        /// Where.
        line: usize,
    },
    /// Exited in this state: nothing after it counts.
    Exited(State),
}

/// What one of the task's own events does in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// It is in `state` from now on (`exit`: and has exited).
    To {
        /// The new state.
        state: State,
        /// The task exited (`X`/`Z`).
        exit: bool,
    },
    /// Nothing changes.
    Same,
    /// The event contradicts the phase (a switch-out while not running): events are
    /// missing; the task is in `state` from now on.
    Resync {
        /// The state the event says.
        state: State,
    },
}

/// The table: what a `sched_switch` into (`SwitchIn`) or out of (`SwitchOut`) the task,
/// or its `sched_wakeup`, does in each phase. Other events do not change the phase.
pub fn next(phase: Phase, event: TaskEvent) -> Next {
    use Phase::*;
    use State::*;
    match (phase, event) {
        (Exited(_), _) => Next::Same,
        (_, TaskEvent::SwitchIn) => Next::To { state: Run, exit: false },
        // switched out while running: preempted (W) or asleep (S)
        (In(Run) | Before { asleep: false }, TaskEvent::SwitchOut { state, exit }) => Next::To { state, exit },
        // a loss can hide anything: the switch-out says where the task is now
        (Unsure { .. }, TaskEvent::SwitchOut { state, exit }) => Next::To { state, exit },
        (In(Wait | Sleep) | Before { asleep: true }, TaskEvent::SwitchOut { state, .. }) => Next::Resync { state },
        (Before { .. } | In(Sleep) | Unsure { state: Sleep, .. }, TaskEvent::Wakeup { .. }) => {
            Next::To { state: Wait, exit: false }
        }
        // a runnable task's wakeup (ttwu of a task still on its runqueue)
        (In(Run | Wait) | Unsure { .. }, TaskEvent::Wakeup { .. }) => Next::Same,
        _ => Next::Same,
    }
}

/// The replay's start as far as the order of events says (docs/pelt.md §10).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartFacts {
    /// `sched_wakeup_new` of the task before its first runnable moment.
    pub forked: bool,
    /// Its first traced PELT state (`sched_load_se`/`sched_pelt_se` with `util`): time,
    /// line, values.
    pub first_pelt: Option<(u64, usize, PeltSample)>,
    /// The latest `sched_util_est_se` at or before it.
    pub util_est: Option<(u32, u32)>,
}

/// What the importer noticed about losses and events that did not fit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Gaps {
    /// Losses (CPU, trace ns, line, count) before the task's first runnable moment.
    pub before_start: Vec<(u32, u64, usize, Option<u64>)>,
    /// Losses while replaying: (CPU, trace ns, line, count, the task's state then).
    pub during: Vec<(u32, u64, usize, Option<u64>, State)>,
    /// Spans whose state the trace does not give: (from ns, line, to ns, line, the
    /// state kept, the state the trace then said).
    pub unknown: Vec<(u64, usize, u64, usize, State, State)>,
    /// Events that contradicted the task's state without a loss before them: count and
    /// the first (line, what it was).
    pub unflagged: u64,
    /// The first of them.
    pub first_unflagged: Option<(usize, String)>,
}

/// The state machine over one task's events (see the module documentation).
pub struct Importer<'p, S: SegmentSink> {
    pid: u32,
    path: Option<String>,
    caps: CpuCaps<'p>,
    phase: Phase,
    build: SegmentBuilder<S>,
    /// Trace time of the first segment.
    start_ns: Option<u64>,
    /// Where the current segment started.
    seg_start: u64,
    /// The capacities of the current segment.
    cur: Caps,
    /// The CPU the task is on (for its capacities).
    cpu: u32,
    /// The runqueue the replay keeps the task on: it changes only at a wakeup (a
    /// migration of a waking task, docs/pelt.md §11); the load balancer's moves of a
    /// runnable task change only the capacities.
    seg_cpu: u32,
    /// Migrations of the runnable task (capacities only).
    queued_moves: u64,
    /// Each CPU's last root cfs_rq update (its PELT events), and the lag of the old
    /// CPU's at a migrating wakeup, carried by the segment it starts.
    cfs_update: HashMap<u32, u64>,
    seg_lag: Option<u64>,
    /// The task's own events used.
    used: u64,
    /// Where an exit ended the trace.
    exit_at: Option<(u64, usize)>,
    /// What decides the replay's start.
    pub start: StartFacts,
    /// Losses and contradictions.
    pub gaps: Gaps,
}

/// The result of [`Importer::finish`].
pub struct Imported<S> {
    /// The sink with every segment.
    pub sink: S,
    /// Segments made.
    pub segments: u64,
    /// Trace time of the first segment.
    pub start_ns: u64,
    /// The task's own events used.
    pub events: u64,
    /// What decides the replay's start.
    pub start: StartFacts,
    /// Losses and contradictions.
    pub gaps: Gaps,
    /// Migrations of the runnable task replayed as capacity changes only.
    pub queued_moves: u64,
}

impl<'p, S: SegmentSink> Importer<'p, S> {
    /// An importer of `pid`'s events with the CPUs' capacities `caps`, handing its
    /// segments to `sink`; `path` names the input in errors.
    pub fn new(pid: u32, caps: CpuCaps<'p>, sink: S, path: Option<&str>) -> Self {
        let full = SCHED_CAPACITY_SCALE as u32;
        Importer {
            pid,
            path: path.map(str::to_string),
            caps,
            phase: Phase::Before { asleep: false },
            build: SegmentBuilder::new(sink),
            start_ns: None,
            seg_start: 0,
            cur: (full, full),
            cpu: NO_CPU,
            seg_cpu: 0,
            queued_moves: 0,
            cfs_update: HashMap::new(),
            seg_lag: None,
            used: 0,
            exit_at: None,
            start: StartFacts::default(),
            gaps: Gaps::default(),
        }
    }

    /// The phase the task is in.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The trace time of the first segment, once the task has been runnable.
    pub fn start_ns(&self) -> Option<u64> {
        self.start_ns
    }

    fn too_long(&self, ts: u64, line: usize, start: u64) -> Error {
        Error::parse(
            self.path.as_deref(),
            Some(line),
            format!(
                "timestamp {ts} ns is more than {} ns after the trace's start ({start} ns)",
                crate::pelt::trace::MAX_TRACE_NS
            ),
        )
    }

    /// The task's state in the segments (replayed, or kept while unknown).
    fn replayed(&self) -> Option<State> {
        match self.phase {
            Phase::In(s) | Phase::Unsure { state: s, .. } => Some(s),
            Phase::Before { .. } | Phase::Exited(_) => None,
        }
    }

    fn push(&mut self, st: State, to: u64) -> Result<()> {
        let lag = self.seg_lag.take();
        self.build.push(st, self.seg_start, to, self.cur, self.seg_cpu, lag)
    }

    /// One event, in time order. Returns false once the task has exited (nothing after
    /// counts).
    pub fn on(&mut self, e: &Timed) -> Result<bool> {
        if let Phase::Exited(_) = self.phase {
            return Ok(false);
        }
        if let Some(start) = self.start_ns {
            if e.ts - start > crate::pelt::trace::MAX_TRACE_NS {
                return Err(self.too_long(e.ts, e.line, start));
            }
        }
        match e.event {
            TaskEvent::Frequency(f) => {
                self.caps.apply(&f);
                self.placement(e, None)?;
            }
            TaskEvent::Migrate { dest } => self.placement(e, dest)?,
            TaskEvent::CfsUpdate(c) => {
                self.cfs_update.insert(c, e.ts);
            }
            TaskEvent::Pelt(p) => {
                let s = &mut self.start;
                if p.util_est.is_some() && s.first_pelt.is_none() {
                    s.util_est = p.util_est;
                }
                if p.util.is_some() && p.util_est.is_none() && s.first_pelt.is_none() {
                    s.first_pelt = Some((e.ts, e.line, p));
                }
            }
            TaskEvent::Lost { count } => self.lost(e, count),
            // what places the task on its clock: read by the clock-aware import
            TaskEvent::Runtime(_) | TaskEvent::Tick(_) | TaskEvent::TimerLate(_) => {}
            TaskEvent::SwitchIn | TaskEvent::SwitchOut { .. } | TaskEvent::Wakeup { .. } => self.task_event(e)?,
        }
        Ok(!matches!(self.phase, Phase::Exited(_)))
    }

    /// A frequency change or a migration: the task's CPU (`to`, when it names one) and
    /// its capacities; a runnable task's segment is split where they change.
    fn placement(&mut self, e: &Timed, to: Option<u32>) -> Result<()> {
        self.cpu = to.unwrap_or(self.cpu);
        if let Some(st @ (State::Run | State::Wait)) = self.replayed() {
            if matches!(e.event, TaskEvent::Migrate { .. }) {
                self.queued_moves += 1;
            }
            let now = self.caps.caps(self.cpu, e.line)?;
            if now != self.cur {
                self.push(st, e.ts)?;
                self.seg_start = e.ts;
                self.cur = now;
            }
        }
        Ok(())
    }

    /// Events were lost on `e.cpu` just before `e`: the task's state is not known until
    /// a switch says (any CPU's loss may hide the task's wakeup or migration).
    fn lost(&mut self, e: &Timed, count: Option<u64>) {
        match self.phase {
            Phase::Before { .. } => self.gaps.before_start.push((e.cpu, e.ts, e.line, count)),
            Phase::In(state) => {
                self.gaps.during.push((e.cpu, e.ts, e.line, count, state));
                self.phase = Phase::Unsure { state, since: e.ts, line: e.line };
            }
            Phase::Unsure { state, .. } => self.gaps.during.push((e.cpu, e.ts, e.line, count, state)),
            Phase::Exited(_) => {}
        }
    }

    /// `sched_switch` / `sched_wakeup` of the task.
    fn task_event(&mut self, e: &Timed) -> Result<()> {
        if let (TaskEvent::Wakeup { new: true, .. }, None) = (e.event, self.start_ns) {
            self.start.forked = true;
        }
        self.used += 1;
        let placed = match e.event {
            TaskEvent::SwitchIn => Some(e.cpu),
            TaskEvent::Wakeup { target, .. } => Some(target.unwrap_or(e.cpu)),
            _ => None,
        };
        let (new, exit) = match next(self.phase, e.event) {
            Next::Same => (self.replayed().unwrap_or(State::Sleep), false),
            Next::To { state, exit } => (state, exit),
            Next::Resync { state } => {
                self.gaps.unflagged += 1;
                if self.gaps.first_unflagged.is_none() {
                    let was = match self.phase {
                        Phase::In(State::Wait) => "runnable",
                        _ => "sleeping",
                    };
                    let what = format!("switched out while {was} (not running)");
                    self.gaps.first_unflagged = Some((e.line, what));
                }
                (state, false)
            }
        };
        if let Phase::Unsure { state, since, line } = self.phase {
            if matches!(e.event, TaskEvent::SwitchIn | TaskEvent::SwitchOut { .. }) {
                self.gaps.unknown.push((since, line, e.ts, e.line, state, new));
            }
        }
        self.cpu = placed.unwrap_or(self.cpu);
        let exited_phase = |s| if exit { Phase::Exited(s) } else { Phase::In(s) };
        match self.replayed() {
            Some(old) => {
                let still_unsure =
                    matches!(self.phase, Phase::Unsure { .. }) && matches!(e.event, TaskEvent::Wakeup { .. });
                let now = self.caps.caps(self.cpu, e.line)?;
                let mut phase = exited_phase(new);
                if old != new {
                    if old == State::Run && e.ts == self.seg_start && new == State::Sleep {
                        // switched in and out within one tick of the trace clock (µs
                        // timestamps): the run has no length, yet W -> S is no trace
                        if !self.build.run_below_resolution(self.cur)? {
                            self.start_ns = None;
                            phase = Phase::Before { asleep: true };
                        }
                    } else if old == State::Wait && new == State::Sleep {
                        // events are missing (a run between): it ran for 1 ns
                        self.push(old, e.ts)?;
                        if !self.build.run_below_resolution(self.cur)? {
                            self.start_ns = None;
                            phase = Phase::Before { asleep: true };
                        }
                    } else {
                        self.push(old, e.ts)?;
                    }
                    self.seg_start = e.ts;
                    self.cur = now;
                    // woken here: moved when that is another CPU; a sleep of no length
                    // (switched out and in at one timestamp) leaves no S segment for the
                    // move to follow, so the task stays on its runqueue and only the
                    // capacities change, as for the load balancer's moves
                    let slept = self.build.last().is_some_and(|g| g.state == State::Sleep);
                    if old == State::Sleep && slept {
                        let to = if self.cpu == NO_CPU { 0 } else { self.cpu };
                        if to != self.seg_cpu {
                            self.seg_lag = self.cfs_update.get(&self.seg_cpu).map(|&t| e.ts.saturating_sub(t));
                        }
                        self.seg_cpu = to;
                    }
                } else if new != State::Sleep && now != self.cur {
                    self.push(old, e.ts)?;
                    self.seg_start = e.ts;
                    self.cur = now;
                }
                if still_unsure {
                    if let (Phase::Unsure { since, line, .. }, Phase::In(s)) = (self.phase, phase) {
                        phase = Phase::Unsure { state: s, since, line };
                    }
                }
                self.phase = phase;
            }
            None => {
                // not started yet: start at the first runnable state
                if new != State::Sleep {
                    self.start_ns = Some(e.ts);
                    self.seg_start = e.ts;
                    self.cur = self.caps.caps(self.cpu, e.line)?;
                    self.seg_cpu = if self.cpu == NO_CPU { 0 } else { self.cpu };
                    self.phase = exited_phase(new);
                } else {
                    self.phase = if exit { Phase::Exited(new) } else { Phase::Before { asleep: true } };
                }
            }
        }
        if exit {
            self.exit_at = Some((e.ts, e.line));
        }
        Ok(())
    }

    /// The last segment, to the trace's `end` (its last event time and line) or the
    /// task's exit; the caps' notes into `notes`. An error when the task never became
    /// runnable or has no segment longer than 0 ns.
    pub fn finish(
        mut self,
        end: Option<(u64, usize)>,
        notes: &mut crate::import_notes::ImportNotes,
    ) -> Result<Imported<S>> {
        let pid = self.pid;
        let path = self.path.clone();
        let st = match self.phase {
            Phase::In(s) | Phase::Unsure { state: s, .. } => Some(s),
            Phase::Exited(s) if self.start_ns.is_some() => Some(s),
            _ => None,
        };
        let (Some(st), Some(start)) = (st, self.start_ns) else {
            return Err(Error::parse(
                path.as_deref(),
                None,
                format!("no sched_switch/sched_wakeup event makes pid {pid} runnable"),
            ));
        };
        if let Some((end, line)) = self.exit_at.or(end) {
            if end.saturating_sub(start) > crate::pelt::trace::MAX_TRACE_NS {
                return Err(self.too_long(end, line, start));
            }
            self.push(st, end)?;
        }
        if self.build.count() == 0 {
            return Err(Error::parse(path.as_deref(), None, format!("pid {pid} has no segment longer than 0 ns")));
        }
        self.caps.notes(notes);
        let segments = self.build.count();
        Ok(Imported {
            sink: self.build.finish()?,
            segments,
            start_ns: start,
            events: self.used,
            start: self.start,
            gaps: self.gaps,
            queued_moves: self.queued_moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Phase::*;
    use State::*;

    #[test]
    fn the_table() {
        let out = |s, exit| TaskEvent::SwitchOut { state: s, exit };
        let wake = TaskEvent::Wakeup { target: None, new: false };
        assert_eq!(next(In(Run), out(Wait, false)), Next::To { state: Wait, exit: false });
        assert_eq!(next(In(Wait), out(Sleep, false)), Next::Resync { state: Sleep });
        assert_eq!(next(Before { asleep: true }, out(Sleep, false)), Next::Resync { state: Sleep });
        assert_eq!(
            next(Unsure { state: Sleep, since: 0, line: 1 }, out(Sleep, true)),
            Next::To { state: Sleep, exit: true }
        );
        assert_eq!(next(In(Sleep), wake), Next::To { state: Wait, exit: false });
        assert_eq!(next(In(Run), wake), Next::Same);
        assert_eq!(next(Exited(Sleep), TaskEvent::SwitchIn), Next::Same);
        assert_eq!(next(Before { asleep: false }, TaskEvent::SwitchIn), Next::To { state: Run, exit: false });
    }
}
