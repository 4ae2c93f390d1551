//! The utilization of named tasks replayed from a trace's scheduling events with the
//! project's PELT/util_est core, for traces without the kernel's own PELT events
//! (docs/trace-compare.md §3.4): each task's events imported as `schedlab pelt ftrace`
//! imports them ([`crate::pelt::ftrace`]), replayed as `schedlab pelt simulate` replays
//! the result ([`crate::pelt::driver`]), and its `se.avg` after each of the kernel's
//! updates counted.

use super::event::{Comm, Event, Kind};
use super::hist::Hist;
use super::inputs::TraceInput;
use super::summary::TraceSummary;
use crate::error::{Error, Result};
use crate::import_notes::ImportOptions;
use crate::pelt::cpu_capacity::Sources;
use crate::pelt::directives::Directives;
use crate::pelt::kernel::{config_for, Options as ReplayOptions};
use crate::pelt::{ftrace, Config, Row, Sink};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A task whose utilization is replayed: its name (`comm`, exact) or its pid
/// (`--util-task`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UtilTask {
    /// Every pid that had this name in the trace's scheduling events.
    Comm(String),
    /// One pid.
    Pid(u32),
}

impl UtilTask {
    /// A pid when `s` is all digits, else a task name (at most 15 bytes, as the
    /// kernel keeps it).
    pub fn parse(s: &str) -> Result<UtilTask> {
        let s = s.trim();
        if s.is_empty() {
            return Err(Error::domain("--util-task: give a task name or a pid, not an empty string"));
        }
        if s.bytes().all(|b| b.is_ascii_digit()) {
            return s
                .parse()
                .map(UtilTask::Pid)
                .map_err(|_| Error::domain(format!("--util-task: pid {s} is out of range")));
        }
        if s.len() > 15 {
            return Err(Error::domain(format!(
                "--util-task: {s:?} is longer than the kernel's 15-byte task names: give the name as the trace has it"
            )));
        }
        Ok(UtilTask::Comm(s.to_string()))
    }

    /// The scope its metrics are under: `pelt comm=NAME` or `pelt pid=N`.
    pub fn scope(&self) -> String {
        match self {
            UtilTask::Comm(c) => format!("pelt comm={c}"),
            UtilTask::Pid(p) => format!("pelt pid={p}"),
        }
    }

    fn what(&self) -> String {
        match self {
            UtilTask::Comm(c) => format!("no task named {c:?}"),
            UtilTask::Pid(p) => format!("no task with pid {p}"),
        }
    }
}

/// The pids of each named task, found as the metrics pass reads the events (the
/// `sched_switch` and wakeup events name a task with its pid).
#[derive(Debug)]
pub struct Finder<'a> {
    tasks: &'a [UtilTask],
    comms: Vec<Option<Comm>>,
    pids: Vec<BTreeSet<u32>>,
}

impl<'a> Finder<'a> {
    /// A finder of `tasks`.
    pub fn new(tasks: &'a [UtilTask]) -> Finder<'a> {
        let comms = tasks
            .iter()
            .map(|t| match t {
                UtilTask::Comm(c) => Some(Comm::new(c.as_bytes())),
                UtilTask::Pid(_) => None,
            })
            .collect();
        Finder { tasks, comms, pids: vec![BTreeSet::new(); tasks.len()] }
    }

    /// Note the tasks `e` names.
    #[inline]
    pub fn event(&mut self, e: &Event) {
        if self.tasks.is_empty() {
            return;
        }
        match e.kind {
            Kind::Switch { prev_pid, prev_comm, next_pid, next_comm, .. } => {
                self.saw(prev_pid, &prev_comm);
                self.saw(next_pid, &next_comm);
            }
            Kind::Wakeup { pid, comm, .. } => self.saw(pid, &comm),
            _ => {}
        }
    }

    fn saw(&mut self, pid: i32, comm: &Comm) {
        let Ok(pid) = u32::try_from(pid) else { return };
        if pid == 0 {
            return; // the idle tasks are not replayed
        }
        for ((t, c), found) in self.tasks.iter().zip(&self.comms).zip(self.pids.iter_mut()) {
            let hit = match (t, c) {
                (UtilTask::Pid(p), _) => *p == pid,
                (UtilTask::Comm(_), Some(c)) => c == comm,
                (UtilTask::Comm(_), None) => false,
            };
            if hit {
                found.insert(pid);
            }
        }
    }
}

/// The replayed utilization of one named task in one trace: its `se.avg` after each
/// of the kernel's updates the replay makes (one sample per update time, all its pids
/// pooled).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UtilReplay {
    /// `pelt comm=NAME` or `pelt pid=N`.
    pub scope: String,
    /// The pids replayed.
    pub pids: Vec<u32>,
    /// `se.avg.util_avg` after each update.
    pub util_avg: Hist,
    /// The util_est EWMA (`util_est.ewma`, the 6.8+ `util_est`) after each update.
    pub util_est_ewma: Hist,
    /// `util_est.enqueued` after each update, for the kernels that have it (before 6.8).
    pub util_est_enqueued: Hist,
}

/// One sample per update time: a row is kept until a row of another update time
/// comes (the last row of an update time is the task's state after it). `wake_pre`
/// rows (the stale state before a wakeup's own update) are not samples.
struct Samples<'a> {
    out: &'a mut UtilReplay,
    /// Whether the rule has `util_est.enqueued`.
    enqueued: bool,
    /// Its `UTIL_AVG_UNCHANGED` flag bit in `enqueued` (0 without one), cleared to read it.
    flag: u32,
    pending: Option<Row>,
}

impl Samples<'_> {
    fn commit(&mut self) {
        if let Some(r) = self.pending.take() {
            self.out.util_avg.add(r.p_util_avg);
            self.out.util_est_ewma.add(u64::from(r.p_util_est));
            if self.enqueued {
                self.out.util_est_enqueued.add(u64::from(r.p_ue_enqueued & !self.flag));
            }
        }
    }
}

impl Sink for Samples<'_> {
    fn wants(&self, event: crate::pelt::Event) -> bool {
        event != crate::pelt::Event::WakePre
    }

    fn row(&mut self, row: &Row) -> Result<()> {
        if row.event == crate::pelt::Event::WakePre {
            return Ok(());
        }
        if self.pending.is_some_and(|p| p.p_last_update_time != row.p_last_update_time) {
            self.commit();
        }
        self.pending = Some(*row);
        Ok(())
    }
}

/// Replay every task of `tasks` found in the trace (`found`, from a [`Finder`]) and add
/// their samples to `s`, the notes of each import to `notes`. `bytes` are the trace's
/// when it is an archive member. A task not in the trace, or a trace without the
/// `sched_switch` events a replay needs, is an error naming the trace.
pub fn replay_all(
    input: &TraceInput,
    bytes: Option<&[u8]>,
    finder: Finder<'_>,
    s: &mut TraceSummary,
    hz: u32,
    opts: ImportOptions,
    notes: &mut Vec<String>,
) -> Result<()> {
    let name = input.name();
    if finder.tasks.is_empty() {
        return Ok(());
    }
    if !s.present.switch {
        return Err(Error::parse(
            Some(&name),
            None,
            "--util-task replays a task's PELT signals from its sched_switch and sched_wakeup events: the trace has \
             no sched_switch event",
        ));
    }
    let tick_ns = Config::tick_ns_for_hz(u64::from(hz))?;
    for (task, pids) in finder.tasks.iter().zip(finder.pids) {
        if pids.is_empty() {
            return Err(Error::parse(
                Some(&name),
                None,
                format!("--util-task: {} in the trace's sched_switch and wakeup events", task.what()),
            ));
        }
        let mut out = UtilReplay { scope: task.scope(), pids: pids.iter().copied().collect(), ..UtilReplay::default() };
        for pid in pids {
            replay_pid(input, bytes, pid, tick_ns, opts, &mut out, notes)?;
        }
        s.util_replay.push(out);
    }
    Ok(())
}

/// Import `pid` as `schedlab pelt ftrace` does (the capacities from the trace's
/// frequency events, else 1024), start it from what the trace says of it (its
/// `/proc/PID/sched` readings, its first traced PELT state, its fork), replay it with
/// the rules of the kernel the trace.dat header names, and count its samples.
fn replay_pid(
    input: &TraceInput,
    bytes: Option<&[u8]>,
    pid: u32,
    tick_ns: u64,
    opts: ImportOptions,
    out: &mut UtilReplay,
    notes: &mut Vec<String>,
) -> Result<()> {
    let path = match input {
        TraceInput::File(p) => Some(p.as_path()),
        TraceInput::Member { .. } => None,
    };
    let t = ftrace::task_trace(bytes, path, pid, &Sources::default(), opts)?;
    for n in t.notes.messages() {
        notes.push(format!("pelt replay of pid {pid}: {n}"));
    }
    let kernel = t.kernel.map(str::to_string);
    let (segments, start_ns, init) = t.into_start(true);
    if segments.is_empty() {
        notes.push(format!("pelt replay of pid {pid}: the task was never runnable in the trace: no samples"));
        return Ok(());
    }
    if init.is_none() {
        notes.push(format!(
            "pelt replay of pid {pid}: nothing in the trace says its PELT state when it first ran (no fork, traced \
             PELT state or /proc/PID/sched reading): replayed from the kernel's fork init (docs/pelt.md §10); \
             the first samples carry that guess"
        ));
    }
    let given = Directives { start_ns: Some(start_ns), kernel, init };
    let o = ReplayOptions {
        kernel: None,
        init: None,
        util_est: true,
        rule: None,
        execl_fix: None,
        tick_ns,
        start_ns: None,
        given: None,
    };
    let cfg = config_for(&o, &given)?;
    let enqueued = cfg.rule.has_enqueued();
    let mut flagged = crate::pelt::TaskUtilEst::default();
    cfg.rule.set_unchanged(&mut flagged);
    let flag = if cfg.rule.unchanged(&flagged) { flagged.enqueued } else { 0 };
    let mut sink = Samples { out, enqueued, flag, pending: None };
    crate::pelt::simulate(&segments, &cfg, &mut sink)?;
    sink.commit();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::event::{PrevState, WakeKind};

    #[test]
    fn a_name_or_a_pid() {
        assert_eq!(UtilTask::parse("nginx").unwrap(), UtilTask::Comm("nginx".into()));
        assert_eq!(UtilTask::parse(" 42 ").unwrap(), UtilTask::Pid(42));
        assert_eq!(UtilTask::parse("42").unwrap().scope(), "pelt pid=42");
        assert!(UtilTask::parse("").is_err());
        assert!(UtilTask::parse("99999999999").unwrap_err().to_string().contains("out of range"));
        assert!(UtilTask::parse("0123456789abcdef").unwrap_err().to_string().contains("15-byte"));
    }

    fn ev(kind: Kind) -> Event {
        Event { ts: 1, cpu: 0, line: 1, kind }
    }

    #[test]
    fn the_finder_takes_pids_from_switches_and_wakeups_not_the_idle_task() {
        let tasks = [UtilTask::Comm("app".into()), UtilTask::Pid(7), UtilTask::Comm("swapper/0".into())];
        let mut f = Finder::new(&tasks);
        let st = PrevState { runnable: true, preempted: false, uninterruptible: false, dead: false, raw: None };
        f.event(&ev(Kind::Switch {
            prev_pid: 0,
            prev_comm: Comm::new(b"swapper/0"),
            prev_state: st,
            next_pid: 12,
            next_comm: Comm::new(b"app"),
        }));
        f.event(&ev(Kind::Wakeup { pid: 13, comm: Comm::new(b"app"), target_cpu: None, kind: WakeKind::Wakeup }));
        f.event(&ev(Kind::Migrate { pid: 7, orig_cpu: None, dest_cpu: None }));
        let found: Vec<Vec<u32>> = f.pids.iter().map(|p| p.iter().copied().collect()).collect();
        assert_eq!(found, vec![vec![12, 13], vec![], vec![]]);
    }

    #[test]
    fn one_sample_per_update_time_the_last_row_and_no_wake_pre() {
        let row = |event, lut, util, est| Row {
            t_ns: lut,
            event,
            seg: 0,
            state: crate::pelt::State::Run,
            cpu_cap: 1024,
            freq_cap: 1024,
            clock_task: 0,
            clock_pelt: 0,
            lost_idle_time: 0,
            p_util_avg: util,
            p_util_sum: 0,
            p_period_contrib: 0,
            p_runnable_avg: 0,
            p_load_avg: 0,
            p_last_update_time: lut,
            p_util_est: est,
            p_ue_unchanged: false,
            p_ue_enqueued: 0,
            cfs_util_avg: 0,
            cfs_util_sum: 0,
            cfs_runnable_avg: 0,
            cfs_load_avg: 0,
            cfs_util_est: 0,
            cpu_util_cfs: 0,
            cpu_util_cfs_boost: 0,
            cpu_util_without_p: 0,
            task_util_est_p: 0,
            sugov_perf: 0,
            cpufreq_calls: 0,
        };
        use crate::pelt::Event as E;
        let mut out = UtilReplay::default();
        let mut s = Samples { out: &mut out, enqueued: false, flag: 0, pending: None };
        // fork then run at the same update (one sample: 512), a tick (600), a stale
        // wake_pre (not a sample) and the wakeup's own update (300, est 550), the end
        // at the same update time as the wakeup
        for r in [
            row(E::Fork, 10, 512, 0),
            row(E::Run, 10, 512, 0),
            row(E::Tick, 20, 600, 0),
            row(E::WakePre, 20, 999, 999),
            row(E::Wake, 30, 300, 550),
            row(E::End, 30, 300, 550),
        ] {
            s.row(&r).unwrap();
        }
        s.commit();
        assert_eq!(out.util_avg.count(), 3);
        assert_eq!(out.util_avg.mean(), Some((512.0 + 600.0 + 300.0) / 3.0));
        assert_eq!(out.util_avg.max(), Some(600));
        assert_eq!(out.util_est_ewma.max(), Some(550));
        assert_eq!(out.util_est_enqueued.count(), 0);
    }
}
