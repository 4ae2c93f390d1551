//! The live check of PELT and util_est: the task's update points ([`super::task_clock`])
//! replayed with schedlab's kernel math ([`crate::pelt::signal`], [`crate::pelt::util_est`])
//! from the state of a first `/proc/PID/sched` reading, each later reading compared
//! with the replay at the same `last_update_time` (docs/live.md §4).

use super::proc_sched::ProcSample;
use super::task_clock::{attach_readings, timeline, Placed, Point, PointKind, Timeline};
use crate::error::{Error, Result};
use crate::pelt::consts::SCHED_CAPACITY_SCALE;
use crate::pelt::ftrace::{Detail, Timed};
use crate::pelt::signal::SchedAvg;
use crate::pelt::util_est::{Sample, TaskUtilEst, Timing, UtilEstRule};

/// `se_weight` of a nice-0 task (`scale_load_down(NICE_0_LOAD)`).
const NICE_0_WEIGHT: u64 = 1024;

/// A task's PELT state taken from a `/proc/PID/sched` reading: the sums and averages as
/// printed, `period_contrib` from `last_update_time` (not printed; docs/live.md §4).
pub fn snapshot(s: &ProcSample) -> SchedAvg {
    SchedAvg {
        last_update_time: s.last_update_time,
        load_sum: s.load_sum,
        runnable_sum: s.runnable_sum,
        util_sum: s.util_sum as u32,
        period_contrib: ((s.last_update_time >> 10) % 1024) as u32,
        load_avg: s.load_avg,
        runnable_avg: s.runnable_avg,
        util_avg: s.util_avg,
    }
}

/// One reading compared with the replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compared {
    /// The reading.
    pub kernel: ProcSample,
    /// The replay after the same update.
    pub replay: SchedAvg,
    /// The replay's util_est as `/proc/PID/sched` prints it (without `UTIL_AVG_UNCHANGED`).
    pub replay_util_est: u32,
    /// The kind of the update point.
    pub kind: PointKind,
    /// How the point's time is known.
    pub placed: Placed,
}

/// The whole check: every reading after the start compared, with how the update points
/// were placed.
#[derive(Debug, Clone, PartialEq)]
pub struct PeltCheck {
    /// The readings compared (distinct `last_update_time`s after the starting one).
    pub compared: Vec<Compared>,
    /// The reading the replay started from.
    pub start: ProcSample,
    /// How the points were placed.
    pub timeline: Timeline,
    /// Readings that could not be compared (before the trace's first point).
    pub skipped: u64,
}

impl PeltCheck {
    /// Readings whose util_avg is within `tol` of the replay's.
    pub fn util_within(&self, tol: u64) -> u64 {
        self.compared.iter().filter(|c| c.kernel.util_avg.abs_diff(c.replay.util_avg) <= tol).count() as u64
    }
    /// Readings whose util_est equals the replay's.
    pub fn util_est_exact(&self) -> u64 {
        self.compared.iter().filter(|c| c.kernel.util_est == u64::from(c.replay_util_est)).count() as u64
    }
    /// The largest |util_avg difference|.
    pub fn util_max_error(&self) -> u64 {
        self.compared.iter().map(|c| c.kernel.util_avg.abs_diff(c.replay.util_avg)).max().unwrap_or(0)
    }
}

/// The task's running/runnable flags between updates.
#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    on_rq: bool,
    curr: bool,
}

impl Flags {
    fn after(self, kind: PointKind) -> Flags {
        match kind {
            PointKind::Wake => Flags { on_rq: true, curr: false },
            PointKind::Pick => Flags { on_rq: true, curr: true },
            PointKind::Preempt => Flags { on_rq: true, curr: false },
            PointKind::Sleep => Flags { on_rq: false, curr: false },
            PointKind::Tick | PointKind::Seen => self,
        }
    }
}

/// One `update_load_avg` of the task at `p` (with `util_est_update` at a sleep), then
/// the state change.
fn step(sa: &mut SchedAvg, ue: &mut TaskUtilEst, flags: &mut Flags, p: &Point, rule: &dyn UtilEstRule) {
    let sample =
        |sa: &SchedAvg| Sample { util_avg: sa.util_avg, runnable_avg: sa.runnable_avg, cpu_cap: SCHED_CAPACITY_SCALE };
    if p.kind == PointKind::Sleep && rule.timing() == Timing::BeforeDequeue {
        rule.update(ue, true, sample(sa));
    }
    let on = u64::from(flags.on_rq);
    if sa.update(p.clock, on, on, flags.on_rq && flags.curr, NICE_0_WEIGHT) {
        rule.util_avg_changed(ue);
    }
    if p.kind == PointKind::Sleep && rule.timing() == Timing::AfterDequeue {
        rule.update(ue, true, sample(sa));
    }
    *flags = flags.after(p.kind);
}

/// Replay the task of `events` from the first reading of `samples` that falls on a
/// point of the trace and compare every later reading (docs/live.md §4).
pub fn check(events: &[Timed], samples: &[ProcSample], rule: &dyn UtilEstRule) -> Result<PeltCheck> {
    let mut samples: Vec<ProcSample> = samples.to_vec();
    samples.dedup_by_key(|s| s.last_update_time);
    let mut tl = timeline(events, &samples);
    let mut points = std::mem::take(&mut tl.points);
    let at = attach_readings(&mut points, &samples);
    tl.points = points;
    let first = at.iter().position(Option::is_some).ok_or_else(|| {
        Error::insufficient("no /proc/PID/sched reading falls on an update point of the trace (was the task traced?)")
    })?;
    let (Some(start), Some(Some(p0))) = (samples.get(first).copied(), at.get(first).copied()) else {
        return Err(Error::insufficient("no starting reading"));
    };
    let mut flags = Flags::default();
    for p in tl.points.get(..=p0).unwrap_or(&[]) {
        flags = flags.after(p.kind);
    }
    let mut sa = snapshot(&start);
    let mut ue = TaskUtilEst { ewma: start.util_est as u32, enqueued: 0 };
    let mut want: Vec<(usize, ProcSample)> =
        at.iter().zip(&samples).skip(first + 1).filter_map(|(a, s)| a.map(|j| (j, *s))).collect();
    want.sort_by_key(|&(j, s)| (j, s.t_mono_ns));
    let skipped = (samples.len() - first - 1 - want.len()) as u64 + first as u64;
    let mut compared = Vec::with_capacity(want.len());
    let mut w = want.iter().peekable();
    for (j, p) in tl.points.iter().enumerate().skip(p0 + 1) {
        crate::cancel::check_every(j)?;
        step(&mut sa, &mut ue, &mut flags, p, rule);
        while let Some(&(_, s)) = w.next_if(|&&(k, _)| k == j) {
            compared.push(Compared {
                kernel: s,
                replay: sa,
                replay_util_est: rule.ewma(&ue),
                kind: p.kind,
                placed: p.placed,
            });
        }
    }
    Ok(PeltCheck { compared, start, timeline: tl, skipped })
}

/// [`check`] on files: the trace a trace.dat (read directly) or ftrace text
/// (`trace-cmd report -t`, the tracefs `trace` file), the readings a samples
/// file ([`super::proc_sched::parse_samples`]). Returns the import's notes with it.
pub fn check_files(
    trace: &std::path::Path,
    samples: &std::path::Path,
    pid: u32,
    rule: &dyn UtilEstRule,
    opts: crate::import_notes::ImportOptions,
) -> Result<(PeltCheck, crate::import_notes::ImportNotes)> {
    use crate::archive::{dir::read_file, tree::MAX_TRACE_FILE_BYTES};
    let (events, mut notes) = crate::pelt::ftrace::read_task_events(trace, pid, Detail::Clock, opts)?;
    let spath = samples.display().to_string();
    let stext = read_file(samples, MAX_TRACE_FILE_BYTES)?;
    let stext = std::str::from_utf8(&stext).map_err(|e| {
        Error::parse(Some(&spath), None, format!("not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
    })?;
    let readings = super::proc_sched::parse_samples(stext, Some(&spath))?;
    let result = check(&events, &readings, rule)?;
    let tl = &result.timeline;
    if tl.runtime_base.is_none() || tl.anchored_readings == 0 {
        notes.assume("no reading's se.sum_exec_runtime matched the trace's sched_stat_runtime events: every point is interpolated");
    }
    if let Some(line) = tl.migrated_at_line {
        notes.assume(format!("the task migrated at line {line}: the replay stops there (one CPU's PELT clock only)"));
    }
    if tl.repaired_runs > 0 {
        notes.assume(format!(
            "{} runs had no sched_switch into the task: each starts at its first sched_stat_runtime less that runtime",
            tl.repaired_runs
        ));
    }
    if tl.unexpected > 0 {
        notes.assume(format!(
            "{} events did not fit the task's state (missing events?) and were skipped",
            tl.unexpected
        ));
    }
    notes.assume(
        "full CPU and frequency capacity assumed (PELT clock = task clock); nice-0 weight 1024; \
         period_contrib taken as (last_update_time >> 10) % 1024",
    );
    Ok((result, notes))
}
