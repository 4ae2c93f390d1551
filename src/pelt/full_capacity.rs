//! The util-only model (`UtilCpu` of [`super::util_only`]) for a trace whose capacities are
//! all 1024 — the common case of a task replayed on a big core at its top frequency.
//!
//! At full capacity the PELT clock is the task clock: `update_rq_clock_pelt` scales a
//! delta by `cap_scale(cap_scale(delta, 1024), 1024)`, which is `delta` itself as long
//! as `delta << 10` does not wrap (`delta < 2^54` ns, 208 days: [`fits`] checks the
//! trace's total time), and `update_idle_rq_clock_pelt` adds `clock_task - clock_pelt =
//! 0` to the lost idle time. So `rq_clock_pelt` is `clock_task`, `lost_idle_time`
//! stays 0, and the model keeps only the task clock and the task's util signal. Every
//! row equals `UtilCpu` of [`super::util_only`]'s (tests below and
//! `tests/test_pelt_util_only.py` compare them).

use super::consts::SCHED_CAPACITY_SCALE;
use super::driver::Config;
use super::row::Event;
use super::sequence::Model;
use super::signal::{pelt_divider_of, UtilSignal};
use super::trace::State;
use super::util_model::{UtilModel, UtilRow};

/// The longest trace (total ns) this model replays exactly: below `2^54` ns no delta
/// scaled by 1024 wraps, so the PELT clock equals the task clock.
pub const MAX_FULL_CAPACITY_NS: u64 = 1 << 54;

/// Whether a trace of `total_ns` whose capacities are all 1024 can use this module's model.
#[inline]
pub fn fits(total_ns: u64) -> bool {
    total_ns < MAX_FULL_CAPACITY_NS
}

/// The CPU as the task's util_avg sees it at full capacity: the task clock and the util
/// signal.
///
/// The task's queue flags are not kept: each event of [`super::sequence`] comes from
/// one state, so whether the task was running at its update is known at the call —
/// `wake` (from S: dequeued) and `pick` (from W, S or the fork: queued, not current)
/// update a task that was not running; `tick`, `preempt` and `sleep` one that was (R).
/// The flags also follow from the last segment's state, which [`super::sequence::Cursor`]
/// keeps, so two equal (model, cursor) pairs still replay identically.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FullCapCpu {
    clock_task: u64,
    sa: UtilSignal,
    init_util: u64,
}

impl FullCapCpu {
    /// `update_rq_clock`, then `update_load_avg` of the task, which was `running`.
    #[inline(always)]
    fn update(&mut self, now: u64, running: bool) {
        self.clock(now);
        self.sa.update(self.clock_task, running);
    }

    /// `update_rq_clock`: the sequencer's times never go backwards (a later event never
    /// has an earlier time), so the clock is set.
    #[inline(always)]
    fn clock(&mut self, now: u64) {
        debug_assert!(now >= self.clock_task);
        self.clock_task = now;
    }
}

impl UtilModel for FullCapCpu {
    fn new(cfg: &Config) -> Self {
        let init_util = cfg.init.util_avg();
        FullCapCpu { clock_task: cfg.start_ns, sa: UtilSignal::default(), init_util }
    }

    fn guess_after_sleep(cfg: &Config, slept_at: u64, _cpu_cap: u64, _freq_cap: u64) -> Self {
        let mut cpu = FullCapCpu::new(cfg);
        cpu.clock_task = slept_at;
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
            cpu_cap: SCHED_CAPACITY_SCALE as u32,
            freq_cap: SCHED_CAPACITY_SCALE as u32,
            clock_task: self.clock_task,
            clock_pelt: self.clock_task,
            lost_idle_time: 0,
            p_util_avg: self.sa.util_avg,
            p_util_sum: self.sa.util_sum,
            p_period_contrib: self.sa.period_contrib,
            p_last_update_time: self.sa.last_update_time,
        }
    }
}

impl Model for FullCapCpu {
    #[inline(always)]
    fn fork(&mut self) {
        // as UtilCpu::fork: the first update fixes the PELT position, attach gives the
        // task util_sum = util_avg * divider
        self.sa.update(self.clock_task, false);
        self.sa.util_avg = self.init_util;
        self.sa.util_sum = self.init_util.wrapping_mul(u64::from(pelt_divider_of(self.sa.period_contrib))) as u32;
    }

    #[inline(always)]
    fn wake(&mut self, now: u64) {
        self.update(now, false);
    }

    #[inline(always)]
    fn pick(&mut self, now: u64) {
        self.update(now, false);
    }

    #[inline(always)]
    fn tick(&mut self, now: u64) {
        self.update(now, true);
    }

    #[inline(always)]
    fn preempt(&mut self, now: u64) {
        self.update(now, true);
    }

    #[inline(always)]
    fn sleep(&mut self, now: u64) {
        self.update(now, true);
    }

    #[inline(always)]
    fn other_runs(&mut self) {}

    #[inline(always)]
    fn update_rq_clock(&mut self, now: u64) {
        self.clock(now);
    }

    #[inline(always)]
    fn capacities(&self) -> (u64, u64) {
        (SCHED_CAPACITY_SCALE, SCHED_CAPACITY_SCALE)
    }

    #[inline(always)]
    fn set_capacities(&mut self, _cpu_cap: u64, _freq_cap: u64) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Result;
    use crate::pelt::driver::{simulate_rows, Init};
    use crate::pelt::trace::Segment;
    use crate::pelt::util_only::{replay_util, simulate_util};

    /// Random full-capacity traces: every state change, durations from 1 ns to 3 s.
    fn trace(seed: u64, n: usize) -> Vec<Segment> {
        let mut x = seed | 1;
        let mut out: Vec<Segment> = Vec::with_capacity(n);
        for i in 0..n {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let prev = out.last().map(|s| s.state);
            let mut st = match x % 3 {
                0 => State::Run,
                1 => State::Wait,
                _ => State::Sleep,
            };
            if st == State::Sleep && (i == 0 || prev == Some(State::Wait)) {
                st = State::Run;
            }
            let dur = 1 + (x >> 16) % [2048, 1_000_000, 30_000_000, 3_000_000_000][((x >> 8) % 4) as usize];
            out.push(Segment {
                dur_ns: dur,
                state: st,
                cpu_cap: 1024,
                freq_cap: 1024,
                cpu: 0,
                sync_lag_ns: None,
                tick: false,
            });
        }
        out
    }

    fn rows(tr: &[Segment], cfg: &Config, full_capacity: bool) -> Vec<UtilRow> {
        let mut out = Vec::new();
        replay_util(tr, full_capacity, cfg, &mut out).expect("valid trace");
        out
    }

    #[test]
    fn same_rows_as_the_general_model_and_the_full_replay() {
        for seed in 1..60u64 {
            let tr = trace(seed * 0x9e37_79b9, 400);
            for init in [Init::Kernel, Init::Zero] {
                let cfg = Config {
                    init,
                    tick_ns: [4_000_000, 1_000_000, 10_000_000, 3_333_333][(seed % 4) as usize],
                    start_ns: 1024 + seed * 77_777,
                    ..Config::default()
                };
                let fast = rows(&tr, &cfg, true);
                assert_eq!(fast, rows(&tr, &cfg, false), "seed {seed} {init:?}");
                let full = simulate_rows(&tr, &cfg).expect("valid trace");
                assert_eq!(full.len(), fast.len());
                for (f, l) in full.iter().zip(&fast) {
                    assert_eq!(
                        (f.t_ns, f.event, f.clock_task, f.clock_pelt, f.lost_idle_time, f.p_util_avg, f.p_util_sum),
                        (l.t_ns, l.event, l.clock_task, l.clock_pelt, l.lost_idle_time, l.p_util_avg, l.p_util_sum),
                        "seed {seed} {init:?}"
                    );
                    assert_eq!((f.p_period_contrib, f.p_last_update_time), (l.p_period_contrib, l.p_last_update_time));
                }
            }
        }
    }

    /// Keeps the rows of the events in `mask` (bit `Event as u8`).
    struct Masked(u16, Vec<UtilRow>);

    impl crate::pelt::row::Sink<UtilRow> for Masked {
        fn wants(&self, event: Event) -> bool {
            self.0 & (1 << (event as u8)) != 0
        }
        fn row(&mut self, row: &UtilRow) -> Result<()> {
            self.1.push(*row);
            Ok(())
        }
    }

    #[test]
    fn same_rows_and_event_count_for_every_selection_of_events() {
        // whatever the sink keeps, the two models give the same rows and event count
        for seed in 1..25u64 {
            let tr = trace(seed * 7_777, 300);
            let cfg = Config { tick_ns: [4_000_000, 1_000_000][(seed % 2) as usize], ..Config::default() };
            for mask in [
                0u16,
                0xff,
                1 << Event::Run as u8 | 1 << Event::Sleep as u8,
                1 << Event::Tick as u8,
                1 << Event::WakePre as u8 | 1 << Event::End as u8,
                (seed * 37 % 256) as u16,
            ] {
                let (mut fast, mut general) = (Masked(mask, Vec::new()), Masked(mask, Vec::new()));
                let n_fast = replay_util(tr.as_slice(), true, &cfg, &mut fast).expect("valid trace");
                let n_general = replay_util(tr.as_slice(), false, &cfg, &mut general).expect("valid trace");
                assert_eq!(n_fast, n_general, "seed {seed} mask {mask:#x}");
                assert_eq!(fast.1, general.1, "seed {seed} mask {mask:#x}");
            }
        }
    }

    #[test]
    fn chosen_only_when_every_capacity_is_1024() {
        let mut tr = trace(7, 200);
        assert!(crate::pelt::util_only::at_full_capacity(&tr));
        if let Some(s) = tr.get_mut(100) {
            s.freq_cap = 1023;
        }
        assert!(!crate::pelt::util_only::at_full_capacity(&tr));
    }

    #[test]
    fn long_busy_gaps_use_the_general_model() {
        // A 2^55 ns W segment: the kernel's cap_scale(delta, 1024) wraps (delta << 10
        // overflows u64), so the PELT clock is not the task clock and this model would be
        // wrong; such a trace is longer than MAX_FULL_CAPACITY_NS and is not given to it.
        let w = Segment {
            dur_ns: 1 << 55,
            state: State::Wait,
            cpu_cap: 1024,
            freq_cap: 1024,
            cpu: 0,
            sync_lag_ns: None,
            tick: false,
        };
        let r = Segment {
            dur_ns: 5_000_000,
            state: State::Run,
            cpu_cap: 1024,
            freq_cap: 1024,
            cpu: 0,
            sync_lag_ns: None,
            tick: false,
        };
        let tr = [r, w, r];
        assert!(!crate::pelt::util_only::at_full_capacity(&tr));
        let cfg = Config::default();
        let (fast, general) = (rows(&tr, &cfg, true), rows(&tr, &cfg, false));
        assert_ne!(fast, general, "the wrap makes the two models differ");
        let mut auto = Vec::new();
        simulate_util(&tr, &cfg, &mut auto).expect("valid trace");
        assert_eq!(auto, general);
        let full = simulate_rows(&tr, &cfg).expect("valid trace");
        let pelt: Vec<u64> = full.iter().map(|r| r.clock_pelt).collect();
        assert_eq!(pelt, auto.iter().map(|r| r.clock_pelt).collect::<Vec<_>>());
    }
}
