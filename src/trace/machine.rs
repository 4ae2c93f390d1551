//! The state machine of the metrics pass: each event, in time order, moves a CPU's and a
//! task's state and completes the intervals the metrics count (docs/trace-compare.md
//! §3). Only the current state of each CPU and of each live task is held, so memory
//! does not grow with the trace's length.
//!
//! What is unknown stays unknown: a CPU's running task until its first `sched_switch`,
//! its idle state until its first `cpu_idle`, its frequency until its first
//! `cpu_frequency`; after a ring buffer lost events ([`Loss`]) the CPU's state is
//! forgotten until the next event that sets it again, every task interval that began
//! before the loss is left out (events of any task may be among those lost), and the
//! counts of what was left out are kept ([`Excluded`]).

use super::event::{Comm, Event, Kind, Loss, PrevState};
use super::groups::Groups;
use super::summary::{CpuSummary, Excluded, SchedSummary, StateCounters, TraceSummary, MAX_LOSSES_KEPT};
use crate::error::{Error, Result};
use crate::idle::states::Drv;
use crate::idle::summary::classify;
use crate::int_map::IntMap;

/// CPU numbers above this are refused (`NR_CPUS` is at most 8192).
pub const MAX_CPU: u32 = 8191;
/// Idle-state indices above this are refused (`CPUIDLE_STATE_MAX` is 10).
pub const MAX_STATE: u32 = 63;

/// One `sched_switch` as perf sched timehist prints it: the task switched out, how long
/// it waited off the CPU before its switch-in (`wait time`), how long from its wakeup
/// to that switch-in (`sch delay`) and how long it ran (`run time`), each 0 where
/// timehist prints 0 (docs/trace-compare.md §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceRow {
    /// The switch's time, ns.
    pub ts: u64,
    /// Its CPU.
    pub cpu: u32,
    /// The task switched out (0: the CPU's idle task).
    pub pid: i32,
    /// Its name.
    pub comm: Comm,
    /// `wait time`, ns.
    pub wait_ns: u64,
    /// `sch delay`, ns.
    pub delay_ns: u64,
    /// `run time`, ns.
    pub run_ns: u64,
    /// The state it was left in.
    pub prev_state: PrevState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Residency {
    Active,
    State(u32),
}

#[derive(Debug, Clone, Copy)]
struct OpenIdle {
    state: u32,
    t0: u64,
    tick_stopped: bool,
}

#[derive(Debug, Default)]
struct Cpu {
    /// The time of its last `sched_switch` and the task it switched in.
    current: Option<(u64, i32)>,
    /// The idle task's last switch-out here (timehist's `last_time` of the idle thread).
    idle_out: Option<u64>,
    residency: Option<(Residency, u64)>,
    open: Option<OpenIdle>,
    stop_since_exit: bool,
    freq: Option<(u64, u64)>,
    out: CpuSummary,
}

#[derive(Debug, Clone, Copy, Default)]
struct Task {
    comm: Comm,
    mask: u64,
    /// The first wakeup since its switch-out, for the next switch-in.
    ready: Option<u64>,
    /// perf sched timehist's `ready_to_run`: cleared only at a switch-out.
    th_ready: Option<u64>,
    /// Its last switch-out and the state it left the task in.
    out: Option<(u64, PrevState)>,
    /// Switched out runnable, not switched in since.
    waiting: bool,
}

/// The machine: feed it events in time order, then [`Machine::finish`].
pub struct Machine<'a> {
    drv: Option<Drv>,
    groups: &'a Groups,
    cpus: Vec<Cpu>,
    tasks: IntMap<i32, Task>,
    /// Task intervals that began before this time are left out (the latest loss).
    barrier: u64,
    out: TraceSummary,
    rows: Option<&'a mut dyn FnMut(SliceRow)>,
    path: Option<&'a str>,
}

impl<'a> Machine<'a> {
    /// A machine counting above/below with `drv` (the state table's kernel view, when
    /// known), tasks grouped by `groups`; `path` names the input in errors.
    pub fn new(drv: Option<Drv>, groups: &'a Groups, path: Option<&'a str>) -> Self {
        let mut out = TraceSummary { path: path.unwrap_or_default().to_string(), ..TraceSummary::default() };
        out.sched.push(SchedSummary { name: "all".into(), ..SchedSummary::default() });
        for s in groups.selectors() {
            out.sched.push(SchedSummary { name: s.label(), ..SchedSummary::default() });
        }
        Machine { drv, groups, cpus: Vec::new(), tasks: IntMap::default(), barrier: 0, out, rows: None, path }
    }

    /// Also hand every `sched_switch` to `rows` as perf sched timehist computes it.
    pub fn with_rows(mut self, rows: &'a mut dyn FnMut(SliceRow)) -> Self {
        self.rows = Some(rows);
        self
    }

    fn cpu(&mut self, cpu: u32, line: usize) -> Result<&mut Cpu> {
        if cpu > MAX_CPU {
            return Err(Error::parse(
                self.path,
                Some(line),
                format!("CPU {cpu} is beyond the largest CPU number {MAX_CPU}"),
            ));
        }
        let i = cpu as usize;
        if self.cpus.len() <= i {
            self.cpus.resize_with(i + 1, Cpu::default);
        }
        let c = self.cpus.get_mut(i).ok_or_else(|| Error::Internal("CPU table".into()))?;
        c.out.cpu = cpu;
        Ok(c)
    }

    /// The scopes a task counts in: `all` (index 0) and its groups.
    fn scopes(&mut self, mask: u64) -> impl Iterator<Item = &mut SchedSummary> {
        self.out.sched.iter_mut().enumerate().filter(move |(i, _)| *i == 0 || mask >> (i - 1) & 1 == 1).map(|(_, s)| s)
    }

    /// The task `pid`, created on first sight (and counted in its scopes); `comm`
    /// updates its name and groups.
    fn task(&mut self, pid: i32, comm: Option<Comm>) -> &mut Task {
        let groups = self.groups;
        let sched = &mut self.out.sched;
        let comm = comm.filter(|c| !c.is_empty());
        self.tasks
            .entry(pid)
            .and_modify(|t| {
                if let Some(c) = comm.filter(|c| *c != t.comm) {
                    t.comm = c;
                    t.mask = groups.mask(pid, &c);
                }
            })
            .or_insert_with(|| {
                let c = comm.unwrap_or_default();
                let mask = groups.mask(pid, &c);
                for (i, s) in sched.iter_mut().enumerate() {
                    if i == 0 || mask >> (i - 1) & 1 == 1 {
                        s.tasks += 1;
                    }
                }
                Task { comm: c, mask, ..Task::default() }
            })
    }

    /// Take one event (in time order).
    pub fn event(&mut self, e: &Event) -> Result<()> {
        if self.out.events == 0 {
            self.out.start_ns = e.ts;
        }
        self.out.events += 1;
        self.out.end_ns = self.out.end_ns.max(e.ts);
        let t = e.ts;
        match e.kind {
            Kind::Switch { prev_pid, prev_comm, prev_state, next_pid, next_comm } => {
                self.out.present.switch = true;
                self.switch(e, prev_pid, prev_comm, prev_state, next_pid, next_comm)?;
            }
            Kind::Wakeup { pid, comm, .. } => {
                self.out.present.wakeup = true;
                if pid > 0 {
                    let task = self.task(pid, Some(comm));
                    let first = task.ready.is_none();
                    if task.th_ready.is_none() {
                        task.th_ready = Some(t);
                    }
                    if first {
                        task.ready = Some(t);
                        let mask = task.mask;
                        self.scopes(mask).for_each(|s| s.wakeups += 1);
                    }
                }
            }
            Kind::Migrate { pid, .. } => {
                self.out.present.migrate = true;
                if pid > 0 {
                    let mask = self.task(pid, None).mask;
                    self.scopes(mask).for_each(|s| s.migrations += 1);
                }
            }
            Kind::Runtime { pid, runtime } => {
                self.out.present.runtime = true;
                if pid > 0 {
                    let mask = self.task(pid, None).mask;
                    self.scopes(mask).for_each(|s| s.stat_runtime_ns += runtime);
                }
            }
            Kind::Idle { cpu, state } => {
                self.out.present.idle = true;
                self.idle(cpu, state, t, e.line)?;
            }
            Kind::IdleMiss { cpu, state, below } => {
                self.out.present.idle_miss = true;
                let path = self.path;
                let c = self.cpu(cpu, e.line)?;
                let s = state_counters(&mut c.out.states, state, e.line, path)?;
                if below {
                    s.kernel_below += 1;
                } else {
                    s.kernel_above += 1;
                }
            }
            Kind::Frequency { cpu, khz } => {
                self.out.present.frequency = true;
                let c = self.cpu(cpu, e.line)?;
                if let Some((f, since)) = c.freq {
                    *c.out.freq_ns.entry(f).or_default() += t.saturating_sub(since);
                }
                c.freq = Some((khz, t));
                c.out.freq_events += 1;
            }
            Kind::TickStop { success } => {
                self.out.present.tick_stop = true;
                if success {
                    self.cpu(e.cpu, e.line)?.stop_since_exit = true;
                }
            }
            Kind::Pelt { pid, util, util_est } => {
                if pid > 0 {
                    self.out.present.pelt = true;
                    let mask = self.task(pid, None).mask;
                    for s in self.scopes(mask) {
                        let u = &mut s.util;
                        if let Some(v) = util {
                            u.util_samples += 1;
                            u.util_sum += v;
                            u.util_max = u.util_max.max(v);
                        }
                        if let Some((enq, ewma)) = util_est {
                            u.est_samples += 1;
                            u.est_enqueued_sum += enq;
                            u.est_ewma_sum += ewma;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn switch(
        &mut self,
        e: &Event,
        prev_pid: i32,
        prev_comm: Comm,
        prev_state: PrevState,
        next_pid: i32,
        next_comm: Comm,
    ) -> Result<()> {
        let t = e.ts;
        let barrier = self.barrier;
        let c = self.cpu(e.cpu, e.line)?;
        let tprev = c.current.map(|(since, _)| since);
        if let Some((since, pid)) = c.current {
            let d = t.saturating_sub(since);
            c.out.sched_known_ns += d;
            if pid != 0 {
                c.out.busy_ns += d;
            }
        }
        c.current = Some((t, next_pid));
        let idle_out = c.idle_out;
        if prev_pid == 0 {
            c.idle_out = Some(t);
        }
        let run = tprev.map(|p| t.saturating_sub(p));
        // timehist: wait and delay end at tprev, the task's switch-in on this CPU
        let since = |from: Option<u64>| match (tprev, from) {
            (Some(p), Some(o)) if o <= p => p - o,
            _ => 0,
        };
        if prev_pid == 0 {
            // the idle task: timehist's rows only
            if let Some(rows) = self.rows.as_mut() {
                rows(SliceRow {
                    ts: t,
                    cpu: e.cpu,
                    pid: 0,
                    comm: prev_comm,
                    wait_ns: since(idle_out),
                    delay_ns: 0,
                    run_ns: run.unwrap_or(0),
                    prev_state,
                });
            }
        } else {
            let task = *self.task(prev_pid, Some(prev_comm));
            if let Some(rows) = self.rows.as_mut() {
                rows(SliceRow {
                    ts: t,
                    cpu: e.cpu,
                    pid: prev_pid,
                    comm: task.comm,
                    wait_ns: since(task.out.map(|o| o.0)),
                    delay_ns: since(task.th_ready),
                    run_ns: run.unwrap_or(0),
                    prev_state,
                });
            }
            let counted = tprev.filter(|&p| p >= barrier).map(|p| t.saturating_sub(p));
            for s in self.scopes(task.mask) {
                if let Some(r) = counted {
                    s.run.add(r);
                }
                if prev_state.runnable {
                    s.involuntary += 1;
                } else {
                    s.voluntary += 1;
                }
            }
            if counted.is_none() {
                self.out.excluded.runs_unknown_start += 1;
            }
            if prev_state.dead {
                self.tasks.remove(&prev_pid);
            } else if let Some(tk) = self.tasks.get_mut(&prev_pid) {
                tk.out = Some((t, prev_state));
                tk.waiting = prev_state.runnable;
                tk.ready = None;
                tk.th_ready = None;
            }
        }
        if next_pid != 0 {
            let task = *self.task(next_pid, Some(next_comm));
            let latency = task.ready.filter(|&r| r <= t).map(|r| (r, t - r));
            let wait = task.out.filter(|_| task.waiting).map(|(o, _)| (o, t.saturating_sub(o)));
            let (mut lost_wakeup, mut lost_wait) = (false, false);
            for s in self.scopes(task.mask) {
                match latency {
                    Some((r, d)) if r >= barrier => s.wakeup_latency.add(d),
                    Some(_) => lost_wakeup = true,
                    None => {}
                }
                match wait {
                    Some((o, d)) if o >= barrier => s.preempt_wait.add(d),
                    Some(_) => lost_wait = true,
                    None => {}
                }
            }
            self.out.excluded.wakeups_after_loss += u64::from(lost_wakeup);
            self.out.excluded.waits_after_loss += u64::from(lost_wait);
            if let Some(tk) = self.tasks.get_mut(&next_pid) {
                tk.ready = None;
                tk.waiting = false;
            }
        }
        Ok(())
    }

    fn idle(&mut self, cpu: u32, state: Option<u32>, t: u64, line: usize) -> Result<()> {
        let drv = self.drv;
        let path = self.path;
        let c = self.cpu(cpu, line)?;
        if let Some((r, since)) = c.residency {
            let d = t.saturating_sub(since);
            c.out.idle_known_ns += d;
            match r {
                Residency::Active => c.out.active_ns += d,
                Residency::State(s) => state_counters(&mut c.out.states, s, line, path)?.residency_ns += d,
            }
        }
        match state {
            Some(s) => {
                state_counters(&mut c.out.states, s, line, path)?;
                c.residency = Some((Residency::State(s), t));
                if c.open.is_some() {
                    c.out.idle_unexited += 1;
                }
                c.open = Some(OpenIdle { state: s, t0: t, tick_stopped: c.stop_since_exit });
            }
            None => {
                c.residency = Some((Residency::Active, t));
                c.stop_since_exit = false;
                match c.open.take() {
                    Some(o) => {
                        let d = t.saturating_sub(o.t0);
                        let sc = state_counters(&mut c.out.states, o.state, line, path)?;
                        sc.usage += 1;
                        sc.time_ns += d;
                        if o.tick_stopped {
                            sc.tick_stopped += 1;
                        }
                        if let Some(drv) = drv.filter(|d| (o.state as usize) < d.count) {
                            let (above, below) = classify(&drv, o.state as usize, i64::try_from(d).unwrap_or(i64::MAX));
                            sc.above += u64::from(above);
                            sc.below += u64::from(below);
                        }
                        self.out.idle_periods.add(d);
                    }
                    None => c.out.idle_orphan_exits += 1,
                }
            }
        }
        Ok(())
    }

    /// Events of `loss.cpu` were lost before `loss.ts`: forget what they could have
    /// changed (module docs).
    pub fn loss(&mut self, loss: Loss) -> Result<()> {
        self.barrier = self.barrier.max(loss.ts);
        self.out.loss_marks += 1;
        match loss.count {
            Some(n) => self.out.lost_events += n,
            None => self.out.losses_uncounted += 1,
        }
        if self.out.losses.len() < MAX_LOSSES_KEPT {
            self.out.losses.push(loss);
        }
        let c = self.cpu(loss.cpu, loss.line)?;
        c.current = None;
        c.idle_out = None;
        c.residency = None;
        c.stop_since_exit = false;
        if c.open.take().is_some() {
            self.out.excluded.idle_after_loss += 1;
        }
        // a frequency change of any CPU may be recorded on any CPU
        for c in &mut self.cpus {
            c.freq = None;
        }
        Ok(())
    }

    /// Close every interval at `end` (the last record of the trace, of any event) and
    /// return the summary, spanning `start` to `end`.
    pub fn finish_at(mut self, start: u64, end: u64) -> TraceSummary {
        self.out.start_ns = start;
        self.out.end_ns = end.max(self.out.end_ns);
        let end = self.out.end_ns;
        for c in &mut self.cpus {
            if let Some((since, pid)) = c.current {
                let d = end.saturating_sub(since);
                c.out.sched_known_ns += d;
                if pid != 0 {
                    c.out.busy_ns += d;
                }
            }
            if let Some((r, since)) = c.residency {
                let d = end.saturating_sub(since);
                c.out.idle_known_ns += d;
                match r {
                    Residency::Active => c.out.active_ns += d,
                    Residency::State(s) => {
                        if let Some(sc) = c.out.states.get_mut(s as usize) {
                            sc.residency_ns += d;
                        }
                    }
                }
            }
            if c.open.is_some() {
                c.out.idle_open_at_end += 1;
            }
            if let Some((f, since)) = c.freq {
                *c.out.freq_ns.entry(f).or_default() += end.saturating_sub(since);
            }
        }
        let empty = |c: &CpuSummary| *c == CpuSummary { cpu: c.cpu, ..CpuSummary::default() };
        self.out.cpus = self.cpus.into_iter().map(|c| c.out).filter(|c| !empty(c)).collect();
        self.out
    }
}

/// The counters of `state`, the table grown to hold it.
fn state_counters<'s>(
    states: &'s mut Vec<StateCounters>,
    state: u32,
    line: usize,
    path: Option<&str>,
) -> Result<&'s mut StateCounters> {
    if state > MAX_STATE {
        return Err(Error::parse(
            path,
            Some(line),
            format!("idle state {state} is beyond the largest index {MAX_STATE}"),
        ));
    }
    let i = state as usize;
    if states.len() <= i {
        states.resize_with(i + 1, StateCounters::default);
    }
    states.get_mut(i).ok_or_else(|| Error::Internal("state table".into()))
}

/// The excluded intervals as sentences (empty when nothing was left out).
pub fn excluded_notes(x: &Excluded) -> Vec<String> {
    let mut out = Vec::new();
    let mut say = |n: u64, what: &str| {
        if n > 0 {
            out.push(format!("{n} {what}"));
        }
    };
    say(x.wakeups_after_loss, "wakeup latencies left out: the wakeup came before lost events");
    say(x.waits_after_loss, "preemption waits left out: they spanned lost events");
    say(x.runs_unknown_start, "run times left out: the switch-in was not seen (trace start or lost events)");
    say(x.idle_after_loss, "idle periods left out: lost events cut them");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::idle::states::StateTable;
    use crate::import_notes::{ImportNotes, ImportOptions};
    use crate::trace::groups::Selector;
    use crate::trace::source::{read_text, Item};

    const TRACE: &str = "\
  <idle>-0 [000] 1.000000: cpu_idle: state=3 cpu_id=0
  <idle>-0 [000] 1.000300: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000400: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000450: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.000500: cpu_idle: state=1 cpu_id=0
  <idle>-0 [000] 1.000515: cpu_idle: state=4294967295 cpu_id=0
  <idle>-0 [000] 1.001000: cpu_idle: state=2 cpu_id=0
  <idle>-0 [001] 2.000000: sched_wakeup: comm=a pid=10 prio=120 target_cpu=001
  <idle>-0 [001] 2.000010: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120
       a-10 [001] 2.000110: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=R+ ==> next_comm=b next_pid=11 next_prio=120
       b-11 [001] 2.000160: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120
       a-10 [001] 2.000300: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
  <idle>-0 [000] 2.000400: sched_wakeup: comm=b pid=11 prio=120 target_cpu=001
CPU:1 [LOST 5 EVENTS]
  <idle>-0 [001] 2.000500: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120
       b-11 [001] 2.000600: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120
  <idle>-0 [001] 2.000700: cpu_frequency: state=1000 cpu_id=1
  <idle>-0 [001] 2.001000: sched_wakeup: comm=c pid=12 prio=120 target_cpu=001
";

    fn run(groups: &Groups) -> TraceSummary {
        // intel-skx: POLL 0/0, C1 2/2, C1E 10/20, C6 133/600 µs (exit latency/target residency)
        let drv = StateTable::preset("intel-skx").unwrap().drv();
        let mut m = Machine::new(Some(drv), groups, Some("t"));
        let mut notes = ImportNotes::default();
        let strict = ImportOptions { strict: true, sort: false };
        let r = read_text(&mut TRACE.as_bytes(), Some("t"), strict, &mut notes, |i| match i {
            Item::Event(e) => m.event(&e),
            Item::Loss(l) => m.loss(l),
        })
        .unwrap();
        m.finish_at(r.start_ns.unwrap(), r.end_ns.unwrap())
    }

    #[test]
    fn idle_counters_by_hand() {
        let s = run(&Groups::default());
        let c0 = &s.cpus[0];
        // C6 for 300 µs: below its 600 µs target, C1E enabled → above
        assert_eq!((c0.states[3].usage, c0.states[3].time_ns, c0.states[3].above), (1, 300_000, 1));
        // C1 for 50 µs (50 − 2 ≥ 20, C1E's target → below) and 15 µs (neither)
        assert_eq!((c0.states[1].usage, c0.states[1].time_ns, c0.states[1].below), (2, 65_000, 1));
        assert_eq!(c0.states[1].above, 0);
        // C1E entered at 1.001 s and never left: residency to the end (2.001 s), no usage
        assert_eq!((c0.states[2].usage, c0.idle_open_at_end, c0.states[2].residency_ns), (0, 1, 1_000_000_000));
        // active: 100 + 50 + 485 µs between the exits and the next entries
        assert_eq!(c0.active_ns, 635_000);
        assert_eq!(c0.idle_known_ns, 1_001_000_000);
        assert_eq!(s.idle_periods.count(), 3);
        assert_eq!(s.idle_periods.quantiles(&[0.5])[0], Some(50_000.0));
    }

    #[test]
    fn scheduling_by_hand_with_a_loss() {
        let g = Groups::new(vec![Selector::Comm("a".into())]).unwrap();
        let s = run(&g);
        let (all, a) = (&s.sched[0], &s.sched[1]);
        // a: woken at 2.000000, in at 2.000010; preempted at .110, back at .160
        assert_eq!(all.wakeup_latency.sorted(), vec![(10_000, 1)]);
        assert_eq!(all.preempt_wait.sorted(), vec![(50_000, 1)]);
        // runs: a 100, b 50, a 140, then b 100 after the loss (its switch-in came after it)
        assert_eq!(all.run.sorted(), vec![(50_000, 1), (100_000, 2), (140_000, 1)]);
        // wakeups of a, b and c (the last event); tasks a, b, c
        assert_eq!((all.voluntary, all.involuntary, all.wakeups, all.tasks), (3, 1, 3, 3));
        // b's wakeup (2.000400) came before the loss (first event after it 2.000500)
        assert_eq!(s.excluded.wakeups_after_loss, 1);
        assert_eq!((s.loss_marks, s.lost_events, s.losses[0].cpu, s.losses[0].ts), (1, 5, 1, 2_000_500_000));
        assert_eq!((a.name.as_str(), a.tasks, a.voluntary, a.involuntary), ("comm=a", 1, 1, 1));
        assert_eq!(a.run.sorted(), vec![(100_000, 1), (140_000, 1)]);
        // CPU 1: busy 100 + 50 + 140 µs, then (after the loss) 100 µs; known also the
        // idle from 2.000600 to the end, 400 µs; the idle from .300 to the loss is unknown
        let c1 = &s.cpus[1];
        assert_eq!((c1.busy_ns, c1.sched_known_ns), (390_000, 790_000));
        assert_eq!(c1.freq_ns.get(&1000), Some(&300_000));
    }
}
