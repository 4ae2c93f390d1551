//! `perf sched latency`'s per-task table, computed as perf 6.1 computes it
//! (tools/perf/builtin-sched.c: `latency_switch_event`, `latency_wakeup_event`,
//! `latency_runtime_event`, `add_sched_in_event`), so that a trace's scheduling delays
//! can be checked against perf's own reckoning (docs/trace-compare.md §3.2).
//!
//! perf keeps, per pid, the state of the task's last "atom": a switch-out in state `R`
//! (perf's `sched_out_state()` reads the number as an index into `"RSDTtZXxKWP"`: only 0 is
//! `R`; a preemption's `R+` is not) leaves it waiting for the CPU since that switch-out;
//! any other switch-out leaves it sleeping, and a `sched_wakeup` or `sched_wakeup_new`
//! (perf 6.1's latency does not read `sched_waking`, which `perf sched record` records when
//! the kernel has it) of a sleeping task makes it wait since the wakeup. Its next switch-in
//! counts one delay: switch-in − the start of the wait. A task first seen switching in, or
//! in a `sched_stat_runtime`, starts waiting there (a switch-in at once counts a 0 delay).
//! `Runtime` is the sum of its `sched_stat_runtime`.

use super::event::{Comm, Kind, PrevState, WakeKind};
use super::inputs::TraceInput;
use super::source::{read_bytes, read_path, Item};
use crate::error::Result;
use crate::import_notes::{ImportNotes, ImportOptions};
use crate::int_map::IntMap;

/// One task's row of `perf sched latency -p`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LatencyRow {
    /// The pid.
    pub pid: i32,
    /// Its name (the last one seen).
    pub comm: Comm,
    /// Σ `sched_stat_runtime`, ns.
    pub runtime_ns: u64,
    /// Delays counted (`Switches`).
    pub switches: u64,
    /// Σ delays, ns (`Avg delay` = this / switches, in integer ns).
    pub total_delay_ns: u64,
    /// The largest delay, ns, and when it began and ended.
    pub max_delay_ns: u64,
    /// See `max_delay_ns`.
    pub max_start_ns: u64,
    /// See `max_delay_ns`.
    pub max_end_ns: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Atom {
    Sleeping { out: u64 },
    Waiting { since: u64 },
    Done,
}

/// perf's `sched_out_state(prev_state) == 'R'`: the number 0 (or the letter `R` alone).
fn perf_runnable(s: &PrevState) -> bool {
    match s.raw {
        Some(v) => v == 0,
        None => s.runnable && !s.preempted,
    }
}

/// The table's accumulator: feed events in time order, then [`Latency::rows`].
#[derive(Default)]
pub struct Latency {
    tasks: IntMap<i32, (Atom, LatencyRow)>,
}

impl Latency {
    fn entry(&mut self, pid: i32, initial: Atom) -> &mut (Atom, LatencyRow) {
        self.tasks.entry(pid).or_insert_with(|| {
            (
                initial,
                LatencyRow {
                    pid,
                    comm: Comm::default(),
                    runtime_ns: 0,
                    switches: 0,
                    total_delay_ns: 0,
                    max_delay_ns: 0,
                    max_start_ns: 0,
                    max_end_ns: 0,
                },
            )
        })
    }

    /// Take one event.
    pub fn event(&mut self, ts: u64, kind: &Kind) {
        match *kind {
            Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } => {
                let out =
                    if perf_runnable(&prev_state) { Atom::Waiting { since: ts } } else { Atom::Sleeping { out: ts } };
                let p = self.entry(prev_pid, out);
                p.0 = out;
                if !prev_comm.is_empty() {
                    p.1.comm = prev_comm;
                }
                let n = self.entry(next_pid, Atom::Waiting { since: ts });
                if !next_comm.is_empty() {
                    n.1.comm = next_comm;
                }
                if let Atom::Waiting { since } = n.0 {
                    n.0 = Atom::Done;
                    if ts >= since {
                        let d = ts - since;
                        let r = &mut n.1;
                        r.total_delay_ns += d;
                        r.switches += 1;
                        if d > r.max_delay_ns {
                            (r.max_delay_ns, r.max_start_ns, r.max_end_ns) = (d, since, ts);
                        }
                    }
                }
            }
            Kind::Wakeup { pid, comm, kind, .. } if kind != WakeKind::Waking => {
                let t = self.entry(pid, Atom::Sleeping { out: ts });
                if !comm.is_empty() {
                    t.1.comm = comm;
                }
                if let Atom::Sleeping { out } = t.0 {
                    if out <= ts {
                        t.0 = Atom::Waiting { since: ts };
                    }
                }
            }
            Kind::Runtime { pid, runtime } => {
                self.entry(pid, Atom::Waiting { since: ts }).1.runtime_ns += runtime;
            }
            _ => {}
        }
    }

    /// The rows perf prints (tasks with a counted delay; the idle task, pid 0, which
    /// perf knows as `swapper`, left out), by pid.
    pub fn rows(self) -> Vec<LatencyRow> {
        let mut v: Vec<LatencyRow> =
            self.tasks.into_values().map(|(_, r)| r).filter(|r| r.switches > 0 && r.pid != 0).collect();
        v.sort_by_key(|r| r.pid);
        v
    }
}

/// perf sched latency's per-task table of the trace `input`.
pub fn table(input: &TraceInput, opts: ImportOptions) -> Result<(Vec<LatencyRow>, ImportNotes)> {
    let mut l = Latency::default();
    let mut notes = ImportNotes::default();
    let mut feed = |i: Item| {
        if let Item::Event(e) = i {
            l.event(e.ts, &e.kind);
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
    Ok((l.rows(), notes))
}
