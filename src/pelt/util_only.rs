//! The task's utilization alone: the same replay as [`super::driver::simulate`] (same
//! event order, through [`super::sequence::replay`]; same PELT clock with capacity and
//! frequency invariance and lost idle time), keeping only what util_avg depends on — the
//! task's `se.avg` util fields and the rq clocks. Load, runnable, util_est and the
//! consumers are not computed. This is the kernel-exact counterpart of LISA's
//! `simulate_pelt` (util_avg over time), at about a third of the full replay's cost.
//!
//! Why nothing else is needed: util_est and the consumers read util_avg but never feed
//! back into it; the new-task value (`post_init_entity_util_avg`) sees an empty cfs_rq
//! (half the CPU's 1024); and with one task the cfs_rq's `util_sum`, which decides the
//! lost idle time when the CPU goes idle, equals the task's own: it starts as the
//! task's at attach and both take the same steps with the same running flag from then
//! on (no removal or migration is modelled). `tests/test_pelt_util_only.py` checks the
//! result against the full replay on the golden traces and on random ones.

use super::clock::{Curr, RqClock};
use super::consts::SCHED_CAPACITY_SCALE;
use super::driver::Config;
use super::full_capacity::{self, FullCapCpu};
use super::row::{Event, Sink};
use super::sequence::{replay, Emit, Model};
use super::signal::{pelt_divider_of, UtilSignal};
use super::trace::{validate, Segment, Segments, State};
use super::util_model::{UtilModel, UtilRow};
use crate::error::Result;

/// The CPU as far as the task's util_avg is concerned: the whole state of the
/// util-only replay (two equal states replay identically, see [`super::speculate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UtilCpu {
    clock: RqClock,
    cpu_cap: u64,
    freq_cap: u64,
    sa: UtilSignal,
    init_util: u64,
    on_rq: bool,
    curr: bool,
}

impl UtilModel for UtilCpu {
    fn new(cfg: &Config) -> Self {
        // post_init_entity_util_avg on an empty CPU of capacity 1024 (the fork sees 1024):
        // cap = (1024 - cfs util_avg 0) / 2.
        let init_util = cfg.init.util_avg();
        UtilCpu {
            clock: RqClock::new(cfg.start_ns),
            cpu_cap: SCHED_CAPACITY_SCALE,
            freq_cap: SCHED_CAPACITY_SCALE,
            sa: UtilSignal::default(),
            init_util,
            on_rq: false,
            curr: false,
        }
    }

    fn guess_after_sleep(cfg: &Config, slept_at: u64, cpu_cap: u64, freq_cap: u64) -> Self {
        let mut cpu = UtilCpu::new(cfg);
        cpu.clock = RqClock::new(slept_at);
        cpu.cpu_cap = cpu_cap;
        cpu.freq_cap = freq_cap;
        let units = slept_at >> 10;
        cpu.sa = UtilSignal {
            last_update_time: units << 10,
            period_contrib: (units % 1024) as u32,
            ..UtilSignal::default()
        };
        cpu
    }

    #[inline(always)]
    fn row(&self, t_ns: u64, event: Event, seg: u64, state: State) -> UtilRow {
        UtilRow {
            t_ns,
            event,
            seg,
            state,
            cpu_cap: self.cpu_cap as u32,
            freq_cap: self.freq_cap as u32,
            clock_task: self.clock.clock_task,
            clock_pelt: self.clock.clock_pelt,
            lost_idle_time: self.clock.lost_idle_time,
            p_util_avg: self.sa.util_avg,
            p_util_sum: self.sa.util_sum,
            p_period_contrib: self.sa.period_contrib,
            p_last_update_time: self.sa.last_update_time,
        }
    }
}

impl UtilCpu {
    /// `update_load_avg` of the task (its cfs_rq takes the same step).
    #[inline(always)]
    fn update_load_avg(&mut self) {
        let now = self.clock.pelt_now();
        self.sa.update(now, self.on_rq && self.curr);
    }
}

impl Model for UtilCpu {
    #[inline(always)]
    fn fork(&mut self) {
        let start = self.clock.clock_task;
        self.clock.update(start, self.cpu_cap, self.freq_cap);
        // The cfs_rq's first update (from time 0, empty: its sums stay 0) fixes the clock
        // position; attach_entity_load_avg gives the task that position and
        // util_sum = util_avg * divider.
        self.sa.update(self.clock.pelt_now(), false);
        self.sa.util_avg = self.init_util;
        self.sa.util_sum = self.init_util.wrapping_mul(u64::from(pelt_divider_of(self.sa.period_contrib))) as u32;
        self.on_rq = true;
    }

    #[inline(always)]
    fn wake(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
        self.update_load_avg();
        self.on_rq = true;
    }

    #[inline(always)]
    fn pick(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
        self.update_load_avg();
        self.curr = true;
        self.clock.curr = Curr::Task;
    }

    #[inline(always)]
    fn tick(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
        self.update_load_avg();
    }

    #[inline(always)]
    fn preempt(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
        self.update_load_avg();
        self.curr = false;
        self.clock.curr = Curr::Other;
    }

    #[inline(always)]
    fn sleep(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
        self.update_load_avg();
        self.on_rq = false;
        self.curr = false;
        // the cfs_rq's util_sum equals the task's (see the module docs)
        self.clock.switch_to_idle(self.sa.util_sum);
    }

    #[inline(always)]
    fn other_runs(&mut self) {
        self.clock.curr = Curr::Other;
    }

    #[inline(always)]
    fn update_rq_clock(&mut self, now: u64) {
        self.clock.update(now, self.cpu_cap, self.freq_cap);
    }

    #[inline(always)]
    fn capacities(&self) -> (u64, u64) {
        (self.cpu_cap, self.freq_cap)
    }

    #[inline(always)]
    fn set_capacities(&mut self, cpu_cap: u64, freq_cap: u64) {
        self.cpu_cap = cpu_cap;
        self.freq_cap = freq_cap;
    }
}

/// Replay `trace` as [`super::driver::simulate`] does and hand each event's [`UtilRow`]
/// to `sink` (only the events it [`Sink::wants`]). `cfg.util_est`, `cfg.rule` and
/// `cfg.execl_fix` do not affect util_avg and are ignored. Returns the number of events.
pub fn simulate_util<S: Sink<UtilRow> + ?Sized>(trace: &[Segment], cfg: &Config, sink: &mut S) -> Result<u64> {
    validate(trace)?;
    cfg.check()?;
    replay_util(trace, at_full_capacity(trace), cfg, sink)
}

/// Whether every capacity of a (validated) trace is 1024 and it is short enough for
/// [`FullCapCpu`] (see [`super::full_capacity`]).
pub(crate) fn at_full_capacity(trace: &[Segment]) -> bool {
    let (full, total) = trace.iter().fold((true, 0u64), |(full, total), s| {
        (full & (s.cpu_cap == 1024) & (s.freq_cap == 1024), total.wrapping_add(s.dur_ns))
    });
    full && full_capacity::fits(total)
}

/// Room to reserve for the rows of the events `wanted` (at most three events at a
/// segment boundary, plus each running segment's ticks, plus fork and end): an upper
/// bound, cheap to compute (no division per segment).
pub fn rows_hint<T: Segments + ?Sized>(trace: &T, cfg: &Config, wanted: impl Fn(Event) -> bool) -> usize {
    let boundary = [Event::Run, Event::Preempt, Event::Sleep, Event::WakePre, Event::Wake]
        .iter()
        .filter(|e| wanted(**e))
        .count()
        .min(3);
    let mut rows = (trace.len() as f64) * boundary as f64 + 2.0;
    if wanted(Event::Tick) {
        let per_ns = 1.0 / cfg.tick_ns.max(1) as f64;
        for i in 0..trace.len() {
            let s = trace.get(i);
            if s.state == State::Run {
                rows += s.dur_ns as f64 * per_ns + 1.0;
            }
        }
    }
    (rows * 1.000_001 + 16.0).min(usize::MAX as f64 / 2.0) as usize
}

/// [`simulate_util`] of a validated trace and config; `full_capacity`: the trace
/// qualifies for [`FullCapCpu`] (same rows, less work).
pub(crate) fn replay_util<T: Segments + ?Sized, S: Sink<UtilRow> + ?Sized>(
    trace: &T,
    full_capacity: bool,
    cfg: &Config,
    sink: &mut S,
) -> Result<u64> {
    if full_capacity {
        replay_util_with(trace, &mut FullCapCpu::new(cfg), cfg, sink)
    } else {
        replay_util_with(trace, &mut UtilCpu::new(cfg), cfg, sink)
    }
}

// Kept out of its callers: inlined into a large one, the hot loop loses registers.
#[inline(never)]
fn replay_util_with<T: Segments + ?Sized, M: UtilModel, S: Sink<UtilRow> + ?Sized>(
    trace: &T,
    cpu: &mut M,
    cfg: &Config,
    sink: &mut S,
) -> Result<u64> {
    replay(trace, cfg.start_ns, cfg.tick_ns, cpu, ToSink(sink))
}

/// The emitter of the util-only replay: builds a row only for the events the sink wants.
struct ToSink<'a, S: ?Sized>(&'a mut S);

impl<M: UtilModel, S: Sink<UtilRow> + ?Sized> Emit<M> for ToSink<'_, S> {
    #[inline(always)]
    fn emit(&mut self, cpu: &M, t: u64, ev: Event, seg: u64, st: State) -> Result<()> {
        if self.0.wants(ev) {
            self.0.row(&cpu.row(t, ev, seg, st))
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pelt::driver::{simulate_rows, Init};
    use crate::pelt::util_est::rule_by_name;

    fn trace(seed: u64, n: usize) -> Vec<Segment> {
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::with_capacity(n);
        let mut prev: Option<State> = None;
        for _ in 0..n {
            let r = next();
            let mut st = match r % 3 {
                0 => State::Run,
                1 => State::Wait,
                _ => State::Sleep,
            };
            if st == State::Sleep && (prev.is_none() || prev == Some(State::Wait)) {
                st = State::Run;
            }
            let dur = match (r >> 8) % 4 {
                0 => 1 + (r >> 16) % 2048,
                1 => 1 + (r >> 16) % 1_000_000,
                2 => 1 + (r >> 16) % 30_000_000,
                _ => 1 + (r >> 16) % 3_000_000_000,
            };
            let cap = |v: u64| if v.is_multiple_of(3) { 1024 } else { (1 + v % 1024) as u32 };
            out.push(Segment {
                dur_ns: dur,
                state: st,
                cpu_cap: cap(r >> 24),
                freq_cap: cap(r >> 40),
                cpu: 0,
                sync_lag_ns: None,
                tick: false,
            });
            prev = Some(st);
        }
        out
    }

    #[test]
    fn equals_the_full_replay_on_random_traces() {
        for seed in 1..40u64 {
            let tr = trace(seed * 0x9e37_79b9, 300);
            for init in [Init::Kernel, Init::Zero] {
                for rule in ["6.12", "4.17", "d519329f72"] {
                    let cfg = Config {
                        init,
                        rule: rule_by_name(rule).unwrap_or(&crate::pelt::util_est::V6_12),
                        tick_ns: if seed % 2 == 0 { 4_000_000 } else { 1_000_000 },
                        start_ns: 1024 + seed * 77_777,
                        ..Config::default()
                    };
                    let full = simulate_rows(&tr, &cfg).expect("valid trace");
                    let mut lean: Vec<UtilRow> = Vec::new();
                    simulate_util(&tr, &cfg, &mut lean).expect("valid trace");
                    assert_eq!(full.len(), lean.len());
                    for (f, l) in full.iter().zip(&lean) {
                        let f = UtilRow {
                            t_ns: f.t_ns,
                            event: f.event,
                            seg: f.seg,
                            state: f.state,
                            cpu_cap: f.cpu_cap,
                            freq_cap: f.freq_cap,
                            clock_task: f.clock_task,
                            clock_pelt: f.clock_pelt,
                            lost_idle_time: f.lost_idle_time,
                            p_util_avg: f.p_util_avg,
                            p_util_sum: f.p_util_sum,
                            p_period_contrib: f.p_period_contrib,
                            p_last_update_time: f.p_last_update_time,
                        };
                        assert_eq!(&f, l, "seed {seed} {init:?} {rule}");
                    }
                }
            }
        }
    }
}
