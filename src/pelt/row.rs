//! One row per kernel-visible event of the trace driver, with the columns of the golden
//! files (the kernel oracle's `pelt_*.golden.csv`, copied to `tests/data/pelt/`; docs/pelt.md §8.2), and the CSV
//! rendering that reproduces them byte for byte.

use super::trace::State;
use std::io::Write;

/// The kernel-visible events the driver reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Event {
    /// `wake_up_new_task`: init, attach, first enqueue.
    Fork = 0,
    /// `set_next_entity`: the task is picked to run.
    Run = 1,
    /// `entity_tick` while the task runs.
    Tick = 2,
    /// `put_prev_entity`: a non-CFS task preempts it (state W).
    Preempt = 3,
    /// `dequeue_task_fair` with `DEQUEUE_SLEEP`, then the CPU goes idle.
    Sleep = 4,
    /// The wakeup as `select_task_rq` sees it, before the rq clock update.
    WakePre = 5,
    /// `enqueue_task_fair` of the wakeup.
    Wake = 6,
    /// End of the trace: the rq clock updated, nothing else.
    End = 7,
}

impl Event {
    /// Every event, in code order.
    pub const ALL: [Event; 8] =
        [Event::Fork, Event::Run, Event::Tick, Event::Preempt, Event::Sleep, Event::WakePre, Event::Wake, Event::End];

    /// The name used in the `event` column.
    pub fn name(self) -> &'static str {
        match self {
            Event::Fork => "fork",
            Event::Run => "run",
            Event::Tick => "tick",
            Event::Preempt => "preempt",
            Event::Sleep => "sleep",
            Event::WakePre => "wake_pre",
            Event::Wake => "wake",
            Event::End => "end",
        }
    }
}

/// The state of the task, its cfs_rq and the consumers after one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// Wall time of the event (ns).
    pub t_ns: u64,
    /// What happened.
    pub event: Event,
    /// Index of the trace segment starting at (or containing) this event; the number of
    /// segments for `end`.
    pub seg: u64,
    /// The task's state after the event (before it, for `wake_pre`; `S` at `fork`).
    pub state: State,
    /// CPU capacity in effect at the event (a segment's capacities apply after the
    /// events at its start).
    pub cpu_cap: u32,
    /// Frequency capacity in effect at the event.
    pub freq_cap: u32,
    /// `rq->clock_task`.
    pub clock_task: u64,
    /// `rq->clock_pelt`.
    pub clock_pelt: u64,
    /// `rq->lost_idle_time`.
    pub lost_idle_time: u64,
    /// Task `se.avg.util_avg`.
    pub p_util_avg: u64,
    /// Task `se.avg.util_sum`.
    pub p_util_sum: u32,
    /// Task `se.avg.period_contrib`.
    pub p_period_contrib: u32,
    /// Task `se.avg.runnable_avg`.
    pub p_runnable_avg: u64,
    /// Task `se.avg.load_avg`.
    pub p_load_avg: u64,
    /// Task `se.avg.last_update_time`.
    pub p_last_update_time: u64,
    /// The task's util_est EWMA without the flag.
    pub p_util_est: u32,
    /// The `UTIL_AVG_UNCHANGED` flag.
    pub p_ue_unchanged: bool,
    /// `util_est.enqueued` (raw, with the flag bit) for the pre-6.8 rules; 0 for 6.12.
    pub p_ue_enqueued: u32,
    /// cfs_rq `avg.util_avg`.
    pub cfs_util_avg: u64,
    /// cfs_rq `avg.util_sum`.
    pub cfs_util_sum: u32,
    /// cfs_rq `avg.runnable_avg`.
    pub cfs_runnable_avg: u64,
    /// cfs_rq `avg.load_avg`.
    pub cfs_load_avg: u64,
    /// cfs_rq `avg.util_est` (sum over enqueued tasks).
    pub cfs_util_est: u32,
    /// `cpu_util_cfs(cpu)`.
    pub cpu_util_cfs: u64,
    /// `cpu_util_cfs_boost(cpu)`.
    pub cpu_util_cfs_boost: u64,
    /// `cpu_util_without(cpu, p)` (or `cpu_util_wake` for the older rules).
    pub cpu_util_without_p: u64,
    /// `task_util_est(p)` = `max(task_util, _task_util_est)`.
    pub task_util_est_p: u64,
    /// `min(map_util_perf(cpu_util_cfs_boost), capacity)`.
    pub sugov_perf: u64,
    /// Calls of `cpufreq_update_util` so far (`cfs_rq_util_change`).
    pub cpufreq_calls: u64,
}

/// The golden files' columns, in order.
pub const COLUMNS: [&str; 28] = [
    "t_ns",
    "event",
    "seg",
    "state",
    "cpu_cap",
    "freq_cap",
    "clock_task",
    "clock_pelt",
    "lost_idle_time",
    "p_util_avg",
    "p_util_sum",
    "p_period_contrib",
    "p_runnable_avg",
    "p_load_avg",
    "p_last_update_time",
    "p_util_est",
    "p_ue_unchanged",
    "cfs_util_avg",
    "cfs_util_sum",
    "cfs_runnable_avg",
    "cfs_load_avg",
    "cfs_util_est",
    "cpu_util_cfs",
    "cpu_util_cfs_boost",
    "cpu_util_without_p",
    "task_util_est_p",
    "sugov_perf",
    "cpufreq_calls",
];

/// The extra column written after the golden ones for the rules with `util_est.enqueued`.
pub const ENQUEUED_COLUMN: &str = "p_ue_enqueued";

/// Receives the rows of a simulation as they are produced.
pub trait Sink<R = Row> {
    /// Whether rows of `event` are wanted at all (when not, the driver does not build
    /// them). All are, by default.
    #[inline]
    fn wants(&self, _event: Event) -> bool {
        true
    }
    /// One row; an error stops the simulation.
    fn row(&mut self, row: &R) -> crate::Result<()>;
}

/// A sink that only counts rows (benchmarks).
#[derive(Debug, Default)]
pub struct Count(pub u64);

impl<R> Sink<R> for Count {
    fn row(&mut self, _row: &R) -> crate::Result<()> {
        self.0 += 1;
        Ok(())
    }
}

impl<R: Copy> Sink<R> for Vec<R> {
    fn row(&mut self, row: &R) -> crate::Result<()> {
        self.push(*row);
        Ok(())
    }
}

/// Writes rows as CSV, byte-identical to the golden files (`\n` line ends, plain
/// decimal integers); with `enqueued` the extra `p_ue_enqueued` column is appended.
pub struct CsvWriter<W: Write> {
    out: W,
    enqueued: bool,
    buf: Vec<u8>,
    line: Box<Line>,
    path: String,
}

impl<W: Write> CsvWriter<W> {
    /// A writer to `out` (name it `path` in I/O errors); writes the header at once.
    pub fn new(out: W, enqueued: bool, path: &str) -> crate::Result<Self> {
        let mut w = CsvWriter {
            out,
            enqueued,
            buf: Vec::with_capacity(1 << 17),
            line: Box::new(Line { buf: [0; 768], len: 0 }),
            path: path.to_string(),
        };
        w.buf.extend_from_slice(COLUMNS.join(",").as_bytes());
        if enqueued {
            w.buf.push(b',');
            w.buf.extend_from_slice(ENQUEUED_COLUMN.as_bytes());
        }
        w.buf.push(b'\n');
        Ok(w)
    }

    fn flush_buf(&mut self) -> crate::Result<()> {
        let r = self.out.write_all(&self.buf);
        self.buf.clear();
        r.map_err(|e| crate::Error::io(&self.path, &e))
    }

    /// Flush everything written so far and return the inner writer.
    pub fn finish(mut self) -> crate::Result<W> {
        self.flush_buf()?;
        self.out.flush().map_err(|e| crate::Error::io(&self.path, &e))?;
        Ok(self.out)
    }
}

/// A row being formatted (at most 29 numbers of ≤ 20 digits, a name and separators:
/// well under its 768 bytes), then appended to the output at once. Reused across rows.
struct Line {
    buf: [u8; 768],
    len: usize,
}

impl Line {
    #[inline]
    fn byte(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        for &b in s {
            self.byte(b);
        }
    }

    /// Plain decimal digits of `v`, written in place ([`crate::decimal`]).
    #[inline]
    fn num(&mut self, v: u64) {
        // a row is far shorter than the buffer: every number fits
        if let Some(end) = crate::decimal::put_u64(&mut self.buf, self.len, v) {
            self.len = end;
        }
    }

    #[inline]
    fn as_slice(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&self.buf)
    }
}

#[cfg(test)]
fn push_u64(buf: &mut Vec<u8>, v: u64) {
    let mut l = Line { buf: [0; 768], len: 0 };
    l.num(v);
    buf.extend_from_slice(l.as_slice());
}

impl<W: Write> Sink for CsvWriter<W> {
    fn row(&mut self, r: &Row) -> crate::Result<()> {
        let b = &mut self.line;
        b.len = 0;
        b.num(r.t_ns);
        b.byte(b',');
        b.bytes(r.event.name().as_bytes());
        b.byte(b',');
        b.num(r.seg);
        b.byte(b',');
        b.byte(r.state.letter() as u8);
        for v in [
            u64::from(r.cpu_cap),
            u64::from(r.freq_cap),
            r.clock_task,
            r.clock_pelt,
            r.lost_idle_time,
            r.p_util_avg,
            u64::from(r.p_util_sum),
            u64::from(r.p_period_contrib),
            r.p_runnable_avg,
            r.p_load_avg,
            r.p_last_update_time,
            u64::from(r.p_util_est),
            u64::from(r.p_ue_unchanged),
            r.cfs_util_avg,
            u64::from(r.cfs_util_sum),
            r.cfs_runnable_avg,
            r.cfs_load_avg,
            u64::from(r.cfs_util_est),
            r.cpu_util_cfs,
            r.cpu_util_cfs_boost,
            r.cpu_util_without_p,
            r.task_util_est_p,
            r.sugov_perf,
            r.cpufreq_calls,
        ] {
            b.byte(b',');
            b.num(v);
        }
        if self.enqueued {
            b.byte(b',');
            b.num(u64::from(r.p_ue_enqueued));
        }
        b.byte(b'\n');
        let line = b.as_slice();
        self.buf.extend_from_slice(line);
        if self.buf.len() >= 1 << 16 {
            self.flush_buf()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_plainly() {
        let mut b = Vec::new();
        for v in [0u64, 7, 10, 1_048_576_000, u64::MAX] {
            push_u64(&mut b, v);
            b.push(b' ');
        }
        assert_eq!(String::from_utf8(b).unwrap(), "0 7 10 1048576000 18446744073709551615 ");
    }
}
