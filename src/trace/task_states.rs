//! The time each task spends in each state as LISA's tasks analysis counts it
//! (`lisa/analysis/tasks.py`, `df_tasks_states`), so that a trace's task states can be
//! checked against LISA's own reckoning (docs/trace-compare.md §3.2).
//!
//! LISA turns, per pid, every `sched_wakeup` of it into the state `W` (`TASK_WAKING`,
//! 512), every `sched_switch` to it into `A` (its own `TASK_ACTIVE`, 8192) and every
//! `sched_switch` from it into its `prev_state` (the kernel's number); each such update
//! lasts until the pid's next update, on any CPU (pid 0 is every CPU's idle task at
//! once), and the last has no length. Per (pid, task name of the event, state) this
//! sums the lengths and counts the updates. LISA moves the second and later of updates
//! at one timestamp later by the smallest float step each; at the trace's last timestamp
//! that puts them past its window, which drops them: so are they here.

use super::event::{Comm, Kind, WakeKind};
use super::inputs::TraceInput;
use super::source::{read_bytes, read_path, Item};
use crate::error::Result;
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::int_map::IntMap;
use std::collections::BTreeMap;

/// LISA's `TaskState.TASK_WAKING`.
pub const WAKING: u64 = 0x200;
/// LISA's `TaskState.TASK_ACTIVE` (running).
pub const ACTIVE: u64 = 0x2000;

/// One (pid, name, state) of the table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct StateTime {
    /// The pid.
    pub pid: i32,
    /// The task's name in the events of this state.
    pub comm: String,
    /// The state: a `prev_state` number, [`WAKING`] or [`ACTIVE`].
    pub state: u64,
    /// Σ of the updates' lengths, ns (None when every update of it was a pid's last).
    pub time_ns: Option<u64>,
    /// Updates into the state.
    pub count: u64,
}

/// The accumulator: feed events in time order, then [`TaskStates::rows`].
#[derive(Default)]
pub struct TaskStates {
    /// Per pid: its last update (time, name, state).
    last: IntMap<i32, (u64, Comm, u64)>,
    sums: BTreeMap<(i32, String, u64), (Option<u64>, u64)>,
    /// The updates at the latest timestamp, applied when a later one comes.
    pending: Vec<(i32, u64, Comm, u64)>,
}

impl TaskStates {
    fn update(&mut self, pid: i32, ts: u64, comm: Comm, state: u64) {
        if self.pending.first().is_some_and(|p| p.1 != ts) {
            for (pid, ts, comm, state) in std::mem::take(&mut self.pending) {
                self.apply(pid, ts, comm, state);
            }
        }
        self.pending.push((pid, ts, comm, state));
    }

    fn apply(&mut self, pid: i32, ts: u64, comm: Comm, state: u64) {
        if let Some((t0, c0, s0)) = self.last.insert(pid, (ts, comm, state)) {
            let e = self.sums.entry((pid, c0.to_text(), s0)).or_insert((None, 0));
            e.0 = Some(e.0.unwrap_or(0) + ts.saturating_sub(t0));
        }
        self.sums.entry((pid, comm.to_text(), state)).or_insert((None, 0)).1 += 1;
    }

    /// Take one event; `wakeup_new` says whether `sched_wakeup_new` counts as a wakeup
    /// (LISA reads it when the trace was parsed with it).
    pub fn event(&mut self, ts: u64, kind: &Kind, wakeup_new: bool) {
        match *kind {
            Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } => {
                let raw = prev_state.raw.unwrap_or_else(|| lisa_number(&prev_state));
                self.update(prev_pid, ts, prev_comm, raw);
                self.update(next_pid, ts, next_comm, ACTIVE);
            }
            Kind::Wakeup { pid, comm, kind, .. }
                if kind == WakeKind::Wakeup || (wakeup_new && kind == WakeKind::New) =>
            {
                self.update(pid, ts, comm, WAKING);
            }
            _ => {}
        }
    }

    /// The table, by pid, name and state (of the updates at the last timestamp only the
    /// first, as LISA keeps them).
    pub fn rows(mut self) -> Vec<StateTime> {
        if let Some((pid, ts, comm, state)) = self.pending.first().copied() {
            self.apply(pid, ts, comm, state);
        }
        self.sums
            .into_iter()
            .map(|((pid, comm, state), (time_ns, count))| StateTime { pid, comm, state, time_ns, count })
            .collect()
    }
}

/// The number LISA gives a state printed as letters (its `from_sched_switch_str`: the
/// bits of Linux 4.14's layout, `+` not kept).
fn lisa_number(s: &super::event::PrevState) -> u64 {
    if s.runnable {
        0
    } else if s.dead {
        0x10
    } else if s.uninterruptible {
        0x2
    } else {
        0x1
    }
}

/// LISA's task-state times of the trace `input`; `wakeup_new` as [`TaskStates::event`].
pub fn table(input: &TraceInput, wakeup_new: bool, opts: ImportOptions) -> Result<(Vec<StateTime>, ImportNotes)> {
    let mut t = TaskStates::default();
    let mut notes = ImportNotes::default();
    let mut feed = |i: Item| {
        if let Item::Event(e) = i {
            t.event(e.ts, &e.kind, wakeup_new);
        }
        Ok(())
    };
    match input {
        TraceInput::File(p) => read_path(p, opts, &mut notes, &mut feed)?,
        TraceInput::Member { tree, rel } => {
            let bytes = crate::archive::Tree::read(tree.as_ref(), rel)?;
            read_bytes(&bytes, &input.name(), opts, &mut notes, &mut feed)?
        }
    };
    Ok((t.rows(), notes))
}
